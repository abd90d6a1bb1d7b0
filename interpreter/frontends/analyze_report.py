"""`regelwerk analyze --report DIR`: an HTML page with the report's pictures.

The charts are drawn by matplotlib (the optional extra `regelwerk[analysis]`):
game lengths per column, seat win rates with their intervals, rule coverage. The
heat map of where pieces land is the game's own board picture (`render_svg` of
the empty board) with each site filled by a matplotlib colour map, and a
matplotlib colour bar beside it. Every name from a definition is escaped.
"""
from __future__ import annotations

import html
import io
import xml.etree.ElementTree as ET
from pathlib import Path

from ..analysis.analyze.table import cell_text, decimals, diff_text
from .output_file import replace_file
from .render_svg import SVG_NS, render_svg

HEAT_MAP = "YlOrRd"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no window
    import matplotlib.pyplot as plt

    # Reproducible SVG files: no random ids, no date.
    plt.rcParams["svg.hashsalt"] = "regelwerk"
    return plt


def _save(fig, path: Path) -> str:
    picture = io.StringIO()
    fig.savefig(picture, format="svg", metadata={"Date": None}, bbox_inches="tight")
    fig.clf()
    replace_file(path, picture.getvalue())
    return path.name


def lengths_chart(report, folder: Path, plt) -> str:
    """Histograms of the game lengths in plies, one outline per column."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    longest = max((g.plies for data in report.columns for g in data.games), default=1)
    bins = min(50, max(1, longest))
    for data in report.columns:
        ax.hist([g.plies for g in data.games], bins=bins, range=(0, longest), histtype="step",
                linewidth=1.5, label=data.label)
    ax.set_xlabel("length of a game (plies)")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")
    return _save(fig, folder / "lengths.svg")


def seats_chart(report, folder: Path, plt) -> str:
    """Each seat's win rate (and the draws) per column, with 95% intervals."""
    rows = [row for row in report.metrics if row.key.startswith("wins.") or row.key == "draws"]
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / max(1, len(report.columns))
    for c, data in enumerate(report.columns):
        xs: list = []
        ys: list = []
        errors: tuple = ([], [])
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


def coverage_chart(report, folder: Path, plt) -> str:
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


def heat_map(data, index: int, folder: Path, plt) -> tuple[str, str]:
    """The column's board with each site coloured by the landings per game there,
    and its colour bar; the file names."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize, to_hex

    games = max(1, sum(g.covered is not None for g in data.games))  # the traced games
    per_game = {site: count / games for site, count in zip(data.sites, data.heat)}
    norm = Normalize(0, max(per_game.values(), default=0) or 1)
    cmap = colormaps[HEAT_MAP]
    game = data.column.load(coverage=False)
    ET.register_namespace("", SVG_NS)
    root = ET.fromstring(render_svg(game, game.make_state({}), highlight_last=False, title=False))
    for element in root.iter():
        site = element.get("data-site")
        if site in per_game and element.tag in (f"{{{SVG_NS}}}rect", f"{{{SVG_NS}}}circle"):
            element.set("fill", to_hex(cmap(norm(per_game[site]))))
            ET.SubElement(element, f"{{{SVG_NS}}}title").text = f"{site}: landed on {per_game[site]:.3g} times per game"
    board = folder / f"heat-{index}.svg"
    replace_file(board, ET.tostring(root, encoding="unicode"))
    fig, ax = plt.subplots(figsize=(0.45, 3.2))
    fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), cax=ax, label="landings per game")
    return board.name, _save(fig, folder / f"heat-{index}-scale.svg")


def _html_rows(report, rows, show=cell_text) -> str:
    head = "".join(f"<th>{html.escape(d.label)}</th>" for d in report.columns)
    lines = [f"<tr><th>metric</th>{head}</tr>"]
    for row in rows:
        places = decimals(row.cells[0]) if row.cells else 0
        label = row.label.strip() + (f" <small>{html.escape(row.where)}</small>" if row.where else "")
        cells = []
        for c, est in enumerate(row.cells):
            text = show(est, places)
            diff = row.diffs[c] if c else None
            if diff is not None:
                mark = " class='sig'" if diff.significant else ""
                text += f" <span{mark}>{diff_text(diff, est.kind, places)}</span>"
            cells.append(f"<td>{html.escape(text) if diff is None else text}</td>")
        lines.append(f"<tr><td>{html.escape(row.label.strip()) if not row.where else label}</td>{''.join(cells)}</tr>")
    return "<table>" + "\n".join(lines) + "</table>"


def _coverage_cell(est, places: int) -> str:
    if est is None:
        return "n/a"
    return "never" if est.value == 0 else f"{est.value:.2f}"


_STYLE = """body{font-family:sans-serif;max-width:70em;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{padding:2px 10px;text-align:left;border-bottom:1px solid #ddd}
small{color:#777}.sig{font-weight:bold;color:#c03020}img{max-width:100%}.heat{display:flex;gap:1em;flex-wrap:wrap}"""


def _page(report, pictures: dict) -> str:
    from ..analysis.analyze.table import FOOTER, heading

    esc = html.escape
    heat = "".join(
        f"<figure><img src='{esc(board)}' alt='heat map'><img src='{esc(scale)}' alt='scale'>"
        f"<figcaption>{esc(report.columns[i].label)}</figcaption></figure>"
        for i, (board, scale) in enumerate(pictures["heat"]))
    parts = [
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{esc(report.title)}: analysis</title>",
        f"<style>{_STYLE}</style></head><body><h1>{esc(report.title)}: analysis</h1>",
        "<pre>" + esc("\n".join(heading(report))) + "</pre>",
        "<h2>Metrics</h2>" + _html_rows(report, report.metrics),
        "<p>" + esc(" ".join(FOOTER)) + "</p>",
        "<h2>How games end</h2>" + _html_rows(report, report.endings),
        f"<h2>Seats</h2><img src='{esc(pictures['seats'])}' alt='win rates'>",
        f"<h2>Game lengths</h2><img src='{esc(pictures['lengths'])}' alt='lengths'>",
        "<h2>Where pieces land</h2><div class='heat'>" + heat + "</div>",
        "<h2>Rule coverage</h2>" + _html_rows(report, report.coverage, _coverage_cell),
        f"<img src='{esc(pictures['coverage'])}' alt='coverage'>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def write_report(report, folder: str) -> str:
    """Write `index.html` and its pictures into `folder` (made if missing); the
    path of the page."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    plt = _pyplot()
    pictures = {
        "lengths": lengths_chart(report, out, plt),
        "seats": seats_chart(report, out, plt),
        "coverage": coverage_chart(report, out, plt),
        "heat": [heat_map(data, i, out, plt) for i, data in enumerate(report.columns)],
    }
    plt.close("all")
    page = out / "index.html"
    replace_file(page, _page(report, pictures))
    return str(page)
