"""The one-sided bear-off table: the expected number of rolls to bear off every position of up to
15 checkers on the six home points, and the luck of a roll in a pure race with every checker home.

The table (54,264 positions) is computed once, in a few seconds, and cached on disk under the
user's cache directory (``NARDY_CACHE_DIR`` overrides it); every later run maps the file into
memory, so that a run reads only the pages of the positions its games reach and worker processes
share them. A position is the checkers on the mover's home points 1-6, ``(p1, p2, ..., p6)``. The
moves are the bear-off of long and short nardy (formats/stats-tables.md, "Luck"): die d moves a
checker d points down or bears it off from point d, or from the highest occupied point when that
is lower than d; both dice (four steps of a double) are always played; the best play of a roll is
the one that leaves the fewest expected rolls. Pure Python: workers load it without numpy.
"""
from __future__ import annotations

import mmap
import os
import sys
import tempfile
from array import array
from functools import lru_cache
from math import comb
from pathlib import Path
from typing import Final

POINTS: Final = 6  # Final: compiled, a module constant read from another module is then no look-up by name
MAX_CHECKERS = 15
VERSION = 2  # 2: each home's expected rolls and those after the best play of each roll, homes in rank order
Home = tuple[int, ...]  # checkers on points 1..6
HOMES = comb(MAX_CHECKERS + POINTS, POINTS)
ROLLS = tuple((high, low) for high in range(1, POINTS + 1) for low in range(1, high + 1))  # unordered, 11 to 66
ENTRY = 1 + len(ROLLS)  # the numbers kept of a home: its expected rolls, then those after each roll


def positions() -> list[Home]:
    """Every home of 0-15 checkers, fewest pips first (so every play leads to an earlier entry)."""
    def homes(points: int, left: int) -> list[Home]:
        if points == 0:
            return [()]
        return [(count,) + rest for count in range(left + 1) for rest in homes(points - 1, left - count)]

    return sorted(homes(POINTS, MAX_CHECKERS), key=lambda home: (pips(home), home))


def pips(home: Home) -> int:
    return sum((point + 1) * count for point, count in enumerate(home))


def roll_index(first: int, second: int) -> int:
    """The index in :data:`ROLLS` of a roll, whichever die is named first."""
    high, low = (first, second) if first >= second else (second, first)
    return high * (high - 1) // 2 + low - 1


def steps(home: Home, die: int) -> set[Home]:
    """The homes one step of ``die`` leads to (none when no checker is left)."""
    highest = max((point for point in range(POINTS) if home[point]), default=-1)
    reached = set()
    for point in range(highest + 1):  # 0-based: the checker stands on point + 1
        if not home[point]:
            continue
        after = list(home)  # x[i] = x[i] - 1: compiled, x[i] -= 1 is a generic in-place operation
        after[point] = after[point] - 1
        target = point - die
        if target >= 0:
            after[target] = after[target] + 1
        elif target < -1 and point != highest:
            continue  # a higher die bears off only from the highest point
        reached.add(tuple(after))
    return reached


def build() -> tuple[array, list[array]]:
    """The expected rolls of every home of :func:`positions`, in that order, by dynamic
    programming over the pip count: E(h) = 1 + Σ_roll P(roll) · min over plays E(after); and,
    for each roll of :data:`ROLLS`, that minimum: the expected rolls left after its best play."""
    homes = positions()
    index = {home: number for number, home in enumerate(homes)}
    size = len(homes)
    expected = array("d", bytes(8 * size))
    after_roll = [array("d", bytes(8 * size)) for _ in ROLLS]
    # best[d][k][i]: the fewest expected rolls after k steps of die d from home i (k = 1, 2, 3)
    best = [[array("d", bytes(8 * size)) for _ in range(3)] for _ in range(POINTS + 1)]
    for number, home in enumerate(homes):
        if number == 0:
            continue  # nothing left to bear off
        after = {die: [index[step] for step in steps(home, die)] for die in range(1, POINTS + 1)}
        total = 0.0
        for die in range(1, POINTS + 1):
            one, two, three = best[die]
            reached = after[die]
            one[number] = min(expected[i] for i in reached)
            two[number] = min(one[i] for i in reached)
            three[number] = min(two[i] for i in reached)
            left = after_roll[roll_index(die, die)][number] = min(three[i] for i in reached)  # a double: four steps
            total += left
        for high in range(2, POINTS + 1):
            for low in range(1, high):
                left = after_roll[roll_index(high, low)][number] = min(
                    min(best[low][0][i] for i in after[high]), min(best[high][0][i] for i in after[low]))
                total += 2 * left
        expected[number] = 1 + total / 36
    return expected, after_roll


def cache_path() -> Path:
    """Where the table is kept: ``$NARDY_CACHE_DIR`` or the user's cache directory for nardy."""
    folder = os.environ.get("NARDY_CACHE_DIR")
    if not folder:
        import platformdirs

        folder = platformdirs.user_cache_dir("nardy")
    return Path(folder) / f"bearoff-{MAX_CHECKERS}x{POINTS}-v{VERSION}-{sys.byteorder}.bin"


def _rank_offsets() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``offsets[point][used][count]``: how many homes come, in lexicographic order, before the first
    with ``count`` checkers on ``point`` (0-based) among those that agree on the points below it
    and hold ``used`` checkers there. A home's rank is the sum over its points (see :func:`rank`)."""
    offsets = []
    for point in range(POINTS):
        above = POINTS - 1 - point
        offsets.append(tuple(
            tuple(sum(comb(MAX_CHECKERS - used - below + above, above) for below in range(count))
                  for count in range(MAX_CHECKERS - used + 1))
            for used in range(MAX_CHECKERS + 1)))
    return tuple(offsets)


_OFFSETS = _rank_offsets()


def rank(home: Home) -> int:
    """The place of ``home`` among every home of 0-15 checkers in lexicographic order (0 to 54,263)."""
    one, two, three, four, five, six = _OFFSETS
    p1, p2, p3, p4, p5, p6 = home
    used = p1 + p2
    total = one[0][p1] + two[p1][p2] + three[used][p3]
    used += p3
    total += four[used][p4]
    used += p4
    return total + five[used][p5] + six[used + p5][p6]


def _write(path: Path) -> array:
    """Compute the table and cache it at ``path`` (atomically; an unwritable cache is skipped)."""
    expected, after_roll = build()
    values = array("d", bytes(8 * ENTRY * HOMES))
    for number, home in enumerate(positions()):
        start = ENTRY * rank(home)
        values[start] = expected[number]
        for roll, left in enumerate(after_roll, start + 1):
            values[roll] = left[number]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.", delete=False) as out:
            values.tofile(out)
        os.replace(out.name, path)
    except OSError:
        pass  # an unwritable cache only costs the next run the computation again
    return values


@lru_cache(maxsize=1)
def table() -> BearoffTable:
    """The table, mapped from the cache (read, where it cannot be mapped), or computed and cached
    when it is missing or damaged."""
    path = cache_path()
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size != 8 * ENTRY * HOMES:
                raise ValueError(f"{path}: not a bear-off table of {HOMES} positions")
            try:
                return BearoffTable(memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)).cast("d"))
            except (OSError, ValueError):  # a file system that cannot map files
                values = array("d")
                values.fromfile(handle, ENTRY * HOMES)
                return BearoffTable(memoryview(values))
    except (OSError, EOFError, ValueError):
        return BearoffTable(memoryview(_write(path)))


class BearoffTable:
    """Expected rolls to bear off, by home (see :func:`table`): for each home in :func:`rank` order,
    its expected rolls, then those left after the best play of each roll of :data:`ROLLS`."""

    def __init__(self, values: memoryview[float]) -> None:
        self.values = values

    def __len__(self) -> int:
        return len(self.values) // ENTRY

    def rolls(self, home: Home) -> float:
        """The expected rolls to bear off every checker of ``home`` (0 for none)."""
        return self.values[ENTRY * rank(home)]

    def best_after(self, home: Home, dice: tuple[int, int]) -> float:
        """The fewest expected rolls left after the best play of ``dice`` from ``home``."""
        return self.values[ENTRY * rank(home) + 1 + roll_index(*dice)]

    def luck(self, home: Home, dice: tuple[int, int]) -> float:
        """The rolls that ``dice`` saved compared with the average roll: E(home) − 1 (the expected
        rolls left after an average roll, each played best) minus the rolls left after the best
        play of ``dice``. Positive: a lucky roll."""
        start = ENTRY * rank(home)
        values = self.values
        return values[start] - 1 - values[start + 1 + roll_index(*dice)]
