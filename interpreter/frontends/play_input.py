"""The person's turn in `regelwerk play`: reading an entry, carrying out commands,
answering sites and `hint`. The words and messages are in prompt.py; the game
loop is `play.Session`.
"""
from __future__ import annotations

from typing import Any, Optional, Union

from ..api import CHANCE_NAME, Action
from ..limits import MAX_NOTATION_CHARS
from ..validation.diagnostics import shorten
from .prompt import (
    COMMANDS,
    describe_outcomes,
    describe_site,
    find_site,
    help_text,
    list_actions,
    not_legal_message,
    outcome_from_text,
    read_command,
)


class _Stop:
    """What `run_command` answers for quit."""


STOP = _Stop()


def prompt(session: Any, player: str) -> str:
    """`white [move]>`; at a chance event also whose turn it belongs to: `chance [roll] for red>`."""
    decision = session.game.decision(session.state)
    if player == CHANCE_NAME:
        return f"chance [{decision}] for {turn_owner(session)}> "
    return f"{player} [{decision}]> "


def turn_owner(session: Any) -> str:
    """The player whose turn a chance event belongs to."""
    from ..positions import turn_player

    return turn_player(session.game, session.state)


def ask(session: Any, player: str) -> Optional[str]:
    """A legal notation from the person; "" after undo; None to stop."""
    chance = player == CHANCE_NAME
    game = session.game
    while True:
        text: Optional[str] = session.reader.read(prompt(session, player), completions(session, chance))
        if text is None:
            return None
        if not text:
            continue
        if chance:
            outcome = outcome_from_text(game, session.state, text)
            if outcome is not None:
                return str(outcome.notation)
        elif text in game.legal_notations(session.state):  # the game's notation wins over commands
            return text
        command = read_command(text)
        if command is not None:
            answer = run_command(session, command, chance)
            if isinstance(answer, _Stop):
                return None
            if answer is not None:
                return answer
            continue
        site = find_site(game, text)
        if site is not None and not chance:
            session.say(describe_site(game, session.state, site))
            continue
        if chance:
            shown = shorten(text, MAX_NOTATION_CHARS)
            session.refuse(f"'{shown}' is not an outcome here; " + describe_outcomes(game, session.state))
            continue
        try:
            action: Action = game.parse_action(session.state, text)
            return action.notation
        except ValueError:  # IllegalActionError
            session.refuse(not_legal_message(game, session.state, text))


def completions(session: Any, chance: bool) -> list[str]:
    """What Tab may complete at the prompt: notations, sites, commands."""
    game = session.game
    if chance:
        words = [a.notation for a, _ in game.chance_outcomes(session.state)]
    else:
        words = game.legal_notations(session.state) + list(game.board.sites)
    return words + list(COMMANDS)


def run_command(session: Any, command: Any, chance: bool) -> Union[str, _Stop, None]:
    """Carry out a command: a notation to play, "" to ask again in the position now,
    STOP to end the session, or None to go on asking."""
    name, game, state = command.name, session.game, session.state
    if name == "quit":
        return STOP
    if name == "help":
        session.say(help_text(game, state, chance))
        picture = session.picture_hint()
        if picture:
            session.say(picture)
    elif name == "moves":
        session.say(describe_outcomes(game, state) if chance else list_actions(game, state))
    elif name == "undo":
        if session.undo():
            return ""
    elif name == "save":
        session.save_as(command.argument)
    elif name == "stacks":
        toggle_stacks(session)
    elif name == "board":
        session.draw()
    elif name == "hint":
        give_hint(session, chance)
    elif name == "random":
        if chance:
            drawn: str = session.draw_chance()
            return drawn
        session.say("'random' draws a chance outcome; here it is your decision")
    return None


def toggle_stacks(session: Any) -> None:
    session.show_stacks = not session.show_stacks
    has_stacks = any(p.height > 1 for p in session.game.pieces(session.state))
    state = "on" if session.show_stacks else "off"
    session.say(f"stack listing {state}" + ("" if has_stacks else " (no stack of two or more on the board now)"))
    if session.show_stacks and has_stacks:
        session.draw()


def hint_player(think: Optional[str]) -> Any:
    """The player that gives hints: the default player (`mcts`), at the time
    `--think` gives it (its default time without)."""
    from .agents import make_agent

    return make_agent("mcts", seed=0, think=think or "normal")


def give_hint(session: Any, chance: bool) -> None:
    """What the built-in player would do for the person, and why (see advice.py)."""
    from .advice import describe_hint
    from .render_text import terminal_size

    if chance:
        session.say("a chance event has no best choice; 'random' lets the program draw it")
        return
    player = session.game.to_move(session.state)
    agent = hint_player(session.think)
    session.search(agent, "hint", "thinking about a hint ...")
    session.say(describe_hint(agent.last_stats, player, terminal_size(session.out)[0]))
