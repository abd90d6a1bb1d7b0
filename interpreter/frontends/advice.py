"""What the built-in player's search found, in words a player understands.

Used for `hint` at the prompt and for the note after a computer's move. The
numbers come from `SearchStats` (agents/mcts.py): for each action the number of
games the search simulated after it and the average result of those games for
the player who chooses — a win counts 1, a draw one half, a loss 0. That is a
rough estimate of the chances, not a calibrated one (the simulated games are
played far worse than people play), so it is always shown as "about", between 1%
and 99%: 0% and 100% are said only of what the search has proved, in words.
"""
from __future__ import annotations

import textwrap
from typing import Any, Optional

from ..spelling import counted

SHOWN_ALTERNATIVES = 3
SHOWN_UNSAFE = 5


def percent(value: float) -> str:
    """An estimate as people read it: "about 58%", never 0% or 100%."""
    return f"about {min(99, max(1, round(100 * value)))}%"


def third_person(name: str, verb: str) -> str:
    """"white wins", but "attackers win": a player's name in -s is taken as a plural."""
    return verb if name.endswith("s") else verb + "s"


def possessive(name: str) -> str:
    """"white's", but "attackers'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def search_note(stats: Any) -> str:
    """A short note after a computer's move (what its search saw), or ""."""
    if stats is None or not stats.choices:
        return ""
    certain = _certain(stats)
    if certain:
        return f"({certain})"
    value = stats.choices[0][2]
    return (f"({counted(stats.iterations, 'game')} simulated in {stats.seconds:.1f} s; "
            f"it rates its chances at {percent(value)})")


def _certain(stats: Any) -> Optional[str]:
    """The note when the search needed no estimate, else None."""
    if stats.reason == "only action":
        return "its only legal action"
    if stats.verdict == "win":
        return "a forced win: it wins whatever the others do"
    if stats.verdict == "loss":
        return "it sees no defence: every action loses against the best answers"
    if stats.reason == "forced":
        return "the only action that does not lose at once"
    return None


def describe_hint(stats: Any, player: str, width: int = 80) -> str:
    """The answer to `hint`: the action the computer would play for `player`, and
    why, in lines of at most `width` characters."""
    lines = _hint_lines(stats, player)
    wrapped = [lines[0]]
    for line in lines[1:]:
        wrapped.extend(textwrap.wrap(line.strip(), width, initial_indent="  ", subsequent_indent="  "))
    return "\n".join(wrapped)


def _hint_lines(stats: Any, player: str) -> list[str]:
    best, visits, value = stats.choices[0]
    lines = [f"hint: {best}"]
    if stats.reason == "only action":
        lines.append(f"  {best} is the only legal action.")
        return lines
    if stats.verdict == "win":
        lines.append(f"  {best} wins by force: whatever the others answer, {player} {third_person(player, 'win')} "
                     "(the search has proved it).")
        return lines
    if stats.reason == "forced":
        lines.append(f"  Every other action lets an opponent win at once; {best} does not.")
        return lines
    if stats.verdict == "loss":
        lines.append(f"  Against the best answers every action loses; {best} holds out longest.")
        return lines
    lines.append(
        f"  The computer simulated {counted(stats.iterations, 'game')} from here in {stats.seconds:.1f} s, trying the "
        f"promising actions most. After {best} ({visits} of those games) {player} did best: "
        f"{percent(value)} of the points (a win counts 1, a draw 1/2), a rough estimate of "
        f"{possessive(player)} chances."
    )
    proven = getattr(stats, "proven", {})
    others = [f"{n} {_alternative(n, v, proven)} ({counted(c, 'game')})"
              for n, c, v in stats.choices[1:1 + SHOWN_ALTERNATIVES] if c]
    if others:
        lines.append("  Next best: " + ", ".join(others) + ".")
    unsafe = getattr(stats, "unsafe", [])
    if unsafe:
        shown = ", ".join(unsafe[:SHOWN_UNSAFE]) + (", ..." if len(unsafe) > SHOWN_UNSAFE else "")
        lines.append(f"  Left out because they give material away: {shown}.")
    if stats.reason == "alike":
        lines.append("  The actions differ no more than chance explains: any of them seems about as good.")
    return lines


def _alternative(notation: str, value: float, proven: dict[str, str]) -> str:
    """An alternative's worth: proved won or lost in words, else an estimate."""
    if proven.get(notation) == "win":
        return "wins by force"
    if proven.get(notation) == "loss":
        return "loses by force"
    return percent(value)
