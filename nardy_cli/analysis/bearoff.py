"""The one-sided bear-off table: the expected number of rolls to bear off every position of up to
15 checkers on the six home points, and the luck of a roll in a pure race with every checker home.

The table (54,264 positions) is computed once, in a few seconds, and cached on disk under the
user's cache directory (``NARDY_CACHE_DIR`` overrides it); every later run reads it back. A
position is the checkers on the mover's home points 1-6, ``(p1, p2, ..., p6)``. The moves are
the bear-off of long and short nardy (formats/stats-tables.md, "Luck"): die d moves a checker d
points down or bears it off from point d, or from the highest occupied point when that is lower
than d; both dice (four steps of a double) are always played; the best play of a roll is the one
that leaves the fewest expected rolls. Pure Python: workers load it without numpy.
"""
from __future__ import annotations

import os
import sys
import tempfile
from array import array
from functools import lru_cache
from pathlib import Path

POINTS = 6
MAX_CHECKERS = 15
VERSION = 1
Home = tuple[int, ...]  # checkers on points 1..6


def positions() -> list[Home]:
    """Every home of 0-15 checkers, fewest pips first (so every play leads to an earlier entry)."""
    def homes(points: int, left: int) -> list[Home]:
        if points == 0:
            return [()]
        return [(count,) + rest for count in range(left + 1) for rest in homes(points - 1, left - count)]

    return sorted(homes(POINTS, MAX_CHECKERS), key=lambda home: (pips(home), home))


def pips(home: Home) -> int:
    return sum((point + 1) * count for point, count in enumerate(home))


def steps(home: Home, die: int) -> set[Home]:
    """The homes one step of ``die`` leads to (none when no checker is left)."""
    highest = max((point for point in range(POINTS) if home[point]), default=-1)
    reached = set()
    for point in range(highest + 1):  # 0-based: the checker stands on point + 1
        if not home[point]:
            continue
        after = list(home)
        after[point] -= 1
        target = point - die
        if target >= 0:
            after[target] += 1
        elif target < -1 and point != highest:
            continue  # a higher die bears off only from the highest point
        reached.add(tuple(after))
    return reached


_cached_steps = lru_cache(maxsize=1 << 15)(steps)  # the bear-offs of a corpus meet the same homes again


def build() -> array:
    """The expected rolls of every home of :func:`positions`, in that order, by dynamic
    programming over the pip count: E(h) = 1 + Σ_roll P(roll) · min over plays E(after)."""
    homes = positions()
    index = {home: number for number, home in enumerate(homes)}
    size = len(homes)
    expected = array("d", bytes(8 * size))
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
            total += min(three[i] for i in reached)  # a double: four steps
        for high in range(2, POINTS + 1):
            for low in range(1, high):
                total += 2 * min(min(best[low][0][i] for i in after[high]),
                                 min(best[high][0][i] for i in after[low]))
        expected[number] = 1 + total / 36
    return expected


def cache_path() -> Path:
    """Where the table is kept: ``$NARDY_CACHE_DIR`` or the user's cache directory for nardy."""
    folder = os.environ.get("NARDY_CACHE_DIR")
    if not folder:
        import platformdirs

        folder = platformdirs.user_cache_dir("nardy")
    return Path(folder) / f"bearoff-{MAX_CHECKERS}x{POINTS}-v{VERSION}-{sys.byteorder}.bin"


@lru_cache(maxsize=1)
def table() -> BearoffTable:
    """The table, read from the cache, or computed and cached (atomically) when it is missing or damaged."""
    path = cache_path()
    homes = positions()
    values = array("d")
    try:
        with open(path, "rb") as handle:
            values.fromfile(handle, len(homes))
        if path.stat().st_size != 8 * len(homes):
            raise ValueError(f"{path}: not a bear-off table of {len(homes)} positions")
    except (OSError, EOFError, ValueError):
        values = build()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.", delete=False) as out:
                values.tofile(out)
            os.replace(out.name, path)
        except OSError:
            pass  # an unwritable cache only costs the next run the computation again
    return BearoffTable(dict(zip(homes, values)))


class BearoffTable:
    """Expected rolls to bear off, by home (see :func:`table`)."""

    def __init__(self, expected: dict[Home, float]) -> None:
        self.expected = expected

    def __len__(self) -> int:
        return len(self.expected)

    def rolls(self, home: Home) -> float:
        """The expected rolls to bear off every checker of ``home`` (0 for none)."""
        return self.expected[home]

    def best_after(self, home: Home, dice: tuple[int, int]) -> float:
        """The fewest expected rolls left after the best play of ``dice`` from ``home``."""
        first, second = dice
        if first == second:
            orders: tuple[tuple[int, ...], ...] = ((first,) * 4,)
        else:
            orders = ((first, second), (second, first))
        best = float("inf")
        for order in orders:
            frontier = {home}
            for die in order:
                frontier = {after for state in frontier for after in (_cached_steps(state, die) or {state})}
            best = min(best, min(self.expected[state] for state in frontier))
        return best

    def luck(self, home: Home, dice: tuple[int, int]) -> float:
        """The rolls that ``dice`` saved compared with the average roll: E(home) − 1 (the expected
        rolls left after an average roll, each played best) minus the rolls left after the best
        play of ``dice``. Positive: a lucky roll."""
        return self.expected[home] - 1 - self.best_after(home, dice)
