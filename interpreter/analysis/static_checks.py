"""What `regelwerk lint` finds by reading the rules, before playing them.

- A moving action (step, slide, leap, jump, walk, go to) with a case in which the
  piece never goes anywhere: no `move` — nor any other statement that changes the
  board (`place`, `remove`, `return`, stack statements; a promotion or attribute of
  another piece than the moving one) or hands over to a follow-up decision
  (`then`) — in the case, in the procedures it calls, or in the `after each action`
  (and turn) blocks. A `move` forgotten, almost always. A warning where some path
  through the case changes nothing: an `if` without `else` around the only `move`
  (or the only capture).
- An `if no action:` block that does not end the game on every path (an `if`
  without `else` around the `win`): the docs promise that it ends the game, and
  play stops with an error when it does not.

Each finding is a `(severity, pos, message)` at the rule involved.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from ..parsing import ast

MOVING_PATTERNS = (ast.StepPattern, ast.LeapPattern, ast.JumpPattern, ast.OffsetLeapPattern, ast.AlongPattern,
                   ast.WalkPattern, ast.GoPattern)
# Statements after which the board (or the turn) is no longer what it was.
BOARD_CHANGES = (
    ast.MoveStmt, ast.CreateStmt, ast.PlaceStmt, ast.RemoveStmt, ast.ReturnStmt, ast.StackStmt,
    ast.ReleaseStmt, ast.AddStoneStmt, ast.ThenStmt,
)
ENDINGS = (ast.WinStmt, ast.LoseStmt, ast.DrawStmt, ast.EndStmt)


def static_findings(rules: Iterable[ast.RulesFile]) -> list[tuple[str, ast.Pos, str]]:
    items = [item for rules_file in rules for item in rules_file.items]
    procedures = {item.name: item.body for item in items if isinstance(item, ast.Procedure)}
    return [*_unmoving_cases(items, procedures), *_open_no_action_blocks(items, procedures)]


# -- a moving action whose piece stays where it is --------------------------------------


def _unmoving_cases(items: list, procedures: dict) -> Iterator[tuple[str, ast.Pos, str]]:
    afterwards = [item.after_action for item in items if isinstance(item, (ast.Decision, ast.Phase))]
    afterwards += [hook for item in items if isinstance(item, ast.Phase)
                   for hook in (item.before_turn, item.after_turn)]
    if any(_changes_board(block or [], procedures) for block in afterwards):
        return  # the after-rules move pieces: what a case leaves undone may happen there
    for decision in (item for item in items if isinstance(item, ast.Decision)):
        for action in decision.actions:
            if not isinstance(action.pattern, MOVING_PATTERNS):
                continue
            for case in action.cases:
                if not _changes_board(case.body, procedures):
                    yield (
                        "error", case.pos,
                        f"action '{action.name}', {case.kind} {case.what}: the piece never moves — this case "
                        "(and the procedures it calls) has no 'move' nor any other statement that changes the "
                        "board; add 'move' (or use 'select' for an action that stays in place)",
                    )
                    continue
                open_if = _path_without_change(case.body, procedures)
                if open_if is not None:
                    yield (
                        "warning", open_if.pos,
                        f"action '{action.name}', {case.kind} {case.what}: on some path through this 'if' (a "
                        "branch, or the 'else' it lacks) nothing moves the piece or changes the board, and the "
                        "action is played all the same; move it there, or keep the action to when it applies "
                        "with a 'where'",
                    )


def _changes_board(block: list, procedures: dict, seen: frozenset = frozenset()) -> bool:
    for statement in _statements(block):
        if isinstance(statement, BOARD_CHANGES) or _changes_another_piece(statement):
            return True
        if isinstance(statement, ast.CallStmt) and statement.procedure not in seen:
            body = procedures.get(statement.procedure, [])
            if _changes_board(body, procedures, seen | {statement.procedure}):
                return True
    return False


def _path_without_change(block: list, procedures: dict):
    """The outermost `if` through which the block can run without changing the
    board or ending the game, although some branch of it does; None when every
    path through the block does (or none does: reported as never moving)."""
    if _surely_changes(block, procedures):
        return None
    for statement in _statements(block):
        if isinstance(statement, ast.IfStmt) and _changes_board([statement], procedures) \
                and not _surely_changes([statement], procedures):
            return statement
        if isinstance(statement, ast.CallStmt):
            found = _path_without_change(procedures.get(statement.procedure, []), procedures)
            if found is not None:
                return found
    return None


def _surely_changes(block: list, procedures: dict, seen: frozenset = frozenset()) -> bool:
    """Whether every path through `block` changes the board or ends the game
    (a loop may run no time: it is sure of nothing)."""
    for statement in block:
        if isinstance(statement, BOARD_CHANGES + ENDINGS) or _changes_another_piece(statement):
            return True
        if isinstance(statement, ast.IfStmt) and statement.otherwise:
            bodies = [body for _, body in statement.branches] + [statement.otherwise]
            if all(_surely_changes(body, procedures, seen) for body in bodies):
                return True
        if isinstance(statement, ast.CallStmt) and statement.procedure not in seen:
            if _surely_changes(procedures.get(statement.procedure, []), procedures, seen | {statement.procedure}):
                return True
    return False


def _changes_another_piece(statement) -> bool:
    """A promotion, a marker given or an attribute set — of a piece other than the
    moving one (`promote target`, `target.owner = player`): an action may act on
    another piece from afar. On the moving piece alone they do not move it."""
    if isinstance(statement, (ast.PromoteStmt, ast.PromoteChoiceStmt)):
        return not _is_moving_piece(statement.what)
    if isinstance(statement, ast.GiveStmt):
        return not _is_moving_piece(statement.to)
    if isinstance(statement, ast.AssignStmt) and isinstance(statement.target, ast.Attr):
        return not _is_moving_piece(statement.target.obj)
    return False


def _is_moving_piece(expr) -> bool:
    return isinstance(expr, ast.Name) and expr.id == "piece"


def _statements(block: list) -> Iterator:
    """Every statement of `block`, nested ones (if, for each) included."""
    for statement in block:
        yield statement
        if isinstance(statement, ast.IfStmt):
            for _, body in statement.branches:
                yield from _statements(body)
            yield from _statements(statement.otherwise)
        elif isinstance(statement, (ast.ForEachStmt, ast.RepeatStmt)):
            yield from _statements(statement.body)


# -- an `if no action` block that may not end the game ---------------------------------------


def _open_no_action_blocks(items: list, procedures: dict) -> Iterator[tuple[str, ast.Pos, str]]:
    for phase in (item for item in items if isinstance(item, ast.Phase)):
        block = phase.no_action
        if block and not _always_ends(block, procedures):
            yield (
                "error", _no_action_pos(phase),
                f"the 'if no action' block of phase '{phase.name}' does not end the game on every path "
                "(an 'if' without 'else'?): when it does not, play stops with an error; end every path "
                "with win, lose, draw or end game",
            )


def _no_action_pos(phase: ast.Phase) -> ast.Pos:
    """The first statement of the block (the block itself has no position of its own)."""
    return getattr(phase.no_action[0], "pos", phase.pos)


def _always_ends(block: list, procedures: dict, seen: frozenset = frozenset()) -> bool:
    return any(_statement_ends(statement, procedures, seen) for statement in block)


def _statement_ends(statement, procedures: dict, seen: frozenset) -> bool:
    if isinstance(statement, ENDINGS):
        return True
    if isinstance(statement, ast.IfStmt):
        if not statement.otherwise:
            return False
        bodies = [body for _, body in statement.branches] + [statement.otherwise]
        return all(_always_ends(body, procedures, seen) for body in bodies)
    if isinstance(statement, ast.CallStmt) and statement.procedure not in seen:
        body = procedures.get(statement.procedure, [])
        return _always_ends(body, procedures, seen | {statement.procedure})
    return False
