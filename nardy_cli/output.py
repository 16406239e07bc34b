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
    _check_not_an_input(path, target, inputs)
    if os.path.isdir(target):
        raise OutputError(f"{path}: is a directory; name the output file")
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
    except BaseException as error:
        if os.path.exists(handle.name):
            os.unlink(handle.name)
        if isinstance(error, OSError):  # inputs report their own errors: this one is the output's (a full disk...)
            raise OutputError(f"{path}: cannot write: {error.strerror or error}; it is left as it was") from error
        raise


def _check_not_an_input(path: str, target: str, inputs: tuple[str, ...]) -> None:
    """Refuse an output that is an input, or lies in an input directory (where it would be read too)."""
    for given in inputs:
        if given == "-" or not os.path.exists(given):
            continue
        if os.path.isdir(given):
            directory = os.path.realpath(given)
            if os.path.commonpath([directory, target]) == directory:
                raise OutputError(f"{path}: is inside the input directory {given}, where it would be read as an "
                                  "input too; write it elsewhere")
        elif os.path.exists(target) and os.path.samefile(given, target):
            raise OutputError(f"{path}: is one of the inputs; choose another output file")
