"""A board size the user chooses (`grid: {files: size, ranks: size}`, format.md 2.4):
the game played and counted at several sizes against an independent count, the
errors of a value or a site a size lacks, `validate` over every size, and `list` and
`show` naming the option."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Optional

import pytest

from interpreter import load_game
from interpreter.analysis.perft import perft
from interpreter.frontends.cli import _list_entry, main
from interpreter.validation.diagnostics import DefinitionError
from interpreter.validation.sizes import MAX_SIZES_CHECKED, sizes_to_check

REPO = Path(__file__).resolve().parents[2]
CROSSING = REPO / "tests" / "data" / "crossing"
CONNECT_FOUR = REPO / "docs" / "examples" / "connect_four"

# The neighbours of [n, ne, e, s, sw, w] as (file, rank) steps.
_STEPS = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))


def _joins(stones: set[tuple[int, int]], size: int, axis: int) -> bool:
    """Whether the stones join coordinate `axis` 0 to `axis` size-1 (a flood from the near edge)."""
    seen = {s for s in stones if s[axis] == 0}
    todo = list(seen)
    while todo:
        f, r = todo.pop()
        if (f, r)[axis] == size - 1:
            return True
        for df, dr in _STEPS:
            nxt = (f + df, r + dr)
            if nxt in stones and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def _count(size: int, depth: int, stones: Optional[list[set[tuple[int, int]]]] = None, mover: int = 0) -> int:
    """Perft of the crossing game written directly: north (rank 1 to the last rank)
    moves first, east joins file a to the last file; a joined chain ends the game."""
    stones = stones or [set(), set()]
    if depth == 0:
        return 1
    total = 0
    taken = stones[0] | stones[1]
    for cell in ((f, r) for r in range(size) for f in range(size)):
        if cell in taken:
            continue
        stones[mover].add(cell)
        won = _joins(stones[mover], size, 1 - mover)  # north joins ranks (axis 1), east files (axis 0)
        total += 1 if depth == 1 else 0 if won else _count(size, depth - 1, stones, 1 - mover)
        stones[mover].discard(cell)
    return total


@pytest.mark.parametrize(("size", "depth"), [(3, 6), (4, 4), (5, 3)])
def test_perft_at_each_size_matches_an_independent_count(size, depth):
    game = load_game(str(CROSSING), {"size": size})
    assert perft(game, game.initial_state(), depth) == [_count(size, d) for d in range(1, depth + 1)]


def test_a_game_played_at_two_sizes():
    """a1-a2-a3 joins north's edges on three ranks, not on four; the default is 4."""
    for size, ends in ((3, True), (4, False), (None, False)):
        game = load_game(str(CROSSING), {} if size is None else {"size": size})
        state = game.initial_state()
        for notation in ("a1", "c1", "a2", "c2", "a3"):
            state = game.apply(state, notation)
        assert game.is_terminal(state) is ends
        assert len(game.legal_notations(game.initial_state())) == (size or 4) ** 2
    game = load_game(str(CROSSING), {"size": "3"})  # as typed on a command line
    assert game.options == {"size": 3}


def test_region_rules_follow_the_size(tmp_path):
    folder = _copy(tmp_path, ("regions:\n", "regions:\n  rim: {edge: true}\n  inner: {all: true, except: [a1]}\n"))
    for size in (3, 5):
        regions = load_game(str(folder), {"size": size}).board.regions
        last = "abcde"[size - 1]
        assert regions["home.north"] == {f"{f}1" for f in "abcde"[:size]}
        assert regions["home.east"] == {f"a{r}" for r in range(1, size + 1)}
        assert len(regions["rim"]) == 4 * size - 4 and {f"{last}{size}", f"{last}1"} <= regions["rim"]
        assert len(regions["inner"]) == size * size - 1


@pytest.mark.parametrize(("value", "message"), [
    ("6", "option 'size' must be one of 3, 4, 5, not '6'"),
    ("four", "option 'size' takes a whole number, not 'four'"),
])
def test_a_value_the_option_has_not(value, message):
    with pytest.raises(DefinitionError) as caught:
        load_game(str(CROSSING), {"size": value})
    assert [d.message for d in caught.value.diagnostics] == [message]


def _copy(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    folder = tmp_path / "crossing"
    shutil.copytree(CROSSING, folder)
    yaml = folder / "crossing.yaml"
    text = yaml.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    yaml.write_text(text)
    return folder


def _errors(folder: Path, size: int) -> list[str]:
    with pytest.raises(DefinitionError) as caught:
        load_game(str(folder), {"size": size})
    return [f"{Path(d.file).name}:{d.line}:{d.column}: {d.message}" for d in caught.value.diagnostics]


def test_a_region_setup_entry_or_line_naming_a_site_one_size_lacks(tmp_path):
    folder = _copy(tmp_path, ("regions:\n", "regions:\n  corner: [d4]\n"),
                   ("pieces:\n  stone: {symbol: O}\n",
                    "pieces:\n  stone: {symbol: O}\nsetup:\n  north:\n    stone: [d1]\nlines:\n  - [a1, d4]\n"))
    lacks = ": with size=3 the board has files a to c and ranks 1 to 3"
    assert _errors(folder, 3) == [f"crossing.yaml:22:12: unknown site 'd4'{lacks}",
                                  f"crossing.yaml:33:13: unknown site 'd1'{lacks}",
                                  f"crossing.yaml:35:10: unknown site 'd4'{lacks}"]
    for size in (4, 5):
        assert load_game(str(folder), {"size": size}).options == {"size": size}


def test_validate_checks_every_size(tmp_path, capsys):
    assert main(["validate", str(CROSSING)]) == 0
    assert capsys.readouterr().out.strip().endswith("(Crossing, 2 players; board sizes checked: size=3, 4, 5)")
    # The size given is the one checked.
    assert main(["validate", str(CROSSING), "--option", "size=5"]) == 0
    assert capsys.readouterr().out.strip().endswith("(Crossing, 2 players)")
    # A region that only the smallest size lacks: an error of the definition, found without --option.
    folder = _copy(tmp_path, ("regions:\n", "regions:\n  corner: [d4]\n"))
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "crossing.yaml:22:12: error: unknown site 'd4': with size=3 the board has files a to c" in err
    # Rules that name a site one size lacks: said with the size.
    rules = folder / "crossing.rules"
    rules.write_text(rules.read_text().replace("drop stone on sites", "drop stone on sites\n        where to != d4"))
    (folder / "crossing.yaml").write_text((CROSSING / "crossing.yaml").read_text())
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "crossing.rules:" in err and "error: with size=3: " in err and "d4" in err


def test_validate_warns_of_a_rank_one_size_lacks(tmp_path, capsys):
    folder = _copy(tmp_path, ("      east: {files: [a]}\n", "      east: {files: [a]}\n  top: {ranks: [4]}\n"))
    assert main(["validate", str(folder)]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if ": warning: " in line]
    # The region unused at every size is said once; the region the rank leaves without a
    # site at size 3, with the size.
    assert [w.split(": warning: ")[1] for w in warnings] == [
        "region 'top' is never used in the rules", "with size=3: region 'top' has no site: the board has no rank 4"]
    assert captured.out.strip().endswith("board sizes checked: size=3, 4, 5)")


def test_lines_a_larger_size_has_are_no_slip(tmp_path, capsys):
    """A region stepped down from the far edge (`last - 3`, file `e`), as a triangle
    of a board whose size an option gives, is no warning at the sizes that lack a
    line while the region keeps sites; a rank no size has is one, said once."""
    stairs = ("  upper: {all: true, except: {union: [{files: [b], only: {ranks: [last]}},"
              " {files: [e], only: {ranks: [last, last - 1, last - 3]}}]}}\n"
              "  beyond: {ranks: [2, 7]}\n")
    folder = _copy(tmp_path, ("      east: {files: [a]}\n", "      east: {files: [a]}\n" + stairs))
    assert main(["validate", str(folder)]) == 0
    warnings = [line.split(": warning: ")[1] for line in capsys.readouterr().err.splitlines() if ": warning: " in line]
    assert sorted(warnings) == ["region 'beyond' is never used in the rules",
                                "region 'upper' is never used in the rules",
                                "the board has no rank 7: it chooses no site"]


def test_a_region_of_the_far_edge_at_every_size(tmp_path):
    """`ranks: [last]` and `files: [last - 1]` name the same line of the board at
    every size the option gives it."""
    folder = _copy(tmp_path, ("regions:\n", "regions:\n  top: {ranks: [last]}\n  far: {files: [last - 1]}\n"
                                            "  both: {ranks: [last], files: [last], only: {ranks: [last]}}\n"))
    for size, top, far in ((3, "a3 b3 c3", "b1 b2 b3"), (5, "a5 b5 c5 d5 e5", "d1 d2 d3 d4 d5")):
        board = load_game(str(folder), {"size": size}).board
        assert " ".join(sorted(board.regions["top"])) == top
        assert " ".join(sorted(board.regions["far"], key=lambda s: (s[1:], s))) == far


def test_a_line_counted_on_from_the_first_with_the_option(tmp_path):
    """`1 + (size - 1) // 2` and `a + (size - 1) // 2`, the middle rank and file at
    every odd size, as a span's end too (`b + 0 to last by 2`)."""
    folder = _copy(tmp_path, ("regions:\n", "regions:\n  middle: {ranks: [1 + (size - 1) // 2]}\n"
                                            "  centre: {files: [a + (size - 1) // 2]}\n"
                                            "  even: {files: [b + 0 to last by 2], only: {ranks: [1]}}\n"))
    for size, middle, centre, even in ((3, "a2 b2 c2", "b1 b2 b3", "b1"), (5, "a3 b3 c3 d3 e3", "c1 c2 c3 c4 c5",
                                                                          "b1 d1")):
        board = load_game(str(folder), {"size": size}).board
        assert " ".join(sorted(board.regions["middle"])) == middle
        assert " ".join(sorted(board.regions["centre"], key=lambda s: (s[1:], s))) == centre
        assert " ".join(sorted(board.regions["even"])) == even


@pytest.mark.parametrize("edit, message", [
    ("  top: {ranks: [size]}\n", "regions.top.ranks[0] must be a rank number (1 is the bottom rank), or `last` "
                                 "(`last - 1`, `last - (size - 1)` with an option, ...): the grid's last rank "
                                 "whatever its size, or one counted on with options (`1 + (size - 4) // 2`), "
                                 "or every K-th rank from one to another (`1 to last by 2`), "
                                 "found 'size'"),
    ("  top: {files: [size]}\n", "regions.top.files[0] must be a file letter (a is the leftmost file), or `last` "
                                 "(`last - 1`, `last - (size - 1)` with an option, ...): the grid's last file "
                                 "whatever its size, or one counted on with options (`c + k`), "
                                 "or every K-th file from one to another (`b to last by 2`), "
                                 "found 'size'"),
])
def test_a_far_edge_written_with_the_option_says_what_to_write(tmp_path, edit, message):
    folder = _copy(tmp_path, ("regions:\n", "regions:\n" + edit))
    with pytest.raises(DefinitionError) as caught:
        load_game(str(folder))
    assert [d.message for d in caught.value.diagnostics] == [message]


def test_validate_checks_the_display_marks_at_every_size(tmp_path, capsys):
    """A site marked on the board (`display: regions:`) that only the default size
    has: a warning, said with the size that lacks it."""
    folder = _copy(tmp_path, ("pieces:\n  stone: {symbol: O}\n",
                              "pieces:\n  stone: {symbol: O}\ndisplay:\n  regions:\n    d4: {symbol: '*'}\n"
                              "    home: {title: home}\n"))
    assert main(["validate", str(folder)]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if ": warning: " in line]
    assert [w.split("/")[-1] for w in warnings] == [
        "crossing.yaml:32:9: warning: with size=3: display: no region or site 'd4' to mark"]
    assert captured.out.strip().endswith("board sizes checked: size=3, 4, 5)")


def test_validate_bounds_the_sizes_it_compiles(tmp_path, capsys):
    assert main(["validate", str(CONNECT_FOUR)]) == 0
    out = capsys.readouterr().out
    assert "board sizes checked: columns=4 rows=4; " in out and "columns=10 rows=8 (12 of 35" in out
    data = load_game(str(CROSSING)).definition.data
    folder = _copy(tmp_path, ("size: {values: [3, 4, 5]", "size: {min: 3, max: 26"))
    game = load_game(str(folder))
    checked, total = sizes_to_check(game.definition.data, game.model.option_specs, {})
    assert total == 24 and len(checked) == MAX_SIZES_CHECKED
    assert checked[0] == {"size": 3} and checked[-1] == {"size": 26}
    assert sizes_to_check(data, load_game(str(CROSSING)).model.option_specs, {"size": "3"}) == ([], 0)


@pytest.mark.parametrize(("option", "message"), [
    ("size: {min: 3, max: 100000, default: 4}", "option 'size' may be 100000, and a grid has 1 to 26 files"),
    ("size: {type: int, min: 3, default: 4}", "option 'size' gives the files of the grid: it must be a "
                                              "whole-number option with `values`, or `min` and `max`"),
    ("size: {values: [small, large], default: small}", "option 'size' gives the files of the grid: it must be "
                                                       "a whole-number option with `values`, or `min` and `max`"),
])
def test_an_option_that_cannot_size_a_grid(tmp_path, option, message):
    folder = _copy(tmp_path, ("size: {values: [3, 4, 5], default: 4, description: Cells on each side.}", option))
    with pytest.raises(DefinitionError) as caught:
        load_game(str(folder))
    first = caught.value.diagnostics[0]
    assert (first.line, first.column, first.message) == (16, 17, message)


def test_an_unknown_option_as_a_size(tmp_path):
    folder = _copy(tmp_path, ("{files: size,", "{files: width,"))
    assert _errors(folder, 4) == ["crossing.yaml:16:17: unknown option 'width': the files of a grid are a "
                                  "number or an option's name"]


def test_list_and_show_name_the_option(capsys):
    game = load_game(str(CROSSING))
    assert game.option_specs["size"] == {"default": 4, "description": "Cells on each side.", "values": [3, 4, 5],
                                         "board": ["files", "ranks"]}
    entry = {"name": "crossing", "title": "Crossing", "players": ["north", "east"], "options": game.option_specs}
    assert _list_entry(entry).splitlines()[1:] == [
        "    --option size=4  (3|4|5)", "        Cells on each side.", "        the board's files and ranks"]
    assert main(["show", str(CROSSING)]) == 0
    out = capsys.readouterr().out
    assert "    files: size\n    ranks: size\n" in out and "  size:\n    values:\n" in out


def test_connect_four_at_another_size():
    """The rules name no site: eight columns give eight drops, four rows end a column sooner."""
    game = load_game(str(CONNECT_FOUR), {"columns": 8, "rows": 7})
    assert perft(game, game.initial_state(), 2) == [8, 64]
    game = load_game(str(CONNECT_FOUR), {"columns": 4, "rows": 4})
    state = game.initial_state()
    for notation in ("@a1", "@a2", "@a3", "@a4"):
        state = game.apply(state, notation)
    assert "@a5" not in game.legal_notations(state) and len(game.legal_notations(state)) == 3
