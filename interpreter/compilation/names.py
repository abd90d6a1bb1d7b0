"""The names the rules language gives a meaning of its own.

A leaf module: the model (checking the YAML's names) and the compiler (resolving
the rules' names) both read it.
"""
from __future__ import annotations

# The context names of the rules language and what they mean (for messages).
CONTEXT_NAMES = {
    "player": "the player deciding now",
    "opponent": "the other player (two-player games)",
    "players": "all players in play",
    "piece": "the acting piece",
    "from": "the site the action starts from",
    "to": "the landing or chosen site",
    "target": "the piece that stood on 'to' before the action",
    "jumped": "the piece jumped over",
    "site": "the site a 'forbid' condition is asked about",
    "outcome": "the outcome of a chance event",
    "sites": "all sites of the board",
    "repetitions": "how often the position at the start of this turn has occurred",
}
# Context names meaningful everywhere.
ALWAYS = frozenset({"player", "players", "opponent", "sites"})

# Properties every piece has, read with `.NAME` like attributes.
BUILTIN_PROPERTIES = ("owner", "kind", "height", "value")
# What `X is ...` can ask besides a piece kind.
PIECE_RELATIONS = ("empty", "occupied", "enemy", "own", "neutral")

# Words of the rules language that names must not take (docs/format.md 3.1).
# A statement starting with one of these is that statement: a procedure named so
# could never be called, a variable or pool named so never assigned (`start += 1`
# reads as `start phase`: the parse error says why). tests/language/
# test_names_and_checks.py derives both lists from the grammar.
STATEMENT_WORDS = frozenset({
    "move", "place", "remove", "return", "give", "promote", "stack", "release", "add", "let", "then",
    "notation", "win", "lose", "draw", "end", "start", "next", "if", "elif", "else", "for", "rotate", "cycle",
    "create", "repeat",
})
# In an expression these are always the word, never a name: a define, a variable, a
# region ... named so could never be read.
EXPRESSION_WORDS = frozenset({"true", "false", "none", "pieces", "not", "and", "or", "in", "is", "if", "else",
                              "board", "no"})


def reserved_word(name: str, statement: bool = False) -> str | None:
    """Why `name` cannot name a thing used in expressions (or, with `statement`, a
    procedure), or None when it can."""
    if name in EXPRESSION_WORDS:
        return f"'{name}' is a word of the rules language (in expressions it always means itself)"
    if statement and name in STATEMENT_WORDS:
        return f"'{name}' starts a statement of the rules language: a procedure named so could never be called"
    return None
