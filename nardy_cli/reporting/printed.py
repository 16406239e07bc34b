"""The tables the commands print, in each format they offer: text, Markdown, CSV or JSON.

Printed as pandas would print them, byte for byte, but without importing it (see
:mod:`nardy_cli.reporting.plain`): a command that only prints a table starts in a fraction of the time.
"""
from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from nardy_cli.analysis.ratings import RATING_COLUMNS
from nardy_cli.files.spool import JsonList, json_chunks
from nardy_cli.reporting.labels import tr
from nardy_cli.reporting.plain import (
    Table,
    csv_table,
    csv_table_pieces,
    markdown_table,
    text_table,
    text_table_pieces,
)


def _cells(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
    """The columns and rows of a display table (rows of cells by header), as ``pd.DataFrame(rows)`` has them."""
    columns = list(rows[0]) if rows else []
    return columns, [[row.get(column) for column in columns] for row in rows]


def format_statistics(summary: Iterable[Table], fairness: Table, output_format: str, lang: str,
                      luck: Table | None = None, quality: Table | None = None) -> Iterator[str]:
    """The summary, dice-fairness and luck tables, and the error rates and luck of analysed games
    (``quality``, when there are any), as text, Markdown, CSV (the summary) or JSON (see
    :mod:`nardy_cli.reporting.stats` for the tables), in pieces to print one after another. The
    summary comes in parts (see :func:`~nardy_cli.reporting.stats.summary_parts`: a row a file
    or a match may make many), each printed as it comes but in the text table, which is aligned
    over all its rows."""
    from nardy_cli.reporting.stats import fairness_cells, luck_cells, quality_cells, summary_cells

    if quality is not None and not len(quality):
        quality = None
    parts = iter(summary)
    first = next(parts)
    if output_format == "csv":
        yield from csv_table_pieces(chain([first], parts))
        return
    if output_format == "json":
        with JsonList() as records:
            for part in chain([first], parts):
                records.extend(part.records())
            data: dict[str, Any] = {"by": first.index_name, "summary": records, "dice": fairness.records()}
            if luck is not None:
                data["luck"] = luck.records()
            if quality is not None:
                data["analysis"] = quality.records()
            yield from json_chunks(data)
        return
    summary_heading = tr(f"title_{'players' if first.index_name == 'player' else 'summary'}", lang)
    tables, headings = [fairness_cells(fairness, lang)], [tr("title_dice", lang)]
    if luck is not None:
        tables.append(luck_cells(luck, lang))
        headings.append(tr("title_luck", lang))
    if quality is not None:
        tables.append(quality_cells(quality, lang))
        headings.append(tr("title_quality", lang))
    if output_format == "md":
        yield f"## {summary_heading}\n\n{markdown_table(*_cells(summary_cells(first, lang)))}"
        for part in parts:
            yield "\n" + markdown_table(*_cells(summary_cells(part, lang)), header=False)
        for heading, table in zip(headings, tables):
            yield f"\n\n## {heading}\n\n{markdown_table(*_cells(table))}"
        return
    width = shutil.get_terminal_size((100, 24)).columns  # wider tables wrap into blocks of columns
    cells = (_cells(summary_cells(part, lang)) for part in chain([first], parts))
    columns, rows = next(cells)
    yield from text_table_pieces(columns, chain([rows], (rows for _, rows in cells)), line_width=width)
    for table in tables:
        yield "\n\n" + text_table(*_cells(table), line_width=width)


def format_standings(standings: Table, output_format: str, lang: str) -> str:
    """The standings table as text, Markdown, CSV or JSON."""
    from nardy_cli.reporting.stats import standings_cells

    if output_format == "csv":
        return csv_table(standings)
    if output_format == "json":
        return json.dumps(standings.records(), ensure_ascii=False, indent=2)
    table = standings_cells(standings, lang)
    if output_format == "md":
        return f"## {tr('title_standings', lang)}\n\n{markdown_table(*_cells(table))}"
    return text_table(*_cells(table)) if table else tr("no_data", lang)


def format_ratings(rows: list[dict[str, Any]], output_format: str, lang: str) -> str:
    """The ratings table as text, Markdown, CSV or JSON (full precision)."""
    if output_format in ("json", "csv"):
        return format_rows(rows, RATING_COLUMNS, output_format)
    if not rows:
        return tr("no_data", lang)
    table = [{tr(column, lang): f"{row[column]:.1f}" if isinstance(row[column], float) else row[column]
              for column in RATING_COLUMNS} for row in rows]
    return (markdown_table if output_format == "md" else text_table)(*_cells(table))


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
    return text_table(columns, [[row.get(column) for column in columns] for row in rows], objects=True)
