"""The observation tensor of a game's positions, computed from the definition alone.

The tensor has one vector of channels per site: shape `(ranks, files, channels)` on
a grid board (`obs[rank, file]` is the site of that rank and file, both counted from
0 at `a1`), `(sites, channels)` on a graph board (in the order of the board's
sites). The channels, in this order (docs/rl.md "Observation"), are named in
`ObservationEncoder.channels`:

1. `piece:KIND/+j` for every kind and `j` in 0..players-1, then `piece:KIND/neutral`:
   1 where a piece of that kind stands owned by player `observer + j` (in turn
   order, so `+0` is the observer) or by nobody;
2. with stacks: `height` (the number of stones; 0 on an empty site) and
   `stones/+j`, the stones of player `observer + j` in the stack;
3. `attribute:NAME` for every attribute: the value of the piece there (0 if empty);
4. the rest is the same on every site: `turn/+j` (1 for the player whose turn it
   is), `phase:NAME` and `decision:NAME` (one-hot; only when the game has more
   than one), `carry` (1 on the site of the piece a follow-up decision acts on:
   not the same on every site), and one channel per value of a variable or a pool:
   `var:NAME` or `var:NAME/+j` (per player), `pool:NAME/+j`.

Every value is a float32 within the channel's bounds (`low`, `high`): 0/1 for
flags, ±MAX_NUMBER for numbers, which no number of a game exceeds.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from ...limits import MAX_NUMBER
from ...runtime.pieces import FIRST_ATTRIBUTE, KIND, OWNER, STONES, Piece

if TYPE_CHECKING:
    from ...api import Game
    from ...runtime.state import State

Tensor = npt.NDArray[np.float32]

# Rows of piece channels kept per observer: one per distinct piece (kind, owner,
# attribute values, stones) met, so that a position is one gather from the table.
MAX_ROWS = 1 << 14


class Channel(NamedTuple):
    name: str
    low: float
    high: float


class _View(NamedTuple):
    """The channel numbers of one observer (player indices become `+j`)."""

    piece: list[list[int]]  # [owner list of State.occ][kind] -> channel
    stones: list[int]  # [player] -> channel of their stones
    turn: list[int]  # [player] -> channel
    counters: npt.NDArray[np.intp]  # [index of state.vars] -> channel


class ObservationEncoder:
    """Positions of one game -> observation tensors, from any player's view."""

    def __init__(self, game: Game) -> None:
        layout = game.layout
        self.players = n = len(game.players)
        self.sites = len(layout.sites)
        channels: list[Channel] = []

        def add(name: str, low: float = 0.0, high: float = 1.0) -> int:
            channels.append(Channel(name, low, high))
            return len(channels) - 1

        kind_base = []
        for kind in layout.kinds:
            kind_base.append(len(channels))
            for j in range(n):
                add(f"piece:{kind}/+{j}")
            add(f"piece:{kind}/neutral")
        self._stacks = layout.stacks
        self._height = add("height", 0, MAX_NUMBER) if layout.stacks else -1
        stones_base = len(channels)
        if layout.stacks:
            for j in range(n):
                add(f"stones/+{j}", 0, MAX_NUMBER)
        self._attributes = [
            (FIRST_ATTRIBUTE + i, add(f"attribute:{name}", *_bounds(kind)))
            for i, (name, kind) in enumerate(layout.attributes)
        ]
        turn_base = len(channels)
        for j in range(n):
            add(f"turn/+{j}")
        self._phase_base = len(channels) if len(layout.phases) > 1 else -1
        if len(layout.phases) > 1:
            for name in layout.phases:
                add(f"phase:{name}")
        self._decision_base = len(channels) if len(layout.decisions) > 1 else -1
        if len(layout.decisions) > 1:
            for name in layout.decisions:
                add(f"decision:{name}")
        self._carry = add("carry")
        counter_base: dict[str, int] = {}
        for slot in layout.counters:
            if slot.name in counter_base:
                continue
            counter_base[slot.name] = len(channels)
            prefix = "pool" if slot.type == "pool" else "var"
            if slot.player is None:
                add(f"{prefix}:{slot.name}", *_bounds(slot.type))
            else:
                for j in range(n):
                    add(f"{prefix}:{slot.name}/+{j}", *_bounds(slot.type))
        self.channels: tuple[Channel, ...] = tuple(channels)
        width = len(channels)

        player_index = {p: i for i, p in enumerate(game.players)}
        self._views: list[_View] = []
        for observer in range(n):
            def rel(player: int) -> int:
                return (player - observer) % n

            piece = [[base + rel(owner) for base in kind_base] for owner in range(n)]
            piece.append([base + n for base in kind_base])  # State.occ's last list: neutral pieces
            counters = [
                counter_base[slot.name] + (rel(player_index[slot.player]) if slot.player is not None else 0)
                for slot in layout.counters
            ]
            self._views.append(_View(
                piece, [stones_base + rel(p) for p in range(n)], [turn_base + rel(p) for p in range(n)],
                np.array(counters, dtype=np.intp),
            ))

        board = game.board
        on_grid = board.kind == "grid" and all(
            board.coords[site] == (i % board.files, i // board.files) for i, site in enumerate(layout.sites)
        )
        self.shape: tuple[int, ...] = (board.ranks, board.files, width) if on_grid else (self.sites, width)
        # by observer: the row number of each piece met so far (None: empty, row 0)
        # and the table of rows, each a site's channels but the shared ones
        self._rows: list[dict[Optional[Piece], int]] = [{None: 0} for _ in range(n)]
        self._tables: list[Tensor] = [np.zeros((64, width), np.float32) for _ in range(n)]
        self.low: Tensor = np.tile(np.array([c.low for c in channels], np.float32), self.sites).reshape(self.shape)
        self.high: Tensor = np.tile(np.array([c.high for c in channels], np.float32), self.sites).reshape(self.shape)

    @property
    def size(self) -> int:
        return self.sites * len(self.channels)

    def encode(self, state: State, observer: int) -> Tensor:
        """The tensor of `state` seen by player index `observer` (a new array)."""
        view = self._views[observer]
        rows = self._rows[observer]
        try:
            numbers = list(map(rows.__getitem__, state.board))
        except KeyError:
            numbers = [self._row(observer, piece) for piece in state.board]
        table = self._tables[observer]
        if -1 in numbers:  # (the table is full: the pieces it lacks are encoded here)
            out = np.stack([table[n] if n >= 0 else self._piece_channels(observer, piece)
                            for n, piece in zip(numbers[:-1], state.board)])
        else:  # (the board's last entry stands for "no site": its row is dropped)
            out = table.take(np.array(numbers, np.intp), axis=0)[:-1]
        shared = np.zeros(len(self.channels), np.float32)
        shared[view.turn[state.player]] = 1.0
        if self._phase_base >= 0:
            shared[self._phase_base + state.phase] = 1.0
        if self._decision_base >= 0:
            shared[self._decision_base + state.decision] = 1.0
        if state.vars:
            shared[view.counters] = state.vars
        out += shared
        if state.carry >= 0:
            out[state.carry, self._carry] = 1.0
        return out.reshape(self.shape)

    def _row(self, observer: int, piece: Optional[Piece]) -> int:
        """The number of the row of `piece`'s channels in the observer's table,
        made when first met; -1 once the table holds MAX_ROWS pieces (a game whose
        pieces take ever new attribute values)."""
        rows = self._rows[observer]
        known = rows.get(piece)
        if known is not None:
            return known
        number = len(rows)
        if number >= MAX_ROWS:
            return -1
        table = self._tables[observer]
        if number >= len(table):
            grown = np.zeros((min(2 * len(table), MAX_ROWS), len(self.channels)), np.float32)
            grown[: len(table)] = table
            self._tables[observer] = table = grown
        table[number] = self._piece_channels(observer, piece)
        rows[piece] = number
        return number

    def _piece_channels(self, observer: int, piece: Optional[Piece]) -> Tensor:
        """The channels of one site holding `piece` (None: empty), globals left 0."""
        row = np.zeros(len(self.channels), np.float32)
        if piece is None:
            return row
        view = self._views[observer]
        owner = piece[OWNER]
        row[view.piece[owner if owner >= 0 else self.players][piece[KIND]]] = 1.0
        for field, channel in self._attributes:
            row[channel] = piece[field]
        stones = piece[STONES]
        if self._stacks and stones is not None:
            row[self._height] = len(stones)
            for colour in set(stones):
                row[view.stones[colour]] = stones.count(colour)
        return row

    def channel(self, name: str) -> int:
        """The number of the channel called `name` (KeyError if there is none)."""
        for i, channel in enumerate(self.channels):
            if channel.name == name:
                return i
        raise KeyError(name)


def _bounds(kind: str) -> tuple[float, float]:
    """(low, high) of a value of this type: flags and markers 0/1, numbers ±MAX_NUMBER."""
    if kind in ("flag", "marker"):
        return 0.0, 1.0
    return float(-MAX_NUMBER), float(MAX_NUMBER)
