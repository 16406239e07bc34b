"""``nardy find``: every game and turn of a corpus that reached a position."""
from __future__ import annotations

import csv
import sys
from functools import partial

import click

from nardy_cli.analysis.positions import FOUND_COLUMNS, found_turns, position_key
from nardy_cli.cli.options import Corpus, corpus_options, format_option, parse_position, pass_corpus, usage_errors
from nardy_cli.cli.task import CorpusTask, echo_pieces
from nardy_cli.files.spool import JsonList, json_chunks


@click.command(short_help="Every game and turn that reached a position.")
@corpus_options
@click.option("--position", "position_text", metavar="POSITION", required=True,
              help="The position to look for: position notation, long / short for the start, or (short nardy) "
                   "a GNU Backgammon Position ID, GNUBG ID or XGID.")
@format_option("table", "csv", "json")
@usage_errors
@pass_corpus
def find(corpus: Corpus, position_text: str, output_format: str) -> None:
    """Every game and turn of every PATH that reached a POSITION before its roll, as the games
    stream past.

    The side to move and its opponent must have the same checkers, whichever colour they play;
    the cube and first-turn marks are not compared. The table ends with a count on stderr
    (not with --quiet). Exit status 1 when no turn reached it.
    """
    task = CorpusTask(corpus)
    key = position_key(parse_position(position_text))
    writer = csv.DictWriter(sys.stdout, FOUND_COLUMNS, lineterminator="\n")
    found = 0
    if output_format == "csv":
        writer.writeheader()
    with JsonList() as listed:  # the JSON list, written at the end: spooled meanwhile, not kept in memory
        for rows in task.replayed(partial(found_turns, key=key)):
            for row in rows:
                if output_format == "csv":
                    writer.writerow(row)
                elif output_format == "table":
                    click.echo(f"{row['file']}:{row['game']} turn {row['turn']} ({row['player']}, "
                               f"{row['white']} – {row['black']}): {row['dice']}: {row['play']}")
                else:
                    listed.append(row)
                found += 1
        if output_format == "json":
            echo_pieces(json_chunks(listed))
    if output_format == "table" and not corpus.quiet:
        click.echo(f"{found} turns reached the position", err=True)
    task.exit(findings=not found)
