"""A position as one line of text and back, for any definition (`Game.position_text`,
`Game.parse_position`; `regelwerk moves GAME --position TEXT`).

    rw1; game mygame; ply 4; phase play; turn white move 0; board a2=white.piece
    d5=white.piece[rank=3,leader=1] ...; variables count=0 done=white:0,black:1;
    pools reserve=white:12,black:12; carry d5; next black -; over white white:1,black:0

The first field is the tag and version (`rw1`); the others are a keyword and its
arguments, separated by `;`, in any order. `board` lists the pieces as
`SITE=OWNER.KIND`, then the attributes that differ from a new piece's in brackets
and, for a stack of two or more stones, its stones bottom to top in parentheses
(`d4=white.tower(black,white)`); `neutral` owns neutral pieces and `-` is an empty
board. `turn` is the player whose turn it is, the decision (or chance event) to
be taken and its place in the turn; `carry` the site of the piece a follow-up
decision acts on; `next` who plays the next turn and in which phase, when a rule
has said so; `over` the winner (`draw` for none) and the scores of a finished game;
`seen`, in a game whose rules count `repetitions`, how often each earlier position
occurred at the start of a turn, as `KEY:COUNT` with the position's key (a number
the interpreter computes from the position: `Engine.history_key`), after
`keys=NUMBER`, which tells how those keys were made (`runtime/engine.history_keys`).
Numbers are whole numbers; flags are 0 or 1. A reader rejects a field it does not
know, so that no part of a position is silently lost when later versions add some.

Versions: `rw1` wrote the keys of `seen` as the hash of the whole position, which
is no longer how positions are counted; `rw2` counts them by a key of the board
kept by its writes (or, where keeping it would cost more, of the board hashed
whole) and says how its keys were made. A position of either version
is read; keys that cannot be carried over — every key of an `rw1` position, or
keys made by an interpreter that hashes otherwise (another Python version; before
Python 3.12, another process, since the hash of an empty attribute, `None`,
differs from one process to the next) — are left out with a note (a
`PositionNote` warning, which `regelwerk moves --position` prints): the position
then has no past, and its repetitions count from there. Replaying the game's
record (`regelwerk replay`) counts them all again.
"""
from __future__ import annotations

import re
import warnings
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Protocol

from .runtime.engine import history_keys
from .runtime.pieces import NEUTRAL_NAME, NO_PLAYER, NO_SITE
from .runtime.values import decimal_text

if TYPE_CHECKING:
    from .compilation.model import GameModel
    from .frontends.protocol import FrontendGame
    from .runtime.compiled import CompiledRules
    from .runtime.state import State

    class Game(FrontendGame, Protocol):
        """What positions read of a game (`api.Game`) beyond the front ends' contract.
        (Not `api.Game` itself, which calls this module: the two would import each other.)"""

        @property
        def model(self) -> GameModel: ...

        @property
        def rules(self) -> CompiledRules: ...

        @property
        def make_state(self) -> Callable[..., State]: ...

TAG = "rw2"
OLDER_TAGS = ("rw1",)  # (read too: their `seen` is left out, see the module's doc)
MAX_LENGTH = 200_000  # characters: a position is read from untrusted text
NONE = "-"

_PIECE = re.compile(
    r"^(?P<site>[^=\s]+)=(?P<owner>[^.\s]+)\.(?P<kind>[^\[\](),\s]+)"
    r"(?:\[(?P<attributes>[^\]]*)\])?(?:\((?P<stones>[^)]*)\))?$"
)


class PositionError(ValueError):
    """A position text that cannot be read; the message says what and where."""


class PositionNote(UserWarning):
    """Part of a position text that was read but left out (the `seen` keys that
    cannot be carried over); the message says which and why."""


# -- writing --------------------------------------------------------------------------------


def position_text(game: Game, state: State) -> str:
    """The position as one line (see the module's doc); `parse_position` reads it back."""
    turn = _turn_of(game, state)
    fields = [TAG, f"game {game.name}", f"ply {turn['ply']}", f"phase {game.phase(state)}",
              f"turn {turn['player']} {game.decision(state)} {turn['step']}", "board " + _board_text(game, state)]
    variables = game.variables(state)
    if variables:
        fields.append("variables " + " ".join(f"{k}={_value_text(v)}" for k, v in variables.items()))
    pools = game.pools(state)
    if pools:
        fields.append("pools " + " ".join(f"{k}={_value_text(v)}" for k, v in pools.items()))
    if turn["carry"] is not None:
        fields.append(f"carry {turn['carry']}")
    if turn["next_player"] is not None or turn["next_phase"] is not None:
        fields.append(f"next {turn['next_player'] or NONE} {turn['next_phase'] or NONE}")
    if turn["result"] is not None:
        winner, scores = turn["result"]
        fields.append(f"over {winner or 'draw'} {_value_text(scores)}")
    if turn["seen"]:
        fields.append(f"seen keys={history_keys(game.rules.keeps_board_key)} "
                      + " ".join(f"{key}:{count}" for key, count in sorted(turn["seen"].items())))
    return "; ".join(fields)


def _turn_of(game: Game, state: State) -> dict[str, Any]:
    """What a position holds beyond pieces, pools and variables.

    The only place that reads the runtime's `State` fields directly (there is no
    view of them yet): when `State` changes, this is the function to change.
    """
    players, sites = game.players, game.board.sites
    phases = phase_names(game)
    result = None
    if state.result is not None:
        ended = game.result(state)
        result = (ended.winner if ended is not None else None, dict(zip(players, state.result[1])))
    return {
        "ply": state.ply,
        "player": players[state.player],
        "step": state.step,
        "carry": sites[state.carry] if state.carry != NO_SITE else None,
        "next_player": players[state.next_player] if state.next_player != NO_PLAYER else None,
        "next_phase": phases[state.next_phase] if state.next_phase != -1 else None,
        "result": result,
        "seen": state.history,
    }


def turn_player(game: Game, state: State) -> str:
    """The player whose turn it is — also at a chance event, which belongs to a turn."""
    player: str = _turn_of(game, state)["player"]
    return player


def phase_names(game: Game) -> list[str]:
    """The phases of the rules in order (read from the compiled rules, like `_turn_of`)."""
    return [phase.name for phase in game.rules.phases]


def decision_names(game: Game) -> list[str]:
    """The decisions and chance events of the rules in order."""
    return [decision.name for decision in game.rules.decisions]


def _board_text(game: Game, state: State) -> str:
    defaults = piece_defaults(game)
    order = {site: i for i, site in enumerate(game.board.sites)}
    tokens = []
    for piece in sorted(game.pieces(state), key=lambda p: order[p.site]):
        token = f"{piece.site}={piece.owner or NEUTRAL_NAME}.{piece.kind}"
        changed = [f"{k}={_number(v)}" for k, v in piece.attributes.items() if v != defaults.get(k)]
        if changed:
            token += "[" + ",".join(changed) + "]"
        if piece.stones is not None and len(piece.stones) > 1:
            token += "(" + ",".join(piece.stones) + ")"
        tokens.append(token)
    return " ".join(tokens) or NONE


def piece_defaults(game: Game) -> dict[str, Any]:
    """The attributes of a new piece (a piece on its own, built with `make_state`)."""
    kind = next(iter(game.kinds))
    owner = game.players[0] if game.kinds[kind].get("owner") != NEUTRAL_NAME else NEUTRAL_NAME
    # (as a finished game, so that no rule runs on this position)
    lone = game.make_state({game.board.sites[0]: (owner, kind)}, result=(None, {}))
    pieces = game.pieces(lone)
    return dict(pieces[0].attributes) if pieces else {}


def _value_text(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}:{_number(v)}" for k, v in value.items())
    return _number(value)


def _number(value: Any) -> str:
    if value is None:
        return NONE  # (a site variable holding none)
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Fraction):
        return decimal_text(value)
    return str(value)


# -- reading --------------------------------------------------------------------------------


def parse_position(game: Game, text: str) -> State:
    """The position written by `position_text`; PositionError for anything else."""
    if len(text) > MAX_LENGTH:
        raise PositionError(f"a position of {len(text)} characters is too long (at most {MAX_LENGTH})")
    fields = [f.strip() for f in text.strip().split(";")]
    if not fields or fields[0] not in (TAG, *OLDER_TAGS):
        raise PositionError(f"a position starts with '{TAG}', not '{fields[0][:20] if fields else ''}'")
    seen: dict[str, str] = {}
    for field in fields[1:]:
        keyword, _, rest = field.partition(" ")
        if keyword not in _READERS:
            raise PositionError(f"unknown field '{keyword}' (known: {', '.join(_READERS)})")
        if keyword in seen:
            raise PositionError(f"the field '{keyword}' is given twice")
        seen[keyword] = rest.strip()
    for required in ("phase", "turn", "board"):
        if required not in seen:
            raise PositionError(f"the field '{required}' is missing")
    reader = _Reader(game, fields[0])
    arguments: dict[str, Any] = {}
    for keyword, rest in seen.items():
        arguments.update(_READERS[keyword](reader, rest))
    try:
        # a position written by `position_text` has been settled: its turn has begun
        return game.make_state(before_turn_done=True, **arguments)
    except (ValueError, KeyError, IndexError) as exc:
        raise PositionError(f"not a position of {game.name}: {exc}") from None


class _Reader:
    """Checks the names of a position against the game, with messages that say which."""

    def __init__(self, game: Game, tag: str = TAG) -> None:
        self.game = game
        self.tag = tag  # the position's version

    def name(self, what: str, text: str, known: Iterable[str]) -> str:
        if text not in known:
            shown = ", ".join(list(known)[:12])
            raise PositionError(f"unknown {what} '{text}' in {self.game.name} (known: {shown})")
        return text

    def player(self, text: str) -> str:
        return self.name("player", text, self.game.players)

    def winner(self, text: str) -> str:
        """A player's name or a team's (`teams:`)."""
        if text in self.game.model.teams:
            return text
        return self.name("player", text, self.game.players)

    def site(self, text: str) -> str:
        return self.name("site", text, self.game.board.sites)

    def whole(self, text: str, what: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise PositionError(f"{what}: expected a whole number, got '{text}'") from None

    def per_player(self, text: str, what: str, held: Optional[str] = None) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for item in text.split(","):
            player, sep, value = item.partition(":")
            if not sep:
                raise PositionError(f"{what}: expected PLAYER:VALUE, got '{item}'")
            values[self.player(player)] = self.value(value, what, held)
        return values

    def held_name(self, variable: str) -> Optional[str]:
        """What the variable holds when it is written by a name (or `none`): "site" or
        "player"; None for a number or flag."""
        var = self.game.model.variables.get(variable)
        return var.type if var is not None and var.type in ("site", "player") else None

    def value(self, text: str, what: str, held: Optional[str]) -> Any:
        """A variable's value: a whole number, or the name `held` says (or none)."""
        if held is None:
            return self.whole(text, what)
        if text == NONE:
            return None
        return self.site(text) if held == "site" else self.player(text)

    def assignments(self, text: str, known: dict[str, Any], what: str) -> dict[str, Any]:
        """`name=value` or `name=player:value,...` items of the variables or pools."""
        out: dict[str, Any] = {}
        for item in text.split():
            name, sep, value = item.partition("=")
            self.name(what, name, known)
            if not sep:
                raise PositionError(f"{what} '{name}': expected {name}=VALUE")
            per_player = isinstance(known[name], dict)
            held = self.held_name(name) if what == "variable" else None
            out[name] = self.per_player(value, name, held) if per_player else self.value(value, name, held)
        return out


def _read_game(reader: _Reader, rest: str) -> dict[str, Any]:
    if rest != reader.game.name:
        raise PositionError(f"this is a position of '{rest}', not of '{reader.game.name}'")
    return {}


def _read_ply(reader: _Reader, rest: str) -> dict[str, Any]:
    ply = reader.whole(rest, "ply")
    if ply < 0:
        raise PositionError(f"ply: expected a number of at least 0, got {ply}")
    return {"ply": ply}


def _read_phase(reader: _Reader, rest: str) -> dict[str, Any]:
    return {"phase": reader.name("phase", rest, phase_names(reader.game))}


def _read_turn(reader: _Reader, rest: str) -> dict[str, Any]:
    parts = rest.split()
    if len(parts) != 3:
        raise PositionError(f"turn: expected PLAYER DECISION STEP, got '{rest}'")
    decisions = decision_names(reader.game)
    return {"to_move": reader.player(parts[0]), "decision": reader.name("decision", parts[1], decisions),
            "step": reader.whole(parts[2], "turn step")}


def _read_board(reader: _Reader, rest: str) -> dict[str, Any]:
    game = reader.game
    defaults = piece_defaults(game)
    pieces: dict[str, tuple[Any, ...]] = {}
    for token in ([] if rest == NONE else rest.split()):
        match = _PIECE.match(token)
        if match is None:
            raise PositionError(f"board: '{token}' is not SITE=OWNER.KIND[ATTRIBUTES](STONES)")
        site = reader.site(match["site"])
        if site in pieces:
            raise PositionError(f"board: two pieces on {site}")
        owner = match["owner"] if match["owner"] == NEUTRAL_NAME else reader.player(match["owner"])
        kind = reader.name("kind of piece", match["kind"], game.kinds)
        extra: dict[str, Any] = {}
        for item in (match["attributes"] or "").split(",") if match["attributes"] else []:
            name, _, value = item.partition("=")
            reader.name("attribute", name, defaults)
            number = reader.whole(value, f"attribute {name} at {site}")
            extra[name] = bool(number) if isinstance(defaults[name], bool) else number
        if match["stones"] is not None:
            extra["stones"] = [reader.player(p) for p in match["stones"].split(",")]
        pieces[site] = (owner, kind, extra) if extra else (owner, kind)
    return {"pieces": pieces}


def _read_variables(reader: _Reader, rest: str) -> dict[str, Any]:
    return {"variables": reader.assignments(rest, reader.game.variables(reader.game.initial_state()), "variable")}


def _read_pools(reader: _Reader, rest: str) -> dict[str, Any]:
    return {"pools": reader.assignments(rest, reader.game.pools(reader.game.initial_state()), "pool")}


def _read_carry(reader: _Reader, rest: str) -> dict[str, Any]:
    return {"carry": reader.site(rest)}


def _read_next(reader: _Reader, rest: str) -> dict[str, Any]:
    parts = rest.split()
    if len(parts) != 2:
        raise PositionError(f"next: expected PLAYER PHASE (or -), got '{rest}'")
    phases = phase_names(reader.game)
    player = None if parts[0] == NONE else reader.player(parts[0])
    phase = None if parts[1] == NONE else reader.name("phase", parts[1], phases)
    return {"next_player": player, "next_phase": phase}


def _read_over(reader: _Reader, rest: str) -> dict[str, Any]:
    winner, _, scores = rest.partition(" ")
    winner_name: Optional[str] = None if winner == "draw" else reader.winner(winner)
    values: dict[str, int | Fraction] = {}
    for item in scores.split(","):
        player, sep, value = item.partition(":")
        if not sep:
            raise PositionError(f"over: expected WINNER PLAYER:SCORE,..., got '{rest}'")
        try:
            if "/" in value:  # (a quotient whose digits never end: format.md 3.12)
                if not re.fullmatch(r"-?\d{1,40}/\d{1,40}", value):
                    raise ValueError(value)
                values[reader.player(player)] = Fraction(value)
            elif "." in value and not re.fullmatch(r"-?\d{1,16}\.\d{1,6}", value):
                raise ValueError(value)
            else:
                values[reader.player(player)] = Fraction(value) if "." in value else int(value)
        except (ValueError, ZeroDivisionError):
            raise PositionError(f"over: '{value}' is not a score") from None
    missing = [p for p in reader.game.players if p not in values]
    if missing:
        raise PositionError(f"over: no score for {', '.join(missing)}")
    return {"result": (winner_name, values)}


def _read_seen(reader: _Reader, rest: str) -> dict[str, Any]:
    if not reader.game.rules.keeps_history:
        raise PositionError(f"seen: the rules of {reader.game.name} do not count repeated positions")
    items = rest.split()
    made = reader.tag == TAG and items and items[0].startswith("keys=")
    if made:
        keys = reader.whole(items.pop(0)[len("keys="):], "seen keys")
    elif reader.tag == TAG:
        raise PositionError(f"seen: expected keys=NUMBER first, got '{items[0] if items else ''}'")
    seen: dict[int, int] = {}
    for item in items:
        key, sep, count = item.partition(":")
        if not sep:
            raise PositionError(f"seen: expected KEY:COUNT, got '{item}'")
        number = reader.whole(count, "seen")
        if number < 1:
            raise PositionError(f"seen: a position occurred at least once, not {number} times")
        seen[reader.whole(key, "seen")] = number
    if not made:
        warnings.warn(PositionNote(
            f"seen: the positions seen before were written by {reader.tag}, whose keys are not those "
            f"{reader.game.name}'s positions are counted by now ({TAG}); they are left out, so that "
            "repetitions count from this position on (replaying the game's record counts them all)"), stacklevel=2)
        return {}
    if keys != history_keys(reader.game.rules.keeps_board_key):
        warnings.warn(PositionNote(
            "seen: the positions seen before were counted by keys made otherwise (another Python version, or "
            "before Python 3.12 another process); they are left out, so that repetitions count from this "
            "position on (replaying the game's record counts them all)"), stacklevel=2)
        return {}
    return {"seen": seen}


_READERS = {
    "game": _read_game, "ply": _read_ply, "phase": _read_phase, "turn": _read_turn, "board": _read_board,
    "variables": _read_variables, "pools": _read_pools, "carry": _read_carry, "next": _read_next,
    "over": _read_over, "seen": _read_seen,
}
