"""``nardy analyse``: error rates and luck of a corpus's short-nardy matches, by GNU Backgammon's
program (run as a program, never imported)."""
from __future__ import annotations

import sys
from typing import Any

import click

from nardy_cli.cli.options import (
    EXIT_INPUT,
    Corpus,
    format_option,
    input_options,
    pass_corpus,
    quiet_help,
    rule_option,
    usage_errors,
)
from nardy_cli.cli.task import CorpusTask
from nardy_cli.reporting.printed import format_rows
from nardy_cli.run import progress


@click.command(short_help="Error rates and luck by GNU Backgammon's analysis (gnubg must be installed).")
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
@quiet_help("No progress (a bar on a terminal, else a line a match).")
@usage_errors
@pass_corpus
def analyse(corpus: Corpus, engine: str, plies: int, timeout: float, output_format: str) -> None:
    """Error rates and luck of every short-nardy match of every PATH, by an engine: per player and
    per game, decisions, error rate ×1000, blunders, cube errors and luck, as gnubg's own
    "show statistics" gives them.

    Matches are grouped as nardy validate groups them and written for the engine in MAT; money
    games, long and crazy nardy, and games of a variant nardy does not know are left out. Exit
    status 2 when the engine is not installed, an input cannot be read or a match could not be
    analysed.
    """
    from nardy_cli.analysis.gnubg import (
        ANALYSIS_COLUMNS,
        INSTALL_HINT,
        GnubgError,
        analysis_rows,
        find_gnubg,
        run_gnubg,
        short_matches,
    )

    program = find_gnubg()
    if program is None:
        click.echo(f"error: {INSTALL_HINT}", err=True)
        sys.exit(EXIT_INPUT)
    task = CorpusTask(corpus)
    rows: list[dict[str, Any]] = []
    number = 0
    bar_shown = progress.wanted(corpus.quiet)  # on a terminal a bar of the inputs read; else a line a match
    with task.reading("Analysing", show=bar_shown) as bar:
        for number, (match, records) in enumerate(short_matches(task.games(), corpus.rules), 1):
            label = f"{match.source}:{match.first_game} ({match.players[0]} – {match.players[1]})"
            if not corpus.quiet and not bar_shown:
                click.echo(f"analysing match {number}: {label}, {len(records)} games", err=True)
            try:
                output = run_gnubg(program, records, len(records), plies=plies, timeout=timeout)
            except GnubgError as failure:
                with bar.printing():
                    task.error(f"{label}: {failure}")
                continue
            for _ in records:
                bar.game()
            rows += analysis_rows(output, match.source, match.first_game)
    if not number and not corpus.quiet:
        click.echo("no match of short nardy in the inputs (money games, long and crazy nardy, and games of a "
                   "variant nardy does not know are left out)", err=True)
    click.echo(format_rows(rows, ANALYSIS_COLUMNS, output_format))
    task.exit()
