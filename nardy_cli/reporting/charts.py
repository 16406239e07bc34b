"""Charts of a corpus's statistics as matplotlib figures.

Figures are made, rendered and saved by :mod:`nardy_cli.reporting.figures`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from nardy_cli.analysis.aggregates import ROLL_CLASSES, SCORED, SIDE_KEYS, Aggregates
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.reporting.figures import new_figure
from nardy_cli.reporting.labels import tr
from nardy_cli.reporting.plain import Table
from nardy_cli.reporting.stats import ROLL_PROBABILITIES, chi_square, dice_rows, summary_parts, summary_rows

OUTCOME_COLOURS = {"oin": "#8fb3d9", "mars": "#f0a35e", "home-mars": "#d9534f", "koks": "#7a1f1f"}
SIDE_COLOURS = {WHITE: "#d49a2a", BLACK: "#222222"}
VARIANT_COLOURS = {"long": "#4c72b0", "short": "#dd8452"}


def _no_data(axes: Axes, lang: str) -> None:
    axes.text(0.5, 0.5, tr("no_data", lang), ha="center", va="center", transform=axes.transAxes)
    axes.set_axis_off()


def outcomes_chart(aggregates: Aggregates, lang: str = "en", limit: int = 20) -> Figure:
    """Stacked bars of each player's wins by oin / mars / home mars / koks as a share of the player's
    games, so that a player of many games does not dwarf the others: the ``limit`` players with the
    most games, the most first, each labelled with their games."""
    summary = Table.joined(summary_parts(aggregates, "player", limit))
    figure = new_figure(tr("title_outcomes_by_player", lang), (8.0, 2.0 + 0.35 * max(len(summary), 3)))
    axes = figure.add_subplot()
    if not len(summary):
        _no_data(axes, lang)
        return figure
    games = np.array(summary.columns["games"][::-1], dtype=float)
    names = [f"{name} (n={int(n)})" for name, n in zip(summary.index[::-1], games)]
    left = np.zeros(len(summary))
    for outcome in SCORED:
        values = 100 * np.array(summary.columns[outcome][::-1], dtype=float) / games
        axes.barh(names, values, left=left, label=tr(outcome, lang), color=OUTCOME_COLOURS[outcome])
        left += values
    axes.set_xlim(0, 100)
    axes.set_xlabel(tr("share_of_games", lang))
    axes.legend(loc="lower right")
    return figure


def lengths_chart(aggregates: Aggregates, lang: str = "en") -> Figure:
    """Histogram of game lengths in turns, one series per variant."""
    figure = new_figure(tr("title_lengths", lang))
    axes = figure.add_subplot()
    lengths = aggregates.lengths("variant")
    if not lengths:
        _no_data(axes, lang)
        return figure
    shortest = min(min(counts) for counts in lengths.values())
    bins = np.arange(shortest // 5 * 5, max(max(counts) for counts in lengths.values()) + 6, 5)
    for variant in sorted(lengths):
        counts = lengths[variant]
        axes.hist(list(counts), weights=list(counts.values()), bins=bins.tolist(), alpha=0.65, label=tr(variant, lang),
                  color=VARIANT_COLOURS.get(variant))
    axes.set_xlabel(tr("turns", lang))
    axes.set_ylabel(tr("games", lang))
    axes.legend()
    return figure


def first_mover_chart(aggregates: Aggregates, lang: str = "en") -> Figure:
    """The first mover's win rate per variant, with Wilson 95 % intervals and the 50 % line."""
    summary = summary_rows(aggregates, "variant")
    figure = new_figure(tr("title_first_mover", lang), (6.0, 4.5))
    axes = figure.add_subplot()
    if not len(summary):
        _no_data(axes, lang)
        return figure

    def percent(name: str) -> np.ndarray:
        return 100 * np.array(summary.columns[name], dtype=float)

    rates = percent("first_mover_rate")
    errors = [rates - percent("first_mover_low"), percent("first_mover_high") - rates]
    labels = [tr(variant, lang) for variant in summary.index]
    bars = axes.bar(labels, rates, yerr=errors, capsize=8,
                    color=[VARIANT_COLOURS.get(v, "#888888") for v in summary.index])
    axes.bar_label(bars, labels=[f"{rate:.1f}%\nn={n}" for rate, n in zip(rates, summary.columns["first_mover_games"])],
                   label_type="center")
    axes.axhline(50, linestyle="--", color="grey", label=tr("even", lang))
    axes.set_ylim(0, 100)
    axes.set_ylabel(tr("first_mover_win_rate", lang))
    axes.legend(loc="upper right")
    return figure


DICE_SPREAD = 0.5
"""The colours of every dice chart run from 0.5 to 1.5 times the expected count (beyond: the end
colours), so that charts of different players or corpora compare."""


def dice_chart(aggregates: Aggregates, player: str | None = None, lang: str = "en") -> Figure:
    """A 6×6 heatmap of the 21 roll classes (higher die × lower die) coloured by observed/expected,
    each cell showing its count and expectation; the title gives n and the chi-square p-value.

    Raises ValueError when ``player`` has no rolls.
    """
    counts = dice_rows(aggregates, player)
    if not len(counts):
        raise ValueError(f"no rolls of player {player!r}")
    observed = np.array([counts.columns[roll][0] for roll in ROLL_CLASSES], dtype=float)
    n = int(observed.sum())
    p_value = chi_square(observed, ROLL_PROBABILITIES)[1][0]
    who = player or tr("all", lang)
    p_text = "—" if np.isnan(p_value) else f"{p_value:.3g}"
    figure = new_figure(f"{tr('title_dice', lang)}: {who} — n = {n}, χ² p = {p_text}", (6.5, 5.5))
    axes = figure.add_subplot()
    ratios = np.full((6, 6), np.nan)
    for roll, count, probability in zip(ROLL_CLASSES, observed, ROLL_PROBABILITIES):
        high, low = int(roll[0]) - 1, int(roll[1]) - 1
        expected = n * probability
        if expected:
            ratios[high, low] = count / expected
        dark = expected and abs(count / expected - 1) > 0.6 * DICE_SPREAD  # white text on the dark ends
        axes.text(low, high, f"{tr('observed', lang)} {count:.0f}\n{tr('expected', lang)} {expected:.1f}",
                  ha="center", va="center", fontsize=7, color="white" if dark else "black")
    image = axes.imshow(ratios, cmap="RdBu_r", vmin=1 - DICE_SPREAD, vmax=1 + DICE_SPREAD, origin="lower")
    figure.colorbar(image, ax=axes, label=tr("observed_expected", lang))
    axes.set_xticks(range(6), [str(d) for d in range(1, 7)])
    axes.set_yticks(range(6), [str(d) for d in range(1, 7)])
    axes.set_xlabel(tr("second_die", lang))
    axes.set_ylabel(tr("first_die", lang))
    return figure


def race_chart(turns: Sequence[Mapping[str, Any]], start_pips: tuple[int, int] | None = None, subtitle: str = "",
               lang: str = "en", names: tuple[str, str] | None = None) -> Figure:
    """Both sides' pip counts after each turn of one game (``turns``: its per-turn rows,
    :func:`~nardy_cli.analysis.aggregates.turn_rows`),
    from ``start_pips`` (White's, Black's) at turn 0 when given; the legend names the players
    (``names``: White's, Black's) and a red cross marks each illegal turn."""
    title = tr("title_race", lang) + (f": {subtitle}" if subtitle else "")
    figure = new_figure(title, (9.0, 4.5))
    axes = figure.add_subplot()
    x = [int(row["turn"]) for row in turns]
    lines = {WHITE: [int(row["pips_white"]) for row in turns], BLACK: [int(row["pips_black"]) for row in turns]}
    if start_pips:
        x = [0] + x
        lines = {WHITE: [start_pips[0]] + lines[WHITE], BLACK: [start_pips[1]] + lines[BLACK]}
    for index, (side, key) in enumerate(SIDE_KEYS.items()):
        label = f"{names[index]} ({tr(key, lang)})" if names else tr(key, lang)
        axes.plot(x, lines[side], label=label, color=SIDE_COLOURS[side], linewidth=2, drawstyle="steps-post")
    illegal = [row for row in turns if not row["legal"]]
    if illegal:
        pips = [row["pips_white"] if row["side"] in (WHITE, "white") else row["pips_black"] for row in illegal]
        axes.plot([int(row["turn"]) for row in illegal], pips, linestyle="none", marker="X", markersize=10,
                  color="#d62728", label=tr("illegal_turn", lang))
    axes.set_xlabel(tr("turn", lang))
    axes.set_ylabel(tr("pips", lang))
    axes.set_ylim(bottom=0)
    axes.grid(alpha=0.3)
    axes.legend()
    return figure
