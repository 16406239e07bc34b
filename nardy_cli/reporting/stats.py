"""Statistics tables from :class:`~nardy_cli.analysis.aggregates.Aggregates`: summaries with Wilson
intervals, outcome counts, dice counts and their fairness tests, and the same as text cells
labelled in English or Russian (pandas)."""
from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from nardy_cli.analysis.aggregates import GROUPINGS, OUTCOMES, ROLL_CLASSES, SCORED, TURN_COLUMNS, Aggregates
from nardy_cli.analysis.luck import EXPECTED_PIPS, LuckSums
from nardy_cli.analysis.standings import STANDINGS_COLUMNS
from nardy_cli.reporting.frames import pd
from nardy_cli.reporting.labels import tr

FAIRNESS_ALPHA = 0.01
MIN_FLAG_ROLLS = 180
"""Rolls below which no player is flagged: the chi-square test of the 21 rolls needs about five
expected rolls of each (180 × 1/36 = 5); with fewer, its p-value is not to be trusted."""
ROLL_PROBABILITIES = np.array([(1 if c[0] == c[1] else 2) / 36 for c in ROLL_CLASSES])  # with fair dice


# --- tables of the aggregates -------------------------------------------------------------


def _check_grouping(by: str) -> None:
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r}: expected one of {', '.join(GROUPINGS)}")


CASCADE_COLUMNS = ("mean_cascades", "mean_steps_passed", "mean_pips_passed")  # crazy nardy only

def summarize(aggregates: Aggregates, by: str = "player") -> pd.DataFrame:
    """One row per player, event, variant or file, the busiest first (ties in order of appearance).

    Columns: ``games``, ``wins`` and ``win_rate``; for each of oin, mars, home-mars, koks its
    count, ``<outcome>_rate`` and Wilson 95 % bounds ``<outcome>_low``/``_high``;
    ``first_mover_games``/``_wins``/``_rate`` (with bounds); ``mean_turns``, ``median_turns``,
    ``mean_pips_lost``. Every rate is over the row's games; what wins and outcomes count per
    player and per other group is said in :class:`~nardy_cli.analysis.aggregates.Aggregates`.
    """
    _check_grouping(by)
    group = aggregates.groups[by]
    totals = list(group.values())

    def column(values: list[int]) -> np.ndarray:
        return np.array(values, dtype="int64")

    table = pd.DataFrame({"games": column([t.games for t in totals]), "wins": column([t.wins for t in totals])},
                         index=pd.Index(list(group), name=by))
    _add_rate(table, "win", table["wins"], table["games"])
    for outcome in SCORED:
        table[outcome] = column([t.outcomes[outcome] for t in totals])
        _add_rate(table, outcome, table[outcome], table["games"])
    table["first_mover_games"] = column([t.first_games for t in totals])
    table["first_mover_wins"] = column([t.first_wins for t in totals])
    _add_rate(table, "first_mover", table["first_mover_wins"], table["first_mover_games"])
    table["mean_turns"] = [t.mean_turns() for t in totals]
    table["median_turns"] = [t.median_turns() for t in totals]
    table["mean_pips_lost"] = [t.pips_lost / t.games for t in totals]
    if any(t.cascade_games for t in totals):  # crazy nardy, per game of it (not per player)
        for name in ("cascades", "steps_passed", "pips_passed"):
            table[f"mean_{name}"] = [getattr(t, name) / t.cascade_games if t.cascade_games else np.nan
                                     for t in totals]
    return table.sort_values("games", ascending=False, kind="stable")


def outcome_counts(aggregates: Aggregates, by: str = "variant") -> pd.DataFrame:
    """How many games of each event, variant or file ended in each outcome (columns in
    :data:`~nardy_cli.analysis.aggregates.OUTCOMES` order, groups sorted)."""
    _check_grouping(by)
    if by == "player":
        raise ValueError("outcomes are counted by event, variant or file, not 'player'")
    group = aggregates.groups[by]
    keys = sorted(group, key=str)
    return pd.DataFrame([[group[key].outcomes[outcome] for outcome in OUTCOMES] for key in keys],
                        index=pd.Index(keys, name=by), columns=list(OUTCOMES), dtype="int64")


def dice_counts(aggregates: Aggregates, player: str | None = None, *, total: bool = False) -> pd.DataFrame:
    """Counts of the 21 roll classes: only ``player``'s row (none if they never rolled), or with
    ``player=None`` one row ``all`` and, with ``total``, one row per player after it (sorted)."""
    rolls = aggregates.rolls
    if player is not None:
        rows = {player: rolls[player]} if player in rolls else {}
    else:
        rows = {"all": [sum(column) for column in zip(*rolls.values())] or [0] * len(ROLL_CLASSES)}
        if total:
            rows.update((name, rolls[name]) for name in sorted(rolls, key=str))
    return pd.DataFrame(list(rows.values()), index=pd.Index(list(rows), name="player"),
                        columns=list(ROLL_CLASSES), dtype="int64")


def luck_table(aggregates: Aggregates) -> pd.DataFrame:
    """Luck without an engine per player, after a row ``all`` for everyone (see formats/stats-tables.md,
    "Luck"): free ``rolls``, their mean pips (``pips_per_roll``, 95 % bounds ``pips_low``/``_high``)
    against ``expected_pips`` (294/36) and the pips above it (``pips_luck``); ``doubles`` with
    rate and Wilson bounds; pips lost per roll over every roll (``turns``); pure-race bear-off
    rolls, their summed luck in rolls (``bearoff_luck``) and its mean per roll with bounds."""
    everyone = LuckSums()
    for player in aggregates.luck.values():
        everyone.add(player)
    rows = {"all": everyone, **{name: aggregates.luck[name] for name in sorted(aggregates.luck, key=str)}}
    sums = list(rows.values())

    def column(name: str) -> np.ndarray:
        return np.array([getattr(row, name) for row in sums], dtype=float)

    table = pd.DataFrame(index=pd.Index(list(rows), name="player"))
    table["rolls"] = column("rolls").astype("int64")
    _add_mean(table, "pips", column("pips"), column("pips_sq"), column("rolls"))
    table["expected_pips"] = EXPECTED_PIPS
    table["pips_luck"] = column("pips") - EXPECTED_PIPS * column("rolls")
    table["doubles"] = column("doubles").astype("int64")
    _add_rate(table, "doubles", table["doubles"], table["rolls"])
    table["turns"] = column("turns").astype("int64")
    _add_mean(table, "pips_lost", column("lost"), column("lost_sq"), column("turns"))
    table["bearoff_rolls"] = column("bearoff_rolls").astype("int64")
    table["bearoff_luck"] = column("bearoff")
    _add_mean(table, "bearoff_luck", column("bearoff"), column("bearoff_sq"), column("bearoff_rolls"))
    return table


def standings_table(aggregates: Aggregates) -> pd.DataFrame:
    """The standings of every event (:meth:`nardy_cli.analysis.standings.Standings.rows`), one row per player."""
    return pd.DataFrame(aggregates.standings.rows(), columns=list(STANDINGS_COLUMNS)).set_index("event")


def mean_interval(total: Any, squares: Any, n: Any, confidence: float = 0.95) -> tuple[np.ndarray, ...]:
    """Mean and normal-approximation bounds (sample standard deviation) from sums and sums of
    squares; NaN bounds below two values, NaN mean for none."""
    total, squares, n = (np.asarray(value, dtype=float) for value in (total, squares, n))
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / n
        variance = np.where(n > 1, (squares - n * mean * mean) / (n - 1), np.nan)
        half = z * np.sqrt(np.maximum(variance, 0) / n)
    return mean, mean - half, mean + half


def _add_mean(table: pd.DataFrame, name: str, total: Any, squares: Any, n: Any) -> None:
    table[f"{name}_per_roll"], table[f"{name}_low"], table[f"{name}_high"] = mean_interval(total, squares, n)


# --- rates --------------------------------------------------------------------------------


def wilson_interval(successes: Any, trials: Any, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a binomial proportion (arrays welcome); NaN where ``trials`` is 0."""
    k, n = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denominator = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return np.where(k == 0, 0.0, centre - half), np.where(k == n, 1.0, centre + half)


def _add_rate(table: pd.DataFrame, name: str, successes: pd.Series, trials: pd.Series) -> None:
    low, high = wilson_interval(successes, trials)
    with np.errstate(divide="ignore", invalid="ignore"):
        table[f"{name}_rate"] = successes.astype(float) / trials.astype(float)
    table[f"{name}_low"], table[f"{name}_high"] = low, high


# --- dice fairness -----------------------------------------------------------------------


def chi_square(observed: Any, probabilities: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Pearson's chi-square statistic and p-value of each row of ``observed`` counts (a 1-D
    sequence is one row) against ``probabilities``; NaN for a row with nothing observed."""
    counts = np.atleast_2d(np.asarray(observed, dtype=float))
    expected = counts.sum(axis=1, keepdims=True) * np.asarray(probabilities, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = ((counts - expected) ** 2 / expected).sum(axis=1)
    statistic[counts.sum(axis=1) == 0] = np.nan
    degrees = counts.shape[1] - 1
    return statistic, np.array([chi_square_survival(value, degrees) for value in statistic])


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
    if degrees % 2 == 0:
        return min(1.0, sum(math.exp(r * math.log(half) - half - math.lgamma(r + 1)) for r in range(degrees // 2)))
    tail = sum(math.exp((r - 0.5) * math.log(half) - half - math.lgamma(r + 0.5)) for r in range(1, (degrees + 1) // 2))
    return min(1.0, math.erfc(math.sqrt(half)) + tail)


def dice_fairness(counts: pd.DataFrame) -> pd.DataFrame:
    """Whether the dice of each row of a roll-class ``counts`` table (see
    :func:`dice_counts`) look fair, the most rolls first.

    Columns: ``n`` rolls, ``doubles`` and ``doubles_rate`` (1/6 expected),
    chi-square and p-value of the 21 roll classes (``chi2_rolls``, ``p_rolls``,
    20 degrees of freedom) and of doubles against non-doubles (``chi2_doubles``,
    ``p_doubles``), and ``flagged`` when either p-value is below 0.01 over at
    least :data:`MIN_FLAG_ROLLS` rolls.
    """
    observed = counts.to_numpy(dtype=float)
    n = observed.sum(axis=1)
    doubles = observed[:, [roll[0] == roll[1] for roll in ROLL_CLASSES]].sum(axis=1)
    chi2_rolls, p_rolls = chi_square(observed, ROLL_PROBABILITIES)
    chi2_doubles, p_doubles = chi_square(np.column_stack([doubles, n - doubles]), [1 / 6, 5 / 6])
    with np.errstate(divide="ignore", invalid="ignore"):
        table = pd.DataFrame({"n": n.astype(int), "doubles": doubles.astype(int), "doubles_rate": doubles / n,
                              "chi2_rolls": chi2_rolls, "p_rolls": p_rolls, "chi2_doubles": chi2_doubles,
                              "p_doubles": p_doubles,
                              "flagged": (np.fmin(p_rolls, p_doubles) < FAIRNESS_ALPHA) & (n >= MIN_FLAG_ROLLS)},
                             index=counts.index)
    return table.sort_values("n", ascending=False, kind="stable")


# --- tables for readers ------------------------------------------------------------------


def _percent(value: float) -> str:
    return "—" if pd.isna(value) else f"{100 * value:.1f}%"


def _with_interval(count: int, table: pd.DataFrame, name: str, key: Any) -> str:
    rate, low, high = (cast(float, table.at[key, f"{name}_{part}"]) for part in ("rate", "low", "high"))
    if pd.isna(rate):
        return str(count)
    return f"{count} ({100 * rate:.1f}% [{100 * low:.1f}–{100 * high:.1f}])"


def summary_display(summary: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`summarize` table as text cells with headers in ``lang``: counts with
    rate and Wilson 95 % interval, percentages, lengths."""
    by = cast(str, summary.index.name)  # summarize names its index by the grouping
    wins_label = tr("wins" if by == "player" else "wins_white", lang)
    rows = []
    for key, row in summary.iterrows():
        cells = {tr(by, lang): tr(str(key), lang) if by == "variant" else key,
                 tr("games", lang): int(row["games"]), wins_label: int(row["wins"]),
                 tr("win_rate", lang): _percent(row["win_rate"])}
        for outcome in SCORED:
            cells[tr(outcome, lang)] = _with_interval(int(row[outcome]), summary, outcome, key)
        cells[tr("first_mover_win_rate", lang)] = _percent(row["first_mover_rate"])
        for column in ("mean_turns", "median_turns", "mean_pips_lost") + CASCADE_COLUMNS:
            if column in row:
                cells[tr(column, lang)] = "—" if pd.isna(row[column]) else f"{row[column]:.1f}"
        rows.append(cells)
    return pd.DataFrame(rows)


def shortened(fairness: pd.DataFrame, min_rolls: int = 0, top: int | None = None) -> pd.DataFrame:
    """The rows of a :func:`dice_fairness` table with at least ``min_rolls`` rolls, the ``top`` with
    the most (the ``all`` row of every player is always kept)."""
    total = fairness.index == "all"
    rows = fairness[~total & (fairness["n"] >= min_rolls)]
    if top is not None:
        rows = rows.head(top)
    return pd.concat([fairness[total], rows])


def fairness_display(fairness: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`dice_fairness` table as text cells with headers in ``lang``: n beside the p-values,
    and ``too few rolls`` instead of a verdict below :data:`MIN_FLAG_ROLLS`."""
    by = cast("str | None", fairness.index.name)
    rows = []
    for key, row in fairness.iterrows():
        verdict = "yes" if row["flagged"] else "no" if row["n"] >= MIN_FLAG_ROLLS else "too_few"
        rows.append({tr(by or "player", lang): tr(key, lang) if key == "all" else key,
                     tr("n", lang): int(row["n"]),
                     tr("p_rolls", lang): f"{row['p_rolls']:.3g}",
                     tr("p_doubles", lang): f"{row['p_doubles']:.3g}",
                     tr("doubles_rate", lang): _percent(row["doubles_rate"]),
                     tr("chi2_rolls", lang): f"{row['chi2_rolls']:.1f}",
                     tr("flagged", lang): tr(verdict, lang, n=MIN_FLAG_ROLLS)})
    return pd.DataFrame(rows)


def luck_display(luck: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`luck_table` as text cells with headers in ``lang``: means with their 95 % bounds."""
    def mean(row: pd.Series, name: str, digits: int) -> str:
        value, low, high = (row[f"{name}_{part}"] for part in ("per_roll", "low", "high"))
        if pd.isna(value):
            return "—"
        return f"{value:.{digits}f}" + ("" if pd.isna(low) else f" [{low:.{digits}f}–{high:.{digits}f}]")

    rows = []
    for key, row in luck.iterrows():
        rows.append({tr("player", lang): tr(key, lang) if key == "all" else key,
                     tr("n", lang): int(row["rolls"]), tr("pips_per_roll", lang): mean(row, "pips", 2),
                     tr("pips_luck", lang): f"{row['pips_luck']:+.0f}",
                     tr("doubles", lang): _with_interval(int(row["doubles"]), luck, "doubles", key),
                     tr("pips_lost_per_roll", lang): mean(row, "pips_lost", 2),
                     tr("bearoff_rolls", lang): int(row["bearoff_rolls"]),
                     tr("bearoff_luck", lang): f"{row['bearoff_luck']:+.2f}",
                     tr("bearoff_luck_per_roll", lang): mean(row, "bearoff_luck", 3)})
    return pd.DataFrame(rows)


def standings_display(standings: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`standings_table` with headers in ``lang``."""
    return standings.reset_index().rename(columns=lambda column: tr(column, lang))


def outcomes_display(counts: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """An :func:`outcome_counts` table with outcome and group names in ``lang``."""
    table = counts.rename(columns=lambda outcome: tr(outcome, lang),
                          index=lambda key: tr(key, lang) if counts.index.name == "variant" else key)
    return table.rename_axis(index=tr(cast(str, counts.index.name), lang)).reset_index()


def quality_summary(aggregates: Aggregates) -> pd.DataFrame:
    """One row per player of the games whose record carries analysis (see :mod:`nardy_cli.analysis.play_quality`):
    games, decisions, equity lost, error rate, blunders, luck and luck per game."""
    columns = ["player", "games", "decisions", "equity_lost", "error_rate", "blunders", "luck", "luck_per_game"]
    return pd.DataFrame(aggregates.quality.rows(), columns=columns).set_index("player")


def quality_display(quality: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """A :func:`quality_summary` table as text cells with headers in ``lang``."""
    def number(value: Any, digits: int) -> str:
        return "—" if pd.isna(value) else f"{value:.{digits}f}"

    rows = []
    for player, row in quality.iterrows():
        rows.append({tr("player", lang): player, tr("games", lang): int(row["games"]),
                     tr("decisions", lang): int(row["decisions"]),
                     tr("equity_lost", lang): number(row["equity_lost"], 3),
                     tr("error_rate", lang): number(row["error_rate"], 1),
                     tr("blunders", lang): int(row["blunders"]), tr("luck", lang): number(row["luck"], 3),
                     tr("luck_per_game", lang): number(row["luck_per_game"], 3)})
    return pd.DataFrame(rows)


def markdown_table(table: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table of ``table``'s columns (the index is left out)."""
    def cell(value: Any) -> str:
        return ("" if pd.isna(value) else str(value)).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in table.columns) + " |",
             "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


def turns_table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """A game's turn rows (:func:`~nardy_cli.analysis.aggregates.turn_rows`) as a table, as ``race_chart`` takes it."""
    return pd.DataFrame(rows, columns=list(TURN_COLUMNS))
