"""``nardy stats``: the statistics of a corpus, and its full report.

matplotlib takes half a second and 60 MB to import, so only the full report (``--out``) imports
it, inside the command, after the games are read; the tables, printed or in the report, are plain
Python (pandas is not imported at all).
Worker processes, which only replay and count, are forked from a small parent.
"""
from __future__ import annotations

from contextlib import ExitStack

import click

from nardy_cli.analysis.aggregates import GROUPINGS
from nardy_cli.cli.options import (
    Corpus,
    corpus_options,
    format_option,
    lang_option,
    legal_only_option,
    pass_corpus,
    usage_errors,
)
from nardy_cli.cli.task import echo_pieces, read_statistics
from nardy_cli.files.sources import shown
from nardy_cli.reporting.printed import format_standings, format_statistics


@click.command(name="stats", short_help="Statistics: wins, mars/koks rates, lengths, dice fairness.")
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
@pass_corpus
def stats_command(corpus: Corpus, by: str, output_format: str, out_dir: str | None, force: bool,
                  parquet_dir: str | None, standings: bool, min_rolls: int, top: int | None, lang: str) -> None:
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
        figures = not standings  # the summary, dice and luck tables, else the standings alone (the report: all)
        aggregates, task = read_statistics(corpus, sinks, groupings=None if out_dir else (by,) if figures else (),
                                           standings=standings or bool(out_dir), dice=figures or bool(out_dir))
    if parquet_dir:
        click.echo(f"tables written to {shown(parquet_dir)}: games, turns, findings and matches .parquet", err=True)
    if out_dir:
        from nardy_cli.reporting.report import write_report

        click.echo(f"report written to {shown(str(write_report(out_dir, aggregates, lang, force=True)))}", err=True)
    from nardy_cli.reporting.stats import fairness_parts, luck_parts, quality_parts, standings_parts, summary_parts

    if standings:
        pieces = format_standings(standings_parts(aggregates), output_format, lang)
    else:
        pieces = format_statistics(summary_parts(aggregates, by), fairness_parts(aggregates, min_rolls, top),
                                   output_format, lang, luck_parts(aggregates),
                                   quality_parts(aggregates) if aggregates.quality.players else None)
    echo_pieces(pieces)
    task.exit()
