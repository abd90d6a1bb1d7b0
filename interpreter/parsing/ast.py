"""The typed syntax tree of a rules file.

Every node carries `pos` (file, line, column) so that any later stage — semantic
checks, compilation, runtime errors found by lint — can point at the source.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional, Union


@dataclass(frozen=True)
class Pos:
    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


NOWHERE = Pos("<builtin>", 0, 0)


# ------------------------------------------------------------------ expressions
@dataclass
class Expr:
    pos: Pos


@dataclass
class Num(Expr):
    value: int


@dataclass
class DecimalNum(Expr):
    """A number with a fractional part (`7.5`), kept exact; `text` as written."""

    value: Fraction
    text: str


@dataclass
class Str(Expr):
    value: str


@dataclass
class Bool(Expr):
    value: bool


@dataclass
class NoneLit(Expr):
    pass


@dataclass
class Name(Expr):
    id: str


@dataclass
class Attr(Expr):
    obj: Expr
    name: str


@dataclass
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass
class Call(Expr):
    fn: str
    args: list[Expr]


@dataclass
class StepRule(Expr):
    """`each step A to B where COND`: a condition on each step of a walk or of
    `connected`, A naming the site stepped from and B the site stepped to. Only
    the last argument of `connected` or the end of a `walk` pattern."""

    frm: str
    to: str
    cond: Expr


@dataclass
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass
class Neg(Expr):
    operand: Expr


@dataclass
class Compare(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass
class And(Expr):
    left: Expr
    right: Expr


@dataclass
class Or(Expr):
    left: Expr
    right: Expr


@dataclass
class Not(Expr):
    operand: Expr


@dataclass
class IfExp(Expr):
    cond: Expr
    then: Expr
    otherwise: Expr


@dataclass
class Is(Expr):
    """`x is KIND` / `x is enemy` (negated for `is not`)."""

    obj: Expr
    what: str
    what_pos: Pos
    negated: bool = False


@dataclass
class In(Expr):
    item: Expr
    collection: Expr
    negated: bool = False


@dataclass
class Pieces(Expr):
    """`pieces [of OWNER] [where COND]`: the sites holding matching pieces."""

    owner: Optional[Expr]
    where: Optional[Expr]


@dataclass
class ListLit(Expr):
    items: list[Expr]


@dataclass
class Offset(Expr):
    """`(dx, dy)`: a grid offset, dx files east and dy ranks north, both written
    as whole numbers (`neighbour(X, (1, 2))`)."""

    dx: int
    dy: int


@dataclass
class NoLegalAction(Expr):
    """`no legal action`: the player to move has no legal action (in `before each turn`)."""


@dataclass
class BoardRepetitions(Expr):
    """`board repetitions`: how often the board alone (the pieces on their sites, nothing
    else) has been the board at the start of a turn."""


# ------------------------------------------------------------------ statements
@dataclass
class Stmt:
    pos: Pos


@dataclass
class MoveStmt(Stmt):
    """`move` (the acting piece to `to`) or `move X to Y` (whatever stands on X);
    with `one` (`move one`, `move one X to Y`) only the top stone, joining what stands there."""

    what: Optional["Expr"] = None
    dest: Optional["Expr"] = None
    one: bool = False


@dataclass
class CreateStmt(Stmt):
    """`create KIND at X [for P]`: a new piece on X (replacing what stands there)."""

    kind: str
    kind_pos: "Pos"
    at: "Expr"
    owner: Optional["Expr"] = None


@dataclass
class PromoteChoiceStmt(Stmt):
    """`promote X to one of K1, K2, ...`: the player chooses the kind (one action each)."""

    what: "Expr"
    kinds: list[Name]


@dataclass
class RepeatStmt(Stmt):
    """`repeat N times:` — the block N times (N computed once, before the first)."""

    count: "Expr"
    body: list[Stmt]


@dataclass
class PlaceStmt(Stmt):
    pass


@dataclass
class RemoveStmt(Stmt):
    what: Expr
    one: bool = False  # `remove one X`: only the top stone


@dataclass
class ReturnStmt(Stmt):
    what: Expr
    pool: str
    one: bool = False  # `return one X to POOL`: only the top stone, to its colour's pool


@dataclass
class RotateStmt(Stmt):
    """`rotate SET clockwise|anticlockwise`: a square block of a grid turned a quarter."""

    region: Expr
    clockwise: bool


@dataclass
class CycleStmt(Stmt):
    """`cycle A, B, C`: at once, what stands on A goes to B, B's to C, C's to A."""

    sites: list[Expr]


@dataclass
class GiveStmt(Stmt):
    marker: str
    to: Expr
    marker_pos: Optional[Pos] = None


@dataclass
class PromoteStmt(Stmt):
    what: Expr
    kind: str


@dataclass
class StackStmt(Stmt):
    """`stack X under Y` (whole stack) or `stack top of X under Y`."""

    source: Expr
    dest: Expr
    top_only: bool


@dataclass
class ReleaseStmt(Stmt):
    what: Expr
    pool: str


@dataclass
class AddStoneStmt(Stmt):
    pool: str
    dest: Expr
    pool_pos: Optional[Pos] = None


@dataclass
class LetStmt(Stmt):
    name: str
    value: Expr


@dataclass
class AssignStmt(Stmt):
    target: Expr
    op: str
    value: Expr


@dataclass
class ThenStmt(Stmt):
    decision: str


@dataclass
class NotationStmt(Stmt):
    template: str


@dataclass
class WinStmt(Stmt):
    player: Optional[Expr]


@dataclass
class LoseStmt(Stmt):
    player: Optional[Expr]


@dataclass
class DrawStmt(Stmt):
    pass


@dataclass
class EndStmt(Stmt):
    pass


@dataclass
class StartPhaseStmt(Stmt):
    phase: str


@dataclass
class NextTurnStmt(Stmt):
    player: Expr


@dataclass
class CallStmt(Stmt):
    procedure: str
    args: list[Expr] = field(default_factory=list)  # for a procedure with parameters


@dataclass
class IfStmt(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt]


@dataclass
class ForEachStmt(Stmt):
    var: str
    iterable: Expr
    body: list[Stmt]
    # `for each v in A to B:` — the whole numbers from `iterable` (A) to `until` (B).
    until: Optional[Expr] = None


# ------------------------------------------------------------------ patterns
@dataclass
class Pattern:
    pos: Pos


@dataclass
class Distance:
    low: Expr
    high: Optional[Expr]  # None: same as low (exact)
    unbounded: bool = False


@dataclass
class StepPattern(Pattern):
    """Move along a direction over empty sites only (slide = unbounded step)."""

    directions: list[Name]
    distance: Distance


@dataclass
class LeapPattern(Pattern):
    """Exactly `distance` sites along a direction, passing over anything."""

    directions: list[Name]
    distance: Distance


@dataclass
class JumpPattern(Pattern):
    """Over exactly one piece at `distance`, landing on the site just beyond it."""

    directions: list[Name]
    distance: Distance


@dataclass
class OffsetLeapPattern(Pattern):
    """To the sites at given (file, rank) offsets, whatever lies between. Offsets are
    taken relative to the player (x to the right of forward, y forward) when players
    have a forward direction; `symmetric` adds every reflection and rotation. `via`:
    offsets (turned alike) of sites on the way that must be empty (a horse's leg)."""

    offsets: list[tuple[int, int]]  # (x, y) pairs
    symmetric: bool
    via: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class ScreenSlidePattern(Pattern):
    """`slide DIRS over one piece`: over empty sites to a first piece (the screen), past
    it, then on over empty sites as far as the first piece beyond (a cannon)."""

    directions: list[Name]


@dataclass
class AlongPattern(Pattern):
    """A number of steps along a track (the player's own, for a per-player track)."""

    track: Name
    distance: Distance


@dataclass
class WalkPattern(Pattern):
    """Exactly N steps along board edges, never entering a site twice."""

    steps: Expr
    step: Optional[StepRule] = None  # the condition on each step, if any


@dataclass
class GoPattern(Pattern):
    """To any site of a set (a transfer: flying, relocation)."""

    targets: Expr


@dataclass
class DropPattern(Pattern):
    kind: str
    kind_pos: Pos
    pool: Optional[str]
    targets: Expr
    pool_pos: Optional[Pos] = None


@dataclass
class SelectPattern(Pattern):
    targets: Expr


@dataclass
class PassPattern(Pattern):
    only_if_stuck: bool


# ------------------------------------------------------------------ rules
@dataclass
class Case:
    pos: Pos
    kind: str  # "onto", "over", "off"; "pass" for the statements of a pass (`pass:`)
    what: str  # "empty", "enemy", "own", "neutral", "any", "board"; "" for a pass
    body: list[Stmt]
    notation: Optional[str] = None
    notation_pos: Optional[Pos] = None  # where the case's own notation is written

    @property
    def label(self) -> str:
        return f"{self.kind} {self.what}" if self.what else self.kind


@dataclass
class ByItem:
    pos: Pos
    kind: Optional[str] = None  # a piece kind
    pool: Optional[str] = None  # pieces waiting in a pool (its site is the start)
    same_piece: bool = False  # the piece that started this follow-up decision


@dataclass
class ActionEach:
    """`for each NAME in COLLECTION` after an action's name: the action once per value;
    `for each NAME in A to B`: A is `collection`, B `until`."""

    pos: Pos
    name: str
    collection: Expr
    until: Optional[Expr] = None


@dataclass
class Action:
    pos: Pos
    name: str
    by: list[ByItem]
    pattern: Optional[Pattern]
    wheres: list[Expr]
    notation: Optional[str]
    cases: list[Case]
    notation_pos: Optional[Pos] = None  # where `notation` is written
    each: Optional[ActionEach] = None


@dataclass
class PreferCase:
    """A `prefer` item naming a case: of every action (`onto enemy`) or of one
    (`pawn_move onto enemy`)."""

    pos: Pos
    action: Optional[str]
    kind: str  # as Case.kind
    what: str  # as Case.what

    @property
    def text(self) -> str:
        case = f"{self.kind} {self.what}"
        return f"{self.action} {case}" if self.action else case


# An item of a `prefer` line: an action (by its name) or a case.
PreferItem = Union[Name, PreferCase]


@dataclass
class LongestTurn:
    """`play the longest turn[, then the highest|lowest EXPR]` in a decision."""

    pos: Pos
    tiebreak: Optional[Expr] = None
    highest: bool = True


@dataclass
class Decision:
    pos: Pos
    name: str
    actions: list[Action]
    after_action: Optional[list[Stmt]] = None
    after_pos: Optional[Pos] = None  # where `after each action:` stands
    # `prefer:` lines, in order: each a tier of actions (by name) and cases offered
    # alone when legal.
    prefer: list[tuple[Pos, list[PreferItem]]] = field(default_factory=list)
    longest: Optional[LongestTurn] = None
    # Where a variant's `add to after each action:` stands, for `show`.
    added_pos: list[Pos] = field(default_factory=list)


@dataclass
class Outcome:
    value: Expr
    weight: Optional[Expr]


@dataclass
class Chance:
    pos: Pos
    name: str
    outcomes_range: Optional[tuple[Expr, Expr]]
    outcomes: list[Outcome]
    body: list[Stmt]
    # `outcomes one of SET`: a site of SET as the position stands, each as likely
    outcomes_member_of: Optional[Expr] = None


@dataclass
class Forbid:
    pos: Pos
    what: str  # passing, landing, capturing
    cond: Expr


@dataclass
class ForbidGroup:
    """`forbid NAME:` with its lines: restrictions a variant can replace or remove by name."""

    pos: Pos
    name: str
    forbids: list[Forbid]


@dataclass
class Phase:
    pos: Pos
    name: str
    order: Optional[list[Name]] = None
    turn: list[Name] = field(default_factory=list)
    after_turn: Optional[list[Stmt]] = None
    after_action: Optional[list[Stmt]] = None
    no_action: Optional[list[Stmt]] = None
    before_turn: Optional[list[Stmt]] = None
    # Where each entry given is written ("order", "turn", "before_turn", ...), for
    # messages and for `show`, which marks the entries a variant changed.
    entry_pos: dict[str, Pos] = field(default_factory=dict)
    # Where a variant's `add to ENTRY:` blocks stand (entry, position), for `show`.
    added_pos: list[tuple[str, Pos]] = field(default_factory=list)


@dataclass
class Define:
    pos: Pos
    name: str
    expr: Expr
    params: list[Name] = field(default_factory=list)  # `define flanks(s, d) = ...`


@dataclass
class Procedure:
    pos: Pos
    name: str
    body: list[Stmt]
    params: list[Name] = field(default_factory=list)  # `procedure spread(site, n):`


@dataclass
class Score:
    pos: Pos
    expr: Expr


@dataclass
class StartPhase:
    """`start phase: NAME`: the phase the game starts in (default: the first declared)."""

    pos: Pos
    phase: str
    phase_pos: Pos  # where the name is written


@dataclass
class Removal:
    """In a variant: `remove action move.slide`, `remove define x`, ..."""

    pos: Pos
    item_kind: str
    name: str
    member: Optional[str] = None


@dataclass
class EntryRemoval:
    """In `change phase`/`change decision`: `remove after each turn`, `remove prefer`,
    `remove play the longest turn`, `remove action NAME`, ... (`entry` as in
    `Phase.entry_pos`, or "prefer", "longest", "action")."""

    pos: Pos
    entry: str
    name: Optional[str] = None  # the action of `remove action NAME`


@dataclass
class EntryAddition:
    """In `change phase`/`change decision`: `add to after each turn:` and its statements,
    run after those of the game's entry (`entry` as in `Phase.entry_pos`)."""

    pos: Pos
    entry: str
    statements: list[Stmt]


@dataclass
class Change:
    """In a variant: `change phase NAME:` or `change decision NAME:`. The entries given
    (in `item`, a Phase or Decision holding only them) replace those of the game's item
    of that name, or are added to it; `removals` drop entries; `additions` append
    statements to an entry; the rest stays."""

    pos: Pos
    item: Union[Phase, Decision]
    removals: list[EntryRemoval] = field(default_factory=list)
    name_pos: Optional[Pos] = None  # where the name of the item changed is written
    additions: list[EntryAddition] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.item.name

    @property
    def kind(self) -> str:
        return "phase" if isinstance(self.item, Phase) else "decision"


Item = Union[Phase, Decision, Chance, Define, Procedure, Score, Forbid, ForbidGroup, Removal, Change, StartPhase]


@dataclass
class RulesFile:
    path: str
    items: list[Item]
