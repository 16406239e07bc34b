"""Writing results safely: atomically, never over an input, never over a file without ``--force``."""
from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class OutputError(Exception):
    """An output that must not or cannot be written; the message says what to do."""


def _mode_for(target: str) -> int:
    """The replaced file's mode, or what the umask gives a new file (temporary files are 0600)."""
    if os.path.exists(target):
        return os.stat(target).st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def atomic_output(path: str | None, *, force: bool = False, inputs: tuple[str, ...] = (),
                  newline: str | None = None) -> Iterator[TextIO]:
    """A text stream for ``path`` (standard output for None or ``-``).

    The text goes to a temporary file beside ``path`` that replaces it only when
    the writing finished without an exception, so a failed run leaves no partial
    file and the old one intact.
    """
    if path in (None, "-"):
        yield sys.stdout
        sys.stdout.flush()
        return
    target = os.path.realpath(path)
    if any(os.path.exists(i) and os.path.samefile(i, target) for i in inputs if i != "-" and os.path.exists(target)):
        raise OutputError(f"{path}: is one of the inputs; choose another output file")
    if os.path.exists(target) and not force:
        raise OutputError(f"{path}: already exists; add --force to replace it")
    directory = os.path.dirname(target) or "."
    try:
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline=newline, dir=directory,
                                             prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                             delete=False)
    except OSError as error:
        raise OutputError(f"{path}: cannot write: {error.strerror or error}") from None
    try:
        with handle:
            yield handle
        os.chmod(handle.name, _mode_for(target))
        os.replace(handle.name, target)
    except BaseException:
        if os.path.exists(handle.name):
            os.unlink(handle.name)
        raise
