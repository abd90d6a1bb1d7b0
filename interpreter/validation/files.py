"""Reading a file named by a stranger: a regular file only, and never more than a limit.

A definition or a record may name a path (`rules:`, `extends:`, `# game:`) and the
command line may name any path at all. Opening a FIFO blocks for ever, reading a
device (`/dev/zero`) or an enormous file exhausts memory: every file regelwerk reads
goes through `read_bounded`, which refuses anything but a regular file (without
blocking, whatever the path is) and reads at most `limit` bytes.
"""
from __future__ import annotations

import os
import stat

# What a path that is not a regular file is, for messages.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(OSError):
    """A file that cannot or must not be read; `reason` completes "cannot read X: ..."."""

    def __init__(self, reason: str, too_large: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.too_large = too_large

    def __str__(self) -> str:  # (the reason alone, also once `filename` says which file)
        return self.reason


def kind_of(mode: int) -> str:
    """'a folder', 'a named pipe (FIFO)', ... for a mode that is not a regular file's."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file `path`; FileRefused if it is not one, cannot be
    read, or holds more than `limit` bytes (then with `too_large` set)."""
    # O_NONBLOCK: opening a FIFO for reading must not wait for a writer; it has no
    # effect on a regular file. fstat on the open file leaves no window for a swap.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefused(exc.strerror or str(exc)) from None
    except ValueError:  # (a NUL in the name, which no file's name holds)
        raise FileRefused("no file's name holds a NUL character") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(f"it is {kind_of(mode)}, not a file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except FileRefused:
        raise
    except OSError as exc:
        raise FileRefused(exc.strerror or str(exc)) from None
    finally:
        os.close(fd)
    if size > limit:
        raise FileRefused(f"it is larger than {limit} bytes", too_large=True)
    return b"".join(chunks)


def mode_of(path: str | os.PathLike[str]) -> int | None:
    """The mode of `path` (links followed), or None when it cannot be had at all —
    missing, or a name too long or otherwise unusable (`Path.exists` raises for some)."""
    try:
        return os.stat(path).st_mode
    except (OSError, ValueError):  # ValueError: a NUL byte in the name
        return None


def exists(path: str | os.PathLike[str]) -> bool:
    return mode_of(path) is not None


def is_file(path: str | os.PathLike[str]) -> bool:
    mode = mode_of(path)
    return mode is not None and stat.S_ISREG(mode)


def is_dir(path: str | os.PathLike[str]) -> bool:
    mode = mode_of(path)
    return mode is not None and stat.S_ISDIR(mode)
