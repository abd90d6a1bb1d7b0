"""Dynamic lint: play bounded random games and report what only play reveals.

- games that reach the ply bound without ending (a missing end rule or draw rule),
- positions where the player to move has no action and the rules do not end the
  game (the engine raises; we report the phase),
- runtime errors of the rules (each tied to the rule that failed),
- two different legal actions with the same notation (records would be ambiguous).

Every finding carries the source position of the rule involved, how often it
happened, and the actions of the first game that showed it, so it can be replayed.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..runtime.errors import RuleRuntimeError

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


def lint(game, playouts: int = DEFAULT_PLAYOUTS, max_plies: int = DEFAULT_MAX_PLIES, seed: int = 0, progress=None) -> LintReport:
    rng = random.Random(seed)
    engine = game.engine
    findings: dict = {}
    finished = 0

    def note(key, severity, pos, message, record):
        if key in findings:
            findings[key].count += 1
        else:
            findings[key] = Finding(severity, pos, message, 1, list(record))

    for i in range(playouts):
        state = game.initial_state()
        record: list = []
        try:
            while len(record) < max_plies:
                legal = engine.legal(state)
                if engine.is_over(state):
                    finished += 1
                    if engine.ending(state)[0] == "no legal action":
                        phase_name, phase_pos = engine.describe_phase(state)
                        note(
                            ("default end", phase_name),
                            "warning",
                            phase_pos,
                            f"the player to move had no legal action in phase '{phase_name}', which has no "
                            "'if no action' rule: the game ended by the default (the scores decide)",
                            record,
                        )
                    break
                _check_notations(engine, state, legal, record, note)
                code = engine.pick_random(state, rng)
                record.append(engine.notation(code))
                engine.apply_in_place(state, code)
            else:
                phase_name, phase_pos = engine.describe_phase(state)
                note(
                    ("bound", phase_name),
                    "warning",
                    phase_pos,
                    f"a game did not end within {max_plies} actions (phase '{phase_name}'); "
                    "is a rule that ends the game (a turn limit, a draw) missing?",
                    record,
                )
        except RuleRuntimeError as exc:
            note(("runtime", str(exc.pos), exc.message), "error", exc.pos, exc.message, record)
        if progress is not None:
            progress(i + 1)
    ordered = sorted(findings.values(), key=lambda f: (f.severity != "error", -f.count))
    return LintReport(playouts, finished, ordered)


def _check_notations(engine, state, legal: list, record: list, note) -> None:
    seen: dict = {}
    for code in legal:
        text = engine.notation(code)
        if text in seen and seen[text] != code:
            label_a, pos_a = engine.describe_action(seen[text])
            label_b, pos_b = engine.describe_action(code)
            note(
                ("notation", label_a, label_b),
                "error",
                pos_b,
                f"two different legal actions are both written '{text}' ({label_a} at {pos_a} "
                f"and {label_b}); give one of them its own notation",
                record,
            )
        seen.setdefault(text, code)


def format_report(report: LintReport, game_name: str, fallback_file: str) -> str:
    lines = []
    for f in report.findings:
        times = f"{f.count} of {report.playouts} games" if f.count > 1 else "1 game"
        lines.append(f"{f.location(fallback_file)}: {f.severity}: {f.message} [{times}]")
        if f.first_record:
            shown = " ".join(f.first_record[-12:])
            more = f"... ({len(f.first_record)} actions) " if len(f.first_record) > 12 else ""
            lines.append(f"    first seen after: {more}{shown}")
    ended = f"{report.finished} of {report.playouts} random games of {game_name} ended normally"
    lines.append(ended + ("; no problem found" if not report.findings else ""))
    return "\n".join(lines)
