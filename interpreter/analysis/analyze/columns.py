"""The columns of an analysis: the base game, each variant, each set of options.

A column names a game the way `load_game` takes it (bundled name or path, options,
variant file). Paths are made absolute so that worker processes, wherever they
run, load the same files; everything in a column is plain data, so it pickles.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

from ...api import DefinitionError, Game, load_game
from ...validation.diagnostics import Diagnostic

BASE_LABEL = "base"


@dataclass(frozen=True)
class Column:
    """One game to measure: `game` (bundled name or absolute path), `options` as
    sorted (name, value) pairs, `variant` (absolute path or None)."""

    label: str
    game: str
    options: tuple[Any, ...] = ()
    variant: Optional[str] = None
    # the command-line option that asked for it ("--variant", "--compare"; "" for the
    # game as given) and what was given to it
    option: str = field(default="", compare=False)
    argument: str = field(default="", compare=False)

    @property
    def origin(self) -> str:
        """How the column was asked for, for people: "--variant FILE", "--compare K=V"."""
        return f"{self.option} {self.argument}" if self.option else ""

    def load(self, coverage: bool = True) -> Game:
        """The compiled game of this column (rule coverage on: analysis reads it)."""
        return load_game(self.game, dict(self.options), self.variant, coverage=coverage)

    def describe(self) -> dict[str, Any]:
        """The column as JSON: label, options and variant as given."""
        return {"label": self.label, "options": dict(self.options), "variant": self.origin_variant}

    @property
    def origin_variant(self) -> Optional[str]:
        return _shown_path(self.variant) if self.variant else None


def _absolute(name_or_path: str) -> str:
    """A path made absolute; a bundled game's name stays a name."""
    path = Path(name_or_path)
    looks_like_path = os.sep in name_or_path or "/" in name_or_path or path.suffix in (".yaml", ".yml")
    return str(path.resolve()) if looks_like_path or path.exists() else name_or_path


def _shown_path(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return relative if not relative.startswith("..") else path


def parse_option_set(text: str, source: str = "--compare") -> tuple[Any, ...]:
    """`size=9+rule=b` as sorted pairs; ValueError for anything else."""
    pairs = []
    for item in text.split("+"):
        name, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not name or not value:
            raise ValueError(f"{source}: expected NAME=VALUE (several joined by '+'), got '{item.strip()}'")
        pairs.append((name, value))
    return tuple(sorted(dict(pairs).items()))


def build_columns(game: str, options: Optional[Mapping[str, Any]] = None, variants: Iterable[str] = (),
                  compare: Iterable[str] = ()) -> list[Column]:
    """The base column (GAME with `options`), one per variant file, one per option
    set of `compare` (each `NAME=VALUE[+NAME=VALUE...]`, on top of `options`)."""
    base_options = {str(k): str(v) for k, v in (options or {}).items()}
    target = _absolute(game)
    columns = [Column(BASE_LABEL, target, tuple(sorted(base_options.items())), None)]
    for variant in variants:
        absolute = str(Path(variant).resolve())
        columns.append(Column(Path(variant).stem, target, columns[0].options, absolute, "--variant", variant))
    for text in compare:
        pairs = parse_option_set(text)
        merged = tuple(sorted({**base_options, **dict(pairs)}.items()))
        label = "+".join(f"{k}={v}" for k, v in pairs)
        columns.append(Column(label, target, merged, None, "--compare", text))
    return _unique_labels(columns)


def _unique_labels(columns: Sequence[Column]) -> list[Column]:
    """Labels made distinct (`fast`, `fast#2`): they key the report's columns."""
    seen: dict[str, Any] = {}
    out = []
    for column in columns:
        count = seen.get(column.label, 0) + 1
        seen[column.label] = count
        label = column.label if count == 1 else f"{column.label}#{count}"
        out.append(Column(label, column.game, column.options, column.variant, column.option, column.argument))
    return out


def load_columns(columns: Sequence[Column]) -> list[Game]:
    """Every column compiled once, here, before any game is played: a broken
    variant or option is reported (DefinitionError) before the work starts.

    A bad option of a `--compare` set is located at `--compare`, where it was typed."""
    games = []
    for column in columns:
        try:
            games.append(column.load())
        except DefinitionError as exc:
            if column.option == "--compare":
                raise _relocated(exc, column) from None
            raise
    return games


def _relocated(exc: DefinitionError, column: Column) -> DefinitionError:
    moved = [
        Diagnostic(column.option, 1, 1, f"{d.message} (in '{column.origin}')", hint=d.hint)
        if d.file == "--option" else d
        for d in exc.diagnostics
    ]
    return DefinitionError(moved, exc.sources)
