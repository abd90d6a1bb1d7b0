"""Lint: read the rules, then play bounded random games and report what play reveals.

Played (see docs/format.md, 6):
- games that reach the ply bound without ending (a missing end rule or draw rule),
- positions where the player to move has no action and the rules do not end the
  game, or end it only by the default,
- runtime errors of the rules anywhere in play: while listing the legal actions,
  applying one, ending the game and computing the scores (each tied to the rule
  that failed),
- two different legal actions with the same notation (records would be ambiguous).
Read (static_checks.py): moving actions that never move their piece, `if no
action` blocks that may not end the game.

Every finding carries the source position of the rule involved, how often it
happened, and the actions of the first game that showed it, so it can be replayed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..runtime.engine import CHANCE
from ..runtime.errors import RuleRuntimeError
from .static_checks import static_findings

DEFAULT_PLAYOUTS = 200
DEFAULT_MAX_PLIES = 5_000


@dataclass
class Finding:
    severity: str  # "error" or "warning"
    pos: object  # ast.Pos or None
    message: str
    count: int = 1
    first_record: list = field(default_factory=list)  # notations up to the problem

    def location(self, fallback: str) -> str:
        if self.pos is None or not getattr(self.pos, "line", 0):
            return f"{fallback}:1:1"
        return f"{self.pos.file}:{self.pos.line}:{self.pos.column}"


@dataclass
class LintReport:
    playouts: int
    finished: int
    findings: list

    @property
    def ok(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


class _Findings:
    """Findings by what they are about: the same problem seen again is counted."""

    def __init__(self) -> None:
        self.by_key: dict = {}

    def note(self, key, severity: str, pos, message: str, record=(), count: int = 1) -> None:
        if key in self.by_key:
            self.by_key[key].count += 1
        else:
            self.by_key[key] = Finding(severity, pos, message, count, list(record))

    def ordered(self) -> list:
        return sorted(self.by_key.values(), key=lambda f: (f.severity != "error", -f.count))


def lint(game, playouts: int = DEFAULT_PLAYOUTS, max_plies: int = DEFAULT_MAX_PLIES, seed: int = 0, progress=None) -> LintReport:
    rng = random.Random(seed)
    findings = _Findings()
    for severity, pos, message in static_findings(game.definition.rules):
        findings.note(("static", str(pos), message), severity, pos, message, count=0)
    player = _Player(game.engine, max_plies, findings)
    finished = 0
    for i in range(playouts):
        finished += player.playout(rng)
        if progress is not None:
            progress(i + 1)
    return LintReport(playouts, finished, findings.ordered())


class _Player:
    """Plays one random game after another on the fast layer, noting what goes wrong."""

    def __init__(self, engine, max_plies: int, findings: _Findings) -> None:
        self.engine = engine
        self.max_plies = max_plies
        self.findings = findings
        # Chance events whose outcomes' notations were checked: they are fixed, so
        # once is enough (an event of 10001 outcomes made lint crawl).
        self.checked_events: set = set()

    def playout(self, rng: random.Random) -> int:
        """Play one game; 1 if it ended normally, else 0."""
        record: list = []
        try:
            state = self.engine.initial_state()
            while len(record) < self.max_plies:
                if self._step(state, record, rng):
                    self.engine.scores(state)  # the score rule on the final position, as reports do
                    return 1
            self._note_bound(state, record)
            self.engine.scores(state)  # as a search judges a game it cut off
        except RuleRuntimeError as exc:
            self.findings.note(("runtime", str(exc.pos), exc.message), "error", exc.pos, exc.message, record)
        return 0

    def _step(self, state, record: list, rng: random.Random) -> bool:
        """Play one action; True once the game is over."""
        engine = self.engine
        if engine.is_over(state):
            if engine.ending(state)[0] == "no legal action":
                self._note_default_end(state, record)
            return True
        if state.decision not in self.checked_events:
            self._check_notations(state, record)
        code = engine.pick_random(state, rng)  # a chance outcome by its probability
        record.append(engine.notation(code))
        engine.apply_in_place(state, code)
        return False

    def _note_default_end(self, state, record: list) -> None:
        self._note_phase("default end", state, record, "the player to move had no legal action in phase '{phase}', "
                         "which has no 'if no action' rule: the game ended by the default (the scores decide)")

    def _note_bound(self, state, record: list) -> None:
        self._note_phase("bound", state, record, f"a game did not end within {self.max_plies} actions (phase "
                         "'{phase}'); is a rule that ends the game (a turn limit, a draw) missing?")

    def _note_phase(self, what: str, state, record: list, message: str) -> None:
        """A warning about the phase `state` is in, at the phase."""
        name, pos = self.engine.describe_phase(state)
        self.findings.note((what, name), "warning", pos, message.replace("{phase}", name), record)

    def _check_notations(self, state, record: list) -> None:
        """Two different actions written alike: the legal list has each notation once,
        so the candidates are taken before notations are merged."""
        engine = self.engine
        if engine.to_move(state) == CHANCE:
            self.checked_events.add(state.decision)
        seen: dict = {}
        for code in engine.legal_with_duplicates(state):
            text = engine.notation(code)
            first = seen.setdefault(text, code)
            if first != code:
                self._note_clash(text, first, code, record)

    def _note_clash(self, text: str, first, code, record: list) -> None:
        label_a, pos_a = self.engine.describe_action(first)
        label_b, pos_b = self.engine.describe_action(code)
        self.findings.note(
            ("notation", label_a, label_b), "error", pos_b,
            f"two different legal actions are both written '{text}' ({label_a} at {pos_a} "
            f"and {label_b}); give one of them its own notation",
            record,
        )


def format_report(report: LintReport, game_name: str, fallback_file: str) -> str:
    lines = []
    for f in report.findings:
        lines.append(f"{f.location(fallback_file)}: {f.severity}: {f.message}{_times(f, report)}")
        if f.first_record:
            shown = " ".join(f.first_record[-12:])
            more = f"... ({len(f.first_record)} actions) " if len(f.first_record) > 12 else ""
            lines.append(f"    first seen after: {more}{shown}")
    ended = f"{report.finished} of {report.playouts} random games of {game_name} ended normally"
    lines.append(ended + ("; no problem found" if not report.findings else ""))
    return "\n".join(lines)


def _times(finding: Finding, report: LintReport) -> str:
    if finding.count == 0:  # found by reading the rules
        return ""
    return f" [{finding.count} of {report.playouts} games]" if finding.count > 1 else " [1 game]"
