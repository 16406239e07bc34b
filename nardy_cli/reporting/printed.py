"""The tables the commands print, in each format they offer: text, Markdown, CSV or JSON.

Printed as pandas would print them, byte for byte, but without importing it (see
:mod:`nardy_cli.reporting.plain`): a command that only prints a table starts in a fraction of the time.
"""
from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any

from nardy_cli.analysis.ratings import RATING_COLUMNS
from nardy_cli.files.spool import JsonValues, json_chunks
from nardy_cli.reporting.labels import tr
from nardy_cli.reporting.plain import (
    Table,
    csv_table_pieces,
    indexed_parts,
    markdown_table,
    record_table,
    text_table,
    text_table_pieces,
)


def format_statistics(summary: Iterable[Table], fairness: Iterable[Table], output_format: str, lang: str,
                      luck: Iterable[Table] | None = None, quality: Iterable[Table] | None = None) -> Iterator[str]:
    """The summary, dice-fairness and luck tables, and the error rates and luck of analysed games
    (``quality``, when there are any), as text, Markdown, CSV (the summary) or JSON (see
    :mod:`nardy_cli.reporting.stats` for the tables), in pieces to print one after another. Each
    table comes in parts (see :func:`~nardy_cli.reporting.stats.summary_parts`: a row a player, a
    file or a match may make many), each printed as it comes but in the text tables, which are
    aligned over all their rows."""
    from nardy_cli.reporting.stats import fairness_cells, luck_cells, quality_cells, summary_cells

    parts = iter(summary)
    first = next(parts)
    summary = chain([first], parts)
    if output_format == "csv":
        yield from csv_table_pieces(summary)
        return
    tables = {"summary": (summary, summary_cells, f"title_{'players' if first.index_name == 'player' else 'summary'}"),
              "dice": (fairness, fairness_cells, "title_dice")}
    if luck is not None:
        tables["luck"] = (luck, luck_cells, "title_luck")
    if quality is not None:
        tables["analysis"] = (quality, quality_cells, "title_quality")
    if output_format == "json":
        data: dict[str, Any] = {"by": first.index_name}
        for key, (table, _, _) in tables.items():
            data[key] = _records(table)
        yield from json_chunks(data)
        return
    width = shutil.get_terminal_size((100, 24)).columns  # wider tables wrap into blocks of columns
    for number, (table, cells, heading) in enumerate(tables.values()):
        yield "\n\n" if number else ""
        yield from _shown(table, cells, heading, output_format, lang, width)


def format_standings(standings: Iterable[Table], output_format: str, lang: str) -> Iterator[str]:
    """The standings table, given in parts, as text, Markdown, CSV or JSON, in pieces to print one
    after another."""
    from nardy_cli.reporting.stats import standings_cells

    if output_format == "csv":
        yield from csv_table_pieces(standings)
        return
    if output_format == "json":
        yield from json_chunks(_records(standings))
        return
    yield from _shown(standings, standings_cells, "title_standings", output_format, lang, no_rows=tr("no_data", lang))


def _records(parts: Iterable[Table]) -> JsonValues:
    """The rows of every part, as JSON gives them, made as they are written."""
    return JsonValues(record for part in parts for record in part.records())


def _shown(parts: Iterable[Table], cells: Callable[[Table, str], list[dict[str, Any]]], heading: str | None,
           output_format: str, lang: str, line_width: int | None = None, no_rows: str | None = None) -> Iterator[str]:
    """A table given in parts as its ``cells`` in ``lang`` show it, in pieces: Markdown (under its
    heading, if any), or text; ``no_rows`` instead, when given and the table has none."""
    shown = (record_table(cells(part, lang)) for part in parts)
    columns, rows = next(shown)
    if not rows and no_rows is not None:
        yield no_rows
    elif output_format == "md":
        yield (f"## {tr(heading, lang)}\n\n" if heading else "") + markdown_table(columns, rows)
        for _, rows in shown:
            yield "\n" + markdown_table(columns, rows, header=False)
    else:
        yield from text_table_pieces(columns, chain([rows], (rows for _, rows in shown)), line_width=line_width)


def format_ratings(rows: Iterable[dict[str, Any]], output_format: str, lang: str) -> Iterator[str]:
    """The ratings table (rows of :data:`RATING_COLUMNS`) as text, Markdown, CSV or JSON (full
    precision), in pieces to print one after another, made a part of the rows at a time."""
    from nardy_cli.reporting.stats import PART_ROWS

    if output_format == "json":
        yield from json_chunks(JsonValues(rows))
        return
    parts = indexed_parts(rows, RATING_COLUMNS, PART_ROWS)
    if output_format == "csv":
        yield from csv_table_pieces(parts)
        return
    yield from _shown(parts, _rating_cells, None, output_format, lang, no_rows=tr("no_data", lang))


def _rating_cells(ratings: Table, lang: str) -> list[dict[str, Any]]:
    """The rows of a part of the ratings as shown: headers in ``lang``, ratings to one decimal."""
    return [{tr(column, lang): f"{value:.1f}" if isinstance(value, float) else value for column, value in row.items()}
            for row in ratings.rows()]


def format_rows(rows: list[dict[str, Any]], columns: tuple[str, ...], output_format: str) -> str:
    """Rows as CSV, JSON or an aligned text table (missing values empty)."""
    if output_format == "json":
        return json.dumps(rows, ensure_ascii=False, indent=2)
    if output_format == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    if not rows:
        return "no matches analysed"
    # a gap as "", not as pandas leaves it: a column of whole numbers with a gap printed 1.0
    return text_table(columns, [["" if row.get(column) is None else row[column] for column in columns]
                                for row in rows], objects=True)
