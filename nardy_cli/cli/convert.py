"""``nardy convert``: records into another notation."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import partial
from typing import Any

import click

from nardy_cli.analysis import exports
from nardy_cli.cli.options import (
    Corpus,
    allow_empty_option,
    input_options,
    output_options,
    parallel_options,
    pass_corpus,
    quiet_option,
    usage_errors,
)
from nardy_cli.cli.task import CorpusTask
from nardy_cli.files.output import atomic_output
from nardy_cli.files.spool import spools
from nardy_cli.notations import Refused
from nardy_cli.run import progress


def output_notation(output_format: str | None, output: str | None) -> str:
    """The notation ``convert`` writes: ``--to``, else the one ``-o``'s extension names; a warning
    when both are given and disagree."""
    implied = exports.by_extension(output) if output else None
    if output_format is None:
        if implied is None:
            raise click.UsageError("--to is needed: name the notation to write (" + ", ".join(exports.TARGETS) +
                                   ")" + (f", as {output}'s extension does not" if output else ""))
        return implied
    if implied is not None and implied != output_format:
        click.echo(f"warning: writing {output_format} (--to) to {output}, whose extension says {implied}", err=True)
    return output_format


@click.command(short_help="Convert records into another notation.")
@input_options
@click.option("--to", "output_format", type=click.Choice(exports.TARGETS, case_sensitive=False),
              help="The notation to write (default: the one -o's extension names: .ntn, .mat, .sgf, .json, "
                   ".jsonl, .csv).")
@output_options
@allow_empty_option
@quiet_option
@parallel_options
@usage_errors
@pass_corpus
def convert(corpus: Corpus, output_format: str | None, output: str | None, force: bool) -> None:
    """Convert the games of every PATH into one output in another notation.

    Every game is carried over whole where the target can express it; what it
    cannot (comments in CSV, a set-up position in MAT...) is named in a warning.
    A game that could not be read whole (a turn left out, a missing ':' read
    over) is converted as far as it was read, with a warning naming the place.
    With --jobs or --dask the games are read and formatted (for CSV also
    replayed) in worker processes; the output is byte for byte that of --jobs 1.

    Exit status: 0 when every game was converted whole, 1 when a game could
    not be read whole or the target cannot hold it at all (crazy nardy in MAT
    or SGF: the game is left out), 2 when an input cannot be read or the
    command is misused.
    """
    output_format = output_notation(output_format and output_format.lower(), output)
    target = exports.target(output_format)
    task = CorpusTask(corpus)
    repaired = left_out = 0

    def prepared_games(bar: progress.Reading) -> Iterator[Any]:
        nonlocal repaired, left_out
        for source, warnings, game in task.map(partial(exports.prepared_for_writing, prepare=target.prepare)):
            repaired += len(warnings)
            left_out += isinstance(game, Refused)
            with bar.printing():
                for warning in warnings:
                    if task.budget.admit(source):
                        click.echo(f"warning: {warning}", err=True)
            bar.game()
            yield game
        for message in task.budget.messages():
            click.echo(f"warning: {message}", err=True)

    show = progress.wanted(corpus.quiet) and bool(output or not sys.stdout.isatty())
    with spools() as spool:  # the warnings, given after the output: spooled meanwhile, not kept in memory
        with task.reading("Converting", show=show) as bar, \
                atomic_output(output, force=force, inputs=corpus.paths) as out:
            warnings = target.write_prepared(prepared_games(bar), out, spool)
        for warning in warnings:
            click.echo(f"warning: {warning}", err=True)
    task.exit(findings=bool(repaired or left_out))
