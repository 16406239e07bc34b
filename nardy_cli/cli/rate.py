"""``nardy rate``: ratings of the players of a corpus, in date order."""
from __future__ import annotations

import csv
from typing import Any

import click

from nardy_cli.analysis.aggregates import GameStats
from nardy_cli.analysis.ratings import ELO_K, HISTORY_COLUMNS, Ratings, Result, game_result, match_result
from nardy_cli.cli.options import Corpus, corpus_options, format_option, lang_option, pass_corpus, usage_errors
from nardy_cli.cli.task import echo_pieces, read_statistics
from nardy_cli.files.output import atomic_output
from nardy_cli.files.spool import spools
from nardy_cli.reporting.printed import format_ratings


@click.command(short_help="Ratings in date order: FIBS for matches, Elo for single games.")
@corpus_options
@format_option("table", "csv", "json", "md")
@click.option("--elo-k", type=click.FloatRange(min=0, min_open=True), default=ELO_K, show_default=True,
              help="The Elo K factor of single games.")
@click.option("--history", "history_path", metavar="FILE",
              help="Also write every rating change as CSV: order, date, system, player, opponent, won, length, "
                   "rating, change.")
@click.option("--chart", "chart_path", metavar="FILE", help="Also draw the ratings over time (.png or .svg).")
@click.option("--top", type=click.IntRange(min=1), default=8, show_default=True,
              help="Players drawn in the chart (those with the most rated results).")
@click.option("--force", is_flag=True, help="Replace existing --history and --chart files.")
@lang_option
@usage_errors
@pass_corpus
def rate(corpus: Corpus, output_format: str, elo_k: float, history_path: str | None, chart_path: str | None,
         top: int, force: bool, lang: str) -> None:
    """Ratings of the players of every PATH, in date order: the FIBS formula over complete
    matches (length-weighted, with the experience factor of new players) and Elo over single
    (money) games, each player from 1500.

    Matches are grouped and certified as nardy validate does; unfinished matches are not rated.
    Records without a Date tag are rated after the dated ones, in corpus order.
    """
    with spools() as spool:  # the results, and the history asked for, kept in files, not in memory
        results = spool()

        def collect(stats: GameStats | None, found: tuple[dict[str, Any], ...],
                    ended: list[dict[str, Any]] | None) -> None:
            results.extend(tuple(result) for result in map(match_result, ended or []) if result is not None)
            if stats is not None and (stats.match is None or stats.match.length <= 0):
                single = game_result(stats.game)
                if single is not None:
                    results.append(tuple(single))

        _, task = read_statistics(corpus, [collect], with_turns=False, groupings=(), standings=False, dice=False)
        history = spool() if history_path or chart_path else None
        ratings = Ratings(elo_k=elo_k, history=history).rate(Result(*result) for result in results)
        if history_path:
            with atomic_output(history_path, force=force, inputs=corpus.paths, newline="") as handle:
                writer = csv.DictWriter(handle, HISTORY_COLUMNS, lineterminator="\n")
                writer.writeheader()
                writer.writerows(history or ())
        if chart_path:
            from nardy_cli.reporting.figures import save_figure
            from nardy_cli.reporting.ratings_chart import ratings_chart

            save_figure(ratings_chart(history or (), lang, top), chart_path, force=force)
    echo_pieces(format_ratings(ratings.rows(), output_format, lang))
    task.exit()
