"""Statistics tables from :class:`~nardy_cli.analysis.aggregates.Aggregates`: summaries with Wilson
intervals, outcome counts, dice counts and their fairness tests, luck, standings, and the same as
text cells labelled in English or Russian.

Each table is computed once, in plain Python, as a :class:`~nardy_cli.reporting.plain.Table` (the
``*_rows`` and ``*_parts`` functions, which ``nardy stats`` prints and its report writes without
importing pandas); the functions that
return pandas DataFrames (``summarize``, ``dice_counts``, ...) wrap those tables.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from itertools import chain, islice
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, TypeVar

from nardy_cli.analysis.aggregates import (
    CASCADE_GROUPINGS,
    GROUPINGS,
    OUTCOMES,
    ROLL_CLASSES,
    SCORED,
    Aggregates,
    GroupTotals,
    RollCounts,
    busiest_first,
)
from nardy_cli.analysis.groups import Groups
from nardy_cli.analysis.luck import EXPECTED_PIPS, LuckSums
from nardy_cli.analysis.standings import STANDINGS_COLUMNS
from nardy_cli.reporting import plain
from nardy_cli.reporting.labels import tr
from nardy_cli.reporting.plain import Table, in_parts, indexed_parts, is_missing

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

FAIRNESS_ALPHA = 0.01
PART_ROWS = 1_000  # rows of a table made at a time (see summary_parts): a server has many players
MIN_FLAG_ROLLS = 180
"""Rolls below which no player is flagged: the chi-square test of the 21 rolls needs about five
expected rolls of each (180 × 1/36 = 5); with fewer, its p-value is not to be trusted."""
ROLL_PROBABILITIES = tuple((1 if c[0] == c[1] else 2) / 36 for c in ROLL_CLASSES)  # with fair dice
CASCADE_COLUMNS = ("mean_cascades", "mean_steps_passed", "mean_pips_passed")  # crazy nardy only
QUALITY_COLUMNS = ("player", "games", "decisions", "equity_lost", "error_rate", "blunders", "luck", "luck_per_game")
Z95 = NormalDist().inv_cdf(0.975)


def _z(confidence: float) -> float:
    return Z95 if confidence == 0.95 else NormalDist().inv_cdf(0.5 + confidence / 2)


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows)


# --- tables of the aggregates -------------------------------------------------------------


def _check_grouping(by: str) -> None:
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r}: expected one of {', '.join(GROUPINGS)}")


def summary_rows(aggregates: Aggregates, by: str = "player") -> Table:
    """The table of :func:`summarize`."""
    return Table.joined(summary_parts(aggregates, by))


def summary_parts(aggregates: Aggregates, by: str = "player", limit: int | None = None) -> Iterator[Table]:
    """The table of :func:`summarize` (its first ``limit`` rows) in parts of :data:`PART_ROWS` rows,
    one part made at a time: a corpus of one match a file has as many rows by file or by match as
    matches, a server's corpus as many by player."""
    _check_grouping(by)
    group = aggregates.groups[by]
    cascades = by in CASCADE_GROUPINGS and any(totals.cascade_games for totals in group.unordered())  # crazy nardy
    for part in in_parts(islice(group.ordered(busiest_first), limit), PART_ROWS):
        yield _summary_table(by, part, cascades)


def _summary_table(by: str, groups: list[tuple[Any, GroupTotals]], cascades: bool) -> Table:
    table = Table(by, [key for key, _ in groups])
    totals = [totals for _, totals in groups]
    table.add("games", [t.games for t in totals], "int64")
    table.add("wins", [t.wins for t in totals], "int64")
    _add_rate(table, "win", table.columns["wins"], table.columns["games"])
    for outcome in SCORED:
        table.add(outcome, [t.outcomes[outcome] for t in totals], "int64")
        _add_rate(table, outcome, table.columns[outcome], table.columns["games"])
    table.add("first_mover_games", [t.first_games for t in totals], "int64")
    table.add("first_mover_wins", [t.first_wins for t in totals], "int64")
    _add_rate(table, "first_mover", table.columns["first_mover_wins"], table.columns["first_mover_games"])
    table.add("mean_turns", [t.mean_turns() for t in totals], "float64")
    table.add("median_turns", [t.median_turns() for t in totals], "float64")
    table.add("mean_pips_lost", [t.pips_lost / t.games for t in totals], "float64")
    if cascades:
        for name in ("cascades", "steps_passed", "pips_passed"):
            table.add(f"mean_{name}", [getattr(t, name) / t.cascade_games if t.cascade_games else math.nan
                                       for t in totals], "float64")
    return table


def summarize(aggregates: Aggregates, by: str = "player") -> pd.DataFrame:
    """One row per player, event, variant or file, the busiest first (ties in order of appearance).

    Columns: ``games``, ``wins`` and ``win_rate``; for each of oin, mars, home-mars, koks its
    count, ``<outcome>_rate`` and Wilson 95 % bounds ``<outcome>_low``/``_high``;
    ``first_mover_games``/``_wins``/``_rate`` (with bounds); ``mean_turns``, ``median_turns``,
    ``mean_pips_lost``. Every rate is over the row's games; what wins and outcomes count per
    player and per other group is said in :class:`~nardy_cli.analysis.aggregates.Aggregates`.
    """
    return summary_rows(aggregates, by).frame()


def outcome_counts(aggregates: Aggregates, by: str = "variant") -> pd.DataFrame:
    """How many games of each event, variant or file ended in each outcome (columns in
    :data:`~nardy_cli.analysis.aggregates.OUTCOMES` order, groups sorted)."""
    return outcome_rows(aggregates, by).frame()


def outcome_rows(aggregates: Aggregates, by: str = "variant") -> Table:
    """The table of :func:`outcome_counts`."""
    _check_grouping(by)
    if by == "player":
        raise ValueError("outcomes are counted by event, variant or file, not 'player'")
    groups = sorted(aggregates.groups[by].items(), key=lambda item: str(item[0]))
    table = Table(by, [key for key, _ in groups])
    for outcome in OUTCOMES:
        table.add(outcome, [totals.outcomes[outcome] for _, totals in groups], "int64")
    return table


def dice_rows(aggregates: Aggregates, player: str | None = None, *, total: bool = False) -> Table:
    """The table of :func:`dice_counts`."""
    if player is not None:
        rolled = _rolls(aggregates).get(player)
        return _dice_table([] if rolled is None else [(player, rolled.counts)])
    return Table.joined(dice_parts(aggregates, total=total))


def dice_parts(aggregates: Aggregates, *, total: bool = True) -> Iterator[Table]:
    """The table of :func:`dice_counts` (``player=None``) in parts, as :func:`summary_parts` gives its table."""
    players = _counts(_rolls(aggregates).in_key_order()) if total else iter(())
    for number, part in enumerate(in_parts(chain([_everyone(aggregates)], players), PART_ROWS)):
        yield _dice_table(part, total_first=number == 0)


def _everyone(aggregates: Aggregates) -> tuple[str, list[int]]:
    """The row ``all``: every player's rolls."""
    everyone = RollCounts()
    for rolled in _rolls(aggregates).unordered():
        everyone.add(rolled.counts)
    return "all", everyone.counts


def _most_rolls(name: str, rolled: RollCounts) -> tuple[int, str]:
    return -sum(rolled.counts), name


def _dice_table(rows: Sequence[tuple[str, Sequence[int]]], *, total_first: bool = False) -> Table:
    """The roll-class counts of each (name, counts) of ``rows``."""
    table = Table("player", [name for name, _ in rows], total_first=total_first)
    for number, roll in enumerate(ROLL_CLASSES):
        table.add(roll, [counts[number] for _, counts in rows], "int64")
    return table


def dice_counts(aggregates: Aggregates, player: str | None = None, *, total: bool = False) -> pd.DataFrame:
    """Counts of the 21 roll classes: only ``player``'s row (none if they never rolled), or with
    ``player=None`` one row ``all`` and, with ``total``, one row per player after it (sorted)."""
    return dice_rows(aggregates, player, total=total).frame()


def fairness_parts(aggregates: Aggregates, min_rolls: int = 0, top: int | None = None) -> Iterator[Table]:
    """:func:`shortened` ``(dice_fairness(dice_counts(aggregates, total=True)), min_rolls, top)``
    in parts, as :func:`summary_parts` gives its table: ``all``, then the players with the most
    rolls (ties by name)."""
    players = _counts(_rolls(aggregates).ordered(_most_rolls), min_rolls)
    for number, part in enumerate(in_parts(chain([_everyone(aggregates)], islice(players, top)), PART_ROWS)):
        yield fairness_rows(_dice_table(part, total_first=number == 0))


def _counts(players: Iterator[tuple[str, RollCounts]], min_rolls: int = 0) -> Iterator[tuple[str, list[int]]]:
    """Each player's name and roll counts, of those with ``min_rolls`` at least: a generator of its
    own, as every one that goes over the players must be (compiled, a generator expression is made a
    list first)."""
    for name, rolled in players:
        if sum(rolled.counts) >= min_rolls:
            yield name, rolled.counts


def luck_rows(aggregates: Aggregates) -> Table:
    """The table of :func:`luck_table`."""
    return Table.joined(luck_parts(aggregates))


def luck_parts(aggregates: Aggregates) -> Iterator[Table]:
    """The table of :func:`luck_table` in parts, as :func:`summary_parts` gives its table."""
    luck = _summed(aggregates.luck, "dice")
    everyone = LuckSums()
    for player in luck.values():  # in the order the players came
        everyone.add(player)
    for number, part in enumerate(in_parts(chain([("all", everyone)], luck.in_key_order()), PART_ROWS)):
        yield _luck_table([player for player, _ in part], [sums for _, sums in part], total_first=number == 0)


def _luck_table(players: list[str], sums: list[LuckSums], *, total_first: bool) -> Table:
    def column(name: str) -> list[float]:
        return [float(getattr(row, name)) for row in sums]

    table = Table("player", players, total_first=total_first)
    table.add("rolls", [row.rolls for row in sums], "int64")
    _add_mean(table, "pips", column("pips"), column("pips_sq"), column("rolls"))
    table.add("expected_pips", [EXPECTED_PIPS] * len(sums), "float64")
    table.add("pips_luck", [pips - EXPECTED_PIPS * rolls for pips, rolls in zip(column("pips"), column("rolls"))],
              "float64")
    table.add("doubles", [row.doubles for row in sums], "int64")
    _add_rate(table, "doubles", table.columns["doubles"], table.columns["rolls"])
    table.add("turns", [row.turns for row in sums], "int64")
    _add_mean(table, "pips_lost", column("lost"), column("lost_sq"), column("turns"))
    table.add("bearoff_rolls", [row.bearoff_rolls for row in sums], "int64")
    table.add("bearoff_luck", column("bearoff"), "float64")
    _add_mean(table, "bearoff_luck", column("bearoff"), column("bearoff_sq"), column("bearoff_rolls"))
    return table


def luck_table(aggregates: Aggregates) -> pd.DataFrame:
    """Luck without an engine per player, after a row ``all`` for everyone (see formats/stats-tables.md,
    "Luck"): free ``rolls``, their mean pips (``pips_per_roll``, 95 % bounds ``pips_low``/``_high``)
    against ``expected_pips`` (294/36) and the pips above it (``pips_luck``); ``doubles`` with
    rate and Wilson bounds; pips lost per roll over every roll (``turns``); pure-race bear-off
    rolls, their summed luck in rolls (``bearoff_luck``) and its mean per roll with bounds."""
    return luck_rows(aggregates).frame()


def standings_rows(aggregates: Aggregates) -> Table:
    """The table of :func:`standings_table`."""
    return Table.joined(standings_parts(aggregates))


def standings_parts(aggregates: Aggregates) -> Iterator[Table]:
    """The table of :func:`standings_table` in parts, as :func:`summary_parts` gives its table."""
    return indexed_parts(_standings(aggregates), STANDINGS_COLUMNS, PART_ROWS)


def standings_table(aggregates: Aggregates) -> pd.DataFrame:
    """The standings of every event (:meth:`nardy_cli.analysis.standings.Standings.rows`), one row per player."""
    import pandas as pd

    return pd.DataFrame(_standings(aggregates), columns=list(STANDINGS_COLUMNS)).set_index("event")


def _standings(aggregates: Aggregates) -> Iterator[dict[str, Any]]:
    return _summed(aggregates.standings, "standings").rows()


Summed = TypeVar("Summed")


def _summed(figures: Summed | None, flag: str) -> Summed:
    """Figures of :class:`Aggregates` that are None when it was told not to sum them (``flag=False``)."""
    if figures is None:
        raise ValueError(f"the {flag} were not summed ({flag}=False)")
    return figures


def _rolls(aggregates: Aggregates) -> Groups[RollCounts]:
    return _summed(aggregates.rolls, "dice")


def quality_rows(aggregates: Aggregates) -> Table:
    """The table of :func:`quality_summary`."""
    return Table.joined(quality_parts(aggregates))


def quality_parts(aggregates: Aggregates) -> Iterator[Table]:
    """The table of :func:`quality_summary` in parts, as :func:`summary_parts` gives its table."""
    return indexed_parts(aggregates.quality.rows(), QUALITY_COLUMNS, PART_ROWS)


def quality_summary(aggregates: Aggregates) -> pd.DataFrame:
    """One row per player of the games whose record carries analysis (see :mod:`nardy_cli.analysis.play_quality`):
    games, decisions, equity lost, error rate, blunders, luck and luck per game."""
    import pandas as pd

    return pd.DataFrame(aggregates.quality.rows(), columns=list(QUALITY_COLUMNS)).set_index("player")


# --- means and rates ----------------------------------------------------------------------


def mean_bounds(total: float, squares: float, n: float, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and normal-approximation bounds (sample standard deviation) from a sum and a sum of
    squares of ``n`` values; NaN bounds below two values, NaN mean for none."""
    total, squares, n = float(total), float(squares), float(n)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n <= 1:
        return mean, math.nan, math.nan
    variance = (squares - n * mean * mean) / (n - 1)
    half = _z(confidence) * math.sqrt(max(variance, 0.0) / n)
    return mean, mean - half, mean + half


def mean_interval(total: Any, squares: Any, n: Any, confidence: float = 0.95) -> tuple[np.ndarray, ...]:
    """:func:`mean_bounds` of arrays: the means, lower and upper bounds."""
    return _each(mean_bounds, 3, total, squares, n, confidence=confidence)


def _add_mean(table: Table, name: str, total: list[float], squares: list[float], n: list[float]) -> None:
    means = [mean_bounds(*values) for values in zip(total, squares, n)]
    for part, values in zip(("per_roll", "low", "high"), zip(*means) if means else ((), (), ())):
        table.add(f"{name}_{part}", values, "float64")


def wilson_bounds(successes: float, trials: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion: 0 below when there is no success, 1 above
    when all are (so 0 and 1 when ``trials`` is 0)."""
    k, n = float(successes), float(trials)
    if n == 0:
        low = high = math.nan
    else:
        z = _z(confidence)
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
        low, high = centre - half, centre + half
    return 0.0 if k == 0 else low, 1.0 if k == n else high


def wilson_interval(successes: Any, trials: Any, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wilson_bounds` of arrays: the lower and the upper bounds."""
    low, high = _each(wilson_bounds, 2, successes, trials, confidence=confidence)
    return low, high


def _each(function: Any, outputs: int, *arrays: Any, **options: Any) -> tuple[np.ndarray, ...]:
    """``function`` of each element of the broadcast ``arrays``, as arrays of its ``outputs`` results."""
    import numpy as np

    elements = np.broadcast(*(np.asarray(array, dtype=float) for array in arrays))
    results = [function(*values, **options) for values in elements]
    return tuple(np.array([result[part] for result in results], dtype=float).reshape(elements.shape)
                 for part in range(outputs))


def _add_rate(table: Table, name: str, successes: list[int], trials: list[int]) -> None:
    table.add(f"{name}_rate", [k / n if n else math.nan for k, n in zip(successes, trials)], "float64")
    bounds = [wilson_bounds(k, n) for k, n in zip(successes, trials)]
    table.add(f"{name}_low", [low for low, _ in bounds], "float64")
    table.add(f"{name}_high", [high for _, high in bounds], "float64")


# --- dice fairness -----------------------------------------------------------------------


def _numpy_sum(values: list[float]) -> float:
    """The sum of up to 128 floats in the order numpy's pairwise summation adds them (eight
    running sums), so that a statistic is the same to the last bit as numpy's."""
    if len(values) < 8:
        result = -0.0
        for value in values:
            result += value
        return result
    sums = values[:8]
    end = len(values) - len(values) % 8
    for start in range(8, end, 8):
        sums = [total + value for total, value in zip(sums, values[start:start + 8])]
    result = ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (sums[6] + sums[7]))
    for value in values[end:]:
        result += value
    return result


def chi_square_test(observed: Sequence[float], probabilities: Sequence[float]) -> tuple[float, float]:
    """Pearson's chi-square statistic and p-value of ``observed`` counts against ``probabilities``;
    NaN for nothing observed."""
    counts = [float(count) for count in observed]
    n = sum(counts)
    if n == 0:
        return math.nan, math.nan
    terms = []
    for count, probability in zip(counts, probabilities):
        expected = n * probability
        terms.append((count - expected) * (count - expected) / expected)
    statistic = _numpy_sum(terms)
    return statistic, chi_square_survival(statistic, len(counts) - 1)


def chi_square(observed: Any, probabilities: Any) -> tuple[np.ndarray, np.ndarray]:
    """:func:`chi_square_test` of each row of ``observed`` counts (a 1-D sequence is one row): the
    statistics and the p-values."""
    import numpy as np

    rows = np.atleast_2d(np.asarray(observed, dtype=float)).tolist()
    tests = [chi_square_test(row, [float(p) for p in np.asarray(probabilities, dtype=float)]) for row in rows]
    return np.array([t[0] for t in tests], dtype=float), np.array([t[1] for t in tests], dtype=float)


def chi_square_survival(statistic: float, degrees: int) -> float:
    """P(X ≥ ``statistic``) for X chi-square distributed with ``degrees`` (a positive whole number)
    degrees of freedom, by the closed forms for whole degrees; NaN for NaN.

    Even k: e^(-x/2) Σ_{r<k/2} (x/2)^r / r!; odd k: erfc(√(x/2)) + e^(-x/2) Σ_{1≤r≤(k-1)/2}
    (x/2)^(r-1/2) / Γ(r+1/2). Terms are taken through logarithms, so large statistics give 0,
    not an overflow.
    """
    if math.isnan(statistic):
        return math.nan
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    # the terms are added one by one in a loop: Python 3.12's sum() of floats compensates, compiled code does not
    total = 0.0
    if degrees % 2 == 0:
        for r in range(degrees // 2):
            total += math.exp(r * math.log(half) - half - math.lgamma(r + 1))
        return min(1.0, total)
    for r in range(1, (degrees + 1) // 2):
        total += math.exp((r - 0.5) * math.log(half) - half - math.lgamma(r + 0.5))
    return min(1.0, math.erfc(math.sqrt(half)) + total)


def fairness_rows(counts: Table) -> Table:
    """The table of :func:`dice_fairness`, of a :func:`dice_rows` table."""
    rows = list(zip(*(counts.columns[roll] for roll in ROLL_CLASSES))) if len(counts) else []
    n = [sum(row) for row in rows]
    doubles = [sum(count for roll, count in zip(ROLL_CLASSES, row) if roll[0] == roll[1]) for row in rows]
    rolls = [chi_square_test(row, ROLL_PROBABILITIES) for row in rows]
    pairs = [chi_square_test([double, total - double], (1 / 6, 5 / 6)) for double, total in zip(doubles, n)]
    table = Table(counts.index_name, counts.index, total_first=counts.total_first)
    table.add("n", n, "int64")
    table.add("doubles", doubles, "int64")
    table.add("doubles_rate", [double / total if total else math.nan for double, total in zip(doubles, n)], "float64")
    table.add("chi2_rolls", [statistic for statistic, _ in rolls], "float64")
    table.add("p_rolls", [p for _, p in rolls], "float64")
    table.add("chi2_doubles", [statistic for statistic, _ in pairs], "float64")
    table.add("p_doubles", [p for _, p in pairs], "float64")
    table.add("flagged", [(a < FAIRNESS_ALPHA or b < FAIRNESS_ALPHA) and total >= MIN_FLAG_ROLLS
                          for (_, a), (_, b), total in zip(rolls, pairs, n)], "bool")
    first = _totals(table)
    return table.take([*range(first), *sorted(range(first, len(n)), key=lambda position: -n[position])])


def _totals(table: Table) -> int:
    """How many rows of ``table`` come before its players': 1 with the total, or 0."""
    return 1 if table.total_first and len(table) else 0


def dice_fairness(counts: pd.DataFrame) -> pd.DataFrame:
    """Whether the dice of each row of a roll-class ``counts`` table (see
    :func:`dice_counts`) look fair, the most rolls first.

    Columns: ``n`` rolls, ``doubles`` and ``doubles_rate`` (1/6 expected),
    chi-square and p-value of the 21 roll classes (``chi2_rolls``, ``p_rolls``,
    20 degrees of freedom) and of doubles against non-doubles (``chi2_doubles``,
    ``p_doubles``), and ``flagged`` when either p-value is below 0.01 over at
    least :data:`MIN_FLAG_ROLLS` rolls.
    """
    return fairness_rows(Table.of_frame(counts)).frame()


def shortened_rows(fairness: Table, min_rolls: int = 0, top: int | None = None) -> Table:
    """The table of :func:`shortened`."""
    first = _totals(fairness)
    kept = [position for position in range(first, len(fairness)) if fairness.columns["n"][position] >= min_rolls]
    return fairness.take([*range(first), *kept[:top]])


def shortened(fairness: pd.DataFrame, min_rolls: int = 0, top: int | None = None) -> pd.DataFrame:
    """The rows of a :func:`dice_fairness` table with at least ``min_rolls`` rolls, the ``top`` with
    the most (the first row ``all``, of every player, is always kept)."""
    return shortened_rows(Table.of_frame(fairness), min_rolls, top).frame()


# --- tables for readers ------------------------------------------------------------------


def _percent(value: float) -> str:
    return "—" if math.isnan(value) else f"{100 * value:.1f}%"


def _with_interval(count: int, row: dict[str, Any], name: str) -> str:
    rate, low, high = (row[f"{name}_{part}"] for part in ("rate", "low", "high"))
    if math.isnan(rate):
        return str(count)
    return f"{count} ({100 * rate:.1f}% [{100 * low:.1f}–{100 * high:.1f}])"


def _labels(lang: str) -> Callable[[str], str]:
    """:func:`tr` in ``lang`` of a label without values, each looked up once (a table's cells take
    the same few labels in every one of their rows)."""
    known: dict[str, str] = {}

    def label(key: str) -> str:
        text = known.get(key)
        if text is None:
            text = known[key] = tr(key, lang)
        return text

    return label


def summary_cells(summary: Table, lang: str = "en") -> list[dict[str, Any]]:
    """The rows of :func:`summary_display`, of a :func:`summary_rows` table."""
    by = summary.index_label  # summary_rows names its index by the grouping
    label = _labels(lang)
    wins_label = label("wins" if by == "player" else "wins_white")
    rows = []
    for row in summary.rows():
        key = row[by]
        cells = {label(by): label(str(key)) if by == "variant" else key,
                 label("games"): int(row["games"]), wins_label: int(row["wins"]),
                 label("win_rate"): _percent(row["win_rate"])}
        for outcome in SCORED:
            cells[label(outcome)] = _with_interval(int(row[outcome]), row, outcome)
        cells[label("first_mover_win_rate")] = _percent(row["first_mover_rate"])
        for column in ("mean_turns", "median_turns", "mean_pips_lost") + CASCADE_COLUMNS:
            if column in row:
                cells[label(column)] = "—" if is_missing(row[column]) else f"{row[column]:.1f}"
        rows.append(cells)
    return rows


def summary_display(summary: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`summarize` table as text cells with headers in ``lang``: counts with
    rate and Wilson 95 % interval, percentages, lengths."""
    return _frame(summary_cells(Table.of_frame(summary), lang))


def fairness_cells(fairness: Table, lang: str = "en") -> list[dict[str, Any]]:
    """The rows of :func:`fairness_display`, of a :func:`fairness_rows` table."""
    by = fairness.index_name or "player"
    label = _labels(lang)
    verdicts = {verdict: tr(verdict, lang, n=MIN_FLAG_ROLLS) for verdict in ("yes", "no", "too_few")}
    rows = []
    totals = _totals(fairness)
    for number, row in enumerate(fairness.rows()):
        key = row[fairness.index_label]
        verdict = "yes" if row["flagged"] else "no" if row["n"] >= MIN_FLAG_ROLLS else "too_few"
        rows.append({label(by): label("all") if number < totals else key,
                     label("n"): int(row["n"]),
                     label("p_rolls"): f"{row['p_rolls']:.3g}",
                     label("p_doubles"): f"{row['p_doubles']:.3g}",
                     label("doubles_rate"): _percent(row["doubles_rate"]),
                     label("chi2_rolls"): f"{row['chi2_rolls']:.1f}",
                     label("flagged"): verdicts[verdict]})
    return rows


def fairness_display(fairness: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`dice_fairness` table as text cells with headers in ``lang``: n beside the p-values,
    and ``too few rolls`` instead of a verdict below :data:`MIN_FLAG_ROLLS`."""
    return _frame(fairness_cells(Table.of_frame(fairness), lang))


def luck_cells(luck: Table, lang: str = "en") -> list[dict[str, Any]]:
    """The rows of :func:`luck_display`, of a :func:`luck_rows` table."""
    def mean(row: dict[str, Any], name: str, digits: int) -> str:
        value, low, high = (row[f"{name}_{part}"] for part in ("per_roll", "low", "high"))
        if math.isnan(value):
            return "—"
        return f"{value:.{digits}f}" + ("" if math.isnan(low) else f" [{low:.{digits}f}–{high:.{digits}f}]")

    label = _labels(lang)
    rows = []
    totals = _totals(luck)
    for number, row in enumerate(luck.rows()):
        key = row[luck.index_label]
        rows.append({label("player"): label("all") if number < totals else key,
                     label("n"): int(row["rolls"]), label("pips_per_roll"): mean(row, "pips", 2),
                     label("pips_luck"): f"{row['pips_luck']:+.0f}",
                     label("doubles"): _with_interval(int(row["doubles"]), row, "doubles"),
                     label("pips_lost_per_roll"): mean(row, "pips_lost", 2),
                     label("bearoff_rolls"): int(row["bearoff_rolls"]),
                     label("bearoff_luck"): f"{row['bearoff_luck']:+.2f}",
                     label("bearoff_luck_per_roll"): mean(row, "bearoff_luck", 3)})
    return rows


def luck_display(luck: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`luck_table` as text cells with headers in ``lang``: means with their 95 % bounds."""
    return _frame(luck_cells(Table.of_frame(luck), lang))


def standings_cells(standings: Table, lang: str = "en") -> list[dict[str, Any]]:
    """The rows of :func:`standings_display`, of a :func:`standings_rows` table."""
    label = _labels(lang)
    return [{label(column): value for column, value in row.items()} for row in standings.rows()]


def standings_display(standings: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`standings_table` with headers in ``lang``."""
    return standings.reset_index().rename(columns=lambda column: tr(column, lang))


def outcomes_labelled(counts: Table, lang: str = "en") -> Table:
    """The table of :func:`outcomes_display` (indexed by its first column), of an :func:`outcome_rows` table."""
    variants = counts.index_name == "variant"
    table = Table(tr(str(counts.index_name), lang), [tr(key, lang) if variants else key for key in counts.index])
    for name, values in counts.columns.items():
        table.add(tr(name, lang), values, counts.dtypes[name])
    return table


def outcomes_display(counts: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """An :func:`outcome_counts` table with outcome and group names in ``lang``."""
    return outcomes_labelled(Table.of_frame(counts), lang).frame().reset_index()


def quality_cells(quality: Table, lang: str = "en") -> list[dict[str, Any]]:
    """The rows of :func:`quality_display`, of a :func:`quality_rows` table."""
    def number(value: Any, digits: int) -> str:
        return "—" if is_missing(value) else f"{value:.{digits}f}"

    label = _labels(lang)
    return [{label("player"): row[quality.index_label], label("games"): int(row["games"]),
             label("decisions"): int(row["decisions"]),
             label("equity_lost"): number(row["equity_lost"], 3),
             label("error_rate"): number(row["error_rate"], 1),
             label("blunders"): int(row["blunders"]), label("luck"): number(row["luck"], 3),
             label("luck_per_game"): number(row["luck_per_game"], 3)} for row in quality.rows()]


def quality_display(quality: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`quality_summary` table as text cells with headers in ``lang``."""
    return _frame(quality_cells(Table.of_frame(quality), lang))


def markdown_table(table: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table of ``table``'s columns (the index is left out)."""
    return plain.markdown_table([str(column) for column in table.columns], list(table.itertuples(index=False)))

