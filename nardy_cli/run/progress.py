"""Progress bars of the commands that can run long, on a terminal only (tqdm).

Reading a corpus is measured in bytes of its input files read from disk against their total
size (compressed files by their compressed size, archive members by theirs): the number of
games is not known before they are all read. Self-play is measured in games. tqdm is imported
only to show a bar: importing it takes about 13 ms (it reads its version from the package metadata).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, TypeVar

from nardy_cli.files.sources import READ_HOOKS, Source
from nardy_cli.run.corpus import iter_inputs

if TYPE_CHECKING:
    from tqdm import tqdm

T = TypeVar("T")


def wanted(quiet: bool = False) -> bool:
    """Whether to show progress: on a terminal (standard error), unless ``--quiet``."""
    return not quiet and sys.stderr.isatty()


def input_size(paths: Iterable[str], pattern: str | None = None) -> int | None:
    """The bytes that reading ``paths`` reads from disk, or None when standard input is one of them."""
    total = 0
    for source in iter_inputs(list(paths), pattern=pattern):
        if not isinstance(source, Source):
            continue
        if source.name == "<stdin>":
            return None
        total += _size(source.path or source.name)  # (an archive's member: by its name)
    return total


def _size(name: str) -> int:
    if os.path.isfile(name):
        return os.path.getsize(name)
    import zipfile

    archive, _, member = name.partition(".zip:")  # a member of an archive: its compressed size
    try:
        with zipfile.ZipFile(archive + ".zip") as opened:
            return opened.getinfo(member).compress_size
    except (OSError, KeyError, zipfile.BadZipFile):
        return 0


class Reading:
    """A bar of the bytes of the inputs read, with the number of games done."""

    def __init__(self, bar: tqdm | None) -> None:
        self.bar, self.games = bar, 0

    def game(self) -> None:
        """One more game done."""
        self.games += 1
        if self.bar is not None:
            self.bar.set_postfix_str(f"{self.games:,} games", refresh=False)

    def printing(self) -> Any:
        """A context in which to print to standard output: the bar steps aside meanwhile."""
        return self.bar.external_write_mode(file=sys.stdout) if self.bar is not None else nullcontext()


@contextmanager
def reading(paths: Iterable[str], pattern: str | None, label: str, *, show: bool) -> Iterator[Reading]:
    """A :class:`Reading` bar while the inputs ``paths`` are read, when ``show`` (see :func:`wanted`)."""
    if not show:
        yield Reading(None)
        return
    from tqdm import tqdm

    bar = tqdm(total=input_size(paths, pattern), desc=label, unit="B", unit_scale=True, unit_divisor=1024,
               file=sys.stderr, leave=False, dynamic_ncols=True)
    READ_HOOKS.append(bar.update)
    try:
        yield Reading(bar)
    finally:
        READ_HOOKS.remove(bar.update)
        bar.close()


def counting(items: Iterable[T], total: int, label: str, unit: str, *, show: bool) -> Iterator[T]:
    """``items``, with a bar of how many of ``total`` are done when ``show``."""
    if not show:
        yield from items
        return
    from tqdm import tqdm

    with tqdm(items, total=total, desc=label, unit=unit, file=sys.stderr, leave=False,
              dynamic_ncols=True) as bar:
        yield from bar
