"""Small hand-written games that follow the `Game` contract of docs/api.md (the
part the front ends rely on, `contract.FrontendGame`; test_contract.py checks them).

They let the front ends (agents, renderers) be tested without the interpreter:
- `TicTacToe`: a 3x3 grid, two players, placements `@b2`.
- `CoinRace`: a graph with three players, a coin (chance), homes shown as pool
  sites, one-way edges out of the homes and a neutral rock.
- `TreeGame`: an explicit game tree (decisions, chance, results) for checking what
  a search prefers.
- `StaticGame`: one fixed position with whatever pieces, pools and variables a
  rendering test wants to draw.
- `EndlessPoints`: a game that never ends, where only the score rule
  (`current_scores`) tells the actions apart.

Each fake also answers `engine` (the fast layer of docs/api.md) through
`FakeEngine`, so that the default MCTS player, which plays on action codes,
can be tested on them too.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from interpreter.runtime.views import Action, BoardView, PieceView, Result

FILES = "abcdefghijklmnopqrstuvwxyz"


def make_state(
    self,
    pieces: Mapping[str, Sequence[Any]],
    to_move: str | None = None,
    phase: str | None = None,
    decision: str | None = None,
    variables: Mapping[str, Any] | None = None,
    pools: Mapping[str, Mapping[str, int]] | None = None,
    carry: str | None = None,
    step: int | None = None,
    ply: int = 0,
    next_player: str | None = None,
    next_phase: str | None = None,
    result: tuple[str | None, Mapping[str, Any]] | None = None,
    seen: Mapping[int, int] | None = None,
    before_turn_done: bool | None = None,
) -> Any:
    """The contract's `make_state`, which no fake builds positions by (the endgame
    search asks it only of games with pieces and a counter that draws)."""
    raise NotImplementedError("a fake game builds no position by hand")


class IllegalActionError(ValueError):
    def __init__(self, notation: str, ply: int) -> None:
        super().__init__(f"illegal action {notation!r} at ply {ply}")
        self.notation = notation
        self.ply = ply


def grid_board(files: int, ranks: int) -> BoardView:
    sites = tuple(f"{FILES[f]}{r + 1}" for r in range(ranks) for f in range(files))
    coords = {f"{FILES[f]}{r + 1}": (float(f), float(r)) for r in range(ranks) for f in range(files)}
    edges = []
    for r in range(ranks):
        for f in range(files):
            if f + 1 < files:
                edges.append((f"{FILES[f]}{r + 1}", f"{FILES[f + 1]}{r + 1}", False))
            if r + 1 < ranks:
                edges.append((f"{FILES[f]}{r + 1}", f"{FILES[f]}{r + 2}", False))
    return BoardView("grid", sites, coords, tuple(edges), files=files, ranks=ranks)


class Position:
    """A fake's position as the fast layer wants it: changed in place."""

    __slots__ = ("inner",)

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __eq__(self, other: object) -> bool:
        return self.inner == (other.inner if isinstance(other, Position) else other)

    def __hash__(self) -> int:
        return hash(self.inner)

    @property
    def ply(self) -> int:
        return self.inner.ply


class FakeEngine:
    """The fast layer over a fake's `Game` methods. Codes are `(notation,)`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    @staticmethod
    def _inner(state: Any) -> Any:
        return state.inner if isinstance(state, Position) else state

    def legal(self, state: Any) -> list:
        inner = self._inner(state)
        if self.game.to_move(inner) == "chance":
            return [(a.notation,) for a, _ in self.game.chance_outcomes(inner)]
        return [(a.notation,) for a in self.game.legal_actions(inner)]

    def apply_in_place(self, state: Position, code: tuple, settle: bool = True) -> None:
        state.inner = self.game.apply(state.inner, code[0])

    def random_legal(self, state: Any, rng: Any):
        """As Engine.random_legal draws on a settled position."""
        if self.is_over(state):
            return None
        if self.to_move(state) == -2:
            x = rng.random()
            table = self.chance_probabilities(state)
            for code, p in table:
                x -= p
                if x < 0:
                    return code
            return table[-1][0]
        legal = self.legal(state)
        return legal[int(rng.random() * len(legal))]

    def actor(self, state: Any) -> int:
        return self.to_move(state)

    def prepare(self, state: Any) -> bool:
        return not self.is_over(state)

    def legal_matching(self, state: Any, keep: Any) -> list:
        return [code for code in self.legal(state) if keep(code)]

    def copy(self, state: Any) -> Position:
        return Position(self._inner(state))

    def to_move(self, state: Any):
        who = self.game.to_move(self._inner(state))
        if who is None:
            return None
        return -2 if who == "chance" else list(self.game.players).index(who)

    def is_over(self, state: Any) -> bool:
        return self.to_move(state) is None

    def outcome(self, state: Any):
        result = self.game.result(self._inner(state)) if self.is_over(state) else None
        if result is None:
            return None
        players = list(self.game.players)
        winner = players.index(result.winner) if result.winner is not None else -1
        return winner, tuple(result.scores.get(p, 0) for p in players)

    def winners(self, code: int) -> tuple[int, ...]:
        return (code,) if code >= 0 else ()

    def ending(self, state: Any):
        outcome = self.outcome(state)
        return None if outcome is None else ("win" if outcome[0] >= 0 else "draw", None)

    def scores(self, state: Any):
        current = getattr(self.game, "current_scores", None)
        values = current(self._inner(state)) if current is not None else None
        return None if values is None else tuple(values[p] for p in self.game.players)

    def chance_probabilities(self, state: Any) -> list:
        return [((a.notation,), p) for a, p in self.game.chance_outcomes(self._inner(state))]

    @staticmethod
    def notation(code: tuple) -> str:
        return code[0]

    def random_playout(self, state: Position, rng: Any, max_plies: int) -> int:
        """Play `state` on at random (chance by its probabilities) for at most
        `max_plies` actions; the number played."""
        played = 0
        while played < max_plies and not self.is_over(state):
            if self.to_move(state) == -2:
                codes, weights = zip(*self.chance_probabilities(state))
                code = rng.choices(codes, weights)[0]
            else:
                legal = self.legal(state)
                code = legal[int(rng.random() * len(legal))]
            self.apply_in_place(state, code)
            played += 1
        return played


class FakeGameBase:
    """The parts of the contract that every fake answers the same way."""

    name = "fake"
    title = "Fake"
    players: tuple[str, ...] = ()
    options: dict = {}
    option_specs: dict = {}
    pool_sites: dict = {}
    kinds: dict = {}
    player_colors: dict = {}
    board = BoardView("graph", (), {}, ())

    @property
    def engine(self) -> FakeEngine:
        return FakeEngine(self)

    def legal_notations(self, state: Any) -> list[str]:
        return sorted(a.notation for a in self.legal_actions(state))

    def parse_action(self, state: Any, text: str) -> Action:
        for action in self.legal_actions(state) + [a for a, _ in self.chance_outcomes(state)]:
            if action.notation == text:
                return action
        raise IllegalActionError(text, state.ply)

    def apply(self, state: Any, action: Action | str) -> Any:
        if isinstance(action, str):
            action = self.parse_action(state, action)
        return self._apply(state, action)

    def is_terminal(self, state: Any) -> bool:
        return self.to_move(state) is None

    make_state = make_state

    def is_drawn_from_set(self, state: Any) -> bool:
        return False

    def chance_outcomes(self, state: Any) -> list[tuple[Action, float]]:
        return []

    def current_scores(self, state: Any) -> dict[str, float] | None:
        return None  # no score rule

    def pools(self, state: Any) -> dict:
        return {}

    def variables(self, state: Any) -> dict:
        return {}

    def phase(self, state: Any) -> str:
        return "play"

    def decision(self, state: Any) -> str:
        """One name per chance event with its own outcomes (the agents cache by it)."""
        return "chance" if self.to_move(state) == "chance" else "move"

    def last_action(self, state: Any) -> Action | None:
        return state.last


# -- tic-tac-toe ------------------------------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@dataclass(frozen=True)
class GridState:
    cells: tuple[int, ...]  # owner index or -1, site order a1 b1 c1 a2 ...
    mover: int
    ply: int = 0
    last: Action | None = None


class TicTacToe(FakeGameBase):
    name = "tictactoe"
    title = "Tic-tac-toe"
    players = ("white", "black")
    kinds = {"stone": {"symbol": "S", "owner": "player", "value": 1}}
    player_colors = {"white": "#f0f0f0", "black": "#202020"}

    def __init__(self) -> None:
        self.board = grid_board(3, 3)

    def initial_state(self) -> GridState:
        return GridState((-1,) * 9, 0)

    def position(self, rows: str, to_move: str = "white") -> GridState:
        """A position from rows, top (rank 3) first: 'W.B/.W./...' (W white, B black)."""
        cells = [-1] * 9
        for r, row in enumerate(rows.split("/")):
            rank = 2 - r
            for f, ch in enumerate(row):
                if ch in "Ww":
                    cells[rank * 3 + f] = 0
                elif ch in "Bb":
                    cells[rank * 3 + f] = 1
        ply = sum(c >= 0 for c in cells)
        return GridState(tuple(cells), self.players.index(to_move), ply)

    def _winner(self, cells: tuple[int, ...]) -> int | None:
        for a, b, c in LINES:
            if cells[a] >= 0 and cells[a] == cells[b] == cells[c]:
                return cells[a]
        return None

    def to_move(self, state: GridState) -> str | None:
        if self._winner(state.cells) is not None or all(c >= 0 for c in state.cells):
            return None
        return self.players[state.mover]

    def legal_actions(self, state: GridState) -> list[Action]:
        if self.to_move(state) is None:
            return []
        sites = self.board.sites
        return [Action(f"@{sites[i]}", (i,), None, sites[i]) for i, c in enumerate(state.cells) if c < 0]

    def _apply(self, state: GridState, action: Action) -> GridState:
        (i,) = action.code
        cells = list(state.cells)
        cells[i] = state.mover
        return GridState(tuple(cells), 1 - state.mover, state.ply + 1, action)

    def result(self, state: GridState) -> Result | None:
        if self.to_move(state) is not None:
            return None
        w = self._winner(state.cells)
        if w is None:
            return Result(None, {p: 0 for p in self.players})
        return Result(self.players[w], {p: int(i == w) for i, p in enumerate(self.players)})

    def pieces(self, state: GridState) -> list[PieceView]:
        sites = self.board.sites
        return [
            PieceView(sites[i], "stone", self.players[c]) for i, c in enumerate(state.cells) if c >= 0
        ]


# -- a race with a coin, three players and homes -------------------------------------------

TRACK = ("t1", "t2", "t3", "t4", "t5", "t6")
GOAL = 7  # track position of the goal; t1..t6 are 1..6


@dataclass(frozen=True)
class RaceState:
    track: tuple[int, ...]  # owner index or -1 for t1..t6
    homes: tuple[int, ...]  # pieces at home per player
    mover: int
    roll: int = 0  # 0: the coin has not been tossed yet this turn
    turns: int = 0
    winner: int | None = None
    ply: int = 0
    last: Action | None = None


class CoinRace(FakeGameBase):
    """Toss a coin (1 or 2, biased), then move one piece that far towards the goal.

    Entering from home counts t1 as the first step; landing on someone else sends
    them home; a piece may not land on its own colour; no move means `pass`. The
    first to reach the goal exactly wins; after `max_turns` turns it is a draw.
    """

    name = "coinrace"
    title = "Coin race"
    players = ("red", "blue", "green")
    kinds = {
        "pawn": {"symbol": "P", "owner": "player", "value": 1},
        "rock": {"symbol": "#", "owner": "neutral", "value": 0},
    }
    player_colors = {"red": "#d03030", "blue": "#3050d0", "green": "#30a040"}
    pool_sites = {f"home_{p}": ("home", p) for p in players}
    P_ONE = 0.75

    def __init__(self, pieces: int = 2, max_turns: int = 60) -> None:
        self.n_pieces = pieces
        self.max_turns = max_turns
        sites = tuple(self.pool_sites) + TRACK + ("goal", "rock")
        coords = {f"t{k}": (float(k), 0.0) for k in range(1, 7)}
        coords.update({"goal": (7.0, 0.0), "rock": (3.0, -1.5)})
        coords.update({"home_red": (0.0, 1.0), "home_blue": (0.0, 0.0), "home_green": (0.0, -1.0)})
        edges = [(h, "t1", True) for h in self.pool_sites]
        edges += [(TRACK[k], TRACK[k + 1], False) for k in range(5)]
        edges += [("t6", "goal", False), ("t3", "rock", False)]
        self.board = BoardView("graph", sites, coords, tuple(edges))

    def initial_state(self) -> RaceState:
        return RaceState((-1,) * 6, (self.n_pieces,) * 3, 0)

    def to_move(self, state: RaceState) -> str | None:
        if state.winner is not None or state.turns >= self.max_turns:
            return None
        return "chance" if state.roll == 0 else self.players[state.mover]

    make_state = make_state

    def is_drawn_from_set(self, state: Any) -> bool:
        return False

    def chance_outcomes(self, state: RaceState) -> list[tuple[Action, float]]:
        if self.to_move(state) != "chance":
            return []
        return [(Action("coin:1", ("coin", 1)), self.P_ONE), (Action("coin:2", ("coin", 2)), 1 - self.P_ONE)]

    def legal_actions(self, state: RaceState) -> list[Action]:
        who = self.to_move(state)
        if who is None or who == "chance":
            return []
        me, d = state.mover, state.roll
        actions = []
        starts = [(0, f"home_{who}")] if state.homes[me] else []
        starts += [(k + 1, TRACK[k]) for k in range(6) if state.track[k] == me]
        for pos, site in starts:
            dest = pos + d
            if dest > GOAL:
                continue
            if dest == GOAL:
                actions.append(Action(f"{site}-goal", ("move", pos, dest), site, "goal"))
                continue
            occupant = state.track[dest - 1]
            if occupant == me:
                continue
            sep = "x" if occupant >= 0 else "-"
            actions.append(Action(f"{site}{sep}{TRACK[dest - 1]}", ("move", pos, dest), site, TRACK[dest - 1]))
        return actions or [Action("pass", ("pass",))]

    def _apply(self, state: RaceState, action: Action) -> RaceState:
        if action.code[0] == "coin":
            return replace(state, roll=action.code[1], ply=state.ply + 1, last=action)
        track, homes = list(state.track), list(state.homes)
        winner = None
        if action.code[0] == "move":
            _, pos, dest = action.code
            if pos == 0:
                homes[state.mover] -= 1
            else:
                track[pos - 1] = -1
            if dest == GOAL:
                winner = state.mover
            else:
                if track[dest - 1] >= 0:
                    homes[track[dest - 1]] += 1
                track[dest - 1] = state.mover
        return RaceState(
            tuple(track), tuple(homes), (state.mover + 1) % 3, 0, state.turns + 1,
            winner, state.ply + 1, action,
        )

    def result(self, state: RaceState) -> Result | None:
        if self.to_move(state) is not None:
            return None
        if state.winner is None:
            return Result(None, {p: 0 for p in self.players})
        return Result(self.players[state.winner], {p: int(i == state.winner) for i, p in enumerate(self.players)})

    def pieces(self, state: RaceState) -> list[PieceView]:
        out = [PieceView(TRACK[k], "pawn", self.players[o]) for k, o in enumerate(state.track) if o >= 0]
        if state.winner is not None:
            out.append(PieceView("goal", "pawn", self.players[state.winner]))
        out.append(PieceView("rock", "rock", None))
        return out

    def pools(self, state: RaceState) -> dict:
        return {"home": {p: state.homes[i] for i, p in enumerate(self.players)}}

    def variables(self, state: RaceState) -> dict:
        return {"coin": state.roll or None, "turns": state.turns}

    def phase(self, state: RaceState) -> str:
        return "roll" if state.roll == 0 else "move"


# -- an explicit game tree -------------------------------------------------------------------


def move(player: str, **children: Any) -> tuple:
    """A decision of `player`; keyword = notation, value = the subtree."""
    return ("move", player, children)


def chance(**children: tuple[float, Any]) -> tuple:
    """A chance event; keyword = notation, value = (probability, subtree)."""
    return ("chance", children)


def end(winner: str | None, **scores: float) -> tuple:
    return ("end", winner, scores)


@dataclass(frozen=True)
class TreeState:
    node: tuple = field(compare=False)
    path: tuple[str, ...] = ()
    ply: int = 0
    last: Action | None = None


class TreeGame(FakeGameBase):
    """A game given as its whole tree: `TreeGame(players, move("a", x=end("a"), ...))`."""

    name = "tree"
    title = "Game tree"
    kinds: dict = {}
    pool_sites: dict = {}

    def __init__(self, players: Sequence[str], tree: tuple) -> None:
        self.players = tuple(players)
        self.tree = tree
        self.player_colors = {p: "#808080" for p in self.players}
        self.board = BoardView("graph", ("root",), {"root": (0.0, 0.0)}, ())
        self.applied = 0  # how many times apply ran (for cost checks)

    def initial_state(self) -> TreeState:
        return TreeState(self.tree)

    def to_move(self, state: TreeState) -> str | None:
        node = state.node
        if node[0] == "move":
            return node[1]
        if node[0] == "chance":
            return "chance"
        return None

    def legal_actions(self, state: TreeState) -> list[Action]:
        node = state.node
        if node[0] != "move":
            return []
        return [Action(n, (n,)) for n in node[2]]

    make_state = make_state

    def is_drawn_from_set(self, state: Any) -> bool:
        return False

    def chance_outcomes(self, state: TreeState) -> list[tuple[Action, float]]:
        node = state.node
        if node[0] != "chance":
            return []
        return [(Action(n, (n,)), p) for n, (p, _) in node[1].items()]

    def decision(self, state: TreeState) -> str:
        return "/".join(state.path) or "root"  # every node its own event: outcomes differ from node to node

    def _apply(self, state: TreeState, action: Action) -> TreeState:
        self.applied += 1
        node = state.node
        child = node[2][action.notation] if node[0] == "move" else node[1][action.notation][1]
        return TreeState(child, state.path + (action.notation,), state.ply + 1, action)

    def result(self, state: TreeState) -> Result | None:
        node = state.node
        if node[0] != "end":
            return None
        scores = dict(node[2]) or {p: int(p == node[1]) for p in self.players}
        return Result(node[1], scores)

    def pieces(self, state: TreeState) -> list[PieceView]:
        return []


# -- one fixed position, for renderers -----------------------------------------------------


@dataclass(frozen=True)
class StaticState:
    ply: int = 0
    last: Action | None = None


class StaticGame(FakeGameBase):
    """A single position with whatever the test wants to draw."""

    def __init__(
        self,
        board: BoardView,
        players: Sequence[str],
        pieces: Sequence[PieceView],
        *,
        kinds: Mapping[str, Mapping[str, Any]],
        player_colors: Mapping[str, str],
        pool_sites: Mapping[str, tuple[str, str]] | None = None,
        pools: Mapping[str, Mapping[str, int]] | None = None,
        variables: Mapping[str, Any] | None = None,
        phase: str = "play",
        to_move: str | None = None,
        ply: int = 0,
        last: Action | None = None,
        name: str = "static",
        title: str = "Static position",
    ) -> None:
        self.board = board
        self.players = tuple(players)
        self._pieces = list(pieces)
        self.kinds = dict(kinds)
        self.player_colors = dict(player_colors)
        self.pool_sites = dict(pool_sites or {})
        self._pools = dict(pools or {})
        self._variables = dict(variables or {})
        self._phase = phase
        self._to_move = to_move if to_move is not None else self.players[0]
        self._state = StaticState(ply, last)
        self.name, self.title = name, title

    def initial_state(self) -> StaticState:
        return self._state

    def to_move(self, state: StaticState) -> str | None:
        return self._to_move

    def legal_actions(self, state: StaticState) -> list[Action]:
        return []

    def result(self, state: StaticState) -> Result | None:
        return None

    def pieces(self, state: StaticState) -> list[PieceView]:
        return list(self._pieces)

    def pools(self, state: StaticState) -> dict:
        return self._pools

    def variables(self, state: StaticState) -> dict:
        return self._variables

    def phase(self, state: StaticState) -> str:
        return self._phase


# -- a game without end, scored by points ------------------------------------------------------


@dataclass(frozen=True)
class PointsState:
    points: tuple[int, int] = (0, 0)
    ply: int = 0
    last: Action | None = None


class EndlessPoints(FakeGameBase):
    """Two players take turns forever; 'gain' adds a point to the mover, 'wait' does not.

    Only `current_scores` can tell the two actions apart: every playout is cut off.
    """

    name = "endless"
    title = "Endless points"
    players = ("a", "b")

    def initial_state(self) -> PointsState:
        return PointsState()

    def to_move(self, state: PointsState) -> str | None:
        return self.players[state.ply % 2]

    def legal_actions(self, state: PointsState) -> list[Action]:
        return [Action("gain", ("gain",)), Action("wait", ("wait",))]

    def _apply(self, state: PointsState, action: Action) -> PointsState:
        points = list(state.points)
        if action.notation == "gain":
            points[state.ply % 2] += 1
        return PointsState((points[0], points[1]), state.ply + 1, action)

    def result(self, state: PointsState) -> Result | None:
        return None

    def current_scores(self, state: PointsState) -> dict[str, float] | None:
        return dict(zip(self.players, state.points))

    def pieces(self, state: PointsState) -> list[PieceView]:
        return []
