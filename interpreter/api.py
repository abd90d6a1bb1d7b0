"""The public API: load a game, then ask it about positions. See docs/api.md."""
from __future__ import annotations

from typing import Any, Optional, Union

from .compilation.compiler import Compiler, collect_items
from .compilation.expressions import RuleError
from .compilation.model import GameModel, build_model, parse_option_value, read_options
from .loading.definition import Definition, bundled_games, load_definition, locate
from .runtime.engine import CHANCE, Engine, RuleRuntimeError
from .runtime.coverage import RuleCoverage
from .runtime.state import State
from .runtime.views import Action, BoardView, Ending, PieceView, Result
from .validation.diagnostics import DefinitionError, DiagnosticList
from .validation.semantic import unused_warnings

__all__ = [
    "load_game",
    "bundled_games",
    "Game",
    "Action",
    "Ending",
    "Result",
    "PieceView",
    "BoardView",
    "DefinitionError",
    "IllegalActionError",
    "RuleRuntimeError",
]


class IllegalActionError(ValueError):
    def __init__(self, notation: str, ply: int, game: str, reason: str = "not legal here"):
        super().__init__(f"ply {ply}: action '{notation}' is {reason} in {game}")
        self.notation = notation
        self.ply = ply
        self.game = game


def load_game(
    name_or_path: str, options: Optional[dict] = None, variant: Optional[str] = None, coverage: bool = False
) -> "Game":
    """A game by bundled name, folder, YAML file or variant file, with options set.

    With `coverage=True` the game counts how often each rule fires while it is
    played (`Game.coverage`, see `interpreter.runtime.coverage`); that costs speed.
    """
    definition = load_definition(str(name_or_path), str(variant) if variant else None)
    return Game(definition, dict(options or {}), coverage=coverage)


class Game:
    """A compiled game. Positions are `State` values; the Game itself holds no position."""

    def __init__(self, definition: Definition, options: dict, coverage: bool = False):
        self.definition = definition
        diags = DiagnosticList()
        sources = definition.sources

        def report(path: tuple, message: str, hint: Optional[str]) -> None:
            file, line, col = locate(definition, path)
            diags.error(file, line, col, message, hint=hint)

        specs = read_options(definition.data, report)
        values = {}
        for name, raw in options.items():
            if name not in specs:
                from .validation.diagnostics import suggest

                best = suggest(name, list(specs))
                known = ", ".join(specs) or "none"
                diags.error(
                    "--option", 1, 1, f"{definition.name} has no option '{name}' (its options: {known})",
                    hint=f"did you mean '{best}'?" if best else None,
                )
                continue
            try:
                values[name] = parse_option_value(specs[name], raw)
            except ValueError as exc:
                diags.error("--option", 1, 1, str(exc))
        diags.raise_if_errors(sources)
        self.model: GameModel = build_model(definition.data, values, report)
        diags.raise_if_errors(sources)
        errors: list[RuleError] = []
        items = collect_items(definition.rules, errors)
        compiler = Compiler(self.model, items)
        rules = compiler.compile()
        for err in errors + compiler.errors:
            diags.error(err.pos.file, err.pos.line, err.pos.column, err.message, hint=err.hint)
        if rules is None and not diags.has_errors:
            diags.error(definition.yaml_file, 1, 1, "the rules could not be compiled")
        diags.extend(unused_warnings(self.model, items, lambda path: locate(definition, path)))
        diags.raise_if_errors(sources)
        self.rules = rules
        self.engine = Engine(rules)
        compiler.engine_ref[0] = self.engine
        # Rule coverage (None unless asked for): see interpreter.runtime.coverage.
        self.coverage: Optional[RuleCoverage] = self.engine.enable_coverage(items) if coverage else None
        self.warnings = [d for d in diags if d.severity == "warning"]
        self._board_view: Optional[BoardView] = None

    # ------------------------------------------------------------ description
    @property
    def name(self) -> str:
        return self.model.name

    @property
    def title(self) -> str:
        return self.model.title

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.model.players)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.model.options)

    @property
    def option_specs(self) -> dict[str, dict]:
        out = {}
        for name, spec in self.model.option_specs.items():
            entry = {"default": spec.default, "description": spec.description}
            if spec.values is not None:
                entry["values"] = list(spec.values)
            else:
                entry["type"] = spec.type
                if spec.minimum is not None:
                    entry["min"] = spec.minimum
                if spec.maximum is not None:
                    entry["max"] = spec.maximum
            out[name] = entry
        return out

    @property
    def kinds(self) -> dict[str, dict]:
        return {
            k.name: {"symbol": k.symbol, "owner": "neutral" if k.neutral else "player", "value": k.value}
            for k in self.model.kinds.values()
        }

    @property
    def player_colors(self) -> dict[str, str]:
        return {p: self.model.player_colors[p] for p in self.model.players}

    @property
    def pool_sites(self) -> dict[str, tuple[str, str]]:
        out = {}
        names = self.model.board.names
        for pool in self.model.pools.values():
            for i, site in enumerate(pool.sites):
                if site != -1:
                    out[names[site]] = (pool.name, self.model.players[i])
        return out

    @property
    def board(self) -> BoardView:
        if self._board_view is None:
            self._board_view = _board_view(self.model)
        return self._board_view

    # ------------------------------------------------------------ positions
    def initial_state(self) -> State:
        return self.engine.initial_state()

    def make_state(
        self,
        pieces: dict,
        to_move: Optional[str] = None,
        phase: Optional[str] = None,
        decision: Optional[str] = None,
        variables: Optional[dict] = None,
        pools: Optional[dict] = None,
        carry: Optional[str] = None,
        step: Optional[int] = None,
        ply: int = 0,
        next_player: Optional[str] = None,
        next_phase: Optional[str] = None,
        result: Optional[tuple] = None,
    ) -> State:
        """A position built by hand (for tests, puzzles, analysis).

        `pieces`: {site: (owner, kind)} or {site: (owner, kind, {"stones": [...],
        attribute: value, ...})}; owner is a player name or "neutral". Unlisted
        variables and pools keep their initial values; `phase` defaults to the
        first phase, `decision` to the first of its turn; `carry` is the site of
        the piece a follow-up decision acts on. `step` is the place of the decision
        in its turn (default: where the decision stands in it), `ply` the actions
        played so far, `next_player` / `next_phase` what `next turn` / `start phase`
        have set for the next turn, `result` `(winner or None, {player: score})`
        for a finished game.
        """
        m = self.model
        rules = self.rules
        state = self.engine.initial_state()
        state.board = [None] * (m.board.size + 1)  # the trailing entry: "no site"
        state.occ = [[] for _ in range(len(m.players) + 1)]
        attrs = {a.name: a for a in m.attributes.values()}
        for site, spec in pieces.items():
            if site not in m.board.index:
                raise ValueError(f"unknown site '{site}'")
            owner_name, kind_name, *extra = spec
            extra = dict(extra[0]) if extra else {}
            owner = -1 if owner_name == "neutral" else m.players.index(owner_name)
            if kind_name not in m.kinds:
                raise ValueError(f"unknown piece kind '{kind_name}'")
            piece = list(m.fresh_piece(owner, m.kinds[kind_name].index))
            stones = extra.pop("stones", None)
            if stones is not None:
                if not m.stacks:
                    raise ValueError("this game has no stacks")
                colours = tuple(m.players.index(c) for c in stones)
                if colours[-1] != owner:
                    raise ValueError(f"the top stone at {site} must be the owner's colour")
                piece[2] = colours
            for name, value in extra.items():
                if name not in attrs:
                    raise ValueError(f"unknown attribute '{name}'")
                piece[attrs[name].index] = value
            index = m.board.index[site]
            state.board[index] = tuple(piece)
            state.occ[owner].append(index)
        if phase is not None:
            names = [ph.name for ph in rules.phases]
            state.phase = names.index(phase)
        current = rules.phases[state.phase]
        state.player = m.players.index(to_move) if to_move is not None else current.order[0]
        if decision is not None:
            names = [d.name for d in rules.decisions]
            state.decision = names.index(decision)
            if state.decision in current.turn:
                state.step = current.turn.index(state.decision)
        else:
            state.decision = current.turn[0]
            state.step = 0
        if carry is not None:
            state.carry = m.board.index[carry]
        if step is not None:
            state.step = step
        state.ply = ply
        if next_player is not None:
            state.next_player = m.players.index(next_player)
        if next_phase is not None:
            state.next_phase = [ph.name for ph in rules.phases].index(next_phase)
        if result is not None:
            winner, scores = result
            state.result = (m.players.index(winner) if winner is not None else -1,
                            tuple(scores[p] for p in m.players))
        for name, value in (variables or {}).items():
            var = m.variables[name]
            if var.per_player:
                for player, v in value.items():
                    state.vars[var.offset + m.players.index(player)] = int(v)
            else:
                state.vars[var.offset] = int(value)
        for name, counts in (pools or {}).items():
            pool = m.pools[name]
            for player, v in counts.items():
                state.vars[pool.offset + m.players.index(player)] = int(v)
        return state

    def position_text(self, state: State) -> str:
        """The position as one line of text (see `interpreter.positions`)."""
        from .positions import position_text

        return position_text(self, state)

    def parse_position(self, text: str) -> State:
        """The position written by `position_text`; `PositionError` (a ValueError)
        with a clear message for anything else."""
        from .positions import parse_position

        return parse_position(self, text)

    def to_move(self, state: State) -> Optional[str]:
        who = self.engine.to_move(state)
        if who is None:
            return None
        return "chance" if who == CHANCE else self.model.players[who]

    def legal_actions(self, state: State) -> list[Action]:
        return [self._action(code) for code in self.engine.legal(state)]

    def legal_notations(self, state: State) -> list[str]:
        notation = self.engine.notation
        return sorted(notation(code) for code in self.engine.legal(state))

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        if self.engine.to_move(state) != CHANCE:
            return []
        return [(self._action(code), p) for code, p in self.engine.chance_probabilities(state)]

    def parse_action(self, state: State, text: str) -> Action:
        wanted = text.strip()
        codes = self.engine.legal(state)
        notation = self.engine.notation
        by_text: dict = {}
        for code in codes:
            # Two actions with one notation are merged when listed; the first counts.
            by_text.setdefault(notation(code), code)
        code = by_text.get(wanted)
        if code is None:
            code = by_text.get(wanted.lower())
        if code is None:
            reason = "after the end of the game" if state.result is not None else "not legal here"
            raise IllegalActionError(wanted, state.ply + 1, self.name, reason)
        return self._action(code)

    def apply(self, state: State, action: Union[Action, str]) -> State:
        if isinstance(action, str):
            action = self.parse_action(state, action)
        new = state.copy()
        self.engine.apply_in_place(new, action.code)
        return new

    def is_terminal(self, state: State) -> bool:
        return self.engine.to_move(state) is None

    def result(self, state: State) -> Optional[Result]:
        if not self.is_terminal(state):
            return None
        winner, scores = state.result
        players = self.model.players
        return Result(
            players[winner] if winner >= 0 else None,
            {p: scores[i] for i, p in enumerate(players)},
            self._ending(state),
        )

    def _ending(self, state: State) -> Optional[Ending]:
        found = self.engine.ending(state)
        if found is None or found[1] is None:
            return None
        how, pos = found
        words = {"score": "end game", "no action": "no legal action"}
        text = ""
        source = self.definition.sources.get(pos.file)
        if source is not None:
            lines = source.splitlines()
            if 0 < pos.line <= len(lines):
                text = lines[pos.line - 1].strip()
        return Ending(words.get(how, how), pos.file, pos.line, pos.column, text)

    def current_scores(self, state: State) -> Optional[dict[str, float]]:
        """The game's `score` rule evaluated on this position (over or not), or None
        when the rules define no score. Useful to judge unfinished games."""
        if self.rules.score is None:
            return None
        from .runtime.engine import _scores

        frame = self.engine.frame.bind(state)
        values = _scores(frame, self.rules.score, len(self.model.players))
        return {p: values[i] for i, p in enumerate(self.model.players)}

    def phase(self, state: State) -> str:
        return self.rules.phases[state.phase].name

    def decision(self, state: State) -> str:
        """Name of the decision (or chance event) to be taken now."""
        return self.rules.decisions[state.decision].name

    def last_action(self, state: State) -> Optional[Action]:
        return self._action(state.last) if state.last is not None else None

    def pieces(self, state: State) -> list[PieceView]:
        m = self.model
        names = m.board.names
        kinds = sorted(m.kinds.values(), key=lambda k: k.index)
        attrs = m.attributes_in_order()
        out = []
        for site, p in enumerate(state.board):
            if p is None:
                continue
            owner = m.players[p[0]] if p[0] >= 0 else None
            attributes = {a.name: p[a.index] for a in attrs}
            stones = tuple(m.players[c] for c in p[2]) if p[2] is not None else None
            out.append(PieceView(names[site], kinds[p[1]].name, owner, attributes, stones))
        return out

    def pools(self, state: State) -> dict[str, dict[str, int]]:
        return {
            pool.name: {p: state.vars[pool.offset + i] for i, p in enumerate(self.model.players)}
            for pool in self.model.pools.values()
        }

    def variables(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for var in self.model.variables.values():
            cast = bool if var.type == "flag" else int
            if var.per_player:
                out[var.name] = {p: cast(state.vars[var.offset + i]) for i, p in enumerate(self.model.players)}
            else:
                out[var.name] = cast(state.vars[var.offset])
        return out

    def _action(self, code: tuple) -> Action:
        names = self.model.board.names
        frm = names[code[1]] if code[1] >= 0 else None
        to = names[code[2]] if code[2] >= 0 else None
        return Action(self.engine.notation(code), code, frm, to)


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

