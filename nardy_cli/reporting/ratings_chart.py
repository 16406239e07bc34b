"""The chart of ratings over time (matplotlib): each busy player's rating after each rated result."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from matplotlib.figure import Figure

from nardy_cli.analysis.ratings import START
from nardy_cli.reporting.figures import new_figure
from nardy_cli.reporting.labels import tr


def ratings_chart(history: Iterable[dict[str, Any]], lang: str = "en", limit: int = 8) -> Figure:
    """FIBS ratings (Elo when no match was rated) of the ``limit`` players with the most results,
    after each result, against the results in date order; the start rating as a dashed line.
    ``history`` is read three times over (a list, or rows kept in a file), its rows not all kept."""
    system = "fibs" if any(row["system"] == "fibs" for row in history) else "elo"
    counts = Counter(row["player"] for row in history if row["system"] == system)
    figure = new_figure(tr(f"title_ratings_{system}", lang))
    axes = figure.add_subplot()
    if not counts:
        axes.text(0.5, 0.5, tr("no_data", lang), ha="center", va="center", transform=axes.transAxes)
        axes.set_axis_off()
        return figure
    busiest: dict[str, list[tuple[int, float]]] = {name: [] for name, _ in counts.most_common(limit)}
    for row in history:
        if row["system"] == system and row["player"] in busiest:
            busiest[row["player"]].append((row["order"], row["rating"]))
    for name, points in busiest.items():
        axes.plot([order for order, _ in points], [rating for _, rating in points], marker=".", label=str(name))
    axes.axhline(START, color="#999999", linestyle="--", linewidth=0.8)
    axes.set_xlabel(tr("results_in_date_order", lang))
    axes.set_ylabel(tr("rating", lang))
    axes.legend(fontsize="small")
    return figure
