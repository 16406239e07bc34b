"""Running a per-game task over a corpus on every core, or on Dask (its scheduler for local
processes, or a cluster's), with the sequential run's order and figures.

The parent cuts the inputs into work units: whole files, or, where the notation says where its
games start (:func:`~nardy_cli.notations.ntn.game_starts`: NTN and JSON Lines), chunks of about
``chunk_games`` games cut where a game plainly begins. A worker parses its unit and runs the task
on each game. A file read whole is read by the worker itself: the parent reads only its first
lines, to tell its notation, and sends where it is (reading and shipping whole files took 15 %
of all CPU with two workers). The lines of a chunk are read by the parent, which must read them
to cut and count the games, and shipped: raw lines rather than parsed records, since parsing NTN
costs half as much as a replay, and pickling then unpickling a parsed record as much again (see
``bench/bench_scale.py``, which measures it), while cutting lines costs the parent about 0.02 ms a
game: the lines are told a batch at a time where games start (see :data:`~nardy_cli.notations.GameStarts`),
taken by slices, and shipped as one text.

A cut is checked, never trusted, so the results are the sequential run's on any input:

* a reader starts afresh at each unit, after the file's first lines where they set how the file
  is read (a JSON Lines file is told by its first line); no other state passes between games;
* the worker also reads the next unit's first line (the *probe*); when that line does not
  begin a new game, the unit is joined with the next one and redone in the parent;
* the parent counts game starts to number the games of a unit; a unit whose first index was
  wrong is redone in the parent with the right one, and the later units of its file are
  numbered with the difference;
* what depends on the games before (match scores, the Crawford game) is judged by the parent,
  in corpus order, from the small results the workers return (see :mod:`nardy_cli.matches`).

A small file that a worker can open itself (at most ``BATCH_BYTES``, or about ``chunk_games`` games
at ``GAME_BYTES`` a game) is not opened here at all: a small file is never cut anyway, so the parent
need not know its notation. The worker reads it whole, telling its notation, as the sequential run
does (:func:`~nardy_cli.run.corpus.read_source`), and such files go to the workers in batches of up
to ``BATCH_FILES`` files and ``BATCH_BYTES`` bytes, whose results come back together: with one work
unit a file, the parent's opening, sniffing, submitting and gathering of each file was the
bottleneck on corpora of many small files (a match a file). The parent still gives each file's
results, errors and "no game" message in corpus order, and counts its bytes on the progress bar.

Any other file that cannot be cut (MAT, SGF, a JSON document) is a unit whole; one longer than
``SHIP_LIMIT`` characters (a compressed one counted at ``COMPRESSION_RATIO`` times its size), or a
file a worker would read itself that holds more than about ``chunk_games`` games (at ``GAME_BYTES``
a game: the results of a unit wait in memory, those of turn rows too), is neither handed to a
worker nor shipped but read here, in corpus order, as it streams: memory does not grow with the
size of a file, at the price of running that file's games on one process.

Workers need ``nardy_cli`` importable (on a remote Dask cluster: installed there). Worker processes,
those of ``--dask local:N`` too (the same pool, fed by Dask's scheduler: see :class:`_DaskUnits`),
read the files they are given themselves; a remote cluster's workers need not see the input files,
so the parent ships their lines, as it does those of standard input and of an archive's members.
"""
from __future__ import annotations

import importlib
import os
import signal
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import chain, count, islice
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from nardy_cli import notations
from nardy_cli.files.sources import READ_HOOKS, Source, read_bytes, read_lines, split_lines
from nardy_cli.record import GameRecord, InputError
from nardy_cli.replay import GameReplay, replay
from nardy_cli.run.corpus import (
    BINARY_LIMIT,
    CorpusGame,
    binary_games,
    iter_games,
    iter_inputs,
    no_game_message,
    open_source,
    read_source,
)

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

R = TypeVar("R")
Task = Callable[[CorpusGame], R]

CHUNK_GAMES = 125  # games a piece of a cut file: stats on 2 workers (10k games) peaked at 101 MiB, at 113 with 250
SHIP_LIMIT = 4 << 20  # characters: a file that cannot be cut and is longer is read in the parent as it streams
GAME_LIMIT = 4 << 20  # characters: a unit of a cut file is cut early past it; one game longer streams here
COMPRESSION_RATIO = 8  # how many times its size a compressed file is counted: text packs about that well
LINE_COST = 64  # characters a line is counted for besides its own: the memory of a short line, in a list
BATCH_LINES = 4096  # lines of a file to cut whose game starts are told at once (see notations.GameStarts)
BATCH_BYTES = 64 << 10  # bytes (as _size_to_read counts them): a file up to this is small, and so is a batch of them
BATCH_FILES = 64  # small files a batch: its results come back in one message
GAME_BYTES = 2 << 10  # bytes a game is counted for, as a real MAT game takes: so a file a worker reads
                      # whole holds at most about chunk_games games
IN_FLIGHT_PER_WORKER = 2
DASK_HINT = "pip install 'nardy-cli[dask]'"


class ClusterError(Exception):
    """A Dask cluster that cannot be used: Dask missing, a bad ``--dask`` value, no scheduler there."""


# --- tasks ---------------------------------------------------------------------------------


def replayed(game: CorpusGame, build: Callable[[CorpusGame, GameReplay], R], overrides: tuple[str, ...] = ()) -> R:
    """``build(game, replay)``: the shape of the validate and stats tasks, e.g.
    ``partial(replayed, build=validated, overrides=rules)``; the replay stays in the worker."""
    return build(game, replay(game.record, overrides))


# --- the parent: cutting inputs into units --------------------------------------------------


@dataclass
class _Unit:
    """Lines of one input to read and run the task on: a whole file or a chunk of one."""

    source: str
    notation: str  # "": not told yet (a small file, whose worker tells it)
    file: int  # which input of the run: the same file named twice is two inputs
    lines: list[str] = field(default_factory=list)
    first_line: int = 1  # the file's number of lines[0]
    counted: int = 1  # the file's index of its first game, as the parent counted game starts
    first_index: int = 1  # the same, corrected by what the file's earlier units showed
    probe: str | None = None  # the next unit's first line, which must begin a game
    truncated: bool = False  # the input could not be read past these lines
    rest: Iterator[str] | None = None  # the lines after these, unread: a whole file too long to ship (see _stream)
    preamble: list[str] = field(default_factory=list)  # the file's first lines, read first (see game_starts)
    data: bytes | None = None  # the whole content of an input in a binary notation (an XG file)
    opener: Source | None = None  # the input, for a worker to read whole itself (instead of lines or data)
    encoding: str | None = None  # how the worker decodes it: as the user said, else as told from its bytes
    unread: int = 0  # bytes of the input on disk the parent did not read, for the progress bar
    packed: str | None = None  # the lines as one text, as shipped: a third of a list's memory and pickling
    packed_lines: int = 0  # how many lines it holds
    fmt: str | None = None  # the notation the user named, for the worker that tells a small file's
    size: int = 0  # bytes to read, as _size_to_read counts them: of a small file, which fills a batch
    count_reads: bool = False  # the worker counts the bytes it reads, for the parent's progress bar

    def shipped(self) -> _Unit:
        """The unit as it is sent to a worker: its lines packed into one text."""
        if not self.lines:
            return self
        return replace(self, lines=[], packed="".join(self.lines), packed_lines=len(self.lines))

    def line_count(self) -> int:
        return self.packed_lines if self.packed is not None else len(self.lines)

    def joined(self, following: _Unit) -> _Unit:
        """The unit's lines and ``following``'s, packed into one text."""
        first, second = self.shipped(), following.shipped()
        return replace(first, packed=(first.packed or "") + (second.packed or ""),
                       packed_lines=first.line_count() + second.line_count(), probe=second.probe,
                       truncated=second.truncated)


def _size_to_read(source: Source) -> int | None:
    """About how many characters reading ``source`` whole takes (see ``COMPRESSION_RATIO``), or
    None when a worker cannot open it itself (standard input, an archive's member)."""
    if not source.path:
        return None
    try:
        status = os.stat(source.path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    compressed = not source.name.endswith(source.plain_name)  # plain_name drops a compression extension
    return status.st_size * (COMPRESSION_RATIO if compressed else 1)


def _source_units(source: Source, file: int, fmt: str | None, encoding: str | None,
                  chunk_games: int, workers_read: bool) -> Iterator[_Unit | str]:
    """The units of one input, then the message saying why it could not be read further, if so.
    With ``workers_read``, a file read whole is left for the worker to read, and a small one is
    not even opened here: the worker tells its notation (notation "")."""
    if workers_read and (size := _size_to_read(source)) is not None and size <= _small(chunk_games):
        yield _Unit(source.name, "", file, opener=source, encoding=encoding, fmt=fmt, size=size,
                    count_reads=bool(READ_HOOKS))
        return
    head_bytes: list[int] = []
    counting = bool(READ_HOOKS) and workers_read
    if counting:
        READ_HOOKS.append(head_bytes.append)
    try:
        opened: tuple[str, list[str], Iterator[str]] | str = open_source(source, fmt, encoding)
    except (InputError, notations.UnknownFormat) as error:
        opened = str(error)
    finally:
        if counting:
            READ_HOOKS.remove(head_bytes.append)
    if isinstance(opened, str):
        yield opened
        return
    name, head, rest = opened
    binary = notations.is_binary(name)
    cutting = None if binary else notations.notation(name).game_starts(head)
    size = _size_to_read(source) if workers_read and cutting is None else None
    if size is not None and size <= _whole(chunk_games):
        getattr(rest, "close", lambda: None)()  # the worker reads it from its start
        yield _Unit(source.name, name, file, opener=source, encoding=encoding,
                    unread=max(0, os.path.getsize(source.path) - sum(head_bytes)) if counting else 0)
        return
    if binary:
        try:
            yield _Unit(source.name, name, file, data=read_bytes(source, BINARY_LIMIT))
        except InputError as error:
            yield str(error)
        return
    starts, preamble = cutting or (None, [])
    unit, games, size = _Unit(source.name, name, file), 0, 0
    limit = SHIP_LIMIT if starts is None else GAME_LIMIT
    lines = chain(head, rest)
    read = 0  # lines before the batch
    while True:
        batch: list[str] = []
        failed: InputError | None = None
        try:
            batch.extend(islice(lines, BATCH_LINES))  # (the lines read before a read error are kept)
        except InputError as failure:
            failed = failure
        cuts = starts(batch) if starts is not None else []
        begin = 0
        for cut in [*cuts, len(batch)]:
            lines_of_unit = batch[begin:cut]
            unit.lines += lines_of_unit
            size += sum(map(len, lines_of_unit)) + LINE_COST * len(lines_of_unit)
            if size > limit and games <= 1:  # one game too long to ship (thousands of lines of mistakes)
                last = _last_line_within(lines_of_unit, size, limit)
                del unit.lines[len(unit.lines) - len(lines_of_unit) + last + 1:]
                unread = batch[begin + last + 1:]
                yield replace(unit, rest=chain(unread, lines if failed is None else _raising(failed)))
                return
            if cut == len(batch):
                break
            line = batch[cut]
            full = games >= chunk_games or (games and size > GAME_LIMIT)
            if full and not line.startswith("\ufeff"):  # a BOM is dropped on line 1 only
                yield replace(unit, probe=line)
                unit = _Unit(source.name, name, file, [], read + cut + 1, unit.counted + games, preamble=preamble)
                games, size = 0, 0
            games += 1
            begin = cut
        read += len(batch)
        if failed is not None:
            yield replace(unit, truncated=True)
            yield str(failed)
            return
        if len(batch) < BATCH_LINES:
            break
    yield unit


def _last_line_within(lines: list[str], size: int, limit: int) -> int:
    """The index of the line of ``lines``, the last lines counted in ``size``, after which the size
    first passed ``limit``."""
    for index in range(len(lines) - 1, -1, -1):
        size -= len(lines[index]) + LINE_COST
        if size <= limit:
            return index
    raise AssertionError("the size passed the limit before these lines")


def _raising(error: Exception) -> Iterator[str]:
    raise error
    yield  # a generator: raises when read


def _whole(chunk_games: int) -> int:
    """The most bytes of a file that a worker reads whole: about ``chunk_games`` games (see
    ``GAME_BYTES``), and no more than a file the parent would ship (``SHIP_LIMIT``)."""
    return min(chunk_games * GAME_BYTES, SHIP_LIMIT)


def _small(chunk_games: int) -> int:
    """The most bytes of a small file, and of a batch of them."""
    return min(BATCH_BYTES, _whole(chunk_games))


def _work(paths: list[str] | tuple[str, ...], fmt: str | None, encoding: str | None, pattern: str | None,
          chunk_games: int, allow_empty: bool = False, workers_read: bool = True) -> Iterator[_Unit | str]:
    """The units of every input in order, with the message of an input that cannot be read in its place."""
    files = count()
    for source in iter_inputs(paths, encoding=encoding, pattern=pattern, allow_empty=allow_empty):
        if isinstance(source, InputError):
            yield str(source)
        else:
            yield from _source_units(source, next(files), fmt, encoding, chunk_games, workers_read)


def _batched(work: Iterator[_Unit | str], chunk_games: int) -> Iterator[_Unit | str | list[_Unit]]:
    """``work`` with its runs of small files (notation "") gathered into batches, in order, of at
    most ``BATCH_FILES`` files and the bytes of a small file, to run on one worker each."""
    limit = _small(chunk_games)
    batch: list[_Unit] = []
    size = 0
    for item in work:
        if batch and (isinstance(item, str) or item.notation or size + item.size > limit
                      or len(batch) >= BATCH_FILES):
            yield batch
            batch, size = [], 0
        if isinstance(item, str) or item.notation:
            yield item
        else:
            batch.append(item)
            size += item.size
    if batch:
        yield batch


# --- the worker ---------------------------------------------------------------------------


class _Outcome(Generic[R]):
    """A unit's results, and what the parent checks before using them (a plain class: see
    :class:`~nardy_cli.cli.options.Corpus`)."""

    __slots__ = ("results", "straddles", "error", "read")

    def __init__(self, straddles: bool) -> None:
        self.results: list[R] = []
        self.straddles = straddles  # the last game goes on past the unit: the cut after it is no game start
        self.error: str | None = None  # why an input read by the worker could not be read past its last game
        self.read = 0  # bytes the worker read from disk, when the unit asked it to count them


class _Truncated(Exception):
    """The end of a unit whose input could not be read further."""


def _unit_lines(unit: _Unit) -> Iterator[str]:
    yield from unit.preamble
    yield from unit.lines if unit.packed is None else split_lines([unit.packed])  # the same lines again
    if unit.rest is not None:
        yield from unit.rest
    if unit.probe is not None:
        yield unit.probe
    if unit.truncated:
        raise _Truncated  # as the read error did in the sequential run: the open game is lost


def _unit_records(unit: _Unit) -> Iterator[GameRecord]:
    if unit.opener is not None and not unit.notation:
        return read_source(unit.opener, unit.fmt, unit.encoding)
    if unit.opener is not None and notations.is_binary(unit.notation):
        return binary_games(unit.notation, read_bytes(unit.opener, BINARY_LIMIT), unit.source)
    if unit.opener is not None:
        return notations.notation(unit.notation).read_games(read_lines(unit.opener, unit.encoding), unit.source)
    if unit.data is not None:
        return binary_games(unit.notation, unit.data, unit.source)
    return notations.notation(unit.notation).read_games(_unit_lines(unit), unit.source)


def shift_lines(record: GameRecord, offset: int) -> None:
    """Add ``offset`` to every line number of ``record`` (0, unknown, stays 0): a record read from
    lines that begin at line ``offset + 1`` of a file gets the file's line numbers."""
    if not offset:
        return

    def moved(line: int) -> int:
        return line + offset if line else 0

    record.line, record.result_line = moved(record.line), moved(record.result_line)
    for action in record.actions:
        action.line = moved(action.line)
    record.errors[:] = [replace(error, line=moved(error.line)) for error in record.errors]  # keeps the count of others
    record.notes = [replace(note, line=moved(note.line)) for note in record.notes]


def _run_unit(unit: _Unit, task: Task[R]) -> _Outcome[R]:
    """Read the games of ``unit`` and run ``task`` on each."""
    outcome: _Outcome[R] = _Outcome(straddles=unit.probe is not None)
    read_before = len(unit.preamble)
    probe_line = read_before + unit.line_count() + 1
    read: list[int] = []
    if unit.count_reads:
        READ_HOOKS.append(read.append)
    try:
        for record in _unit_records(unit):
            if read_before and record.line <= read_before:
                continue  # the preamble's game: the first unit has it
            if unit.probe is not None and record.line == probe_line:
                outcome.straddles = False
                break
            offset = len(outcome.results)
            shift_lines(record, unit.first_line - 1 - read_before)
            outcome.results.append(task(CorpusGame(unit.source, unit.first_index + offset, record)))
    except _Truncated:
        pass
    except (InputError, notations.UnknownFormat) as error:  # an input the worker read: unreadable, or damaged
        outcome.error = str(error)                           # past its last game, or of no notation it tells
    finally:
        if unit.count_reads:
            READ_HOOKS.remove(read.append)
    outcome.read = sum(read)
    return outcome


def _run_batch(units: list[_Unit], task: Task[R]) -> list[_Outcome[R]]:
    """The outcomes of a batch of small files, each read whole (see :func:`_batched`)."""
    return [_run_unit(unit, task) for unit in units]


# --- the parent: submitting units and gathering their results in order ----------------------


def _settle(unit: _Unit, outcome: _Outcome[R], index: int, following: Callable[[], _Unit],
            task: Task[R]) -> tuple[_Unit, _Outcome[R]]:
    """Redo ``unit`` here until no game goes on past it and its first game has ``index``, joined with
    the next unit as long as its last game goes on into it."""
    while outcome.straddles or unit.first_index != index:
        if outcome.straddles:
            unit = unit.joined(following())
        unit = replace(unit, first_index=index)
        outcome = _run_unit(unit, task)
    return unit, outcome


class _Future(Protocol):
    """A unit's result to come, from a process pool or a Dask cluster."""

    def result(self) -> Any: ...

    def cancel(self) -> Any: ...


class _EmptyFiles:
    """Tells of each input that was read but held no game, once its units are all done."""

    def __init__(self, on_error: Callable[[str], None], allow_empty: bool) -> None:
        self.on_error, self.allow_empty = on_error, allow_empty
        self.file: int | None = None
        self.source = ""
        self.games = 0
        self.failed = False  # the input could not be read to its end: that message says enough

    def unit(self, unit: _Unit) -> None:
        if unit.file != self.file:
            self.done()
            self.file, self.source, self.games, self.failed = unit.file, unit.source, 0, False
        self.failed = self.failed or unit.truncated

    def done(self) -> None:
        if self.file is not None and not (self.games or self.failed or self.allow_empty):
            self.on_error(no_game_message(self.source))
        self.file = None


def _gather(work: Iterator[_Unit | str | list[_Unit]], submit: Callable[..., _Future], in_flight: int,
            task: Task[R], on_error: Callable[[str], None], allow_empty: bool = False) -> Iterator[R]:
    """Submit the units and batches of ``work``, at most ``in_flight`` at a time, and yield their
    results in order. When a unit's first game turns out to have another index than the parent
    counted, the later units of its file are numbered with the difference (those already
    submitted are redone)."""
    pending: deque[tuple[_Unit | str | list[_Unit], _Future | None]] = deque()
    corrections: dict[int, int] = {}  # by file: the true index of a game less the counted one
    empty = _EmptyFiles(on_error, allow_empty)

    def fill() -> None:
        while len(pending) < in_flight and (item := next(work, None)) is not None:
            if isinstance(item, list):
                pending.append((item, submit(_run_batch, item, task)))
                continue
            if isinstance(item, str) or item.rest is not None:
                pending.append((item, None))
                continue
            item = item.shipped()  # kept as shipped, packed, until its result is in: a third of a list's memory
            item.first_index = item.counted + corrections.get(item.file, 0)
            pending.append((item, submit(_run_unit, item, task)))

    def following() -> _Unit:
        """The next unit (the same file's next chunk), whose own result will not be used."""
        if pending:
            item, future = pending.popleft()
            assert future is not None
            future.cancel()
        else:
            item = next(work)
        assert isinstance(item, _Unit)
        return item

    index = 1
    fill()
    while pending:
        item, future = pending.popleft()
        if isinstance(item, str):
            empty.done()
            on_error(item)
            fill()
            continue
        if isinstance(item, list):
            assert future is not None
            outcomes = future.result()
            fill()
            for unit, outcome in zip(item, outcomes):
                empty.unit(unit)
                for hook in READ_HOOKS if outcome.read else ():
                    hook(outcome.read)
                empty.games += len(outcome.results)
                yield from outcome.results
                if outcome.error:
                    on_error(outcome.error)
                    empty.failed = True
            continue
        empty.unit(item)
        if future is None:
            if item.first_line == 1:
                index = 1
            games, failed = yield from _stream(item, task, on_error, index)
            index += games
            empty.games, empty.failed = empty.games + games, empty.failed or failed
            fill()
            continue
        assert isinstance(item, _Unit)
        if item.first_line == 1:
            index = 1
        if item.first_index != index:
            corrections[item.file] = index - item.counted
        unit, outcome = _settle(item, future.result(), index, following, task)
        for hook in READ_HOOKS if unit.unread else ():
            hook(unit.unread)
        fill()
        index = unit.first_index + len(outcome.results)
        empty.games += len(outcome.results)
        yield from outcome.results
        if outcome.error:
            on_error(outcome.error)
            empty.failed = True
    empty.done()


def _stream(unit: _Unit, task: Task[R], on_error: Callable[[str], None],
            index: int = 1) -> Generator[R, None, tuple[int, bool]]:
    """The rest of a file too long to ship (or with a game too long to ship), read and run here as it
    streams, as the sequential run does: its memory does not grow with the file, though its games
    then run on this one process. ``index`` is the file's index of the unit's first game; returns
    how many games there were, and whether the input could not be read to its end."""
    read_before = len(unit.preamble)
    games = 0
    try:
        for record in notations.notation(unit.notation).read_games(_unit_lines(unit), unit.source):
            if read_before and record.line <= read_before:
                continue  # the preamble's game: the first unit has it
            shift_lines(record, unit.first_line - 1 - read_before)
            yield task(CorpusGame(unit.source, index + games, record))
            games += 1
    except InputError as error:
        on_error(str(error))
        return games, True
    return games, False


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def in_process(jobs: int | None, dask: Any = None) -> bool:
    """Whether :func:`map_games` runs every game in this process, without worker processes."""
    return dask is None and (jobs or available_cores()) <= 1


def map_games(paths: list[str] | tuple[str, ...], task: Task[R], *, jobs: int | None = None, dask: Any = None,
              fmt: str | None = None, encoding: str | None = None, pattern: str | None = None,
              chunk_games: int = CHUNK_GAMES, on_error: Callable[[str], None],
              allow_empty: bool = False) -> Iterator[R]:
    """``task(game)`` for every game of ``paths``, in corpus order, as :func:`~nardy_cli.run.corpus.iter_games`
    reads them (``fmt``, ``encoding``, ``pattern`` and ``on_error`` as there).

    An input without a game goes to ``on_error`` unless ``allow_empty``, as there.

    ``task`` must pickle (a module-level function, or a :func:`functools.partial` of one) and so must
    its results. It runs in ``jobs`` worker processes (default: every core; 1, or inputs that make a
    single work unit, such as one small file: here, without a pool), or on Dask: with ``dask``
    ``local`` (``jobs`` workers) or ``local:N``, Dask's scheduler for processes runs every unit on a
    pool of worker processes (see :class:`_DaskUnits`); with a scheduler's address (see
    :func:`dask_client`) or a running ``Client``, that cluster's workers do.
    At most two units (or batches of small files) a worker are in flight: memory does not grow with
    the corpus.
    """
    local = _local_workers(dask, jobs)
    if dask is not None and local is None:
        with dask_client(dask) as client:  # a remote cluster, whose workers need not see these files
            workers = sum(client.nthreads().values())
            units = _work(paths, fmt, encoding, pattern, chunk_games, allow_empty, workers_read=False)
            yield from _gather(_batched(units, chunk_games), partial(client.submit, pure=False),
                               IN_FLIGHT_PER_WORKER * workers, task, on_error, allow_empty)
        return
    if in_process(jobs, dask):
        for game in iter_games(paths, fmt=fmt, encoding=encoding, pattern=pattern, on_error=on_error,
                               allow_empty=allow_empty):
            yield task(game)
        return
    workers = local or jobs or available_cores()
    work = _batched(_work(paths, fmt, encoding, pattern, chunk_games, allow_empty), chunk_games)
    if dask is None:
        first = list(islice(work, 2))
        if len(first) < 2:  # a pool would only start its processes to run this one unit on one of them
            yield from _gather(iter(first), _RunHere, 1, task, on_error, allow_empty)
            return
        work = chain(first, work)
    get = _dask_scheduler() if dask is not None else None  # imported before the pool forks its workers
    with _worker_pool(workers) as pool:
        submit = pool.submit if get is None else _DaskUnits(get, pool).submit
        yield from _gather(work, submit, IN_FLIGHT_PER_WORKER * workers, task, on_error, allow_empty)


@contextmanager
def _worker_pool(workers: int) -> Iterator[Any]:
    """A ``ProcessPoolExecutor`` of ``workers`` processes that end with this one (see
    :func:`_end_with_parent`), shut down on leaving, its units not started cancelled."""
    from concurrent.futures import ProcessPoolExecutor  # for a pool only: with multiprocessing, 13 ms to import

    context = _process_context()
    parent = None if context.get_start_method() == "forkserver" else os.getpid()  # else the forkserver is
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_end_with_parent, initargs=(parent,))
    try:
        yield pool
    finally:
        # closed when collected, the generator using the pool may be finalised in the pool's own
        # thread (after an error left it unfinished): that thread cannot wait for itself
        manager = getattr(pool, "_executor_manager_thread", None)
        started = manager is not None and manager.ident is not None
        if not started:
            # The pool's first submit forks the workers, then starts the thread that ends them: a
            # signal (Ctrl-C, SIGTERM) between the two would leave them waiting for work and this
            # process waiting for them at its exit. Idle, they are killed.
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()
        waitable = manager is None or started  # a thread made, not started, cannot be joined
        pool.shutdown(wait=waitable and threading.current_thread() is not manager, cancel_futures=True)


class _RunHere:
    """A unit's result worked out at once in this process, as a worker would: what it reads is not
    counted on the progress bar again (the parent counts what its workers read, see :func:`_gather`)."""

    def __init__(self, function: Callable[..., Any], *args: Any) -> None:
        hooks = READ_HOOKS[:]
        READ_HOOKS.clear()
        try:
            self.value = function(*args)
        finally:
            READ_HOOKS[:] = hooks

    def result(self) -> Any:
        return self.value

    def cancel(self) -> bool:
        return False


PR_SET_PDEATHSIG = 1  # linux/prctl.h
WATCH_SECONDS = 1.0


def _end_with_parent(parent: int | None) -> None:
    """In a worker: end when the process that started it (``parent``, else whichever it is now)
    ends, even when it is killed outright (SIGKILL leaves it no time to stop its workers): on Linux
    the kernel kills the worker then (``PR_SET_PDEATHSIG``); everywhere a watchdog thread sees its
    parent change and exits. Ctrl-C is the parent's to handle: it stops the pool."""
    parent = parent or os.getppid()
    READ_HOOKS.clear()  # a forked worker's copy: the parent's progress bar counts what its workers read
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no prctl: the watchdog alone
            pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() != parent:  # gone already, before prctl could tell the kernel
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="nardy-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _process_context() -> BaseContext:
    """Forked workers on Linux, which start at once; but a process running other threads (a Dask
    client, a notebook) is not forked: its workers start afresh and import the caller's main module."""
    import multiprocessing

    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


# --- Dask -----------------------------------------------------------------------------------


def _local_workers(spec: Any, jobs: int | None) -> int | None:
    """How many workers ``--dask local`` (``jobs``, else every core) or ``local:N`` asks for; None
    for a scheduler's address, a ``Client`` or no Dask."""
    if not isinstance(spec, str) or spec.partition(":")[0] != "local":
        return None
    count = spec.partition(":")[2]
    if count and not (count.isdigit() and int(count) > 0):
        raise ClusterError(f"--dask {spec}: expected local, local:N with N ≥ 1, or a scheduler address")
    return int(count) if count else jobs or available_cores()


def _dask_scheduler() -> Callable[..., Any]:
    """``dask.multiprocessing.get``: Dask's own scheduler for processes on this machine, what
    ``dask.compute(..., scheduler="processes")`` runs, for ``--dask local:N`` (see :class:`_DaskUnits`)."""
    try:
        return importlib.import_module("dask.multiprocessing").get
    except ImportError as error:
        raise ClusterError(f"running on Dask needs dask ({error}): {DASK_HINT}") from None


class _DaskUnits:
    """Units run by Dask's scheduler for processes (``get``, see :func:`_dask_scheduler`) on the
    workers of ``pool``: each unit a graph of one task, computed in a thread of its own so that
    several are in flight. Dask is imported before the pool forks its workers, which share its
    modules' memory then.

    Not ``dask.distributed``: its scheduler, nannies and workers, which the processes of one machine
    do not need, took 260-275 MiB for 2 workers (resident sets summed, 10,000 games) against
    100-125 MiB for ``--jobs 2``, and its workers are no faster."""

    KEY = "nardy-unit"

    def __init__(self, get: Callable[..., Any], pool: Any) -> None:
        self.get, self.pool = get, pool
        pool.submit(int)  # forks the workers now, from this thread, before there is another

    def submit(self, function: Callable[..., Any], *args: Any) -> _Future:
        from concurrent.futures import Future

        future: Future[Any] = Future()
        future.set_running_or_notify_cancel()  # cancel() leaves it be: it is Dask's to run
        threading.Thread(target=self._compute, args=(future, function, args), name="nardy-dask-unit",
                         daemon=True).start()
        return future

    def _compute(self, future: Any, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            future.set_result(self.get({self.KEY: (function, *args)}, self.KEY, pool=self.pool))
        except BaseException as error:  # raised where the result is waited for (a cancelled unit: nowhere)
            future.set_exception(error)


def _distributed() -> ModuleType:
    try:
        return importlib.import_module("dask.distributed")
    except ImportError as error:
        raise ClusterError(f"running on Dask needs dask.distributed ({error}): {DASK_HINT}") from None


@contextmanager
def dask_client(spec: Any) -> Iterator[Any]:
    """A ``dask.distributed.Client``: of the running scheduler at the address ``spec``, such as
    ``tcp://host:8786``, or ``spec`` itself, a ``Client``."""
    if not isinstance(spec, str):
        yield spec
        return
    distributed = _distributed()
    try:
        client = distributed.Client(spec, timeout="10s")
    except (OSError, ValueError) as error:
        raise ClusterError(f"--dask {spec}: cannot reach a Dask scheduler there: {error}") from None
    with client:
        yield client
