"""Rules text → typed AST (`parsing.ast`), with the Lark grammar in grammar/rules.lark."""
from __future__ import annotations

import copy
from fractions import Fraction
from functools import lru_cache
from typing import Any, Optional, Union

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, VisitError
from lark.indenter import Indenter
from lark.tree import Meta

from .. import assets
from . import ast, parser_cache

# Rules files are small; a larger one is a mistake or an attack.
MAX_RULES_BYTES = 1_000_000
# Lines of rules in one file (blank lines and comments aside). Lark builds the tree at
# about 7,000 short statements a second: a megabyte of them (125,000 lines) took 18 s
# of processor time, only for the expansion bound to refuse them after; the largest
# rules file known has 1,200 lines.
MAX_RULES_LINES = 20_000
# Nesting of the syntax tree (expressions in expressions, blocks in blocks): building
# the AST, compiling and running it recurse once per level, so it is bounded well
# below Python's recursion limit. Real rules stay under 30.
MAX_NESTING = 200
# Numbers in the rules are at most 10^15 (docs/format.md §5): a longer literal is an
# error here, before Python has to read it.
MAX_NUMBER_DIGITS = 16
# Digits after the point of a decimal number (`7.5`): enough for any score a rulebook
# gives, few enough that sums stay exact and short to write.
MAX_DECIMAL_PLACES = 6


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


PARSER_OPTIONS: dict[str, Any] = dict(
    parser="lalr",
    propagate_positions=True,
    maybe_placeholders=False,
    # A grammar with a conflict would be resolved silently (as shift): refuse it.
    strict=True,
)


@lru_cache(maxsize=1)
def rules_parser() -> Lark:
    # Its tables are built once per grammar and user and kept (parser_cache.py):
    # building them is ~0.3 s of every process, reading them ~0.05 s.
    return parser_cache.cached_lark(assets.grammar_text(), PARSER_OPTIONS, _RulesIndenter)


class RulesSyntaxError(Exception):
    """A rules file did not parse; `lark_error` holds the details."""

    def __init__(self, file: str, text: str, lark_error: LarkError):
        super().__init__(str(lark_error))
        self.file = file
        self.text = text
        self.lark_error = lark_error


class AstBuildError(Exception):
    """A construct parsed but is malformed (e.g. an assignment to a literal)."""

    def __init__(self, pos: ast.Pos, message: str, hint: Optional[str] = None):
        super().__init__(message)
        self.pos = pos
        self.message = message
        self.hint = hint


class RulesTooLong(AstBuildError):
    """A rules file past MAX_RULES_BYTES or MAX_RULES_LINES: refused before it is parsed."""


def _check_length(text: str, file: str) -> None:
    """RulesTooLong where the text passes its bounds."""
    if len(text) > MAX_RULES_BYTES:
        raise RulesTooLong(ast.Pos(file, 1, 1), f"rules file is longer than {MAX_RULES_BYTES} characters")
    if text.count("\n") <= MAX_RULES_LINES:
        return
    counted = 0
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if stripped and not stripped.startswith("#"):
            counted += 1
            if counted > MAX_RULES_LINES:
                raise RulesTooLong(ast.Pos(file, number, 1),
                                   f"rules file has more than {MAX_RULES_LINES} lines of rules (comments and blank "
                                   "lines aside)", "a longer file takes too long to read: say it with fewer "
                                   "lines (defines, procedures, `for each`)")


def parse_rules(text: str, file: str = "<rules>") -> ast.RulesFile:
    """Parse rules text. Raises RulesSyntaxError or AstBuildError."""
    _check_length(text, file)
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = rules_parser().parse(source)
    except LarkError as exc:
        raise RulesSyntaxError(file, source, exc) from None
    _check_nesting(tree, file)
    try:
        items = _ToAst(file).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, AstBuildError):
            raise exc.orig_exc from None
        raise
    except RecursionError:
        raise AstBuildError(ast.Pos(file, 1, 1), "the rules are nested too deeply") from None
    return ast.RulesFile(file, items)


def _check_nesting(tree: Tree[Token], file: str) -> None:
    """AstBuildError at the first place (in the text) nested deeper than MAX_NESTING;
    the tree is walked without recursion."""
    too_deep = None
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        meta = getattr(node, "meta", None)
        if depth > MAX_NESTING and meta is not None and not getattr(meta, "empty", True):
            where = (meta.line, meta.column)
            too_deep = where if too_deep is None else min(too_deep, where)
            continue
        for child in getattr(node, "children", ()):
            if hasattr(child, "children"):
                stack.append((child, depth + 1))
    if too_deep is not None:
        raise AstBuildError(
            ast.Pos(file, *too_deep),
            f"this is nested too deeply (more than {MAX_NESTING} levels of expressions or blocks); "
            "split it with 'define', 'let' or a procedure",
        )


# The broken items of one rules file reported at most (each is parsed again where it stands).
MAX_ITEM_ERRORS = 50


def parse_rules_collecting(
    text: str, file: str = "<rules>"
) -> tuple[Optional[ast.RulesFile], list[Union[RulesSyntaxError, AstBuildError]]]:
    """(RulesFile or None, [errors]): like parse_rules, but on a syntax error every
    top-level item is parsed on its own, so that one broken item does not hide the
    mistakes of the others. Errors are RulesSyntaxError or AstBuildError."""
    try:
        return parse_rules(text, file), []
    except (RulesSyntaxError, AstBuildError) as first:
        if isinstance(first, RulesTooLong):  # (its parts parsed one by one would cost as much again)
            return None, [first]
        errors: list[Union[RulesSyntaxError, AstBuildError]] = []
        for start, chunk in _top_level_chunks(text):
            try:
                parse_rules(chunk, file)  # (alone: the padding below costs as much as the lines before it)
                continue
            except (RulesSyntaxError, AstBuildError):
                pass
            if len(errors) >= MAX_ITEM_ERRORS:
                break
            # Again, padded with blank lines, so that line numbers stay those of the file.
            try:
                parse_rules("\n" * start + chunk, file)
            except (RulesSyntaxError, AstBuildError) as exc:
                errors.append(exc)
        return None, errors or [first]


def _top_level_chunks(text: str) -> list[tuple[int, str]]:
    """(index of first line, text) of each top-level item: a line that starts
    without indentation (and is not a comment) begins a new item."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line[:1] not in ("", " ", "\t", "#") and line.strip()]
    chunks = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        chunks.append((start, "\n".join(lines[start:end])))
    return chunks


def _pos(file: str, meta: Meta) -> ast.Pos:
    if getattr(meta, "empty", True):
        return ast.Pos(file, 0, 0)
    return ast.Pos(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_pos(file: str, tok: Token) -> ast.Pos:
    # (the tokens of a parse have their line and column: only hand-made ones have None)
    return ast.Pos(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column)  # type: ignore[arg-type]


# What the transformer's methods get: the children of a node, already transformed
# (tokens, AST nodes, and the tuples and lists of the methods below).
Children = list[Any]
# An entry of a phase or a decision, or a part of an action: (what, where, value).
_Entry = tuple[str, ast.Pos, Any]
# A chance event's outcomes: ((low, high) of a range, or None; the listed outcomes).
# (the range, the listed outcomes, the set of sites an outcome is one of)
_Outcomes = tuple[Optional[tuple[ast.Expr, ast.Expr]], list[ast.Outcome], Optional[ast.Expr]]


@v_args(meta=True)
class _ToAst(Transformer[Token, list[ast.Item]]):
    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def p(self, meta: Meta) -> ast.Pos:
        return _pos(self.file, meta)

    # ---------------------------------------------------------- top level
    def start(self, meta: Meta, items: Children) -> list[ast.Item]:
        return list(items)

    def define(self, meta: Meta, ch: Children) -> ast.Define:
        params = [ast.Name(_tok_pos(self.file, t), str(t)) for t in ch[1:-1]]
        names = [p.id for p in params]
        for i, param in enumerate(params):
            if param.id in names[:i]:
                raise AstBuildError(param.pos, f"'{param.id}' is named twice in the parameters of '{ch[0]}'")
        return ast.Define(self.p(meta), str(ch[0]), ch[-1], params)

    def procedure(self, meta: Meta, ch: Children) -> ast.Procedure:
        params = [ast.Name(_tok_pos(self.file, t), str(t)) for t in ch[1:-1]]
        names = [p.id for p in params]
        for i, param in enumerate(params):
            if param.id in names[:i]:
                raise AstBuildError(param.pos, f"'{param.id}' is named twice in the parameters of '{ch[0]}'")
        return ast.Procedure(self.p(meta), str(ch[0]), ch[-1], params)

    def score(self, meta: Meta, ch: Children) -> ast.Score:
        return ast.Score(self.p(meta), ch[0])

    def start_phase(self, meta: Meta, ch: Children) -> ast.StartPhase:
        return ast.StartPhase(self.p(meta), str(ch[0]), _tok_pos(self.file, ch[0]))

    def removal(self, meta: Meta, ch: Children) -> ast.Removal:
        name = str(ch[1]) if len(ch) > 1 else ""
        # The position ends with the last name (not the line break), so that a message
        # about that name can point at it.
        last = ch[-1]
        pos = ast.Pos(self.file, meta.line, meta.column, last.end_line or last.line, last.end_column or last.column)
        return ast.Removal(pos, str(ch[0]), name, str(ch[2]) if len(ch) > 2 else None)

    def name_list(self, meta: Meta, ch: Children) -> list[ast.Name]:
        return [ast.Name(_tok_pos(self.file, t), str(t)) for t in ch]

    def phase(self, meta: Meta, ch: Children) -> ast.Phase:
        phase = ast.Phase(self.p(meta), str(ch[0]))
        for kind, pos, value in ch[1:]:
            if kind in phase.entry_pos:
                raise AstBuildError(pos, f"phase '{phase.name}' has more than one '{_ENTRY_WORDS[kind]}' entry")
            setattr(phase, kind, value)
            phase.entry_pos[kind] = pos
        return phase

    def change_phase(self, meta: Meta, ch: Children) -> ast.Change:
        removals, additions, entries = _change_parts(ch[1:])
        phase = self.phase(meta, [ch[0]] + entries)
        return ast.Change(self.p(meta), phase, _checked_removals(phase.name, removals, phase.entry_pos),
                          _tok_pos(self.file, ch[0]),
                          _checked_additions(phase.name, additions, removals, phase.entry_pos))

    def change_decision(self, meta: Meta, ch: Children) -> ast.Change:
        removals, additions, entries = _change_parts(ch[1:])
        decision = self.decision(meta, [ch[0]] + entries)
        given = {"after_action": decision.after_pos} if decision.after_pos is not None else {}
        if decision.prefer:
            given["prefer"] = decision.prefer[0][0]
        if decision.longest is not None:
            given["longest"] = decision.longest.pos
        for action in decision.actions:
            given[f"action {action.name}"] = action.pos
        return ast.Change(self.p(meta), decision, _checked_removals(decision.name, removals, given),
                          _tok_pos(self.file, ch[0]),
                          _checked_additions(decision.name, additions, removals, given))

    def phase_entry_addition(self, meta: Meta, ch: Children) -> ast.EntryAddition:
        entry, _, _ = ch[0]
        return ast.EntryAddition(self.p(meta), entry, ch[1])

    def decision_entry_addition(self, meta: Meta, ch: Children) -> ast.EntryAddition:
        return self.phase_entry_addition(meta, ch)

    def block_entry_word(self, meta: Meta, ch: Children) -> tuple[str, Optional[str], ast.Pos]:
        return self._entry_word(meta, ch)

    def after_action_word(self, meta: Meta, ch: Children) -> tuple[str, Optional[str], ast.Pos]:
        return self._entry_word(meta, ch)

    def phase_entry_removal(self, meta: Meta, ch: Children) -> ast.EntryRemoval:
        entry, _, pos = ch[0]
        if entry == "turn":
            raise AstBuildError(pos, "a phase cannot do without its 'turn': give it a new 'turn:' instead")
        return ast.EntryRemoval(pos, entry)

    def decision_entry_removal(self, meta: Meta, ch: Children) -> ast.EntryRemoval:
        entry, name, pos = ch[0]
        return ast.EntryRemoval(pos, entry, name)

    def phase_entry_word(self, meta: Meta, ch: Children) -> tuple[str, Optional[str], ast.Pos]:
        return self._entry_word(meta, ch)

    def decision_entry_word(self, meta: Meta, ch: Children) -> tuple[str, Optional[str], ast.Pos]:
        return self._entry_word(meta, ch)

    def _entry_word(self, meta: Meta, ch: Children) -> tuple[str, Optional[str], ast.Pos]:
        """(entry, action name or None, position) of what a `remove` in a change block
        names. The position runs from its first word to its last (not the line
        break), so that a message about an action's name can point at the name."""
        last = ch[-1]
        pos = ast.Pos(self.file, meta.line, meta.column, last.end_line or last.line, last.end_column or last.column)
        if str(ch[0]) == "action" and len(ch) == 2:
            return ("action", str(ch[1]), pos)
        return (_ENTRY_KEYS[" ".join(str(t) for t in ch)], None, pos)

    def prefer(self, meta: Meta, ch: Children) -> _Entry:
        return ("prefer", self.p(meta), list(ch))

    def prefer_action(self, meta: Meta, ch: Children) -> ast.Name:
        return ast.Name(_tok_pos(self.file, ch[0]), str(ch[0]))

    def prefer_case(self, meta: Meta, ch: Children) -> ast.PreferCase:
        action = str(ch[0]) if len(ch) > 1 else None
        kind, what = ch[-1]
        return ast.PreferCase(self.p(meta), action, kind, what)

    def longest_turn(self, meta: Meta, ch: Children) -> _Entry:
        if not ch:
            return ("longest", self.p(meta), ast.LongestTurn(self.p(meta)))
        extreme, tiebreak = ch
        return ("longest", self.p(meta), ast.LongestTurn(self.p(meta), tiebreak, highest=extreme == "highest"))

    def extreme(self, meta: Meta, ch: Children) -> str:
        return str(ch[0])

    def order(self, meta: Meta, ch: Children) -> _Entry:
        return ("order", self.p(meta), ch[0])

    def turn(self, meta: Meta, ch: Children) -> _Entry:
        return ("turn", self.p(meta), ch[0])

    def forbid(self, meta: Meta, ch: Children) -> ast.Forbid:
        return ast.Forbid(self.p(meta), ch[0], ch[1])

    def forbid_group(self, meta: Meta, ch: Children) -> ast.ForbidGroup:
        return ast.ForbidGroup(self.p(meta), str(ch[0]), ch[1:])

    def forbid_line(self, meta: Meta, ch: Children) -> ast.Forbid:
        return ast.Forbid(self.p(meta), ch[0], ch[1])

    def forbid_what(self, meta: Meta, ch: Children) -> str:
        return str(ch[0])

    def before_turn(self, meta: Meta, ch: Children) -> _Entry:
        return ("before_turn", self.p(meta), ch[0])

    def after_turn(self, meta: Meta, ch: Children) -> _Entry:
        return ("after_turn", self.p(meta), ch[0])

    def after_action(self, meta: Meta, ch: Children) -> _Entry:
        return ("after_action", self.p(meta), ch[0])

    def no_action(self, meta: Meta, ch: Children) -> _Entry:
        return ("no_action", self.p(meta), ch[0])

    def decision(self, meta: Meta, ch: Children) -> ast.Decision:
        decision = ast.Decision(self.p(meta), str(ch[0]), [])
        for entry in ch[1:]:
            if isinstance(entry, ast.Action):
                decision.actions.append(entry)
            elif entry[0] == "prefer":
                decision.prefer.append((entry[1], entry[2]))
            elif entry[0] == "longest":
                if decision.longest is not None:
                    raise AstBuildError(entry[1],
                                        f"decision '{decision.name}' has more than one 'play the longest turn' line")
                decision.longest = entry[2]
            else:
                _, pos, body = entry
                if decision.after_action is not None:
                    raise AstBuildError(pos, f"decision '{decision.name}' has more than one 'after each action' block")
                decision.after_action = body
                decision.after_pos = pos
        return decision

    def chance(self, meta: Meta, ch: Children) -> ast.Chance:
        name, (rng, outcomes, member_of), *body = ch
        return ast.Chance(self.p(meta), str(name), rng, outcomes, list(body), member_of)

    def outcomes(self, meta: Meta, ch: Children) -> _Outcomes:
        made: _Outcomes = ch[0]  # by outcome_range, outcome_member or outcome_list
        return made

    def outcome_range(self, meta: Meta, ch: Children) -> _Outcomes:
        return ((ch[0], ch[1]), [], None)

    def outcome_member(self, meta: Meta, ch: Children) -> _Outcomes:
        return (None, [], ch[0])

    def outcome_list(self, meta: Meta, ch: Children) -> _Outcomes:
        return (None, list(ch), None)

    def weighted_outcome(self, meta: Meta, ch: Children) -> ast.Outcome:
        return ast.Outcome(ch[0], ch[1] if len(ch) > 1 else None)

    # ---------------------------------------------------------- actions
    def action(self, meta: Meta, ch: Children) -> ast.Action:
        name = str(ch[0])
        rest = ch[1:]
        by = []
        if rest and isinstance(rest[0], list) and all(isinstance(b, ast.ByItem) for b in rest[0]):
            by = rest[0]
            rest = rest[1:]
        each = None
        if rest and isinstance(rest[0], ast.ActionEach):
            each = rest[0]
            rest = rest[1:]
        action = ast.Action(self.p(meta), name, by, None, [], None, [], each=each)
        for entry in rest:
            if isinstance(entry, tuple) and entry[0] == "pass_case":
                _, pattern, case = entry
                entry = pattern
                action.cases.append(case)
            if isinstance(entry, ast.Pattern):
                if action.pattern is not None:
                    raise AstBuildError(entry.pos, f"action '{name}' has more than one movement pattern")
                action.pattern = entry
            elif isinstance(entry, list):
                action.cases.extend(entry)
            elif isinstance(entry, tuple) and entry[0] == "where":
                action.wheres.append(entry[2])
            elif isinstance(entry, tuple) and entry[0] == "notation":
                action.notation = entry[2]
                action.notation_pos = entry[1]
        if action.pattern is None:
            raise AstBuildError(action.pos, f"action '{name}' has no movement pattern "
                                            "(step, slide, leap, jump, walk, go, drop, select or pass)")
        return action

    def by_clause(self, meta: Meta, ch: Children) -> list[ast.ByItem]:
        return list(ch)

    def action_each(self, meta: Meta, ch: Children) -> ast.ActionEach:
        return ast.ActionEach(self.p(meta), str(ch[0]), ch[1], ch[2] if len(ch) > 2 else None)

    def by_kind(self, meta: Meta, ch: Children) -> ast.ByItem:
        return ast.ByItem(self.p(meta), kind=str(ch[0]))

    def by_pool(self, meta: Meta, ch: Children) -> ast.ByItem:
        return ast.ByItem(self.p(meta), pool=str(ch[0]))

    def by_same_piece(self, meta: Meta, ch: Children) -> ast.ByItem:
        return ast.ByItem(self.p(meta), same_piece=True)

    def where(self, meta: Meta, ch: Children) -> _Entry:
        return ("where", self.p(meta), ch[0])

    def notation(self, meta: Meta, ch: Children) -> _Entry:
        return ("notation", self.p(meta), _located_text(self.file, ch[0]))

    def directions(self, meta: Meta, ch: Children) -> list[ast.Name]:
        return [ast.Name(_tok_pos(self.file, t), str(t)) for t in ch]

    def distance(self, meta: Meta, ch: Children) -> ast.Distance:
        if len(ch) == 1:
            return ast.Distance(ch[0], None)
        if ch[1] == "unbounded":
            return ast.Distance(ch[0], None, unbounded=True)
        return ast.Distance(ch[0], ch[1])

    def unbounded(self, meta: Meta, ch: Children) -> str:
        return "unbounded"

    def _exact_one(self, meta: Meta) -> ast.Distance:
        return ast.Distance(ast.Num(self.p(meta), 1), None)

    def step(self, meta: Meta, ch: Children) -> ast.StepPattern:
        return ast.StepPattern(self.p(meta), ch[0], ch[1] if len(ch) > 1 else self._exact_one(meta))

    def slide(self, meta: Meta, ch: Children) -> ast.StepPattern:
        return ast.StepPattern(self.p(meta), ch[0], ast.Distance(ast.Num(self.p(meta), 1), None, unbounded=True))

    def slide_over_screen(self, meta: Meta, ch: Children) -> ast.ScreenSlidePattern:
        return ast.ScreenSlidePattern(self.p(meta), ch[0])

    def leap(self, meta: Meta, ch: Children) -> ast.LeapPattern:
        return ast.LeapPattern(self.p(meta), ch[0], ch[1])

    def jump(self, meta: Meta, ch: Children) -> ast.JumpPattern:
        return ast.JumpPattern(self.p(meta), ch[0], ch[1] if len(ch) > 1 else self._exact_one(meta))

    def leap_offsets(self, meta: Meta, ch: Children) -> ast.OffsetLeapPattern:
        return ast.OffsetLeapPattern(self.p(meta), ch[0], symmetric=True, via=ch[1] if len(ch) > 1 else [])

    def leap_exact_offsets(self, meta: Meta, ch: Children) -> ast.OffsetLeapPattern:
        return ast.OffsetLeapPattern(self.p(meta), ch[0], symmetric=False, via=ch[1] if len(ch) > 1 else [])

    def via(self, meta: Meta, ch: Children) -> list[tuple[int, int]]:
        offsets: list[tuple[int, int]] = ch[0]
        return offsets

    def offsets(self, meta: Meta, ch: Children) -> list[tuple[int, int]]:
        return list(ch)

    def offset(self, meta: Meta, ch: Children) -> tuple[int, int]:
        if len(ch) != 2:
            raise AstBuildError(self.p(meta), _offset_count(len(ch)), hint=OFFSET_FORMS)
        return (ch[0], ch[1])

    def signed(self, meta: Meta, ch: Children) -> int:
        text = "".join(str(t) for t in ch)
        if len(text) > MAX_NUMBER_DIGITS:
            raise AstBuildError(self.p(meta), f"an offset of {len(text)} digits")
        return int(text)

    def along(self, meta: Meta, ch: Children) -> ast.AlongPattern:
        return ast.AlongPattern(self.p(meta), ast.Name(_tok_pos(self.file, ch[0]), str(ch[0])), ch[1])

    def walk(self, meta: Meta, ch: Children) -> ast.WalkPattern:
        return ast.WalkPattern(self.p(meta), ch[0], ch[1] if len(ch) > 1 else None)

    def step_rule(self, meta: Meta, ch: Children) -> ast.StepRule:
        return ast.StepRule(self.p(meta), str(ch[0]), str(ch[1]), ch[2])

    def go(self, meta: Meta, ch: Children) -> ast.GoPattern:
        return ast.GoPattern(self.p(meta), ch[0])

    def drop(self, meta: Meta, ch: Children) -> ast.DropPattern:
        kind = ch[0]
        pool = ch[1] if len(ch) == 3 else None
        return ast.DropPattern(self.p(meta), str(kind), _tok_pos(self.file, kind), str(pool) if pool else None, ch[-1],
                             _tok_pos(self.file, pool) if pool else None)

    def select(self, meta: Meta, ch: Children) -> ast.SelectPattern:
        return ast.SelectPattern(self.p(meta), ch[0])

    def pass_(self, meta: Meta, ch: Children) -> ast.PassPattern:
        return ast.PassPattern(self.p(meta), bool(ch))

    def only_if_stuck(self, meta: Meta, ch: Children) -> bool:
        return True

    def pass_case(self, meta: Meta, ch: Children) -> tuple[str, ast.PassPattern, ast.Case]:
        """`pass: BLOCK`: the pass pattern, and its statements as a case of kind "pass"."""
        *stuck, body = ch
        pos = self.p(meta)
        return ("pass_case", ast.PassPattern(pos, bool(stuck)), _case(pos, ("pass", ""), body))

    def case(self, meta: Meta, ch: Children) -> list[ast.Case]:
        """One case, or several sharing a block (each gets its own copy of the
        statements, so that nothing later done to one case's tree reaches another's)."""
        *heads, body = ch
        pos = self.p(meta)
        return [_case(pos, head, body if i == 0 else copy.deepcopy(body)) for i, head in enumerate(heads)]

    def case_head(self, meta: Meta, ch: Children) -> tuple[str, str]:
        return (str(ch[0]), str(ch[1]))

    # ---------------------------------------------------------- statements
    def block(self, meta: Meta, ch: Children) -> list[ast.Stmt]:
        return list(ch)

    def if_stmt(self, meta: Meta, ch: Children) -> ast.IfStmt:
        branches = [(ch[0], ch[1])]
        otherwise: list[ast.Stmt] = []
        for extra in ch[2:]:
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                otherwise = extra[1]
        return ast.IfStmt(self.p(meta), branches, otherwise)

    def elif_clause(self, meta: Meta, ch: Children) -> tuple[str, ast.Expr, list[ast.Stmt]]:
        return ("elif", ch[0], ch[1])

    def else_clause(self, meta: Meta, ch: Children) -> tuple[str, list[ast.Stmt]]:
        return ("else", ch[0])

    def for_stmt(self, meta: Meta, ch: Children) -> ast.ForEachStmt:
        return ast.ForEachStmt(self.p(meta), str(ch[0]), ch[1], ch[2])

    def for_range_stmt(self, meta: Meta, ch: Children) -> ast.ForEachStmt:
        return ast.ForEachStmt(self.p(meta), str(ch[0]), ch[1], ch[3], ch[2])

    def move_stmt(self, meta: Meta, ch: Children) -> ast.MoveStmt:
        return ast.MoveStmt(self.p(meta))

    def move_to_stmt(self, meta: Meta, ch: Children) -> ast.MoveStmt:
        return ast.MoveStmt(self.p(meta), ch[0], ch[1])

    def move_one_stmt(self, meta: Meta, ch: Children) -> ast.MoveStmt:
        return ast.MoveStmt(self.p(meta), one=True)

    def move_one_to_stmt(self, meta: Meta, ch: Children) -> ast.MoveStmt:
        return ast.MoveStmt(self.p(meta), ch[0], ch[1], one=True)

    def remove_one_stmt(self, meta: Meta, ch: Children) -> ast.RemoveStmt:
        return ast.RemoveStmt(self.p(meta), ch[0], one=True)

    def return_one_stmt(self, meta: Meta, ch: Children) -> ast.ReturnStmt:
        return ast.ReturnStmt(self.p(meta), ch[0], str(ch[1]), one=True)

    def rotate_stmt(self, meta: Meta, ch: Children) -> ast.RotateStmt:
        return ast.RotateStmt(self.p(meta), ch[0], clockwise=ch[1] == "clockwise")

    def rotation(self, meta: Meta, ch: Children) -> str:
        return str(ch[0])

    def cycle_stmt(self, meta: Meta, ch: Children) -> ast.CycleStmt:
        return ast.CycleStmt(self.p(meta), list(ch))

    def create_stmt(self, meta: Meta, ch: Children) -> ast.CreateStmt:
        return ast.CreateStmt(self.p(meta), str(ch[0]), _tok_pos(self.file, ch[0]), ch[1],
                              ch[2] if len(ch) > 2 else None)

    def promote_choice_stmt(self, meta: Meta, ch: Children) -> ast.PromoteChoiceStmt:
        return ast.PromoteChoiceStmt(self.p(meta), ch[0], [ast.Name(_tok_pos(self.file, t), str(t)) for t in ch[1:]])

    def repeat_stmt(self, meta: Meta, ch: Children) -> ast.RepeatStmt:
        return ast.RepeatStmt(self.p(meta), ch[0], ch[1])

    def call_args_stmt(self, meta: Meta, ch: Children) -> ast.CallStmt:
        return ast.CallStmt(self.p(meta), str(ch[0]), list(ch[1:]))

    def place_stmt(self, meta: Meta, ch: Children) -> ast.PlaceStmt:
        return ast.PlaceStmt(self.p(meta))

    def remove_stmt(self, meta: Meta, ch: Children) -> ast.RemoveStmt:
        return ast.RemoveStmt(self.p(meta), ch[0])

    def return_stmt(self, meta: Meta, ch: Children) -> ast.ReturnStmt:
        return ast.ReturnStmt(self.p(meta), ch[0], str(ch[1]))

    def give_stmt(self, meta: Meta, ch: Children) -> ast.GiveStmt:
        return ast.GiveStmt(self.p(meta), str(ch[0]), ch[1], _tok_pos(self.file, ch[0]))

    def promote_stmt(self, meta: Meta, ch: Children) -> ast.PromoteStmt:
        return ast.PromoteStmt(self.p(meta), ch[0], str(ch[1]))

    def stack_stmt(self, meta: Meta, ch: Children) -> ast.StackStmt:
        return ast.StackStmt(self.p(meta), ch[0], ch[1], top_only=False)

    def stack_top_stmt(self, meta: Meta, ch: Children) -> ast.StackStmt:
        return ast.StackStmt(self.p(meta), ch[0], ch[1], top_only=True)

    def release_stmt(self, meta: Meta, ch: Children) -> ast.ReleaseStmt:
        return ast.ReleaseStmt(self.p(meta), ch[0], str(ch[1]))

    def add_stone_stmt(self, meta: Meta, ch: Children) -> ast.AddStoneStmt:
        return ast.AddStoneStmt(self.p(meta), str(ch[0]), ch[1], _tok_pos(self.file, ch[0]))

    def let_stmt(self, meta: Meta, ch: Children) -> ast.LetStmt:
        return ast.LetStmt(self.p(meta), str(ch[0]), ch[1])

    def assign_stmt(self, meta: Meta, ch: Children) -> ast.AssignStmt:
        target, op, value = ch
        if not isinstance(target, (ast.Name, ast.Attr, ast.Index)):
            raise AstBuildError(target.pos, "only a variable, an indexed variable or an attribute can be assigned to")
        return ast.AssignStmt(self.p(meta), target, str(op), value)

    def call_stmt(self, meta: Meta, ch: Children) -> ast.CallStmt:
        return ast.CallStmt(self.p(meta), str(ch[0]))

    def then_stmt(self, meta: Meta, ch: Children) -> ast.ThenStmt:
        return ast.ThenStmt(self.p(meta), str(ch[0]))

    def notation_stmt(self, meta: Meta, ch: Children) -> ast.NotationStmt:
        return ast.NotationStmt(self.p(meta), _located_text(self.file, ch[0]))

    def win_stmt(self, meta: Meta, ch: Children) -> ast.WinStmt:
        return ast.WinStmt(self.p(meta), ch[0] if ch else None)

    def lose_stmt(self, meta: Meta, ch: Children) -> ast.LoseStmt:
        return ast.LoseStmt(self.p(meta), ch[0] if ch else None)

    def draw_stmt(self, meta: Meta, ch: Children) -> ast.DrawStmt:
        return ast.DrawStmt(self.p(meta))

    def end_stmt(self, meta: Meta, ch: Children) -> ast.EndStmt:
        return ast.EndStmt(self.p(meta))

    def start_phase_stmt(self, meta: Meta, ch: Children) -> ast.StartPhaseStmt:
        return ast.StartPhaseStmt(self.p(meta), str(ch[0]))

    def next_turn_stmt(self, meta: Meta, ch: Children) -> ast.NextTurnStmt:
        return ast.NextTurnStmt(self.p(meta), ch[0])

    # ---------------------------------------------------------- expressions
    def if_expr(self, meta: Meta, ch: Children) -> ast.IfExp:
        return ast.IfExp(self.p(meta), ch[1], ch[0], ch[2])

    def or_(self, meta: Meta, ch: Children) -> ast.Or:
        return ast.Or(self.p(meta), ch[0], ch[1])

    def and_(self, meta: Meta, ch: Children) -> ast.And:
        return ast.And(self.p(meta), ch[0], ch[1])

    def not_(self, meta: Meta, ch: Children) -> ast.Not:
        return ast.Not(self.p(meta), ch[0])

    def compare(self, meta: Meta, ch: Children) -> ast.Compare:
        return ast.Compare(self.p(meta), str(ch[1]), ch[0], ch[2])

    def is_(self, meta: Meta, ch: Children) -> ast.Is:
        return ast.Is(self.p(meta), ch[0], str(ch[1]), _tok_pos(self.file, ch[1]))

    def is_not(self, meta: Meta, ch: Children) -> ast.Is:
        return ast.Is(self.p(meta), ch[0], str(ch[1]), _tok_pos(self.file, ch[1]), negated=True)

    def in_(self, meta: Meta, ch: Children) -> ast.In:
        return ast.In(self.p(meta), ch[0], ch[1])

    def not_in(self, meta: Meta, ch: Children) -> ast.In:
        return ast.In(self.p(meta), ch[0], ch[1], negated=True)

    def binop(self, meta: Meta, ch: Children) -> ast.BinOp:
        return ast.BinOp(self.p(meta), str(ch[1]), ch[0], ch[2])

    def neg(self, meta: Meta, ch: Children) -> ast.Neg:
        return ast.Neg(self.p(meta), ch[0])

    def attr(self, meta: Meta, ch: Children) -> ast.Attr:
        return ast.Attr(self.p(meta), ch[0], str(ch[1]))

    def index(self, meta: Meta, ch: Children) -> ast.Index:
        return ast.Index(self.p(meta), ch[0], ch[1])

    def number(self, meta: Meta, ch: Children) -> ast.Num:
        text = str(ch[0])
        if len(text) > MAX_NUMBER_DIGITS:
            raise AstBuildError(self.p(meta), f"a number of {len(text)} digits: numbers in the rules have at most "
                                              f"{MAX_NUMBER_DIGITS}")
        return ast.Num(self.p(meta), int(text))

    def decimal(self, meta: Meta, ch: Children) -> ast.DecimalNum:
        text = str(ch[0])
        whole, places = text.split(".")
        if len(whole) > MAX_NUMBER_DIGITS:
            raise AstBuildError(self.p(meta), f"a number of {len(whole)} digits: numbers in the rules have at most "
                                              f"{MAX_NUMBER_DIGITS}")
        if len(places) > MAX_DECIMAL_PLACES:
            raise AstBuildError(self.p(meta),
                                f"a number with {len(places)} digits after the point: at most {MAX_DECIMAL_PLACES}")
        return ast.DecimalNum(self.p(meta), Fraction(text), text)

    def string(self, meta: Meta, ch: Children) -> ast.Str:
        return ast.Str(self.p(meta), _unquote(ch[0]))

    def true(self, meta: Meta, ch: Children) -> ast.Bool:
        return ast.Bool(self.p(meta), True)

    def false(self, meta: Meta, ch: Children) -> ast.Bool:
        return ast.Bool(self.p(meta), False)

    def none(self, meta: Meta, ch: Children) -> ast.NoneLit:
        return ast.NoneLit(self.p(meta))

    def no_legal_action(self, meta: Meta, ch: Children) -> ast.NoLegalAction:
        return ast.NoLegalAction(self.p(meta))

    def board_repetitions(self, meta: Meta, ch: Children) -> ast.BoardRepetitions:
        return ast.BoardRepetitions(self.p(meta))

    def call(self, meta: Meta, ch: Children) -> ast.Call:
        return ast.Call(self.p(meta), str(ch[0]), list(ch[1:]))

    def pieces(self, meta: Meta, ch: Children) -> ast.Pieces:
        owner = where = None
        for part in ch:
            if part[0] == "owner":
                owner = part[1]
            else:
                where = part[1]
        return ast.Pieces(self.p(meta), owner, where)

    def pieces_owner(self, meta: Meta, ch: Children) -> tuple[str, ast.Expr]:
        return ("owner", ch[0])

    def pieces_filter(self, meta: Meta, ch: Children) -> tuple[str, ast.Expr]:
        return ("where", ch[0])

    def pair(self, meta: Meta, ch: Children) -> ast.Offset:
        def whole(e: ast.Expr) -> Optional[int]:
            if isinstance(e, ast.Num):
                return e.value
            if isinstance(e, ast.Neg) and isinstance(e.operand, ast.Num):
                return -e.operand.value
            return None
        if len(ch) != 2:  # at the third
            raise AstBuildError(ch[2].pos, _offset_count(len(ch)), hint=OFFSET_FORMS)
        dx, dy = whole(ch[0]), whole(ch[1])
        if dx is None or dy is None:
            bad = ch[0] if dx is None else ch[1]
            raise AstBuildError(bad.pos, "an offset is two whole numbers written out, files east and ranks "
                                         "north: (1, 2), (-2, 1)", hint=OFFSET_FORMS)
        return ast.Offset(self.p(meta), dx, dy)

    def list_(self, meta: Meta, ch: Children) -> ast.ListLit:
        return ast.ListLit(self.p(meta), list(ch))

    def name(self, meta: Meta, ch: Children) -> ast.Name:
        return ast.Name(self.p(meta), str(ch[0]))


# The forms an offset is written in, for a message about a wrong one.
OFFSET_FORMS = ("an offset is two whole numbers, (dx, dy): dx files east and dy ranks north, as in "
                 "'neighbour(X, (1, 2))' and 'leap (1, 2), (2, 1)'; a direction is named: 'neighbour(X, n)'; "
                 "a grid's neighbours by offset: 'neighbours: [[1, 2], [2, 1]]' in the board's grid")


def _case(pos: ast.Pos, head: tuple[str, str], body: list[ast.Stmt]) -> ast.Case:
    """A case's statements, its `notation` line (if any) taken out of them."""
    kind, what = head
    notation = notation_pos = None
    kept = []
    for stmt in body:
        if isinstance(stmt, ast.NotationStmt):
            notation, notation_pos = stmt.template, stmt.pos
        else:
            kept.append(stmt)
    return ast.Case(pos, kind, what, kept, notation, notation_pos)


def _offset_count(count: int) -> str:
    return f"an offset has two numbers (dx, dy), not {count}"


_ENTRY_WORDS = {
    "order": "order",
    "turn": "turn",
    "before_turn": "before each turn",
    "after_turn": "after each turn",
    "after_action": "after each action",
    "no_action": "if no action",
    "prefer": "prefer",
    "longest": "play the longest turn",
}
_ENTRY_KEYS = {words: key for key, words in _ENTRY_WORDS.items()}


def entry_words(entry: str) -> str:
    """How the rules write a phase's or decision's entry (`after_turn`: "after each turn")."""
    return _ENTRY_WORDS.get(entry, entry)


def _checked_removals(name: str, removals: list[ast.EntryRemoval], given: dict[str, ast.Pos]) -> list[ast.EntryRemoval]:
    """The removals of a `change` block, each entry removed once and not given too."""
    seen: set[tuple[str, Optional[str]]] = set()
    for removal in removals:
        key = (removal.entry, removal.name)
        words = f"action {removal.name}" if removal.entry == "action" else entry_words(removal.entry)
        if key in seen:
            raise AstBuildError(removal.pos, f"'remove {words}' is written twice in the change of '{name}'")
        seen.add(key)
        given_at = given.get(f"action {removal.name}" if removal.entry == "action" else removal.entry)
        if given_at is not None:
            raise AstBuildError(removal.pos, f"the change of '{name}' both gives '{words}' (line {given_at.line}) "
                                             "and removes it: keep one of the two")
    return removals


def _change_parts(entries: list[Any]) -> tuple[list[ast.EntryRemoval], list[ast.EntryAddition], list[Any]]:
    """A change block's removals, additions and the entries it gives whole."""
    removals = [entry for entry in entries if isinstance(entry, ast.EntryRemoval)]
    additions = [entry for entry in entries if isinstance(entry, ast.EntryAddition)]
    given = [entry for entry in entries if not isinstance(entry, (ast.EntryRemoval, ast.EntryAddition))]
    return removals, additions, given


def _checked_additions(name: str, additions: list[ast.EntryAddition], removals: list[ast.EntryRemoval],
                       given: dict[str, ast.Pos]) -> list[ast.EntryAddition]:
    """The additions of a `change` block, each entry added to once, neither given whole
    nor removed too."""
    seen: dict[str, ast.Pos] = {}
    removed = {removal.entry: removal.pos for removal in removals if removal.name is None}
    for addition in additions:
        words = entry_words(addition.entry)
        if addition.entry in seen:
            raise AstBuildError(addition.pos, f"'add to {words}' is written twice in the change of '{name}' "
                                              f"(first on line {seen[addition.entry].line}): join the two")
        seen[addition.entry] = addition.pos
        given_at = given.get(addition.entry)
        if given_at is not None:
            raise AstBuildError(addition.pos, f"the change of '{name}' both gives '{words}' (line {given_at.line}) "
                                              f"and adds to it: put the statements in the one '{words}'")
        removed_at = removed.get(addition.entry)
        if removed_at is not None:
            raise AstBuildError(addition.pos, f"the change of '{name}' both removes '{words}' "
                                              f"(line {removed_at.line}) and adds to it: to replace the entry, "
                                              f"give it whole ('{words}:')")
    return additions


def _unquote(tok: Token) -> str:
    return str(tok)[1:-1]


class LocatedText(str):
    """A string literal that remembers where it was written, for error messages
    about its contents (a notation template); otherwise an ordinary `str`."""

    pos: ast.Pos


def _located_text(file: str, tok: Token) -> LocatedText:
    text = LocatedText(_unquote(tok))
    text.pos = _tok_pos(file, tok)
    return text
