"""Lint: read the rules, then play bounded random games and report what play reveals.

Played (see docs/format.md, 6):
- games that reach the ply bound without ending (a missing end rule or draw rule),
- positions where the player to move has no action and the rules do not end the
  game, or end it only by the default,
- runtime errors of the rules anywhere in play: while listing the legal actions,
  applying one, ending the game and computing the scores (each tied to the rule
  that failed),
- two different legal actions with the same notation (records would be ambiguous);
  an action hidden, where it is legal, by one listed before it that writes the same
  notation and does something else (the first is kept: a warning),
- actions never legal in any position of any game (a case or a condition that
  cannot hold, say `onto own` where `onto empty` was meant).
- a moving action after which its piece still stands where it started and
  nothing changed on its landing site (a `move` forgotten on some path: the
  capture that removes the jumped piece and forgets to move, an `if` that takes
  without an `else` that moves).
Read (static_checks.py): moving actions that never move their piece, or do not on
every path, `if no action` blocks that may not end the game.

Every finding carries the source position of the rule involved, how often it
happened, and the actions of the first game that showed it, so it can be replayed.
"""
from __future__ import annotations

import ast as py
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Sequence

from ..compilation.pyast import replace_in, same_code
from ..parsing import ast
from ..runtime.compiled import CasePattern
from ..runtime.errors import RuleRuntimeError
from ..runtime.pieces import CASE, CHANCE, DESTINATION, KIND, NEUTRAL, NO_SITE, ORIGIN, OWNER, ActionCode
from ..runtime.results import EndingKind
from ..spelling import counted
from .static_checks import static_findings

if TYPE_CHECKING:
    from ..api import Game
    from ..runtime.engine import Engine
    from ..runtime.pieces import Code
    from ..runtime.state import State

DEFAULT_PLAYOUTS = 200
DEFAULT_MAX_PLIES = 5_000
# How a game of lint ended, besides by a rule of the game ("rule"):
DEFAULT = EndingKind.NO_ACTION.word  # by the default (as `Engine.ending` names it)
CUT_OFF = "cut off"
MAX_SAMPLES = 16  # positions kept per decision, to say what an action never legal saw
FAILED = "failed"


@dataclass
class Finding:
    severity: str  # "error" or "warning"
    pos: Optional[ast.Pos]  # where the fix belongs (see `rule_at`)
    message: str
    count: int = 1
    first_record: list[Any] = field(default_factory=list)  # notations up to the problem
    # Linting a variant, a finding about a rule of the game it extends is located in
    # the variant (where the user can change it) and the rule's own place kept here.
    rule_at: Optional[str] = None
    fix_note: str = ""

    def location(self, fallback: str) -> str:
        if self.pos is None or not self.pos.line:
            return f"{fallback}:1:1"
        return f"{self.pos.file}:{self.pos.line}:{self.pos.column}"


@dataclass
class LintReport:
    playouts: int
    finished: int  # games that ended (by a rule or by the default)
    findings: list[Any]
    by_default: int = 0  # of those, ended by the default: the player to move had no action
    cut_off: int = 0  # stopped at the ply bound
    failed: int = 0  # stopped by an error of the rules

    @property
    def by_rule(self) -> int:
        """Games that ended by a rule of the game (`win`, `draw`, `if no action`, ...)."""
        return self.finished - self.by_default

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


class _Findings:
    """Findings by what they are about: the same problem seen again is counted."""

    def __init__(self) -> None:
        self.by_key: dict[Any, Any] = {}

    def note(self, key: Any, severity: str, pos: Any, message: str, record: Any=(), count: int = 1) -> None:
        if key in self.by_key:
            self.by_key[key].count += 1
        else:
            self.by_key[key] = Finding(severity, pos, message, count, list(record))

    def ordered(self) -> list[Any]:
        return sorted(self.by_key.values(), key=lambda f: (f.severity != "error", -f.count))


def lint(game: Game, playouts: int = DEFAULT_PLAYOUTS, max_plies: int = DEFAULT_MAX_PLIES, seed: int = 0,
         progress: Any=None) -> LintReport:
    rng = random.Random(seed)
    findings = _Findings()
    for severity, pos, message in static_findings(game.definition.rules):
        findings.note(("static", str(pos), message), severity, pos, message, count=0)
    player = _Player(game.engine, max_plies, findings)
    endings = {"rule": 0, DEFAULT: 0, CUT_OFF: 0, FAILED: 0}
    for i in range(playouts):
        endings[player.playout(rng)] += 1
        if progress is not None:
            progress(i + 1)
    for pos, message in _never_legal(game, player, playouts):
        findings.note(("never legal", str(pos)), "warning", pos, message, count=0)
    ordered = findings.ordered()
    _relocate_to_variant(ordered, game.definition)
    return LintReport(playouts, endings["rule"] + endings[DEFAULT], ordered, endings[DEFAULT], endings[CUT_OFF],
                      endings[FAILED])


def _relocate_to_variant(findings: list[Any], definition: Any) -> None:
    """Linting a variant: a finding about a rule the variant left as the game it
    extends has it is located in the variant's own rules file (or its YAML), where
    an item of the same name would replace the rule; the rule's place is kept in
    `rule_at`. Rules the variant replaced are already located in its files."""
    chain = getattr(definition, "variant_chain", None)
    if not chain:
        return
    variant = chain[-1]
    overlays = _overlay_files(definition, variant)
    home = overlays[0] if overlays else variant
    own = set(overlays) | {variant}
    for finding in findings:
        pos = finding.pos
        file = pos.file if pos is not None else None
        if file in own:
            continue
        if pos is not None and file is not None and pos.line:
            finding.rule_at = f"{file}:{pos.line}:{pos.column}"
            finding.fix_note = (f"an item of the same name in {home} replaces it" if overlays else
                                f"a rules file given in {variant} (`rules:`) can replace it")
        finding.pos = ast.Pos(home, 1, 1)


def _overlay_files(definition: Any, variant: str) -> list[Any]:
    """The rules overlays the variant file `variant` names, as messages name files."""
    import yaml

    from ..loading.files import display_name, rules_entries

    try:
        data = yaml.safe_load(definition.sources.get(variant, "")) or {}
    except yaml.YAMLError:
        return []
    folder = Path(variant).parent
    entries = rules_entries(data.get("rules") if isinstance(data, dict) else None)
    return [display_name(folder / rel) for _, rel in entries]


def _never_legal(game: Game, player: "_Player", playouts: int) -> list[Any]:
    """(position, message) of each action that no position of the games played
    offered, although its decision came up with a piece it acts for on the board.
    Actions whose decision never came, or whose pieces never stood on the board
    when it did (a piece that random games seldom make), are rare rather than
    wrong; a pass is left out (`pass if no other action` rightly never comes where
    there is always something to do)."""
    engine = game.engine
    acting_kinds = _acting_kinds(game)
    by_action: dict[Any, Any] = {}
    for number, case in enumerate(engine.rules.cases):
        if case.pattern in (CasePattern.CHANCE, CasePattern.PASS):
            continue
        by_action.setdefault((case.decision, case.action), []).append((number, case))
    found = []
    games = "the random game" if playouts == 1 else f"{playouts} random games"
    for (decision, name), cases in by_action.items():
        if any(number in player.legal_cases for number, _ in cases) or decision not in player.kinds_at:
            continue
        kinds = acting_kinds.get((engine.decisions[decision].name, name))
        if kinds is not None and not kinds & player.kinds_at[decision]:
            continue
        message = (f"action '{name}' was never legal in {games}: if it should be, look at its pattern, cases and "
                   "conditions (or lint more games: --playouts)")
        held = _held_instead(game, player.samples.get(decision, []), engine.decisions[decision].name, name)
        found.append((cases[0][1].pos, message + held))
    return found


def _held_instead(game: Game, states: list[Any], decision: str, name: str) -> str:
    """For an action that selects a fixed set of sites (`select REGION`,
    `select REGION[player]`, `select sites`) and whose `onto` cases never matched
    what its sites held in the positions sampled where its decision came up: what
    they held instead (`onto empty` over pits that always hold a neutral piece),
    as a sentence to add; "" otherwise."""
    action = next((a for rules_file in game.definition.rules for item in rules_file.items
                   if isinstance(item, ast.Decision) and item.name == decision for a in item.actions
                   if a.name == name), None)
    if action is None or not isinstance(action.pattern, ast.SelectPattern) or not states \
            or any(case.kind != "onto" or case.what not in _HOLDS for case in action.cases):
        return ""
    asked = {case.what for case in action.cases}
    held: set[str] = set()
    for state in states:
        mover = state.player
        sites = _fixed_sites(game, action.pattern.targets, state)
        if sites is None:
            return ""
        for site in sites:
            piece = state.board[site]
            held.add("empty" if piece is None else "neutral" if piece[OWNER] == NEUTRAL else
                     "own" if piece[OWNER] == mover else "enemy")
    if not held or held & asked:
        return ""
    sorted_held = [what for what in _HOLDS if what in held]
    return (f"; where its decision came up, the sites it selects held {' or '.join(_HOLDS[w] for w in sorted_held)}, "
            f"never what its cases ask ({', '.join('onto ' + what for what in _HOLDS if what in asked)}): "
            f"did you mean {' or '.join(repr('onto ' + what) for what in sorted_held)}?")


# what `onto` can ask a site to hold (besides `any`), said of what it held
_HOLDS = {"empty": "nothing", "own": "pieces of the player to move", "enemy": "enemy pieces",
          "neutral": "neutral pieces"}


def _fixed_sites(game: Game, targets: ast.Expr, state: State) -> Optional[Sequence[int]]:
    """The sites of `targets` in `state` when they are read without evaluating the
    rules (a region, `REGION[player]`, `sites`, `pieces`, `pieces of player`), else None."""
    regions = game.model.regions
    mover = state.player
    if isinstance(targets, ast.Pieces) and targets.where is None:
        if targets.owner is None:
            return [site for site, piece in enumerate(state.board[:-1]) if piece is not None]
        if isinstance(targets.owner, ast.Name) and targets.owner.id == "player":
            return list(state.occ[mover])
        return None
    if isinstance(targets, ast.Name) and targets.id == "sites":
        return range(len(game.model.board.names))
    if isinstance(targets, ast.Name) and targets.id in regions and not regions[targets.id].per_player:
        return regions[targets.id].sites[0]
    if isinstance(targets, ast.Index) and isinstance(targets.obj, ast.Name) and targets.obj.id in regions \
            and regions[targets.obj.id].per_player and isinstance(targets.index, ast.Name) \
            and targets.index.id == "player":
        return regions[targets.obj.id].sites[mover]
    return None


def _acting_kinds(game: Game) -> dict[tuple[str, str], set[int]]:
    """(decision, action) -> the kind indices its `by` names, for the actions of
    pieces on the board (not of pools or of `the same piece`)."""
    index = {name: kind.index for name, kind in game.model.kinds.items()}
    kinds: dict[tuple[str, str], set[int]] = {}
    for rules_file in game.definition.rules:
        for item in rules_file.items:
            if not isinstance(item, ast.Decision):
                continue
            for action in item.actions:
                by = action.by
                if by and all(b.kind is not None and b.kind in index and not b.pool and not b.same_piece for b in by):
                    kinds[(item.name, action.name)] = {index[b.kind] for b in by if b.kind is not None}
    return kinds


class _Player:
    """Plays one random game after another on the fast layer, noting what goes wrong."""

    def __init__(self, engine: Engine, max_plies: int, findings: _Findings) -> None:
        self.engine = engine
        self.max_plies = max_plies
        self.findings = findings
        # Chance events whose outcomes' notations were checked: they are fixed, so
        # once is enough (an event of 10001 outcomes made lint crawl).
        self.checked_events: set[Any] = set()
        self.legal_cases: set[Any] = set()  # the case of every action some position offered
        # decision -> the kinds of the pieces of the player to take it, over the positions it came up
        self.kinds_at: dict[Any, Any] = {}
        # decision -> the first positions where it came up (what an action never legal saw: _held_instead)
        self.samples: dict[Any, list[State]] = {}
        self.noted_in_game: set[Any] = set()  # clashes noted in the game being played (counted once a game)

    def playout(self, rng: random.Random) -> str:
        """Play one game; how it ended: "rule", DEFAULT, CUT_OFF or FAILED."""
        record: list[Any] = []
        self.noted_in_game = set()
        try:
            state = self.engine.initial_state()
            while len(record) < self.max_plies:
                if self._step(state, record, rng):
                    self.engine.scores(state)  # the score rule on the final position, as reports do
                    ending = self.engine.ending(state)
                    return DEFAULT if ending is not None and ending[0] == DEFAULT else "rule"
            self._note_bound(state, record)
            self.engine.scores(state)  # as a search judges a game it cut off
            return CUT_OFF
        except RuleRuntimeError as exc:
            self.findings.note(("runtime", str(exc.pos), exc.message), "error", exc.pos, exc.message, record)
        return FAILED

    def _step(self, state: State, record: list[Any], rng: random.Random) -> bool:
        """Play one action; True once the game is over."""
        engine = self.engine
        if engine.is_over(state):
            ending = engine.ending(state)
            if ending is not None and ending[0] == DEFAULT:
                self._note_default_end(state, record)
            self._note_stuck(state)
            return True
        if state.decision not in self.checked_events:
            self._check_notations(state, record)
        code = engine.pick_random(state, rng)  # a chance outcome by its probability
        record.append(engine.notation(code))
        moved = self._mover(state, code)
        engine.apply_in_place(state, code)
        if moved is not None and state.result is None:
            self._check_moved(state, code, moved, record)
        return False

    def _mover(self, state: State, code: Code) -> tuple[Any, ...] | None:
        """(start, landing, the piece on the start, what stood on the landing) of an
        action that moves a piece from one site of the board to another; None else."""
        if not self.engine.rules.cases[code[CASE]].pattern.moves:
            return None
        start, landing = code[ORIGIN], code[DESTINATION]
        if start == NO_SITE or landing == NO_SITE or start == landing or state.board[start] is None:
            return None
        return start, landing, state.board[start], state.board[landing]

    def _check_moved(self, state: State, code: Code, moved: tuple[Any, ...], record: list[Any]) -> None:
        """A moving action after which its piece still stands where it started and
        nothing changed where it was to land: on that path no statement moves it
        (a `move` forgotten, or an `if` that takes without an `else` that moves)."""
        start, landing, piece, target = moved
        now = state.board[start]
        if now is None or now[:2] != piece[:2] or state.board[landing] != target:
            return
        key = ("unmoved", code[CASE])
        if key in self.noted_in_game:
            return
        self.noted_in_game.add(key)
        label, pos = self.engine.describe_action(code)
        names = self.engine.rules.site_names
        self.findings.note(key, "error", pos, f"{label}: in play the piece stayed on {names[start]} and nothing "
                           f"changed on {names[landing]}: no statement moved it (a 'move' forgotten, or an 'if' "
                           "without an 'else' that moves?)", record)

    def _note_stuck(self, state: State) -> None:
        """A game that ended where the decision to take had no action (by `if no
        action` or the default): the decision came up all the same."""
        decision = self.engine.decisions[state.decision]
        if decision.legal is None or decision.legal(state):  # (None: a chance event)
            return
        self._note_kinds(state)

    def _note_kinds(self, state: State) -> None:
        board = state.board
        samples = self.samples.setdefault(state.decision, [])
        if len(samples) < MAX_SAMPLES:
            samples.append(state.copy())
        self.kinds_at.setdefault(state.decision, set()).update(
            piece[KIND] for piece in (board[site] for site in state.occ[state.player]) if piece is not None)

    def _note_default_end(self, state: State, record: list[Any]) -> None:
        self._note_phase("default end", state, record, "the player to move had no legal action in phase '{phase}', "
                         "which has no 'if no action' rule: the game ended by the default (the scores decide)")

    def _note_bound(self, state: State, record: list[Any]) -> None:
        self._note_phase("bound", state, record, f"a game did not end within {self.max_plies} actions (phase "
                         "'{phase}'); is a rule that ends the game (a turn limit, a draw) missing?")

    def _note_phase(self, what: str, state: State, record: list[Any], message: str) -> None:
        """A warning about the phase `state` is in, at the phase."""
        name, pos = self.engine.describe_phase(state)
        self.findings.note((what, name), "warning", pos, message.replace("{phase}", name), record)

    def _check_notations(self, state: State, record: list[Any]) -> None:
        """Two legal actions written alike (an error: a record could not tell them
        apart), and, among the candidates before actions written alike are merged
        (the first is kept, docs/format.md "Unique notations"), an action hidden
        by one that does something else (a warning)."""
        engine = self.engine
        if engine.to_move(state) == CHANCE:
            self.checked_events.add(state.decision)
        else:
            self._note_kinds(state)
        seen: dict[Any, Any] = {}
        texts: dict[Any, Any] = {}
        for code in engine.legal_with_duplicates(state):
            text = texts[code] = engine.notation(code)
            first = seen.setdefault(text, code)
            if first != code and not self._same_effect(first, code):
                self._note_clash(text, first, code, record, "warning",
                                 "where both are legal, the first is kept: give the other its own notation if both "
                                 "are meant")
        written: dict[Any, Any] = {}
        listed: set[Any] = set()
        for code in engine.legal(state):
            self.legal_cases.add(code[CASE])
            text = texts[code] if code in texts else engine.notation(code)
            first = written.setdefault(text, code)
            if first != code:
                self._note_clash(text, first, code, record, "error", "give one of them its own notation")
            elif code in listed:
                self._note_twice(text, code, record)
            listed.add(code)

    def _note_twice(self, text: str, code: Code, record: list[Any]) -> None:
        """One action listed twice among the legal ones: random play and the players
        then choose it twice as often (a landing given twice to its pattern, as in
        `go to [x, y]` where y may be x: docs/format.md 3.12.1)."""
        label, pos = self.engine.describe_action(code)
        key = ("twice", label)
        if key in self.noted_in_game:
            return
        self.noted_in_game.add(key)
        self.findings.note(
            key, "warning", pos,
            f"the legal action '{text}' ({label}) is listed twice in one position: its landing is given twice, "
            f"as a list such as [x, y] gives it when y is x; join the sites with + ([x] + [y]) to have each once",
            record,
        )

    def _same_effect(self, a: Any, b: Any) -> bool:
        """Whether two codes do the same: the same sites and choice, and cases that
        run the same statements (two movements that reach the same site),
        which of them ended the game aside."""
        cases = self.engine.rules.cases
        fields, other_fields = ActionCode.of(a), ActionCode.of(b)
        one, other = cases[fields.case], cases[other_fields.case]
        return (fields[1:] == other_fields[1:] and one.pattern is other.pattern
                and same_code(one.after, other.after)
                and same_code(_unattributed(one.body), _unattributed(other.body)))

    def _note_clash(self, text: str, first: Any, code: Code, record: list[Any], severity: str, advice: str) -> None:
        label_a, pos_a = self.engine.describe_action(first)
        label_b, pos_b = self.engine.describe_action(code)
        key = ("notation", severity, label_a, label_b)
        if key in self.noted_in_game:
            return
        self.noted_in_game.add(key)
        self.findings.note(
            key, severity, pos_b,
            f"two different legal actions are both written '{text}' ({label_a} at {pos_a} "
            f"and {label_b}); {advice}",
            record,
        )


def _unattributed(body: Sequence[py.stmt]) -> list[py.stmt]:
    """Compiled statements without the ending each `h_end` is attributed to (its last argument)."""

    def change(node: Any) -> Any:
        if isinstance(node, py.Call) and isinstance(node.func, py.Name) and node.func.id == "h_end":
            return py.Call(func=node.func, args=node.args[:-1], keywords=[])
        return None

    return replace_in(body, change)


def format_report(report: LintReport, game_name: str, fallback_file: str) -> str:
    lines = []
    for f in report.findings:
        lines.append(f"{f.location(fallback_file)}: {f.severity}: {f.message}{_times(f, report)}")
        if f.rule_at:
            lines.append(f"    the rule: {f.rule_at}, in the game the variant extends; {f.fix_note}")
        if f.first_record:
            shown = " ".join(f.first_record[-12:])
            more = f"... ({len(f.first_record)} actions) " if len(f.first_record) > 12 else ""
            lines.append(f"    first seen after: {more}{shown}")
    lines.append(summary(report, game_name))
    return "\n".join(lines)


def summary(report: LintReport, game_name: str) -> str:
    """How the games ended: `N of M random games of G ended normally` (by a rule of
    the game), then those that did not, each kind by itself."""
    text = f"{report.by_rule} of {counted(report.playouts, 'random game')} of {game_name} ended normally"
    others = [(report.by_default, "by the default (the player to move had no action and no rule said what then)"),
              (report.cut_off, "cut off unfinished (--max-plies)"),
              (report.failed, "stopped by an error of the rules")]
    text += "".join(f"; {count} {what}" for count, what in others if count)
    return text + ("; no problem found" if not report.findings else "")


def _times(finding: Finding, report: LintReport) -> str:
    if finding.count == 0:  # found by reading the rules
        return ""
    return f" [{finding.count} of {report.playouts} games]" if finding.count > 1 else " [1 game]"
