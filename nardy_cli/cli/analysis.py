"""The analysis commands of ``nardy``: ``stats``, ``plot`` and ``show``, attached to the main group.

pandas and matplotlib take a second and 100 MB to import, so the modules that use
them are imported inside the commands, after the games are read: every other
``nardy`` command starts as fast as before, and worker processes, which only
replay and count, are forked from a small parent.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING

import click

from nardy_cli.analysis import bearoff
from nardy_cli.analysis.aggregates import GROUPINGS, Aggregates, game_stats, turn_rows
from nardy_cli.cli.main import (
    EXIT_INPUT,
    cli,
    format_option,
    input_options,
    overrides_applied,
    parallel_options,
    parse_dice,
    parse_position,
    quiet_option,
    rule_option,
    usage_errors,
)
from nardy_cli.core.rules import check_overrides
from nardy_cli.core.sides import BLACK, SIDE_NAMES, WHITE
from nardy_cli.replay import GameReplay, replay
from nardy_cli.reporting.labels import LANGS, tr
from nardy_cli.run import progress
from nardy_cli.run.corpus import CorpusGame, iter_games
from nardy_cli.run.parallel import CHUNK_GAMES, map_games, replayed

if TYPE_CHECKING:
    import pandas as pd

    from nardy_cli.reporting.tables import TableSink


# Games a work unit when turn rows are written: a unit's rows (about 100 a game) wait in memory
# until the parent writes them, up to two units a worker.
TABLE_CHUNK_GAMES = 100


def lang_option(function: Callable) -> Callable:
    return click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
                        help="Language of labels and titles (en, ru).")(function)


def corpus_options(function: Callable) -> Callable:
    """The inputs, rule overrides, ``--quiet``, ``--jobs`` and ``--dask`` of a command over a whole corpus."""
    return input_options(rule_option(quiet_option(parallel_options(function))))


def legal_only_option(function: Callable) -> Callable:
    """``--legal-only`` of a command that sums the statistics of a corpus."""
    return click.option("--legal-only", is_flag=True,
                        help="Leave out the games with a finding (by default they count, and how many "
                             "there are is said on standard error).")(function)


def picture_options(default: str) -> Callable[[Callable], Callable]:
    """``-o FILE`` (``default`` when not given), ``--force`` and ``--lang`` of a command that draws."""
    def decorator(function: Callable) -> Callable:
        function = click.option("-o", "--output", metavar="FILE", default=default, show_default=True,
                                help="Picture to write: .png or .svg.")(function)
        function = click.option("--force", is_flag=True, help="Replace an existing file.")(function)
        return lang_option(function)
    return decorator


def read_statistics(paths: tuple[str, ...], input_format: str | None, encoding: str | None,
                    pattern: str | None, rules: tuple[str, ...], quiet: bool, jobs: int = 1, dask: str | None = None,
                    sinks: Sequence[TableSink] = (), with_turns: bool | None = None, legal_only: bool = False
                    ) -> tuple[Aggregates, int]:
    """Replay every game (in ``jobs`` processes or on Dask), sum its statistics and hand its rows,
    in corpus order, to every one of ``sinks`` (with turn rows unless ``with_turns`` is False;
    ``legal_only``: only the games without a finding); also the number of unreadable inputs (each
    reported on stderr, as is how many games have a finding)."""
    check_overrides(rules)
    unreadable: list[str] = []

    def input_error(message: str) -> None:
        unreadable.append(message)
        click.echo(f"error: {message}", err=True)

    bearoff.table()  # computed or read once, before the worker processes start
    build = partial(game_stats, with_turns=bool(sinks) if with_turns is None else with_turns)
    per_game = map_games(paths, partial(replayed, build=build, overrides=rules), jobs=jobs or None, dask=dask,
                         chunk_games=TABLE_CHUNK_GAMES if sinks else CHUNK_GAMES, fmt=input_format,
                         encoding=encoding, pattern=pattern, on_error=input_error)
    aggregates = Aggregates()
    games = illegal = 0
    with progress.reading(paths, pattern, "Replaying games", show=progress.wanted(quiet)) as bar:
        for stats in per_game:
            bar.game()
            games += 1
            illegal += bool(stats.findings)
            if legal_only and stats.findings:
                ended = aggregates.skip(stats)
                for sink in sinks:
                    sink(None, (), ended)
                continue
            found, ended = aggregates.add(stats)
            for sink in sinks:
                sink(stats, found, ended)
    ended = aggregates.close()
    for sink in sinks:
        sink(None, (), ended)
    if illegal:
        how = "left out (--legal-only)" if legal_only else "counted (--legal-only leaves them out)"
        click.echo(f"{illegal} of {games} games have a finding: {how}", err=True)
    if not aggregates.games:
        raise click.UsageError("no games found in the inputs")
    if not overrides_applied(rules, aggregates.rule_sets):
        sys.exit(EXIT_INPUT)
    return aggregates, len(unreadable)


def exit_status(unreadable: int) -> None:
    """End with status 2 when some input could not be read, as ``nardy validate`` does."""
    if unreadable:
        sys.exit(EXIT_INPUT)


def locate(path: str, line: int, column: int) -> tuple[int, int]:
    """The game of ``path`` (1-based) that holds ``line`` and the roll of that place: the last roll at
    or before it (0 for a place before the first roll)."""
    errors: list[str] = []
    found = None
    for number, game in enumerate(iter_games([path], on_error=errors.append), 1):
        if game.record.line > line:
            break
        found = number, game.record
    if errors:
        raise click.UsageError(errors[0])
    if found is None:
        raise click.UsageError(f"{path} has no game at line {line}")
    number, record = found
    rolls = [action for action in record.actions if action.kind == "roll"]
    return number, sum(1 for action in rolls if (action.line, action.column) <= (line, column))


def roll_of_move(result: GameReplay, text: str) -> int:
    """The roll index (1-based) of move ``5``/``5w`` (White) or ``5b``/``5...`` (Black) of a game."""
    match = re.fullmatch(r"\s*(\d+)\s*(w|b|white|black|\.\.\.)?\s*", text.lower())
    if not match:
        raise click.UsageError(f"--move {text}: expected a move number and side, like 5, 5w, 5b or 5...")
    number, side = int(match.group(1)), BLACK if (match.group(2) or "w")[0] in "b." else WHITE
    rolls = [action for action in result.record.actions if action.kind == "roll"]
    for index, action in enumerate(rolls, 1):
        if action.number == number and action.side == side:
            return index
    raise click.UsageError(f"--move {text}: the game has no roll of {SIDE_NAMES[side]} at move {number}")


def load_game(path: str, number: int, rules: tuple[str, ...]) -> tuple[CorpusGame, GameReplay]:
    """Game ``number`` (1-based, in reading order) of ``path``, replayed."""
    check_overrides(rules)
    errors: list[str] = []
    game = next(islice(iter_games([path], on_error=errors.append), number - 1, None), None)
    if errors:
        raise click.UsageError(errors[0])
    if game is None:
        raise click.UsageError(f"{path} has fewer than {number} games")
    if game.source != path:  # a directory or an archive: say which file the game is in
        click.echo(f"game {number} of {path}: game {game.index} of {game.source}", err=True)
    return game, replay(game.record, rules)


# --- stats -------------------------------------------------------------------------------


def format_statistics(summary: pd.DataFrame, fairness: pd.DataFrame, output_format: str, lang: str,
                      luck: pd.DataFrame | None = None, quality: pd.DataFrame | None = None) -> str:
    """The summary, dice-fairness and luck tables, and the error rates and luck of analysed games
    (``quality``, when there are any), as text, Markdown, CSV (the summary) or JSON."""
    from nardy_cli.reporting.stats import (
        fairness_display,
        luck_display,
        markdown_table,
        quality_display,
        summary_display,
    )

    if quality is not None and quality.empty:
        quality = None
    if output_format == "csv":
        return summary.to_csv().rstrip("\n")
    if output_format == "json":
        data = {"by": summary.index.name, "summary": json.loads(summary.reset_index().to_json(orient="records")),
                "dice": json.loads(fairness.reset_index().to_json(orient="records"))}
        if luck is not None:
            data["luck"] = json.loads(luck.reset_index().to_json(orient="records"))
        if quality is not None:
            data["analysis"] = json.loads(quality.reset_index().to_json(orient="records"))
        return json.dumps(data, ensure_ascii=False, indent=2)
    tables = [summary_display(summary, lang), fairness_display(fairness, lang)]
    headings = [tr(f"title_{'players' if summary.index.name == 'player' else 'summary'}", lang), tr("title_dice", lang)]
    if luck is not None:
        tables.append(luck_display(luck, lang))
        headings.append(tr("title_luck", lang))
    if quality is not None:
        tables.append(quality_display(quality, lang))
        headings.append(tr("title_quality", lang))
    if output_format == "md":
        return "\n\n".join(f"## {heading}\n\n{markdown_table(table)}" for heading, table in zip(headings, tables))
    width = shutil.get_terminal_size((100, 24)).columns  # wider tables wrap into blocks of columns
    return "\n\n".join(table.to_string(index=False, line_width=width) for table in tables)


def format_standings(standings: pd.DataFrame, output_format: str, lang: str) -> str:
    """The standings table as text, Markdown, CSV or JSON."""
    from nardy_cli.reporting.stats import markdown_table, standings_display

    if output_format == "csv":
        return standings.to_csv().rstrip("\n")
    if output_format == "json":
        return json.dumps(json.loads(standings.reset_index().to_json(orient="records")), ensure_ascii=False, indent=2)
    table = standings_display(standings, lang)
    if output_format == "md":
        return f"## {tr('title_standings', lang)}\n\n{markdown_table(table)}"
    return table.to_string(index=False) if len(table) else tr("no_data", lang)


@cli.command(name="stats", short_help="Statistics: wins, mars/koks rates, lengths, dice fairness.")
@corpus_options
@legal_only_option
@click.option("--by", type=click.Choice(GROUPINGS), default="player", show_default=True,
              help="One row per player (as White or Black), event, variant, file or match.")
@format_option("table", "csv", "json", "md")
@click.option("--out", "out_dir", metavar="DIR",
              help="Also write the full report into DIR: CSV tables, PNG/SVG charts, report.html.")
@click.option("--force", is_flag=True, help="Replace a report already in DIR.")
@click.option("--parquet", "parquet_dir", metavar="DIR",
              help="Also write the per-game and per-turn tables as Parquet files into DIR (needs pyarrow).")
@click.option("--standings", is_flag=True,
              help="Print the standings of each event instead: matches, games and points won and lost, Buchholz.")
@click.option("--min-rolls", type=click.IntRange(min=0), default=0, show_default=True,
              help="In the dice table, only players with at least this many rolls (none is flagged "
                   "under 180 rolls either way).")
@click.option("--top", type=click.IntRange(min=1), help="In the dice table, only the N players with the most rolls.")
@lang_option
@usage_errors
def stats_command(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
                  rules: tuple[str, ...], legal_only: bool, quiet: bool, by: str, output_format: str,
                  out_dir: str | None, force: bool, parquet_dir: str | None, standings: bool, min_rolls: int,
                  top: int | None, lang: str, jobs: int, dask: str | None) -> None:
    """Statistics of every game of every PATH: wins, oin / mars / home mars / koks rates with
    95 % intervals, game length, first-mover advantage, pips lost, dice fairness and luck
    (pips rolled, doubles, pips lost per roll, exact bear-off luck).

    CSV and JSON keep machine-readable column names; the table and Markdown
    formats are labelled in --lang.
    """
    from nardy_cli.reporting.tables import report_folder, table_files

    with ExitStack() as tables:  # the row tables are written atomically once every game is read
        sinks = []
        if out_dir:
            folder = report_folder(out_dir, force=force)
            sinks.append(tables.enter_context(table_files(str(folder), "csv", force=True)))
        if parquet_dir:
            sinks.append(tables.enter_context(table_files(parquet_dir, "parquet", force=force)))
        aggregates, unreadable = read_statistics(paths, input_format, encoding, pattern, rules, quiet, jobs, dask,
                                                 sinks, legal_only=legal_only)
    if parquet_dir:
        click.echo(f"tables written to {parquet_dir}: games, turns, findings and matches .parquet", err=True)
    if out_dir:
        from nardy_cli.reporting.report import write_report

        click.echo(f"report written to {write_report(out_dir, aggregates, lang, force=True)}", err=True)
    from nardy_cli.reporting.stats import (
        dice_counts,
        dice_fairness,
        luck_table,
        quality_summary,
        shortened,
        standings_table,
        summarize,
    )

    if standings:
        click.echo(format_standings(standings_table(aggregates), output_format, lang))
        return exit_status(unreadable)
    fairness = shortened(dice_fairness(dice_counts(aggregates, total=True)), min_rolls, top)
    click.echo(format_statistics(summarize(aggregates, by), fairness, output_format, lang, luck_table(aggregates),
                                 quality_summary(aggregates)))
    exit_status(unreadable)


# --- plot --------------------------------------------------------------------------------


@cli.group(short_help="Charts: a game's pip race; a corpus's outcomes, lengths and dice.")
def plot() -> None:
    """Charts as PNG or SVG files: a game's pip race, or a corpus's outcomes, lengths and dice."""


@plot.command()
@click.argument("path", metavar="FILE")
@click.option("--game", "number", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of FILE (1 = the first).")
@rule_option
@picture_options("race.png")
@usage_errors
def race(path: str, number: int, rules: tuple[str, ...], output: str, force: bool, lang: str) -> None:
    """Both sides' pip counts after every turn of one game of FILE."""
    from nardy_cli.reporting.charts import race_chart
    from nardy_cli.reporting.figures import save_figure
    from nardy_cli.reporting.stats import turns_table

    game, result = load_game(path, number, rules)
    turns = turns_table(turn_rows(game, result))
    start = (result.start.pips(WHITE), result.start.pips(BLACK)) if result.start else None
    subtitle = f"{game.record.title()}, {tr('game', lang)} {number}"
    names = (game.record.player(WHITE), game.record.player(BLACK))
    save_figure(race_chart(turns, start, subtitle, lang, names), output, force=force)


def corpus_plot(name: str, chart_name: str, help_text: str) -> None:
    """Add ``nardy plot NAME PATH...``: the chart ``charts.<chart_name>`` of a corpus's aggregates."""
    @plot.command(name=name, help=help_text, short_help=help_text.split(" (")[0].rstrip(".") + ".")
    @corpus_options
    @legal_only_option
    @picture_options(f"{name}.png")
    @usage_errors
    def command(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
                rules: tuple[str, ...], legal_only: bool, quiet: bool, jobs: int, dask: str | None, output: str,
                force: bool, lang: str) -> None:
        from nardy_cli.reporting import charts
        from nardy_cli.reporting.figures import save_figure

        aggregates, unreadable = read_statistics(paths, input_format, encoding, pattern, rules, quiet, jobs, dask,
                                                 legal_only=legal_only)
        save_figure(getattr(charts, chart_name)(aggregates, lang), output, force=force)
        exit_status(unreadable)


corpus_plot("outcomes", "outcomes_chart", "Each player's wins by oin, mars, home mars and koks (stacked bars).")
corpus_plot("lengths", "lengths_chart", "A histogram of game lengths in turns, per variant.")
corpus_plot("first-mover", "first_mover_chart", "The first mover's win rate per variant, with 95 % intervals.")


@plot.command(short_help="A 6×6 heatmap of the rolls against fair dice.")
@corpus_options
@legal_only_option
@picture_options("dice.png")
@click.option("--player", help="Only this player's rolls (default: everyone's).")
@usage_errors
def dice(paths: tuple[str, ...], input_format: str | None, encoding: str | None, pattern: str | None,
         rules: tuple[str, ...], legal_only: bool, quiet: bool, jobs: int, dask: str | None, output: str, force: bool,
         lang: str, player: str | None) -> None:
    """A 6×6 heatmap of the rolls against fair dice, with the chi-square p-value in the title."""
    from nardy_cli.reporting.charts import dice_chart
    from nardy_cli.reporting.figures import save_figure

    aggregates, unreadable = read_statistics(paths, input_format, encoding, pattern, rules, quiet, jobs, dask,
                                             legal_only=legal_only)
    try:
        figure = dice_chart(aggregates, player, lang)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    save_figure(figure, output, force=force)
    exit_status(unreadable)


# --- show --------------------------------------------------------------------------------


@cli.command(short_help="A board at any turn of a game, or of a given position.")
@click.argument("path", metavar="[FILE | FILE:LINE]", required=False)
@click.option("--game", "number", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of FILE (1 = the first).")
@click.option("--turn", type=click.IntRange(min=0),
              help="The board after roll K of the game (0 = the start; default: the last roll).")
@click.option("--move", "move_text", metavar="N[w|b]",
              help="The board after move N of White (5, 5w) or of Black (5b, 5...), as validate numbers moves.")
@click.option("--before", is_flag=True, help="The board before the roll instead of after it.")
@click.option("--position", "position_text", metavar="POSITION",
              help="Show this position instead of a game's: position notation, or long / short for the start.")
@click.option("--dice", "dice_text", metavar="DICE", help="Dice to show with --position, e.g. 63.")
@rule_option
@click.option("-o", "--output", metavar="FILE",
              help="Draw the board into FILE (.png or .svg) instead of printing it.")
@click.option("--force", is_flag=True, help="Replace an existing file.")
@lang_option
@usage_errors
def show(path: str | None, number: int, turn: int | None, move_text: str | None, before: bool,
         position_text: str | None, dice_text: str | None, rules: tuple[str, ...], output: str | None, force: bool,
         lang: str) -> None:
    """A board: a game's position at a roll, or a given --position.

    FILE:LINE (or FILE:LINE:COLUMN, as validate prints a finding's place) shows
    the game and the roll of that place. Without -o the board is printed as text. When the roll is illegal, its
    finding is shown (in red in a picture) and the offending step is marked.
    """
    from nardy_cli.reporting.board import BoardView, text_diagram, turn_view

    if (path is None) == (position_text is None):
        raise click.UsageError("give either a FILE or --position")
    if dice_text and position_text is None:
        raise click.UsageError("--dice goes with --position; a game's roll shows its own dice")
    if position_text is not None:
        view = BoardView(parse_position(position_text), parse_dice(dice_text) if dice_text else None)
    else:
        assert path is not None  # either a FILE or --position, checked above
        place = re.fullmatch(r"(.+?):(\d+)(?::(\d+))?", path) if not os.path.exists(path) else None
        if place:  # FILE:LINE[:COLUMN], as validate prints a finding's place
            path = place.group(1)
            number, turn = locate(path, int(place.group(2)), int(place.group(3) or 10**9))
        _, result = load_game(path, number, rules)
        if move_text:
            if turn is not None:
                raise click.UsageError("give --turn or --move, not both")
            turn = roll_of_move(result, move_text)
        try:
            view = turn_view(result, turn, before=before)
        except ValueError as error:
            raise click.UsageError(str(error)) from None
    if output:
        from nardy_cli.reporting.board_picture import board_figure
        from nardy_cli.reporting.figures import save_figure

        save_figure(board_figure(view, lang), output, force=force)
    else:
        click.echo(text_diagram(view, lang))
