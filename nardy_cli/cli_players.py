"""The player commands of ``nardy``: ``rate`` (ratings over a corpus) and ``find`` (games that
reached a position), attached to the main group. pandas and matplotlib are imported inside the
commands, as in :mod:`nardy_cli.cli_analysis`."""
from __future__ import annotations

import csv
import io
import json
import sys
from functools import partial
from typing import Any

import click

from .aggregates import GameStats
from .cli import cli, format_option, parse_position, usage_errors
from .cli_analysis import corpus_options, exit_status, lang_option, read_statistics
from .labels import tr
from .output import atomic_output
from .parallel import map_games, replayed
from .positions import FOUND_COLUMNS, found_turns, position_key
from .ratings import ELO_K, HISTORY_COLUMNS, RATING_COLUMNS, Ratings, Result, game_result, match_result
from .rules import check_overrides


@cli.command()
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
def rate(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
         rules: tuple[str, ...], quiet: bool, jobs: int, dask: str | None, output_format: str, elo_k: float,
         history_path: str | None, chart_path: str | None, top: int, force: bool, lang: str) -> None:
    """Ratings of the players of every PATH, in date order: the FIBS formula over complete
    matches (length-weighted, with the experience factor of new players) and Elo over single
    (money) games, each player from 1500.

    Matches are grouped and certified as nardy validate does; unfinished matches are not rated.
    Records without a Date tag are rated after the dated ones, in corpus order.
    """
    results: list[Result] = []

    def collect(stats: GameStats | None, found: tuple[dict[str, Any], ...], ended: list[dict[str, Any]] | None) -> None:
        results.extend(result for result in map(match_result, ended or []) if result is not None)
        if stats is not None and (stats.match is None or stats.match.length <= 0):
            single = game_result(stats.game)
            if single is not None:
                results.append(single)

    _, unreadable = read_statistics(paths, input_format, encoding, pattern, rules, quiet, jobs, dask, [collect],
                                    with_turns=False)
    ratings = Ratings(elo_k=elo_k).rate(results)
    if history_path:
        with atomic_output(history_path, force=force, inputs=paths, newline="") as handle:
            writer = csv.DictWriter(handle, HISTORY_COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(ratings.history)
    if chart_path:
        from .charts import save_figure
        from .ratings_chart import ratings_chart

        save_figure(ratings_chart(ratings.history, lang, top), chart_path, force=force)
    click.echo(format_ratings(ratings.rows(), output_format, lang))
    exit_status(unreadable)


def format_ratings(rows: list[dict[str, Any]], output_format: str, lang: str) -> str:
    """The ratings table as text, Markdown, CSV or JSON (full precision)."""
    if output_format == "json":
        return json.dumps(rows, ensure_ascii=False, indent=2)
    if output_format == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, RATING_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    import pandas as pd

    from .stats import markdown_table

    table = pd.DataFrame([{tr(column, lang): f"{row[column]:.1f}" if isinstance(row[column], float) else row[column]
                           for column in RATING_COLUMNS} for row in rows])
    if table.empty:
        return tr("no_data", lang)
    return markdown_table(table) if output_format == "md" else table.to_string(index=False)


@cli.command()
@corpus_options
@click.option("--position", "position_text", metavar="POSITION", required=True,
              help="The position to look for: position notation, long / short for the start, or (short nardy) "
                   "a GNU Backgammon Position ID or an XGID.")
@format_option("table", "csv", "json")
@usage_errors
def find(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
         rules: tuple[str, ...], quiet: bool, jobs: int, dask: str | None, position_text: str,
         output_format: str) -> None:
    """Every game and turn of every PATH that reached a POSITION before its roll, as the games
    stream past.

    The side to move and its opponent must have the same checkers, whichever colour they play;
    the cube and first-turn marks are not compared. Exit status 1 when no turn reached it.
    """
    check_overrides(rules)
    key = position_key(parse_position(position_text))
    unreadable: list[str] = []

    def input_error(message: str) -> None:
        unreadable.append(message)
        click.echo(f"error: {message}", err=True)

    task = partial(replayed, build=partial(found_turns, key=key), overrides=rules)
    per_game = map_games(paths, task, jobs=jobs or None, dask=dask, fmt=input_format, encoding=encoding,
                         pattern=pattern, on_error=input_error)
    writer = csv.DictWriter(click.get_text_stream("stdout"), FOUND_COLUMNS, lineterminator="\n")
    found = []
    if output_format == "csv":
        writer.writeheader()
    for rows in per_game:
        for row in rows:
            if output_format == "csv":
                writer.writerow(row)
            elif output_format == "table":
                click.echo(f"{row['file']}:{row['game']} turn {row['turn']} ({row['player']}, "
                           f"{row['white']} – {row['black']}): {row['dice']}: {row['play']}")
            found.append(row)
    if output_format == "json":
        click.echo(json.dumps(found, ensure_ascii=False, indent=2))
    elif output_format == "table":
        click.echo(f"{len(found)} turns reached the position", err=True)
    exit_status(len(unreadable))
    sys.exit(0 if found else 1)
