"""`regelwerk analyze --report DIR`: an HTML page with the report's pictures.

The charts are drawn by matplotlib (the optional extra `regelwerk[analysis]`):
game lengths per column, seat win rates with their intervals, rule coverage. The
heat map of where pieces land is the game's own board picture (`render_svg` of
the empty board, without its legend) with each site filled by a matplotlib colour
map and showing its number, one per column, all on one scale (one matplotlib
colour bar). Every name from a definition is escaped.
"""
from __future__ import annotations

import html
import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from ..analysis.analyze.table import cell_text, coverage_cell, row_cells
from ..spelling import counted
from .output_file import replace_file
from .render_parts import contrast_colour
from .render_svg import SVG_NS, render_svg

HEAT_MAP = "YlOrRd"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only, no window
    import matplotlib.pyplot as plt

    # Reproducible SVG files: no random ids, no date.
    plt.rcParams["svg.hashsalt"] = "regelwerk"
    return plt


def _save(fig: Any, path: Path) -> str:
    picture = io.StringIO()
    fig.savefig(picture, format="svg", metadata={"Date": None}, bbox_inches="tight")
    fig.clf()
    replace_file(path, picture.getvalue())
    return path.name


# Outlines told apart even where two columns' histograms are the same: each its
# own colour and dash, the first drawn widest, underneath the others.
_LINE_STYLES = ("-", "--", ":", "-.")


def lengths_chart(report: Any, folder: Path, plt: Any) -> str:
    """Histograms of the game lengths in plies, one outline per column."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    longest = max((g.plies for data in report.columns for g in data.games), default=1)
    bins = min(50, max(1, longest))
    for c, data in enumerate(report.columns):
        ax.hist([g.plies for g in data.games], bins=bins, range=(0, longest), histtype="step",
                linewidth=3.5 if c == 0 else 1.6, linestyle=_LINE_STYLES[c % len(_LINE_STYLES)],
                alpha=0.55 if c == 0 else 0.95, zorder=2 + c,
                label=f"{data.label} ({counted(len(data.games), 'game')})")
    ax.set_title("length of the games, per column")
    ax.set_xlabel("length of a game (plies)")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    return _save(fig, folder / "lengths.svg")


def seats_chart(report: Any, folder: Path, plt: Any) -> str:
    """Each seat's win rate (and the draws) per column, with 95% intervals."""
    rows = [row for row in report.metrics if row.key.startswith("wins.") or row.key == "draws"]
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / max(1, len(report.columns))
    for c, data in enumerate(report.columns):
        xs: list[Any] = []
        ys: list[Any] = []
        errors: tuple[Any, ...] = ([], [])
        for r, row in enumerate(rows):
            est = row.cells[c]
            if est is None or est.value is None:
                continue
            xs.append(r + (c - (len(report.columns) - 1) / 2) * width)
            ys.append(est.value)
            errors[0].append(est.value - est.low)
            errors[1].append(est.high - est.value)
        ax.bar(xs, ys, width=width, yerr=errors, capsize=3, label=data.label)
    ax.set_xticks(range(len(rows)), [row.label for row in rows])
    ax.set_ylabel("share of games")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    return _save(fig, folder / "seats.svg")


def coverage_chart(report: Any, folder: Path, plt: Any) -> str:
    """Times each rule fired per game, per column; rules that never fired in red."""
    rows = report.coverage
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(rows) + 1.2))
    height = 0.8 / max(1, len(report.columns))
    for c, data in enumerate(report.columns):
        ys = [r + (c - (len(report.columns) - 1) / 2) * height for r in range(len(rows))]
        values = [row.cells[c].value if row.cells[c] is not None and row.cells[c].value else 0 for row in rows]
        ax.barh(ys, values, height=height, label=data.label)
    ax.set_yticks(range(len(rows)), [f"{row.where.rsplit('/', 1)[-1]} {row.label}"[:60] for row in rows],
                  fontsize="small")
    for tick, row in zip(ax.get_yticklabels(), rows):
        if any(row.never(c) for c in range(len(report.columns))):
            tick.set_color("#c03020")
    ax.invert_yaxis()
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlabel("times fired per game (red: never, in some column)")
    ax.legend(fontsize="small")
    return _save(fig, folder / "coverage.svg")


def heat_scale(report: Any) -> float:
    """The top of the colour scale of every heat map of the report: one scale for
    the whole comparison, so that a colour means the same number in every column."""
    return max((value for data in report.columns for value in landings_per_game(data).values()), default=0) or 1.0


def landings_per_game(data: Any) -> dict[str, Any]:
    """Site -> landings per traced game of the column."""
    games = max(1, sum(g.covered is not None for g in data.games))
    return {site: count / games for site, count in zip(data.sites, data.heat)}


def _number(value: float) -> str:
    """A site's landings per game in a few characters: `0`, `0.4`, `3.2`, `17`."""
    if value == 0:
        return "0"
    return f"{value:.1f}" if value < 9.95 else f"{value:.0f}"


_CAPTION = 30.0  # px above the board for a heat map's title


def heat_map(data: Any, index: int, folder: Path, top: float) -> str:
    """The column's board, titled, each site coloured by the landings per traced
    game on the report's one scale (0 to `top`) and showing that number; the file
    name. No piece legend (nothing stands on it) and no pool counts."""
    from matplotlib import colormaps
    from matplotlib.colors import Normalize, to_hex

    per_game = landings_per_game(data)
    norm, cmap = Normalize(0, top), colormaps[HEAT_MAP]
    game = data.column.load(coverage=False)
    ET.register_namespace("", SVG_NS)
    root = ET.fromstring(render_svg(game, game.make_state({}), highlight_last=False, title=False, legend=False))
    ns = f"{{{SVG_NS}}}"
    numbers = []
    for parent in root.iter():
        for element in list(parent):
            if element.get("class") == "pools":
                parent.remove(element)  # a pool's count would read as a number of landings
    for element in root.iter():
        site = element.get("data-site")
        if site not in per_game or element.tag not in (f"{ns}rect", f"{ns}circle"):
            continue
        colour = to_hex(cmap(norm(per_game[site])))
        element.set("fill", colour)
        ET.SubElement(element, f"{ns}title").text = f"{site}: landed on {per_game[site]:.3g} times per game"
        numbers.append((element, site, colour))
    _heat_numbers(root, numbers, per_game)
    games = sum(g.covered is not None for g in data.games)
    _add_caption(root, f"{data.label}: landings per game ({games} traced game{'s' if games != 1 else ''})")
    board = folder / f"heat-{index}.svg"
    replace_file(board, ET.tostring(root, encoding="unicode"))
    return board.name


def _heat_numbers(root: Any, numbers: list[Any], per_game: dict[str, Any]) -> None:
    """Each site's number at its centre, black or white on its colour."""
    ns = f"{{{SVG_NS}}}"
    layer = ET.SubElement(root, f"{ns}g", {"class": "heat-numbers", "font-family": "sans-serif",
                                           "text-anchor": "middle", "font-size": "11"})
    for element, site, colour in numbers:
        if element.tag == f"{ns}rect":
            x = float(element.get("x", 0)) + float(element.get("width", 0)) / 2
            y = float(element.get("y", 0)) + float(element.get("height", 0)) / 2
        else:
            x, y = float(element.get("cx", 0)), float(element.get("cy", 0))
        ET.SubElement(layer, f"{ns}text", {"x": f"{x:.1f}", "y": f"{y + 4:.1f}", "class": "heat-number",
                                           "data-site": site, "fill": contrast_colour(colour)}).text = \
            _number(per_game[site])


def _add_caption(root: Any, text: str) -> None:
    """A title line above the picture: everything moves down to make room."""
    ns = f"{{{SVG_NS}}}"
    left, top, width, height = (float(v) for v in root.get("viewBox", "0 0 0 0").split())
    height += _CAPTION
    width = max(width, 24 + 8.5 * len(text))  # 15px bold: about 8.5px a character
    content = list(root)
    keep = [e for e in content if e.tag in (f"{ns}title", f"{ns}defs") or e.get("class") == "background"]
    moved = ET.Element(f"{ns}g", {"transform": f"translate(0,{_CAPTION:g})"})
    for element in content:
        if element not in keep:
            root.remove(element)
            moved.append(element)
    for element in keep:
        if element.get("class") == "background":
            element.set("height", f"{height:g}")
            element.set("width", f"{width:g}")
    root.append(moved)
    caption = ET.SubElement(root, f"{ns}text", {"x": f"{left + 12:g}", "y": f"{top + 21:g}", "class": "caption",
                                                "font-family": "sans-serif", "font-size": "15", "font-weight": "bold",
                                                "fill": "#222222"})
    caption.text = text
    root.set("height", f"{height:g}")
    root.set("width", f"{width:g}")
    root.set("viewBox", f"{left:g} {top:g} {width:g} {height:g}")


def heat_scale_chart(top: float, folder: Path, plt: Any) -> str:
    """The one colour bar of every heat map."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    fig, ax = plt.subplots(figsize=(5.5, 0.42))
    fig.colorbar(ScalarMappable(norm=Normalize(0, top), cmap=colormaps[HEAT_MAP]), cax=ax, orientation="horizontal")
    ax.set_title("landings per traced game (one scale for every column)", fontsize="medium")
    return _save(fig, folder / "heat-scale.svg")


def html_table(report: Any, rows: Any, title: str, show: Any=cell_text) -> str:
    """A table of the report's rows as HTML: the same text, decimals and `*` marks
    as the text table (`row_cells`), the significant differences in bold."""
    head = "".join(f"<th>{html.escape(d.label)}</th>" for d in report.columns)
    lines = [f"<tr><th>{html.escape(title)}</th>{head}</tr>"]
    for row in rows:
        label = html.escape(row.label.strip())
        if row.where:
            label += f" <small>{html.escape(row.where)}</small>"
        cells = []
        for c, (value, diff) in enumerate(row_cells(row, show)):
            text = html.escape(value)
            if row.replaced_in(c):
                text += f" <small class='replaced'>(its variant's rule: {html.escape(row.replaced_in(c))})</small>"
            if diff:
                significant = row.diffs[c] is not None and row.diffs[c].significant
                text += f" <span class='{'diff sig' if significant else 'diff'}'>{html.escape(diff)}</span>"
            cells.append(f"<td>{text}</td>")
        lines.append(f"<tr><td>{label}</td>{''.join(cells)}</tr>")
    return "<table>" + "\n".join(lines) + "</table>"


_STYLE = """body{font-family:sans-serif;max-width:70em;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{padding:2px 10px;text-align:left;border-bottom:1px solid #ddd}
small{color:#777}.sig{font-weight:bold;color:#c03020}img{max-width:100%}.heat{display:flex;gap:1em;flex-wrap:wrap}"""


def _page(report: Any, pictures: dict[str, Any]) -> str:
    from ..analysis.analyze.table import FOOTER, heading

    esc = html.escape
    heat = "".join(f"<figure><img src='{esc(board)}' alt='where pieces land: {esc(report.columns[i].label)}'>"
                   f"</figure>" for i, board in enumerate(pictures["heat"]))
    parts = [
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{esc(report.title)}: analysis</title>",
        f"<style>{_STYLE}</style></head><body><h1>{esc(report.title)}: analysis</h1>",
        "<pre>" + esc("\n".join(heading(report))) + "</pre>",
        "<h2>Metrics</h2>" + html_table(report, report.metrics, "metric"),
        "<p>" + esc(" ".join(FOOTER)) + "</p>",
        "<h2>How games end</h2>" + html_table(report, report.endings, "share of games"),
        f"<h2>Seats</h2><img src='{esc(pictures['seats'])}' alt='win rates'>",
        f"<h2>Game lengths</h2><img src='{esc(pictures['lengths'])}' alt='lengths'>",
        "<h2>Where pieces land</h2>"
        f"<img src='{esc(pictures['heat-scale'])}' alt='the colour scale of the heat maps'>"
        "<div class='heat'>" + heat + "</div>",
        "<h2>Rule coverage</h2>" + html_table(report, report.coverage, "times fired per game", coverage_cell),
        f"<img src='{esc(pictures['coverage'])}' alt='coverage'>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def write_report(report: Any, folder: str) -> str:
    """Write `index.html` and its pictures into `folder` (made if missing); the
    path of the page."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    plt = _pyplot()
    top = heat_scale(report)
    pictures = {
        "lengths": lengths_chart(report, out, plt),
        "seats": seats_chart(report, out, plt),
        "coverage": coverage_chart(report, out, plt),
        "heat": [heat_map(data, i, out, top) for i, data in enumerate(report.columns)],
        "heat-scale": heat_scale_chart(top, out, plt),
    }
    plt.close("all")
    page = out / "index.html"
    replace_file(page, _page(report, pictures))
    return str(page)
