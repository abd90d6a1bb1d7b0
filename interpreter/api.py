"""The public API: load a game, then ask it about positions. See docs/api.md.

    from interpreter import load_game
    game = load_game("GAME")
    state = game.initial_state()
    state = game.apply(state, game.legal_notations(state)[0])

Positions are `State` values: `apply` returns a new one and never changes the one
it is given. Tools that play very many positions use the fast layer,
`game.engine` (see `interpreter.runtime.engine.Engine`).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Optional, Sequence, Union

from .compilation.model import Attribute, GameModel
from .compilation.start_kinds import doubled_kinds, start_key
from .limits import MAX_NUMBER
from .loading.definition import Definition, bundled_games, load_definition
from .loading.options import board_size_numbers
from .pipeline import CheckedDefinition, CompiledDefinition, check_definition, compile_definition
from .runtime.compiled import CaseInfo, CasePattern
from .runtime.coverage import RuleCoverage
from .runtime.engine import Engine
from .runtime.errors import RuleRuntimeError
from .runtime.helpers import board_key, empty_sites
from .runtime.pieces import (
    CHANCE,
    CHANCE_NAME,
    DESTINATION,
    KIND,
    NEUTRAL,
    NEUTRAL_NAME,
    NO_CHOICE,
    NO_PLAYER,
    NO_SITE,
    ORIGIN,
    OWNER,
    STONES,
    ActionCode,
    actor_name,
)
from .runtime.results import plain_number
from .runtime.state import State, empty_occupancy
from .runtime.views import Action, BoardView, Ending, PieceView, Result
from .spelling import did_you_mean
from .validation.diagnostics import MAX_WORD_SHOWN, DefinitionError, shorten

if TYPE_CHECKING:
    from .runtime.compiled import CompiledRules
    from .runtime.pieces import Code, Piece
    from .validation.diagnostics import Diagnostic

__all__ = [
    "CHANCE_NAME",
    "NEUTRAL_NAME",
    "load_game",
    "bundled_games",
    "Game",
    "CheckedGame",
    "Action",
    "Ending",
    "Result",
    "PieceView",
    "BoardView",
    "PositionLayout",
    "CounterSlot",
    "DefinitionError",
    "IllegalActionError",
    "RuleRuntimeError",
]


class IllegalActionError(ValueError):
    """An action that is not legal in the position it was given for.

    `notation` is the text given (stripped), `ply` the number the action would
    have had (`state.ply + 1`), `game` the game's name."""

    def __init__(self, notation: str, ply: int, game: str, reason: str = "not legal here"):
        # (a notation given through the API may be of any length: the message shows its start)
        super().__init__(f"ply {ply}: action '{shorten(notation, MAX_WORD_SHOWN)}' is {reason} in {game}")
        self.notation = notation
        self.ply = ply
        self.game = game


class CounterSlot(NamedTuple):
    """What one entry of `state.vars` holds: a variable (`type` "int" or "flag"),
    one player's value of a per-player variable (`player` set), or one player's
    count in a pool (`type` "pool")."""

    name: str
    player: Optional[str]  # None for a variable that is not per player
    type: str  # "int", "flag" or "pool"


@dataclass(frozen=True)
class PositionLayout:
    """How the raw values of a `State` read, for tools that turn very many
    positions into numbers (the reinforcement-learning adapters): what each index
    stands for. docs/api.md, "Reading a position's values".

    - `state.board[i]` is site `sites[i]` (one more entry, always None, stands for
      "no site"): None or a piece tuple `(owner, kind, stones, attribute...)` —
      owner a player index or -1 (neutral), kind an index of `kinds`, stones the
      player indices of a stack's stones bottom first (None unless `stacks`), then
      the values of `attributes` in that order (runtime/pieces.py).
    - `state.vars[i]` is the value of `counters[i]`.
    - `state.phase` indexes `phases`, `state.decision` indexes `decisions` (a chance
      event where `chance[i]`), `state.player` is the player index whose turn it is
      (also during a chance event of that turn), `state.carry` the site index of
      the piece a follow-up decision acts on, or -1.
    """

    sites: tuple[str, ...]
    kinds: tuple[str, ...]
    attributes: tuple[tuple[str, str], ...]  # (name, type): "int", "flag" or "marker"
    stacks: bool
    counters: tuple[CounterSlot, ...]
    phases: tuple[str, ...]
    decisions: tuple[str, ...]
    chance: tuple[bool, ...]


def load_game(
    name_or_path: str,
    options: Optional[Mapping[str, Any]] = None,
    variant: Optional[str] = None,
    coverage: bool = False,
) -> "Game":
    """A game by bundled name, folder, YAML file or variant file, with options set.

    `name_or_path` is a bundled game's name (see `bundled_games()`), a game's
    folder, its YAML file, or a variant file. `options` maps option names to
    values (strings as typed on a command line are converted to the option's type
    and checked); `variant` is a variant file applied on top. With
    `coverage=True` the game counts how often each rule fires while it is played
    (`Game.coverage`, see `interpreter.runtime.coverage`); that costs speed.

    Returns the compiled `Game`. Raises `DefinitionError` (its `str` is ready to
    print, `.diagnostics` lists each problem) for a broken definition, a missing
    file or a bad option.
    """
    definition = load_definition(str(name_or_path), str(variant) if variant else None)
    return Game(definition, dict(options or {}), coverage=coverage)


class CheckedGame:
    """A definition checked at some options, its rules' code not written: what it
    is and its board, nothing to play (`validate` checks the other board sizes with
    these). Raises `DefinitionError` as `Game` does."""

    def __init__(self, definition: Definition, options: dict[str, Any]):
        self._describe(definition, check_definition(definition, options))

    def _describe(self, definition: Definition, checked: Union[CheckedDefinition, CompiledDefinition]) -> None:
        self.definition = definition
        self.model: GameModel = checked.model
        self.warnings: list[Diagnostic] = checked.warnings
        self._board_view: Optional[BoardView] = None

    # ------------------------------------------------------------ description
    @property
    def name(self) -> str:
        """The game's identifier (its `name:`), e.g. "mygame"."""
        return self.model.name

    @property
    def title(self) -> str:
        """The game's display name."""
        return self.model.title

    @property
    def players(self) -> tuple[str, ...]:
        """The names of the players in play, in turn order."""
        return tuple(self.model.players)

    @property
    def teams(self) -> dict[str, tuple[str, ...]]:
        """The teams (`teams:`) by name: their players in play, in turn order (a team
        with none in play left out; {} without teams)."""
        players = self.model.players
        return {name: tuple(players[i] for i in members) for name, members in self.model.teams.items()}

    @property
    def player_colors(self) -> dict[str, str]:
        """`{player: "#rrggbb"}`: each player's colour, for drawing."""
        return {p: self.model.player_colors[p] for p in self.model.players}

    @property
    def board(self) -> BoardView:
        """The board's geometry, enough to draw it: a `BoardView` (kind `grid` or
        `graph`, sites, drawing coordinates, edges, regions)."""
        if self._board_view is None:
            self._board_view = _board_view(self.model)
        return self._board_view


class Game(CheckedGame):
    """A compiled game. Positions are `State` values; the Game itself holds none.

    `engine` is the fast layer (action codes instead of `Action`s); `coverage`
    the rule coverage when loaded with `coverage=True`, else None; `warnings` the
    diagnostics of severity warning found while loading.
    """

    engine: Engine  # the fast layer (docs/api.md): what searches and playouts run on

    def __init__(self, definition: Definition, options: dict[str, Any], coverage: bool = False):
        """Compile a loaded definition with `options` (use `load_game`, which finds
        and reads the files). Raises `DefinitionError`."""
        compiled = compile_definition(definition, options, coverage)
        self._describe(definition, compiled)
        self.rules: CompiledRules = compiled.rules
        self.engine = Engine(compiled.rules)
        self.coverage: Optional[RuleCoverage] = compiled.rules.coverage
        self._layout: Optional[PositionLayout] = None
        # decision index -> ((Action, probability), ...)
        self._chance_actions: dict[int, tuple[tuple[Action, float], ...]] = {}

    @property
    def options(self) -> dict[str, Any]:
        """The effective option values, `{name: value}` (a copy; a decimal option's
        value an int when whole, else a float)."""
        return {name: plain_number(value) for name, value in self.model.options.items()}

    @property
    def option_specs(self) -> dict[str, dict[str, Any]]:
        """The declared options: `{name: {"default": ..., "description": ...,
        "values": [...]}}`, with `"type"` (and `"min"`, `"max"` when bounded)
        instead of `"values"` for an option that is not a choice among values, and
        `"board": ["files", "ranks"]` (what it gives) for an option that sizes the grid, and
        `"default_written"` (`board_size * board_size // 8`) for a default written with
        other options (`"default"` is then its value with their defaults)."""
        out = {}
        sized = board_size_numbers(self.definition.data)
        for name, spec in self.model.option_specs.items():
            entry: dict[str, Any] = {"default": plain_number(spec.default), "description": spec.description}
            if spec.default_number is not None:
                entry["default_written"] = spec.default_number.text
            if spec.values is not None:
                entry["values"] = [plain_number(v) for v in spec.values]
            else:
                entry["type"] = spec.type
                if spec.minimum is not None:
                    entry["min"] = spec.minimum
                if spec.maximum is not None:
                    entry["max"] = spec.maximum
            axes = [axis for axis, number in sized.items() if name in number.names]
            if axes:
                entry["board"] = axes
            out[name] = entry
        return out

    @property
    def kinds(self) -> dict[str, dict[str, Any]]:
        """The piece kinds: `{kind: {"symbol": "K", "owner": "player" or "neutral",
        "value": n}}`."""
        return {
            k.name: {"symbol": k.symbol, "owner": NEUTRAL_NAME if k.neutral else "player", "value": k.value}
            for k in self.model.kinds.values()
        }

    @property
    def pool_sites(self) -> dict[str, tuple[str, str]]:
        """`{site: (pool, player)}`: the board sites that show an off-board pool
        (homes) and whose pool they show."""
        out = {}
        names = self.model.board.names
        for pool in self.model.pools.values():
            for i, site in enumerate(pool.sites):
                if site != NO_SITE:
                    out[names[site]] = (pool.name, self.model.players[i])
        return out

    @property
    def layout(self) -> PositionLayout:
        """What the indices in a position's raw values stand for (`PositionLayout`):
        for tools that read `State` values directly rather than through `pieces`,
        `variables` and `pools`, which build names for every value."""
        if self._layout is None:
            self._layout = _position_layout(self.model, self.rules)
        return self._layout

    def possible_notations(self, chance: bool = False) -> tuple[str, ...]:
        """Every notation an action of the game can write, in any position: a fixed
        set, a superset of every position's legal notations, made from the compiled
        rules without playing (for fixed action spaces: docs/rl.md).

        Each case of an action is expanded over the fields its notation writes: for
        a moving action (`step`, `slide`, `walk`, `go to`, `jump`, ...) `{from}` over
        every site, `{to}` over every site and "off"; for a drop or a `select`
        `{to}` over every site; `{choice}` over none and each kind the case may
        promote to. Fields the notation does not write are not expanded, and
        notations written twice are listed once. In a fixed order: by case, then
        origin, destination and choice as they index the board and the kinds.
        With `chance=True`: the chance events' outcomes (`roll:4`) instead.
        """
        notation = self.engine.notation
        sites = range(len(self.model.board.names))
        seen: dict[str, None] = {}
        for index, case in enumerate(self.rules.cases):
            is_chance = case.pattern is CasePattern.CHANCE
            if is_chance != chance:
                continue
            template = set(case.template)
            moving = case.pattern.moves
            origins: Sequence[int] = sites if moving and "{from}" in template else (0 if moving else NO_SITE,)
            destinations: Sequence[int] = (NO_SITE,)
            if "{to}" in template:
                destinations = [*sites, NO_SITE] if moving else sites
            if is_chance:
                choices: Sequence[int] = range(len(self.rules.decisions[case.decision].outcome_labels))
            elif template & {"{choice}", "={choice}"}:
                choices = range(NO_CHOICE, len(case.choice_kinds))
            else:
                choices = (NO_CHOICE,)
            values = self._shown_values(case)
            for frm in origins:
                for to in destinations:
                    for choice in choices:
                        for shown in values:
                            seen.setdefault(notation(ActionCode(index, frm, to, NO_SITE, choice) + shown))
        return tuple(seen)

    def _shown_values(self, case: CaseInfo) -> list[tuple[Any, ...]]:
        """Every combination of the values a case's notation shows ([()] when none)."""
        ranges: list[Sequence[Any]] = []
        lost = case.shown_lost or ("",) * len(case.shown)
        for (field, kind), values, why in zip(case.shown, case.shown_values or (None,) * len(case.shown), lost):
            if kind == "site":
                ranges.append([*range(len(self.model.board.names)), NO_SITE])
            elif kind == "player":
                # (the deciding player, `{player}`, is never none)
                ranges.append(list(values) if values is not None else [*range(len(self.rules.players)), NO_PLAYER])
            elif kind == "flag":
                ranges.append([False, True])
            elif values is not None:
                ranges.append(values)
            else:
                raise ValueError(f"{self.name}: the notation of {case.label} shows {field}, whose values the rules "
                                 "do not fix (" + (why or "a number counted up or worked out while playing") +
                                 "): no fixed action space can list them")
        return list(itertools.product(*ranges))

    # ------------------------------------------------------------ positions
    def initial_state(self) -> State:
        """The start position (its legal actions listed: `before each turn` has run,
        and a game nobody can start is over). Raises `RuleRuntimeError` when the
        rules fail on it."""
        return self.engine.initial_state()

    def make_state(
        self,
        pieces: Mapping[str, Sequence[Any]],
        to_move: Optional[str] = None,
        phase: Optional[str] = None,
        decision: Optional[str] = None,
        variables: Optional[Mapping[str, Any]] = None,
        pools: Optional[Mapping[str, Mapping[str, int]]] = None,
        carry: Optional[str] = None,
        step: Optional[int] = None,
        ply: int = 0,
        next_player: Optional[str] = None,
        next_phase: Optional[str] = None,
        result: Optional[tuple[Optional[str], Mapping[str, Any]]] = None,
        seen: Optional[Mapping[int, int]] = None,
        before_turn_done: Optional[bool] = None,
    ) -> State:
        """A position built by hand (for tests, puzzles, analysis).

        `pieces`: {site: (owner, kind)} or {site: (owner, kind, {"stones": [...],
        attribute: value, ...})}; owner is a player name or "neutral". The board
        holds these pieces only. `to_move` is a player name (default: the first
        of the phase's order); `phase` defaults to the first phase, `decision` to
        the first of its turn; `carry` is the site of the piece a follow-up
        decision acts on. `variables` ({name: value}, a per-player variable as
        {player: value}) and `pools` ({pool: {player: count}}) set those given;
        the others keep their initial values. `step` is the place of the decision
        in its turn (default: where the decision stands in it), `ply` the actions
        played so far, `next_player` / `next_phase` what `next turn` / `start
        phase` have set for the next turn, `result` `(winner or None, {player:
        score})` for a finished game. `seen` ({position key: count}, the keys of
        `engine.history_key`) is how often earlier positions occurred, for
        `repetitions` (as `position_text` writes it); `before_turn_done` says whether the `before each turn` rules have
        already run here (default: they run when the position starts a turn —
        step 0 and no carried piece).

        Returns the position, settled like any other (its legal actions listed,
        the game ended when nobody can act). Raises `ValueError` for an unknown
        site, kind, attribute, player, phase, decision, variable or pool (with the
        nearest known name), or stones that do not fit, and for a position the
        rules were not compiled for (`_check_lone_kinds`); `RuleRuntimeError` when
        the rules fail on the position.
        """
        state = self.engine.blank_state()
        self._place_pieces(state, pieces)
        self._set_turn(state, to_move, phase, decision, carry, step)
        self._set_progress(state, ply, next_player, next_phase, result, seen)
        if before_turn_done is not None:
            state.turn_start = not before_turn_done
        self._set_counts(state, variables or {}, pools or {})
        self._check_lone_kinds(state)
        self.engine.settle(state)
        return state

    def _check_lone_kinds(self, state: State) -> None:
        """make_state: ValueError for a position the compiled code does not hold for,
        where the rules were compiled for kinds of which playing the first phase
        proved no player has two (compilation/start_kinds.py): a player with two
        pieces of one, or a position of that phase its play did not meet."""
        rules = self.engine.rules
        if rules.start_keys is None or state.result is not None:  # (no rule runs on a finished game's position)
            return
        doubled = doubled_kinds(state, rules.lone_from_start)
        if doubled:
            kind = next(name for name, k in self.model.kinds.items() if k.index in doubled)
            raise ValueError(f"a player has two pieces of kind '{kind}', which the rules never give a player "
                             f"(their compiled code counts on one at most)")
        if (state.phase == 0 or state.next_phase == 0) and start_key(state) not in rules.start_keys:
            raise ValueError(f"a position of the first phase '{rules.phases[0].name}' that its play never "
                             f"reaches: the rules are compiled for those it does (they make kinds of which "
                             f"no player has two there)")

    def _place_pieces(self, state: State, pieces: Mapping[str, Sequence[Any]]) -> None:
        """make_state: a board holding `pieces` only."""
        m = self.model
        state.board = [None] * (m.board.size + 1)  # the trailing entry: "no site"
        state.occ = empty_occupancy(len(m.players), self.engine.rules.masked_owners)
        attrs = {a.name: a for a in m.attributes.values()}
        for site, spec in pieces.items():
            index = _known("site", site, m.board.index)
            piece = self._made_piece(site, spec, attrs)
            state.board[index] = piece
            state.occ[piece[OWNER]].append(index)
        if self.engine.keeps_board_key:
            state.board_key = board_key(state.board)
        state.empty = empty_sites(state.board) if self.engine.rules.keeps_empty else None
        state.chains = None  # (no group known yet: runtime/chains.py)

    def _made_piece(self, site: str, spec: Sequence[Any], attrs: dict[str, Attribute]) -> Piece:
        """make_state: the piece tuple of `spec`, (owner, kind) or (owner, kind, {...})."""
        m = self.model
        owner_name, kind_name, *rest = spec
        extra = dict(rest[0]) if rest else {}
        owner = NEUTRAL if owner_name == NEUTRAL_NAME else _known("player", owner_name, m.players)
        piece = list(m.fresh_piece(owner, _known("piece kind", kind_name, m.kinds).index))
        stones = extra.pop("stones", None)
        if stones is not None:
            if not m.stacks:
                raise ValueError("this game has no stacks")
            colours = tuple(_known("player", c, m.players) for c in stones)
            if colours[-1] != owner:
                raise ValueError(f"the top stone at {site} must be the owner's colour")
            piece[STONES] = colours
        for name, value in extra.items():
            attr = _known("attribute", name, attrs)
            if attr.type == "int" and not isinstance(value, int):
                # (the rules type an int attribute as a whole number: compilation/tabulate.py
                # indexes tables by it)
                if not (isinstance(value, float) and value.is_integer()):
                    raise ValueError(f"attribute {name} at {site} takes a whole number, not {value!r}")
                value = int(value)
            piece[attr.index] = value
        return tuple(piece)

    def _set_turn(
        self,
        state: State,
        to_move: Optional[str],
        phase: Optional[str],
        decision: Optional[str],
        carry: Optional[str],
        step: Optional[int],
    ) -> None:
        """make_state: the phase, the player to move, the decision and the carried piece."""
        m = self.model
        rules = self.rules
        if phase is not None:
            state.phase = _known("phase", phase, [ph.name for ph in rules.phases])
        current = rules.phases[state.phase]
        state.player = _known("player", to_move, m.players) if to_move is not None else current.order[0]
        if decision is not None:
            state.decision = _known("decision", decision, [d.name for d in rules.decisions])
            if state.decision in current.turn:
                state.step = current.turn.index(state.decision)
        else:
            state.decision = current.turn[0]
            state.step = 0
        if carry is not None:
            state.carry = _known("site", carry, m.board.index)
        if step is not None:
            if not 0 <= step < max(1, len(current.turn)):
                raise ValueError(f"step {step} is not a place in the turn of phase '{current.name}'")
            state.step = step
        state.turn_start = state.step == 0 and state.carry == NO_SITE

    def _set_progress(
        self,
        state: State,
        ply: int,
        next_player: Optional[str],
        next_phase: Optional[str],
        result: Optional[tuple[Optional[str], Mapping[str, Any]]],
        seen: Optional[Mapping[int, int]],
    ) -> None:
        """make_state: the plies played, what the rules set for the next turn, the
        result and the history of positions."""
        m = self.model
        if not 0 <= ply <= MAX_NUMBER:
            raise ValueError(f"ply {ply} is not a count of actions")
        state.ply = ply
        if next_player is not None:
            state.next_player = _known("player", next_player, m.players)
        if next_phase is not None:
            state.next_phase = _known("phase", next_phase, [ph.name for ph in self.rules.phases])
        if result is not None:
            winner, scores = result
            state.result = (
                self._winner_code(winner) if winner is not None else NO_PLAYER,
                tuple(scores.get(p, 0) for p in m.players),
            )
        if seen:
            state.history = {int(k): int(v) for k, v in seen.items()}
            state.history_shared = False

    def _set_counts(
        self, state: State, variables: Mapping[str, Any], pools: Mapping[str, Mapping[str, int]]
    ) -> None:
        """make_state: the variables and pool counts given; the others keep their initial values."""
        m = self.model
        for name, value in variables.items():
            var = _known("variable", name, m.variables)
            stored = self._site_slot if var.type == "site" else self._player_slot if var.type == "player" else int
            if var.per_player:
                for player, v in value.items():
                    state.vars[var.offset + _known("player", player, m.players)] = stored(v)
            else:
                state.vars[var.offset] = stored(value)
        for name, counts in pools.items():
            pool = _known("pool", name, m.pools)
            for player, v in counts.items():
                state.vars[pool.offset + _known("player", player, m.players)] = int(v)

    def _site_slot(self, value: Any) -> int:
        """make_state: a site variable's value, a site name or None, as stored."""
        return -1 if value is None else int(_known("site", value, self.model.board.index))

    def _player_slot(self, value: Any) -> int:
        """make_state: a player variable's value, a player's name or None, as stored."""
        return -1 if value is None else _known("player", value, self.model.players)

    def position_text(self, state: State) -> str:
        """The position as one line of text (see `interpreter.positions`)."""
        from .positions import position_text

        return position_text(self, state)

    def parse_position(self, text: str) -> State:
        """The position written by `position_text`; `PositionError` (a ValueError)
        with a clear message for anything else."""
        from .positions import parse_position

        state: State = parse_position(self, text)
        return state

    def to_move(self, state: State) -> Optional[str]:
        """Who acts in `state`: a player name, CHANCE_NAME ("chance") at a chance
        event, or None once the game is over."""
        who = self.engine.to_move(state)
        return actor_name(who, self.model.players) if who is not None else None

    def legal_actions(self, state: State) -> list[Action]:
        """The legal actions in `state`, as `Action`s (a chance event's outcomes at
        a chance event), each notation once: of two actions that write one
        notation, the first listed is kept. Empty once the game is over."""
        return [self._action(code) for code in self.engine.legal(state)]

    def legal_notations(self, state: State) -> list[str]:
        """The notations of `legal_actions(state)`, sorted."""
        notation = self.engine.notation
        return sorted(notation(code) for code in self.engine.legal(state))

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        """At a chance event: every outcome as `(Action, probability)`; empty when a
        player is to move or the game is over. The list is the same for every
        position of one chance event (`decision(state)`) unless it draws from a
        set (`outcomes one of SET`, `is_drawn_from_set`): then it holds the set's
        members as the position stands, each as likely."""
        if self.engine.to_move(state) != CHANCE:
            return []
        if self.is_drawn_from_set(state):
            return [(self._action(code), p) for code, p in self.engine.chance_probabilities(state)]
        # A chance event's fixed outcomes are the same in every position: made once.
        known = self._chance_actions.get(state.decision)
        if known is None:
            known = self._chance_actions[state.decision] = tuple(
                (self._action(code), p) for code, p in self.engine.chance_probabilities(state)
            )
        return list(known)

    def is_drawn_from_set(self, state: State) -> bool:
        """Whether the chance event `state` is at draws its outcomes from a set as
        the position stands (`outcomes one of SET`, docs/format.md 3.9), so that
        they differ from one position of the event to another."""
        decision = self.engine.decisions[state.decision]
        return decision.is_chance and decision.legal is not None

    def parse_action(self, state: State, text: str) -> Action:
        """The legal `Action` of `state` whose notation is `text` (surrounding
        spaces ignored; tried as given, then in lower case).

        Raises `IllegalActionError` when no legal action writes that notation,
        or the game is over."""
        wanted = text.strip()
        codes = self.engine.legal(state)
        notation = self.engine.notation
        by_text: dict[str, Code] = {}
        for listed in codes:
            # Two actions with one notation are merged when listed; the first counts.
            by_text.setdefault(notation(listed), listed)
        code = by_text.get(wanted)
        if code is None:
            code = by_text.get(wanted.lower())
        if code is None:
            reason = "after the end of the game" if state.result is not None else "not legal here"
            raise IllegalActionError(wanted, state.ply + 1, self.name, reason)
        return self._action(code)

    def apply(self, state: State, action: Union[Action, str]) -> State:
        """The position after `action` is played in `state`.

        `action` is an `Action` of this position (from `legal_actions`,
        `parse_action` or `chance_outcomes`) or a notation, which is looked up
        with `parse_action`. Returns a new `State`: `state` itself is unchanged.

        Raises `IllegalActionError` for a notation that no legal action of `state`
        writes, an `Action` that is not one of them (one of another position), or
        when the game is over; `RuleRuntimeError` when the rules fail while the
        action is applied (the message locates the rule).
        """
        if isinstance(action, str):
            action = self.parse_action(state, action)
        elif not isinstance(action, Action):
            raise TypeError(f"an action is an Action of the position or its notation, not {type(action).__name__}")
        elif action.code not in self.engine.legal(state):
            reason = "after the end of the game" if state.result is not None else "not legal here"
            raise IllegalActionError(action.notation, state.ply + 1, self.name, reason)
        new = state.copy()
        self.engine.apply_in_place(new, action.code)
        return new

    def is_terminal(self, state: State) -> bool:
        """Whether the game is over in `state` (nobody is to move)."""
        return self.engine.to_move(state) is None

    def result(self, state: State) -> Optional[Result]:
        """How the game came out, once it is over in `state`, else None:
        `Result(winner, scores, ending)` — `winner` a player name or None (a draw,
        or no single winner), `scores` `{player: score}` (an int, or a float for a
        score with a fractional part: the exact value decided the winner), `ending`
        the rule that ended the game (an `Ending`)."""
        outcome = self.engine.outcome(state)
        if outcome is None:
            return None
        winner, scores = outcome
        players = self.model.players
        return Result(
            self._winner_name(winner),
            {p: plain_number(scores[i]) for i, p in enumerate(players)},
            self._ending(state),
            tuple(players[i] for i in self.engine.winners(winner)),
        )

    def _winner_name(self, code: int) -> Optional[str]:
        """The name an outcome's winner code stands for: a player, a team of two or
        more players in play, or None."""
        members = self.engine.winners(code)
        if not members:
            return None
        if len(members) == 1:
            return self.model.players[members[0]]
        return next(name for name, team in self.model.teams.items() if team == members)

    def _winner_code(self, name: str) -> int:
        """The outcome's winner code of a player's or a team's name."""
        team = self.model.teams.get(name)
        if team is not None:  # (a team with one player in play: that player)
            return self.engine.results.code_of(team)
        return int(_known("player", name, self.model.players))

    def _ending(self, state: State) -> Optional[Ending]:
        found = self.engine.ending(state)
        if found is None or found[1] is None:
            return None
        how, pos = found
        text = ""
        source = self.definition.sources.get(pos.file)
        if source is not None:
            lines = source.splitlines()
            if 0 < pos.line <= len(lines):
                text = lines[pos.line - 1].strip()
        return Ending(how, pos.file, pos.line, pos.column, text)

    def current_scores(self, state: State) -> Optional[dict[str, float]]:
        """The game's `score` rule evaluated on this position (over or not), or None
        when the rules define no score. Useful to judge unfinished games."""
        values = self.engine.scores(state)
        if values is None:
            return None
        return {p: plain_number(values[i]) for i, p in enumerate(self.model.players)}

    def phase(self, state: State) -> str:
        """The name of the current phase."""
        return self.engine.phases[state.phase].name

    def decision(self, state: State) -> str:
        """The name of the decision (or chance event) to be taken now."""
        return self.engine.decisions[state.decision].name

    def last_action(self, state: State) -> Optional[Action]:
        """The `Action` that led to `state`, or None (the start, or a position made
        with `make_state`)."""
        return self._action(state.last) if state.last is not None else None

    def pieces(self, state: State) -> list[PieceView]:
        """The pieces on the board, in the order of the sites: `PieceView(site,
        kind, owner, attributes, stones)`, owner None for a neutral piece."""
        m = self.model
        names = m.board.names
        kinds = sorted(m.kinds.values(), key=lambda k: k.index)
        attrs = m.attributes_in_order()
        out = []
        for site, p in enumerate(state.board):
            if p is None:
                continue
            owner = m.players[p[OWNER]] if p[OWNER] != NEUTRAL else None
            attributes = {a.name: p[a.index] for a in attrs}
            stones = tuple(m.players[c] for c in p[STONES]) if p[STONES] is not None else None
            out.append(PieceView(names[site], kinds[p[KIND]].name, owner, attributes, stones))
        return out

    def pools(self, state: State) -> dict[str, dict[str, int]]:
        """The counts of the off-board pools: `{pool: {player: count}}`."""
        return {
            pool.name: {p: state.vars[pool.offset + i] for i, p in enumerate(self.model.players)}
            for pool in self.model.pools.values()
        }

    def variables(self, state: State) -> dict[str, Any]:
        """The game's variables: `{name: value}` (an int, a bool for a flag, a site's
        name or None for a site variable, a player's name or None for a player variable);
        a per-player variable as `{player: value}`."""
        out: dict[str, Any] = {}
        names, players = self.model.board.names, self.model.players
        for var in self.model.variables.values():
            cast: Callable[[int], Any] = int
            if var.type == "flag":
                cast = bool
            elif var.type == "site":
                cast = lambda i: names[i] if i >= 0 else None  # noqa: E731
            elif var.type == "player":
                cast = lambda i: players[i] if i >= 0 else None  # noqa: E731
            if var.per_player:
                out[var.name] = {p: cast(state.vars[var.offset + i]) for i, p in enumerate(self.model.players)}
            else:
                out[var.name] = cast(state.vars[var.offset])
        return out

    def _action(self, code: Code) -> Action:
        names = self.model.board.names
        origin, destination = code[ORIGIN], code[DESTINATION]
        frm = names[origin] if origin != NO_SITE else None
        to = names[destination] if destination != NO_SITE else None
        return Action(self.engine.notation(code), code, frm, to)


def _known(what: str, name: Any, known: Any) -> Any:
    """make_state: what `name` stands for in `known` (a dict: its value; a list: its
    index), or ValueError naming the nearest known name."""
    if isinstance(known, Mapping):
        if name in known:
            return known[name]
    elif name in known:
        return list(known).index(name)
    hint = did_you_mean(str(name), [str(k) for k in known])
    raise ValueError(f"unknown {what} {name!r}" + (f"; {hint}" if hint else ""))


def _position_layout(model: GameModel, rules: CompiledRules) -> PositionLayout:
    players = model.players
    counters: list[Optional[CounterSlot]] = [None] * len(rules.initial_vars)
    for var in model.variables.values():
        if var.per_player:
            for i, player in enumerate(players):
                counters[var.offset + i] = CounterSlot(var.name, player, var.type)
        else:
            counters[var.offset] = CounterSlot(var.name, None, var.type)
    for pool in model.pools.values():
        for i, player in enumerate(players):
            counters[pool.offset + i] = CounterSlot(pool.name, player, "pool")
    missing = [i for i, slot in enumerate(counters) if slot is None]
    if missing:  # (every value of a position belongs to a variable or a pool)
        raise AssertionError(f"values {missing} of a position belong to no variable or pool")
    return PositionLayout(
        sites=tuple(model.board.names),
        kinds=tuple(k.name for k in sorted(model.kinds.values(), key=lambda k: k.index)),
        attributes=tuple((a.name, a.type) for a in model.attributes_in_order()),
        stacks=bool(model.stacks),
        counters=tuple(slot for slot in counters if slot is not None),
        phases=tuple(phase.name for phase in rules.phases),
        decisions=tuple(d.name for d in rules.decisions),
        chance=tuple(bool(d.is_chance) for d in rules.decisions),
    )


def _board_view(model: GameModel) -> BoardView:
    board = model.board
    names = board.names
    regions = {}
    for region in model.regions.values():
        if region.per_player:
            for i, p in enumerate(model.players):
                regions[f"{region.name}.{p}"] = frozenset(names[s] for s in region.sites[i])
        else:
            regions[region.name] = frozenset(names[s] for s in region.sites[0])
    return BoardView(
        kind=board.kind,
        sites=tuple(names),
        coords={names[i]: board.coords[i] for i in range(board.size)},
        edges=tuple((names[a], names[b], one_way) for a, b, one_way in board.edges),
        files=board.files,
        ranks=board.ranks,
        regions=regions,
    )

