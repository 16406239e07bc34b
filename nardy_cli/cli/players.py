"""The player commands of ``nardy``: ``rate`` (ratings over a corpus), ``find`` (games that
reached a position) and ``analyse`` (error rates by an engine), attached to the main group.
The reporting modules (pandas, matplotlib) are imported inside the commands, as in :mod:`nardy_cli.cli.analysis`."""
from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import click

from nardy_cli.analysis.aggregates import GameStats
from nardy_cli.analysis.positions import FOUND_COLUMNS, found_turns, position_key
from nardy_cli.analysis.ratings import (
    ELO_K,
    HISTORY_COLUMNS,
    RATING_COLUMNS,
    Ratings,
    Result,
    game_result,
    match_result,
)
from nardy_cli.cli.analysis import corpus_options, exit_status, lang_option, read_statistics
from nardy_cli.cli.main import (
    EXIT_INPUT,
    cli,
    format_option,
    input_options,
    parse_position,
    rule_option,
    usage_errors,
)
from nardy_cli.core.rules import check_overrides
from nardy_cli.files.output import atomic_output
from nardy_cli.matches import Match, MatchChecker, match_game
from nardy_cli.record import GameRecord
from nardy_cli.replay import game_rules, replay
from nardy_cli.reporting.labels import tr
from nardy_cli.run import progress
from nardy_cli.run.corpus import iter_games
from nardy_cli.run.parallel import map_games, replayed


@cli.command(short_help="Ratings in date order: FIBS for matches, Elo for single games.")
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
        from nardy_cli.reporting.figures import save_figure
        from nardy_cli.reporting.ratings_chart import ratings_chart

        save_figure(ratings_chart(ratings.history, lang, top), chart_path, force=force)
    click.echo(format_ratings(ratings.rows(), output_format, lang))
    exit_status(unreadable)


def format_ratings(rows: list[dict[str, Any]], output_format: str, lang: str) -> str:
    """The ratings table as text, Markdown, CSV or JSON (full precision)."""
    if output_format in ("json", "csv"):
        return format_rows(rows, RATING_COLUMNS, output_format)
    from nardy_cli.reporting.stats import markdown_table, ratings_display

    table = ratings_display(rows, lang)
    if table.empty:
        return tr("no_data", lang)
    return markdown_table(table) if output_format == "md" else table.to_string(index=False)


@cli.command(short_help="Every game and turn that reached a position.")
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
    the cube and first-turn marks are not compared. The table ends with a count on stderr
    (not with --quiet). Exit status 1 when no turn reached it.
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
    writer = csv.DictWriter(sys.stdout, FOUND_COLUMNS, lineterminator="\n")
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
    elif output_format == "table" and not quiet:
        click.echo(f"{len(found)} turns reached the position", err=True)
    exit_status(len(unreadable))
    sys.exit(0 if found else 1)


@cli.command(short_help="Error rates and luck by GNU Backgammon's analysis (gnubg must be installed).")
@input_options
@rule_option
@click.option("--engine", type=click.Choice(["gnubg"]), required=True,
              help="The engine that analyses: GNU Backgammon's program gnubg (run as a program, never imported).")
@click.option("--plies", type=click.IntRange(0, 4), default=0, show_default=True,
              help="The engine's look-ahead for checker play and cube decisions (0 is fast; 2 is gnubg's "
                   "world-class level, about a hundred times slower).")
@click.option("--timeout", type=click.FloatRange(min=1), default=600, show_default=True,
              help="Seconds the engine may take for one match; a slower match is skipped and reported.")
@format_option("table", "csv", "json")
@click.option("--quiet", "-q", is_flag=True, help="No progress (a bar on a terminal, else a line a match).")
@usage_errors
def analyse(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
            rules: tuple[str, ...], engine: str, plies: int, timeout: float, output_format: str,
            quiet: bool) -> None:
    """Error rates and luck of every short-nardy match of every PATH, by an engine: per player and
    per game, decisions, error rate ×1000, blunders, cube errors and luck, as gnubg's own
    "show statistics" gives them.

    Matches are grouped as nardy validate groups them and written for the engine in MAT;
    money games and long nardy are left out. Exit status 2 when the engine is not installed,
    an input cannot be read or a match could not be analysed.
    """
    from nardy_cli.analysis.gnubg import (
        ANALYSIS_COLUMNS,
        INSTALL_HINT,
        GnubgError,
        analysis_rows,
        find_gnubg,
        run_gnubg,
    )

    program = find_gnubg()
    if program is None:
        click.echo(f"error: {INSTALL_HINT}", err=True)
        sys.exit(EXIT_INPUT)
    check_overrides(rules)
    failures: list[str] = []

    def error(message: str) -> None:
        failures.append(message)
        click.echo(f"error: {message}", err=True)

    rows: list[dict[str, Any]] = []
    bar_shown = progress.wanted(quiet)  # on a terminal a bar of the inputs read; else a line a match
    with progress.reading(paths, pattern, "Analysing", show=bar_shown) as bar:
        matches = short_matches(paths, input_format, encoding, pattern, rules, error)
        for number, (match, records) in enumerate(matches, 1):
            label = f"{match.source}:{match.first_game} ({match.players[0]} – {match.players[1]})"
            if not quiet and not bar_shown:
                click.echo(f"analysing match {number}: {label}, {len(records)} games", err=True)
            try:
                output = run_gnubg(program, records, len(records), plies=plies, timeout=timeout)
            except GnubgError as failure:
                with bar.printing():
                    error(f"{label}: {failure}")
                continue
            for _ in records:
                bar.game()
            rows += analysis_rows(output, match.source, match.first_game)
    click.echo(format_rows(rows, ANALYSIS_COLUMNS, output_format))
    if failures:
        sys.exit(EXIT_INPUT)


def short_matches(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
                  rules: tuple[str, ...], on_error: Callable[[str], None]) -> Iterator[tuple[Match, list[GameRecord]]]:
    """Each short-nardy match of the inputs, as :class:`~nardy_cli.matches.MatchChecker` groups them,
    with its records, as soon as it ends."""
    checker = MatchChecker()
    records: dict[int, list[GameRecord]] = {}

    def ended() -> Iterator[tuple[Match, list[GameRecord]]]:
        for match in checker.ended():
            games = records.pop(id(match), [])
            if games and all(game_rules(record, rules)[0].variant == "short" for record in games):
                yield match, games

    for game in iter_games(paths, fmt=input_format, encoding=encoding, pattern=pattern, on_error=on_error):
        result = replay(game.record, rules)
        checker.add(match_game(game.source, game.index, game.record, result))
        if checker.current is not None:
            records.setdefault(id(checker.current), []).append(game.record)
        yield from ended()
    checker.close()
    yield from ended()


def format_rows(rows: list[dict[str, Any]], columns: tuple[str, ...], output_format: str) -> str:
    """Rows as CSV, JSON or an aligned text table."""
    if output_format == "json":
        return json.dumps(rows, ensure_ascii=False, indent=2)
    if output_format == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    from nardy_cli.reporting.stats import text_table

    if not rows:
        return "no matches analysed"
    return text_table(rows, columns)
