"""The tables the commands print, in each format they offer: text, Markdown, CSV or JSON.

pandas is imported only for what needs it, so that a command's module can import these early.
"""
from __future__ import annotations

import csv
import io
import json
import shutil
from typing import TYPE_CHECKING, Any

from nardy_cli.analysis.ratings import RATING_COLUMNS
from nardy_cli.reporting.labels import tr

if TYPE_CHECKING:
    import pandas as pd


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


def format_ratings(rows: list[dict[str, Any]], output_format: str, lang: str) -> str:
    """The ratings table as text, Markdown, CSV or JSON (full precision)."""
    if output_format in ("json", "csv"):
        return format_rows(rows, RATING_COLUMNS, output_format)
    import pandas as pd

    from nardy_cli.reporting.stats import markdown_table

    table = pd.DataFrame([{tr(column, lang): f"{row[column]:.1f}" if isinstance(row[column], float) else row[column]
                           for column in RATING_COLUMNS} for row in rows])
    if table.empty:
        return tr("no_data", lang)
    return markdown_table(table) if output_format == "md" else table.to_string(index=False)


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
    import pandas as pd

    if not rows:
        return "no matches analysed"
    return pd.DataFrame(rows, columns=list(columns)).astype(object).fillna("").to_string(index=False)
