"""What many tests need: the repository's folders, the reference data in
tests/data/, and small drivers over the public `Game` API (docs/api.md).

tests/data/ holds copies of the project's binding reference material, so that a
clone of the repository alone passes its tests: `perft.md` (the reference perft
counts, worked out by an independent implementation) and `records/` (the records
those counts start from).

Nothing here imports the interpreter: the drivers take any object with the
`Game` methods they call, so the reference implementations' tests may use them too.
"""
from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

REPO = Path(__file__).resolve().parent.parent
GAMES = REPO / "games"
DATA = REPO / "tests" / "data"
RECORDS = DATA / "records"


def write_definition(folder: Path, yaml: str, rules: str) -> str:
    """A definition in `folder` (game.yaml naming game.rules; `rules` dedented):
    the path to load."""
    import textwrap

    (folder / "game.yaml").write_text(yaml)
    (folder / "game.rules").write_text(textwrap.dedent(rules))
    return str(folder)


def validate_says(folder: Path, capsys: Any, message: str | None) -> None:
    """`regelwerk validate FOLDER` passes (message None) or fails with this error."""
    from interpreter.frontends.cli import main

    status = main(["validate", str(folder)])
    err = capsys.readouterr().err
    if message is None:
        assert status == 0, err
    else:
        assert status == 1 and f"error: {message}" in err, err


def stones_and_rocks(players: tuple[str, ...] = ("white", "black"), files: int = 4, ranks: int = 4,
                     extra: str = "", neighbours: str = "") -> str:
    """The YAML of a small grid game to try a construct on (rules in game.rules): a
    stone for each player and neutral rocks; `extra` adds sections, `neighbours` the
    grid's (`[n, ne, e, s, sw, w]`: hexagonal)."""
    names = "".join(f"  - {{name: {name}}}\n" for name in players)
    around = f", neighbours: {neighbours}" if neighbours else ""
    return (
        "game: probe\ntitle: Probe\ndescription: A board to try one construct on.\nrules: game.rules\n"
        f"players:\n{names}board:\n  grid: {{files: {files}, ranks: {ranks}{around}}}\n"
        "pieces:\n  stone: {symbol: S, description: A stone.}\n"
        "  rock: {symbol: R, owner: neutral, description: Belongs to no one.}\n" + extra
    )


def drop_where(where: str, effects: str = "place", before: str = "") -> str:
    """Rules (for stones_and_rocks) of one decision: drop a stone on any site where
    `where` holds, written "{to}", then `effects` (one statement per line); `before`
    comes first (defines)."""
    body = "".join(f"\n            {line}" for line in effects.splitlines())
    return (f"{before}phase play:\n    turn: place\ndecision place:\n    action stone:\n"
            f"        drop stone on sites\n        where {where}\n        notation \"{{to}}\"\n"
            f"        onto empty:{body}\n")


def placing(effects: str, before: str = "") -> str:
    """Rules (for stones_and_rocks) of a placing game: a stone on any empty site,
    `effects` after it is placed (the lines of a block, dedented), a draw when the
    board is full; `before` comes first (defines)."""
    import textwrap

    body = textwrap.indent(textwrap.dedent(effects), " " * 12)
    return (f"{before}phase play:\n    turn: place\n    if no action:\n        draw\n\n"
            f"decision place:\n    action stone:\n        drop stone on sites\n        onto empty:\n"
            f"            place\n{body}")


def names_read(game: Any) -> set[str]:
    """The names the functions listing the legal actions of `game` read (which
    helpers they call), from the generated code (`game.rules.module`)."""
    return {node.id for node in generated(game, ast.Name, origin=": the legal actions")}


# The origin of the functions written again for perft's last ply, copies of a lister
# or a case (compilation/counted_listing.py, counted_in_place.py).
PERFT_COPIES = "(perft's last ply)"


def generated(game: Any, kind: type = ast.AST, origin: str = "") -> Iterator[Any]:
    """The nodes of `kind` in the code generated for `game` (`game.rules.module`),
    in the functions whose origin (`game.rules.source_map`) contains `origin` (not
    the copies written for perft's last ply)."""
    rules = game.rules
    for function in rules.module.body:
        written = str(rules.source_map.get(function.name, ""))
        if origin in written and PERFT_COPIES not in written:
            yield from (node for node in ast.walk(function) if isinstance(node, kind))


def helper_calls(game: Any, helper: str, origin: str = "") -> list[ast.Call]:
    """The calls of the runtime helper `helper` (`h_...`) in the generated code."""
    return [node for node in generated(game, ast.Call, origin)
            if isinstance(node.func, ast.Name) and node.func.id == helper]


def parent_answer_calls(game: Any, origin: str = "forbid result") -> list[ast.Call]:
    """The calls finding a `forbid result` part's answer on the listed position
    (result_reuse.py: with point tests noted as tuples or as bitmasks, or with terms)."""
    return [call for helper in ("h_parent_answer", "h_parent_answer_masked", "h_parent_answer_terms",
                                   "h_parent_answer_terms_masked")
            for call in helper_calls(game, helper, origin)]


def is_number(node: Any, value: int) -> bool:
    return isinstance(node, ast.Constant) and node.value == value and type(node.value) is int


def record_actions(name: str) -> list[str]:
    """The action notations of `tests/data/records/NAME`: white-space separated, `#` comments."""
    text = (RECORDS / name).read_text(encoding="utf-8")
    return [token for line in text.splitlines() for token in line.split("#", 1)[0].split()]


def play(game: Any, *actions: Any, state: Any = None) -> Any:
    """The state after `actions` (notations or actions), from `state` or the initial position."""
    s = game.initial_state() if state is None else state
    for action in actions:
        s = game.apply(s, action)
    return s


def api_perft(game: Any, state: Any, depth: int) -> int:
    """The number of action sequences of length exactly `depth` (docs/interface.md),
    through the public API only; every position's notations must be distinct."""
    if game.is_terminal(state):
        return 0
    actions = game.legal_actions(state)
    notations = [a.notation for a in actions]
    assert len(notations) == len(set(notations)), notations
    if depth == 1:
        return len(actions)
    return sum(api_perft(game, game.apply(state, a), depth - 1) for a in actions)


def board(game: Any, state: Any, describe: Callable[[Any], Any]) -> dict[str, Any]:
    """`{site: describe(piece)}` for the pieces on the board."""
    return {p.site: describe(p) for p in game.pieces(state)}


def winner(game: Any, state: Any) -> str | None:
    """The winner, None for a draw, or "unfinished" while the game goes on."""
    result = game.result(state)
    return "unfinished" if result is None else result.winner


def checks_allow(s: Any, codes: Any, checks: Any) -> list[Any]:
    """The codes among `codes` that a phase's checks (`result_checks[phase]` or
    `candidate_checks[phase]`, by case) let pass, each asked one at a time on `s`;
    a case without a check: nothing can forbid it."""
    return [code for code in codes if (check := checks[code[0]]) is None or not check(s, code)]


# A drop game on stones_and_rocks' board: each action puts two rocks side by side
# (a wall), the rules before it say what a wall may not do.
WALL_DROPS = """\
phase play:
    turn: place
decision place:
    action wall:
        drop rock on sites
        where neighbour(to, e) is empty
        notation "{to}"
        onto empty:
            place
            create rock at neighbour(to, e)
"""


def random_games_seen(game: Any, seeds: Iterable[int]) -> list[tuple[list[list[str]], str | None, dict[str, Any]]]:
    """Per seed, a random game through the API: the sorted legal notations at each
    ply, the winner and the scores (two compilations of one game compared)."""
    games = []
    for seed in seeds:
        rng = random.Random(seed)
        s = game.initial_state()
        seen = []
        while not game.is_terminal(s):
            legal = sorted(game.legal_notations(s))
            seen.append(legal)
            s = game.apply(s, rng.choice(legal))
        result = game.result(s)
        games.append((seen, result.winner, dict(result.scores)))
    return games


def legal_codes_seen(game: Any, seeds: Iterable[int]) -> list[Any]:
    """Per seed, a random game through the engine: the legal codes at each ply, then
    the result and the board (two compilations of one game compared, code by code)."""
    engine, out = game.engine, []
    for seed in seeds:
        rng = random.Random(seed)
        s = engine.initial_state()
        while s.result is None:
            legal = engine.legal(s)
            out.append(tuple(legal))
            engine.apply_in_place(s, legal[int(rng.random() * len(legal))])
        out.append((s.result, tuple(s.board)))
    return out


def outsider_script(game: str) -> Any:
    """benchmarks/outsiders/GAME/agree.py imported as a module (it puts
    benchmarks/outsiders on the path, to find oracle.py beside it)."""
    import importlib.util
    import sys

    path = REPO / "benchmarks" / "outsiders" / game / "agree.py"
    spec = importlib.util.spec_from_file_location(f"outsider_{game}_agree", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module



def assert_same_play(engine: Any, other: Any, seed: int, games: int = 8, plies: int = 80,
                     at_least: int = 2000, perft_every: int = 15) -> None:
    """Two engines of one game (a pass on and off) list the same actions at every
    position of random games, and count the same perft 2 every `perft_every` plies."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(games):
        s, t = engine.initial_state(), other.initial_state()
        for _ in range(plies):
            if engine.is_over(s):
                break
            legal = list(engine.legal(s))
            assert legal == list(other.legal(t)), s.ply
            if s.ply % perft_every == 0:
                assert engine.perft(s, 2) == other.perft(t, 2), s.ply
            code = rng.choice(legal)
            engine.apply_in_place(s, code)
            other.apply_in_place(t, code)
            compared += len(legal)
    assert compared > at_least


def spied_result_filter(game: Any, s: Any) -> tuple[list[Any], list[Any]]:
    """(the candidates of `s` that `result_filter` keeps, those whose check it called), in order:
    which candidates a phase's clearances let through without asking their check."""
    from interpreter.runtime.clearances import ClearedChecks
    from interpreter.runtime.helpers import result_filter

    row = game.engine.rules.result_checks[s.phase]
    called: list[Any] = []

    def spying(check: Any) -> Any:
        def spy(state: Any, code: Any, memo: Any = None) -> Any:
            called.append(code)
            return check(state, code, memo)
        return spy if check is not None else None

    spied = ClearedChecks([spying(c) for c in row], row.clearances, row.screens, row.moves)
    kept = list(game.engine.decisions[s.decision].candidates(s))
    result_filter(s, kept, spied)
    return kept, called
