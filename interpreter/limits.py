"""Bounds on what a definition can hold, shared by the stages that check them."""

# Every number in a definition lies within ±MAX_NUMBER (docs/format.md, "Limits and
# safety"): far beyond any board, pool or turn limit, and far below the size where
# turning a number into text fails (4300 digits) or doing sums with it gets slow.
MAX_NUMBER = 10**9

# A grid's files (named a to z) and ranks (the schema's bounds; also those of a size an
# option gives, loading/options.py).
GRID_FILES = 26
GRID_RANKS = 99
# Offsets named in direction sets, each with its opposite (a ray table each, per site).
MAX_DIRECTION_OFFSETS = 64

# The longest action a record holds (frontends/records.py): a notation template whose
# literal text alone is longer could never be read back.
MAX_NOTATION_CHARS = 200
