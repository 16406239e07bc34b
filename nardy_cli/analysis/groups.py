"""Sums kept by key (a player, a file, a match...) in memory that does not grow with the keys:
:class:`Groups` holds a bound of them and spools the rest, and gives them back summed, in the
order asked for."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, Protocol, TypeVar

from nardy_cli.files.spool import SortedRuns, sorted_spooled

GROUPS_KEPT = 1_000  # groups held in memory by a Groups that spools; also the runs that sort them


class Totals(Protocol):
    """What :class:`Groups` keeps by key: sums, made empty, given as plain values (:meth:`record`,
    what a :class:`~nardy_cli.files.spool.Spool` keeps) and added from another's (:meth:`merge`)."""

    def record(self) -> tuple[Any, ...]: ...

    def merge(self, record: tuple[Any, ...]) -> None: ...


T = TypeVar("T", bound=Totals)
Entry = tuple[Any, int, tuple[Any, ...]]  # a spooled part of a group: its key, when the key came, its record
Order = Callable[[Any, T], Any]  # what sorts a group, from its key and its sums: a number, a string, a tuple of them


class Groups(Generic[T]):
    """The :class:`Totals` (made by ``make``) of one grouping by key, in the order the keys first
    came. Memory holds ``kept`` of them at most (None: all): when more come, those held are
    spooled and let go, sorted by key in runs of ``run`` (default :data:`GROUPS_KEPT`), and the
    parts of a group are summed again when the groups are read, as the runs merge. Keys are strings, or tuples
    of them. Sums must be exact (integers) to be the same however they are parted, or else added
    ``in_order``: once groups are spooled, each call of :meth:`totals` then gets a part of its own,
    and the parts are added in the order they came, which gives floats the bits that adding them as
    they came gives (float addition is not associative)."""

    def __init__(self, make: Callable[[], T], kept: int | None = None, *, in_order: bool = False,
                 run: int | None = None) -> None:
        self._make = make
        self._limit = kept
        self._in_order = in_order
        self._run = run
        self._held: dict[Any, T] = {}
        self._runs: SortedRuns[Entry] | None = None  # the spooled parts, sorted in runs
        self._pending: list[Entry] = []  # spooled parts not yet in a run
        self._spooled = 0  # keys of the held groups are numbered from here, in the order they came
        self._compact = False  # whether the runs are one, a record a key (see _merged)

    def totals(self, key: Any) -> T:
        """The group of ``key``, made when it is new."""
        totals = self._held.get(key)
        one_each = self._in_order and self._runs is not None
        if totals is None or one_each:
            if one_each or (self._limit is not None and len(self._held) >= self._limit):
                self._spill()
            totals = self._held[key] = self._make()
        return totals

    def get(self, key: Any) -> T | None:
        """The group of ``key``, None if the key never came."""
        if self._runs is None:
            return self._held.get(key)
        for _, other, totals in self._merged():
            if other == key:
                return totals
        return None

    def _spill(self) -> None:
        # the parts are sorted as they are spooled, a run at a time: the first reading only merges them
        if self._runs is None:
            self._runs = SortedRuns()
        self._pending.extend(self._held_entries())
        if len(self._pending) >= (self._run or GROUPS_KEPT):
            self._runs.add(sorted(self._pending))
            self._pending = []
        self._compact = False
        self._spooled += len(self._held)
        self._held = {}

    def _held_entries(self) -> Iterator[Entry]:
        for position, (key, totals) in enumerate(self._held.items()):
            yield key, self._spooled + position, totals.record()

    def _of_record(self, record: tuple[Any, ...]) -> T:
        totals = self._make()
        totals.merge(record)
        return totals

    def _merged(self) -> Iterator[tuple[int, Any, T]]:
        """Each group once, in the order of its key: when its key first came, the key, its sums.
        Read to the end, the groups are spooled again so, one run of a record a key, and the next
        reading (unless groups came since) merges nothing."""
        assert self._runs is not None
        if self._compact and not self._held:
            for key, seen, record in self._runs.merged():
                yield seen, key, self._of_record(record)
            return
        compact: SortedRuns[Entry] = SortedRuns()
        compact.add()
        group: tuple[int, Any, T] | None = None
        for key, seen, record in self._runs.merged(sorted([*self._pending, *self._held_entries()])):
            if group is not None and group[1] == key:
                group[2].merge(record)
                continue
            if group is not None:
                compact.append((group[1], group[0], group[2].record()))
                yield group
            group = (seen, key, self._of_record(record))
        if group is not None:
            compact.append((group[1], group[0], group[2].record()))
            yield group
        self._runs.close()
        self._spooled += len(self._held)
        self._runs, self._pending, self._held, self._compact = compact, [], {}, True

    def __len__(self) -> int:
        return len(self._held) if self._runs is None else sum(1 for _ in self._merged())

    def __bool__(self) -> bool:
        return bool(self._held) or self._runs is not None

    def items(self) -> Iterator[tuple[Any, T]]:
        """Each key and its group, in the order the keys first came."""
        if self._runs is None:
            return iter(self._held.items())
        return self._sorted(None)

    def values(self) -> Iterator[T]:
        for _, totals in self.items():
            yield totals

    def unordered(self) -> Iterator[T]:
        """Each group once, in no order to rely on: once spooled, one sort fewer than :meth:`values`."""
        if self._runs is None:
            yield from self._held.values()
            return
        for _, _, totals in self._merged():
            yield totals

    def in_key_order(self) -> Iterator[tuple[Any, T]]:
        """Each key and its group, in the order of the keys: once spooled, as the merge of their parts
        gives them, with no sort of its own."""
        if self._runs is None:
            yield from sorted(self._held.items(), key=lambda item: item[0])
            return
        for _, key, totals in self._merged():
            yield key, totals

    def ordered(self, order: Order[T]) -> Iterator[tuple[Any, T]]:
        """Each key and its group, sorted by ``order(key, group)``, ties in the order the keys first came."""
        if self._runs is None:
            return iter(sorted(self._held.items(), key=lambda item: order(item[0], item[1])))  # stable
        return self._sorted(order)

    def _sorted(self, order: Order[T] | None) -> Iterator[tuple[Any, T]]:
        for entry in sorted_spooled(self._entries(order), self._run or GROUPS_KEPT):
            yield entry[-2], self._of_record(entry[-1])

    def _entries(self, order: Order[T] | None) -> Iterator[tuple[Any, ...]]:
        # a generator of its own: compiled, a generator expression is made a list first
        for seen, key, totals in self._merged():
            yield (seen, key, totals.record()) if order is None else (order(key, totals), seen, key, totals.record())
