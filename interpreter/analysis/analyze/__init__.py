"""Measuring a game and its variants the way game-design research does.

`analyze(game, variants=..., games=..., seed=...) -> Report`; see docs/analysis.md.
"""
from .columns import Column, build_columns
from .driver import analyze
from .report import ColumnData, Report, Row
from .stats import Difference, Estimate

__all__ = ["Column", "ColumnData", "Difference", "Estimate", "Report", "Row", "analyze", "build_columns"]
