"""Files the commands write (records, pictures): replaced whole, never written through.

A file named on the command line is written as a new file beside it, then renamed
over it in one step: an interrupted write never leaves half a file, a symbolic link
there is replaced rather than followed (what it points at is left alone), and what
is not a regular file — a named pipe, which would block until somebody reads it, a
device, a folder — is refused at once.
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from ..validation.files import FileRefused, kind_of, mode_of


def check_target(path: Path) -> None:
    """FileRefused unless `path` is missing or a regular file (links followed:
    a link to a pipe or a device is refused like the pipe or the device)."""
    mode = mode_of(path)
    if mode is not None and not stat.S_ISREG(mode):
        raise FileRefused(f"it is {kind_of(mode)}, not a file")


def replace_file(path: str | os.PathLike, text: str) -> None:
    """Write `text` (UTF-8) to `path`, replacing what is there in one step."""
    target = Path(path)
    try:
        check_target(target)
    except FileRefused as exc:
        exc.filename = str(target)  # (what `regelwerk` names: "cannot write FILE: it is ...")
        raise
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        # mkstemp makes the file private (0600); what is written is an ordinary document.
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
