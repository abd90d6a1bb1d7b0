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
}
# Context names meaningful everywhere.
ALWAYS = frozenset({"player", "players", "opponent", "sites"})

# Properties every piece has, read with `.NAME` like attributes.
BUILTIN_PROPERTIES = ("owner", "kind", "height", "value")
# What `X is ...` can ask besides a piece kind.
PIECE_RELATIONS = ("empty", "occupied", "enemy", "own", "neutral")
