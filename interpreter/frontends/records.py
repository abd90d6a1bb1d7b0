"""Game records: the actions of one game as text, with an optional header.

    # game: mygame
    # game-path: games/mygame/mygame.yaml
    # option: capture=whole
    # players: human,mcts
    # seed: 7
    start:red
    c2-c3  d7-d6      # several actions on a line are fine too

Notations are separated by white space or new lines; `#` starts a comment that
runs to the end of the line. Comment lines of the form `# key: value` before the
first action make the header; anything else is a plain comment. A record without
a header (a bare list of actions) is a complete record. Every action keeps its
line and column, so an error can point into the file.
"""
from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Iterable, Optional

from ..limits import MAX_NOTATION_CHARS
from ..validation.diagnostics import Diagnostic, first_hidden_control, split_source_lines
from ..validation.files import FileRefused, mode_of, read_bounded
from ..validation.yaml_source import line_column_of_bytes, line_column_of_offset
from .output_file import check_target, replace_file

STDIN = "-"
STDIN_NAME = "<stdin>"

_HEADER_LINE = re.compile(r"^\s*#\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")
_TOKEN = re.compile(r"\S+")
# Header keys with a field of their own; any other key is kept in `extra`.
_KNOWN_KEYS = ("game", "game-path", "variant", "option", "players", "seed", "date")

# What a record may hold (docs/format.md, "Limits and safety"): a game of the longest
# that `regelwerk play` plays, with room to spare.
MAX_RECORD_BYTES = 4 * 1024 * 1024
MAX_RECORD_ACTIONS = 100_000


class RecordError(Exception):
    """A record cannot be read; `str()` is `FILE:LINE:COLUMN: error: ...` (+ excerpt)."""

    def __init__(self, diagnostic: Diagnostic, text: Optional[str] = None):
        self.diagnostic = diagnostic
        self.text = text
        super().__init__(str(self))

    def __str__(self) -> str:
        lines = split_source_lines(self.text) if self.text is not None else None
        return self.diagnostic.format(lines)


class RecordActionError(RecordError):
    """An action of a record that cannot be played (illegal, or after the end): exit
    status 2 and one line, `FILE:LINE:COLUMN: error: message (hint)`, for scripts."""

    status = 2

    def __str__(self) -> str:
        hint = f" ({self.diagnostic.hint})" if self.diagnostic.hint else ""
        return self.diagnostic.headline + hint


@dataclass(frozen=True)
class RecordedAction:
    notation: str
    line: int
    column: int


@dataclass
class RecordHeader:
    game: Optional[str] = None
    path: Optional[str] = None  # `# game-path:` the game's file, for a game that is not bundled
    options: dict[str, str] = field(default_factory=dict)  # as typed: NAME -> VALUE text
    variant: Optional[str] = None
    players: Optional[str] = None
    seed: Optional[int] = None
    date: Optional[str] = None
    extra: dict[str, str] = field(default_factory=dict)  # other `# key: value` lines, kept
    # (line, column) of each key's value as read, for messages about it
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)


@dataclass
class Record:
    actions: list[RecordedAction]
    header: RecordHeader = field(default_factory=RecordHeader)
    source: str = "<record>"  # the name used in messages
    text: str = ""

    @property
    def notations(self) -> list[str]:
        return [a.notation for a in self.actions]

    def where(self, index: int) -> str:
        """`FILE:LINE:COLUMN` of the action at `index` (0-based)."""
        action = self.actions[index]
        return f"{self.source}:{action.line}:{action.column}"


def parse_record(text: str, source: str = "<record>") -> Record:
    _check_characters(text, source)
    header = RecordHeader()
    actions: list[RecordedAction] = []
    for number, line in enumerate(split_source_lines(text), start=1):
        code, _, comment = line.partition("#")
        if not actions and not code.strip() and comment:
            _read_header_line(header, line, number, source, text)
        for token in _TOKEN.finditer(code):
            _check_token(token, number, len(actions), source, text)
            actions.append(RecordedAction(token.group(), number, token.start() + 1))
    return Record(actions, header, source, text)


def _check_characters(text: str, source: str) -> None:
    """No control characters: a record's words are echoed in messages, where an
    escape sequence would drive the reader's terminal."""
    hidden = first_hidden_control(text)
    if hidden >= 0:
        line, column = line_column_of_offset(text, hidden)
        message = f"control character U+{ord(text[hidden]):04X}: a record is plain text"
        raise RecordError(Diagnostic(source, line, column, message), text)


def _check_token(token: re.Match[str], line: int, count: int, source: str, text: str) -> None:
    """A notation of reasonable length, and not more of them than a game may have:
    a stranger's record must not make us hold (or echo) megabytes of one word."""
    column = token.start() + 1
    if token.end() - token.start() > MAX_NOTATION_CHARS:
        message = f"this is no action: {token.end() - token.start()} characters without a space " \
                  f"(an action is written in at most {MAX_NOTATION_CHARS})"
        raise RecordError(Diagnostic(source, line, column, message), text)
    if count >= MAX_RECORD_ACTIONS:
        message = f"a record holds at most {MAX_RECORD_ACTIONS} actions"
        raise RecordError(Diagnostic(source, line, column, message), text)


def _read_header_line(header: RecordHeader, line: str, number: int, source: str, text: str) -> None:
    match = _HEADER_LINE.match(line)
    if match is None:
        return  # a plain comment
    key, value = match.group(1).lower(), match.group(2)
    column = match.start(2) + 1
    header.positions[key] = (number, column)

    def fail(message: str) -> None:
        raise RecordError(Diagnostic(source, number, column, message), text)

    if key == "game":
        header.game = value
    elif key == "game-path":
        header.path = value
    elif key == "option":
        name, sep, option_value = value.partition("=")
        if not sep or not name.strip():
            fail(f"an option is written NAME=VALUE, not '{value}'")
        header.options[name.strip()] = option_value.strip()
        header.positions[f"option:{name.strip()}"] = (number, column)
    elif key == "variant":
        header.variant = value
    elif key == "players":
        header.players = value
    elif key == "seed":
        try:
            header.seed = int(value)
        except ValueError:
            fail(f"a seed is a whole number, not '{value}'")
    elif key == "date":
        header.date = value
    else:
        header.extra[key] = value


def read_record(path: str) -> Record:
    """The record in file `path` (`-`: standard input); RecordError if it cannot be read."""
    source = STDIN_NAME if path == STDIN else path
    too_large = f"it is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB (the most a record may have)"
    try:
        raw = _read_stdin_bytes() if path == STDIN else read_bounded(path, MAX_RECORD_BYTES)
        if len(raw) > MAX_RECORD_BYTES:
            raise FileRefused(too_large, too_large=True)
        # utf-8-sig: a byte-order mark some editors write is not part of the first action.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = line_column_of_bytes(raw, exc.start)
        message = f"cannot read {source}: it is not UTF-8 text (byte 0x{raw[exc.start]:02x})"
        raise RecordError(Diagnostic(source, line, column, message)) from None
    except FileRefused as exc:
        reason = too_large if exc.too_large else exc.reason
        # (a pipe is refused because opening one can block for ever; standard input cannot)
        hint = ("to pipe a record in, name it '-' and send it on standard input "
                "(e.g. cat game.txt | regelwerk replay GAME -)") if _is_pipe(path) else None
        raise RecordError(Diagnostic(source, 1, 1, f"cannot read {source}: {reason}", hint=hint)) from None
    return parse_record(text, source)


def _is_pipe(path: str) -> bool:
    mode = mode_of(path)
    return mode is not None and stat.S_ISFIFO(mode)


def _read_stdin_bytes() -> bytes:
    """Standard input, at most one byte more than a record may have."""
    try:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            data: bytes = stream.read(MAX_RECORD_BYTES + 1)
            return data
        return sys.stdin.read(MAX_RECORD_BYTES + 1).encode("utf-8", "surrogatepass")
    except OSError as exc:
        raise FileRefused(exc.strerror or str(exc)) from None


def format_record(notations: Iterable[str], header: Optional[RecordHeader] = None) -> str:
    """Header comment lines, then one action per line."""
    lines = []
    if header is not None:
        if header.game:
            lines.append(f"# game: {header.game}")
        if header.path:
            lines.append(f"# game-path: {header.path}")
        if header.variant:
            lines.append(f"# variant: {header.variant}")
        lines.extend(f"# option: {name}={value}" for name, value in header.options.items())
        if header.players:
            lines.append(f"# players: {header.players}")
        if header.seed is not None:
            lines.append(f"# seed: {header.seed}")
        if header.date:
            lines.append(f"# date: {header.date}")
        lines.extend(f"# {key}: {value}" for key, value in header.extra.items() if key not in _KNOWN_KEYS)
    # A value with a line break (an option typed so) would start a header line of its own.
    lines = [" ".join(line.splitlines()) for line in lines]
    lines.extend(notations)
    return "".join(line + "\n" for line in lines)


def check_record_target(path: Path) -> None:
    """A record replaces its file whole: refuse to replace what is not a file
    (`--record /dev/null` must not swap a device for a text file)."""
    check_target(path)


def write_record(path: str, notations: Iterable[str], header: Optional[RecordHeader] = None) -> None:
    """Write the record to `path`, replacing the file in one step.

    The play loop saves after every action; writing a temporary file and renaming
    it means an interrupted save never leaves half a record behind.
    """
    replace_file(path, format_record(notations, header))


# -- one writer per record -------------------------------------------------------------------

fcntl: Optional[ModuleType]
try:  # POSIX; elsewhere records are not locked
    import fcntl as _posix_locks

    fcntl = _posix_locks
except ImportError:  # pragma: no cover - Windows
    fcntl = None


class RecordLocked(OSError):
    """Another process is writing the record."""


class RecordLock:
    """The right to write the record at `path`, held by one process at a time.

    `write_record` replaces the record with a new file at every save, so the file
    itself cannot carry a lock: a lock file `.NAME.lock` beside it does. The lock is
    the operating system's (`flock`): it goes away with the process that held it,
    however that ends, so a stale lock file never blocks anybody.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path).resolve()
        self.lock_path = self.path.parent / f".{self.path.name}.lock"
        self.fd: Optional[int] = None

    def acquire(self) -> None:
        check_record_target(self.path)
        if fcntl is None:
            return
        while self.fd is None:
            # O_NOFOLLOW: a link planted as the lock file (in a shared folder) must not
            # make us truncate the file it points to.
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
                os.close(fd)
                who = f" (process {holder})" if holder.isdigit() else ""
                raise RecordLocked(f"another regelwerk{who} is writing {self.path.name}") from None
            if self._still_ours(fd):
                os.ftruncate(fd, 0)
                os.write(fd, str(os.getpid()).encode("ascii"))
                self.fd = fd
            else:  # the holder released and removed it between our open and our lock
                os.close(fd)

    def _still_ours(self, fd: int) -> bool:
        try:
            return os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino
        except OSError:
            return False

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            os.unlink(self.lock_path)  # while still held: a waiting process sees it gone and retries
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


def claim_record(path: Path, held: Optional[RecordLock]) -> RecordLock:
    """The lock of the record at `path`: `held` when it is that lock already, else a
    new one, taken before `held` is let go (RecordLocked if another process has it)."""
    if held is not None and held.path == Path(path).resolve():
        return held
    lock = RecordLock(path)
    lock.acquire()
    if held is not None:
        held.release()
    return lock
