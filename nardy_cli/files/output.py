"""Writing results safely: atomically, never over an input, never over a file without ``--force``."""
from __future__ import annotations

import os
import re
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TextIO, cast

from nardy_cli.files.sources import shown


class OutputError(Exception):
    """An output that must not or cannot be written; the message says what to do."""

    @classmethod
    def at(cls, path: str | os.PathLike[str], reason: str) -> OutputError:
        """The error ``path: reason``, the path named as inputs are (see :func:`~nardy_cli.files.sources.shown`)."""
        return cls(f"{shown(os.fspath(path))}: {reason}")


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
    file and the old one intact. A ``path`` that is no regular file (a device such as
    ``/dev/null``, a FIFO, standard output named ``/dev/stdout``) is written through,
    never replaced. SIGTERM, like Ctrl-C, removes the temporary file; one left by a
    run that was killed outright is removed by the next run writing the same file.
    """
    if path in (None, "-"):
        yield sys.stdout
        sys.stdout.flush()
        return
    if _written_through(path):
        with _through(path, newline) as stream:
            yield stream
        return
    target = os.path.realpath(path)
    _check_not_an_input(path, target, inputs)
    if os.path.isdir(target):
        raise OutputError.at(path, "is a directory; name the output file")
    if os.path.exists(target) and not force:
        raise OutputError.at(path, "already exists; add --force to replace it")
    directory = os.path.dirname(target) or "."
    prefix = f".{os.path.basename(target)}."
    _remove_stale(directory, prefix)
    import tempfile  # for an output file only: importing it takes 3 ms

    try:
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline=newline, dir=directory,
                                             prefix=f"{prefix}{os.getpid()}-", suffix=".tmp", delete=False)
    except OSError as error:
        raise OutputError.at(path, f"cannot write: {error.strerror or error}") from None
    try:
        with handle, _terminate_as_exception():
            yield cast(TextIO, handle)
        os.chmod(handle.name, _mode_for(target))
        os.replace(handle.name, target)
    except BaseException as error:
        if os.path.exists(handle.name):
            os.unlink(handle.name)
        if isinstance(error, OSError):  # inputs report their own errors: this one is the output's (a full disk...)
            raise OutputError.at(path, f"cannot write: {error.strerror or error}; it is left as it was") from error
        raise


def _written_through(path: str) -> bool:
    """Whether ``path`` names something other than a regular file or a directory to write in: a
    device, a FIFO, a socket, or the very file standard output or standard error writes to."""
    try:
        status = os.stat(path)
    except OSError:
        return False
    if stat.S_ISDIR(status.st_mode):
        return False
    if not stat.S_ISREG(status.st_mode):
        return True
    for stream in (sys.stdout, sys.stderr):
        try:
            open_status = os.fstat(stream.fileno())
        except (AttributeError, OSError, ValueError):  # replaced by a test, or closed
            continue
        if (open_status.st_dev, open_status.st_ino) == (status.st_dev, status.st_ino):
            return True
    return False


@contextmanager
def _through(path: str, newline: str | None) -> Iterator[TextIO]:
    """``path`` opened for writing as it is (no temporary file, nothing replaced)."""
    mode = "a" if stat.S_ISREG(os.stat(path).st_mode) else "w"  # a regular file here is standard output's
    try:
        with open(path, mode, encoding="utf-8", newline=newline) as stream:
            yield cast(TextIO, stream)
    except OSError as error:
        raise OutputError.at(path, f"cannot write: {error.strerror or error}") from error


_STALE = re.compile(r"(\d+)-\w+\.tmp")


def _remove_stale(directory: str, prefix: str) -> None:
    """Remove the temporary files of ``prefix`` left in ``directory`` by runs that were killed
    (their process is gone): ``.NAME.PID-xxxx.tmp``."""
    try:
        names = [name for name in os.listdir(directory) if name.startswith(prefix)]
    except OSError:
        return
    for name in names:
        match = _STALE.fullmatch(name, len(prefix))
        if match and not _alive(int(match.group(1))):
            with suppress(OSError):
                os.unlink(os.path.join(directory, name))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process
        return True
    return True


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that what it was writing is cleaned up as on Ctrl-C."""


@contextmanager
def _terminate_as_exception() -> Iterator[None]:
    """While writing, SIGTERM raises :class:`Terminated` and SIGINT ``KeyboardInterrupt`` (in the
    main thread; elsewhere nothing changes). A signal whose exception something swallowed (Python
    ignores exceptions raised in its fork hooks, where starting worker processes may be when the
    signal lands) is raised again when the writing ends, so the output is never committed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def interruption(signum: int) -> KeyboardInterrupt:
        return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    def interrupt(signum: int, frame: object) -> None:
        received.append(signum)
        raise interruption(signum)

    caught = [signal.SIGTERM] + [signal.SIGINT] * (signal.getsignal(signal.SIGINT) is signal.default_int_handler)
    previous = {signum: signal.signal(signum, interrupt) for signum in caught}
    try:
        yield
        if received:
            raise interruption(received[0])
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _check_not_an_input(path: str, target: str, inputs: tuple[str, ...]) -> None:
    """Refuse an output that is an input, or lies in an input directory (where it would be read too)."""
    for given in inputs:
        if given == "-" or not os.path.exists(given):
            continue
        if os.path.isdir(given):
            directory = os.path.realpath(given)
            if os.path.commonpath([directory, target]) == directory:
                raise OutputError.at(path, f"is inside the input directory {shown(given)}, where it would be read "
                                           "as an input too; write it elsewhere")
        elif os.path.exists(target) and os.path.samefile(given, target):
            raise OutputError.at(path, "is one of the inputs; choose another output file")
