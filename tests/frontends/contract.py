"""The contract the front ends that take any game rely on, as the tests read it:
`FrontendGame` (interpreter/frontends/protocol.py) with its data members and
methods by name.

The fakes in `fakes.py` stand in for real games in the front ends' tests, so they
must offer every member of `FrontendGame` with the real `Game`'s signatures;
`test_contract.py` checks both sides, and that the front ends use nothing else.
The fakes' states are their own (`Any` in their signatures).
"""
from __future__ import annotations

from interpreter.frontends.protocol import DescribedGame, FastLayer, FrontendGame

__all__ = ["DATA_MEMBERS", "MEMBERS", "METHODS", "FastLayer", "FrontendGame"]

# what FrontendGame declares, with what it takes from DescribedGame
MEMBERS = {**vars(DescribedGame), **vars(FrontendGame)}
# (read-only properties in the protocol)
DATA_MEMBERS = tuple(name for name, value in MEMBERS.items() if isinstance(value, property))
METHODS = tuple(name for name, value in MEMBERS.items() if callable(value) and not name.startswith("_"))
