"""A statistics report in a folder: every table as CSV, every chart as PNG and SVG, and
``report.html``, one self-contained page (charts embedded as base64 PNG).

The per-game, per-turn and per-finding tables (``games.csv``, ``turns.csv``, ``findings.csv``)
are written while the games stream past (:func:`nardy_cli.reporting.tables.table_files`); the rest comes
from the :class:`~nardy_cli.reporting.stats.Aggregates` at the end (:func:`write_report`)."""
from __future__ import annotations

import base64
import gc
import html
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from nardy_cli.analysis.aggregates import GROUPINGS, MATCH_COLUMNS, Aggregates
from nardy_cli.files.output import atomic_output
from nardy_cli.reporting.board_picture import finding_boards
from nardy_cli.reporting.charts import dice_chart, first_mover_chart, lengths_chart, outcomes_chart
from nardy_cli.reporting.figures import FORMATS, save_figure
from nardy_cli.reporting.labels import plural, tr
from nardy_cli.reporting.plain import (
    Table,
    csv_table_pieces,
    html_table_pieces,
    in_parts,
    record_table,
)
from nardy_cli.reporting.stats import (
    CASCADE_COLUMNS,
    dice_parts,
    fairness_cells,
    fairness_parts,
    luck_cells,
    luck_parts,
    outcome_rows,
    outcomes_labelled,
    quality_cells,
    quality_parts,
    standings_cells,
    standings_parts,
    summary_cells,
    summary_parts,
)
from nardy_cli.reporting.tables import REPORT_PAGE, report_folder

INPUT_PART_ROWS = 1_000  # files of the inputs' table made at a time
SHOWN_FINDING_COLUMNS = ("path", "line", "game", "move_number", "side", "action", "code", "message", "option")

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
h1, h2 { color: #5c3a1e; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.8em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
th { background: #f3e3c3; vertical-align: bottom; white-space: normal; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; margin: 0.5em 0; }
.finding td, .finding th, .inputs td, .inputs th { text-align: left; }
.finding td:nth-child(8) { white-space: normal; min-width: 20em; }
.finding td:first-child { white-space: normal; overflow-wrap: anywhere; max-width: 16em; }
.wide { overflow-x: auto; max-width: 100%; }
"""


def report_tables(aggregates: Aggregates) -> dict[str, Callable[[], Iterator[Table]]]:
    """Every aggregate table of the report by file name (without ``.csv``), each as what makes it in
    parts (see :func:`~nardy_cli.reporting.stats.summary_parts`: a server has as many players as
    games), with machine-readable columns, indexed by their group (dice tables: ``all`` first,
    then each player)."""
    tables: dict[str, Callable[[], Iterator[Table]]] = {
        f"summary_by_{by}": partial(summary_parts, aggregates, by) for by in GROUPINGS}
    tables["outcomes_by_variant"] = lambda: iter([outcome_rows(aggregates, "variant")])
    tables["dice_counts"] = partial(dice_parts, aggregates)
    tables["dice_fairness"] = partial(fairness_parts, aggregates)
    tables["luck"] = partial(luck_parts, aggregates)
    tables["standings"] = partial(standings_parts, aggregates)
    if aggregates.quality.players:  # only games whose records carry a program's analysis
        tables["analysis_by_player"] = partial(quality_parts, aggregates)
    return tables


REPORT_CHARTS: dict[str, Callable[[Aggregates, str], Figure]] = {
    "outcomes": outcomes_chart, "lengths": lengths_chart, "first_mover": first_mover_chart,
    "dice": lambda aggregates, lang: dice_chart(aggregates, lang=lang)}
"""What draws each chart of the report, by file name (without extension)."""


def report_charts(aggregates: Aggregates, lang: str) -> dict[str, Figure]:
    """Every chart of the report by file name (without extension)."""
    return {name: draw(aggregates, lang) for name, draw in REPORT_CHARTS.items()}


def _html_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], css_class: str = "") -> str:
    """A table as HTML (:func:`~nardy_cli.reporting.plain.html_table`), in a box that scrolls
    sideways rather than overflowing the page."""
    return "".join(_html_table_parts([(columns, rows)], css_class))


def _html_table_parts(parts: Iterable[tuple[Sequence[str], Sequence[Sequence[Any]]]],
                      css_class: str = "") -> Iterator[str]:
    """:func:`_html_table` of the rows of ``parts`` (each its columns and rows) as one table, made a
    part at a time."""
    yield '<div class="wide">'
    yield from html_table_pieces(parts, css_class)
    yield "</div>"


def _inputs_html(aggregates: Aggregates, lang: str) -> Iterator[str]:
    """The files read and the rule sets the games were judged under, with their games (the files
    a part at a time: there may be as many as games)."""
    columns = [tr("file", lang), tr("games", lang)]
    files = ((name, totals.games) for name, totals in aggregates.groups["file"].items())
    yield from _html_table_parts(((columns, part) for part in in_parts(files, INPUT_PART_ROWS)), "inputs")
    yield _html_table([tr("rules", lang), tr("games", lang)], sorted(aggregates.rule_sets.items()), "inputs")


def _image(png: bytes, title: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(title)}">'


def _findings_html(aggregates: Aggregates, lang: str, boards: list[str | None] | None = None) -> str:
    if not aggregates.findings:
        return f"<p>{html.escape(tr('no_findings', lang))}</p>"
    columns = [*SHOWN_FINDING_COLUMNS, *(["board"] if boards else [])]
    rows = []
    for number, finding in enumerate(aggregates.first_findings):
        row: dict[str, Any] = {column: finding.get(column) for column in SHOWN_FINDING_COLUMNS}
        if row["side"] is not None:
            row["side"] = tr(row["side"], lang)
        if row["move_number"] is not None:  # move 5, not 5.0, where a result has none
            row["move_number"] = str(int(row["move_number"]))
        if boards:
            row["board"] = boards[number]
        rows.append(list(row.values()))
    text = _html_table([tr(column, lang) for column in columns], rows, "finding")
    text = re.sub(r"<td>(boards/finding-\d+\.png)</td>",
                  lambda match: f'<td><a href="{match.group(1)}">{html.escape(tr("board", lang))}</a></td>', text)
    if aggregates.findings > len(rows):
        text += f"<p>{html.escape(tr('more_findings', lang, n=aggregates.findings - len(rows)))}</p>"
    return text


def _matches_html(aggregates: Aggregates, lang: str) -> str:
    rows = [[match.get(column) for column in MATCH_COLUMNS] for match in aggregates.first_matches]
    line = tr("matches_line", lang, matches=aggregates.matches, complete=aggregates.complete_matches)
    text = f"<p>{html.escape(line)}</p>"
    text += _html_table([tr(column, lang) for column in MATCH_COLUMNS], rows)
    if aggregates.matches > len(rows):
        text += f"<p>{html.escape(tr('more_matches', lang, n=aggregates.matches - len(rows)))}</p>"
    return text


def _one_decimal(value: float) -> float:
    """``value`` rounded to one decimal as numpy rounds it (×10, to even, ÷10)."""
    tenfold = value * 10
    return math.copysign(round(tenfold) / 10, value) if math.isfinite(tenfold) else tenfold / 10


def _summary_html(summary: Table, lang: str) -> list[str]:
    """The summary by variant, and crazy nardy's cascades in a table of their own (one table would
    be wider than the page)."""
    cascades = [column for column in CASCADE_COLUMNS if column in summary.columns]
    games = Table(summary.index_name, summary.index)
    for name, values in summary.columns.items():
        if name not in cascades:
            games.add(name, values, summary.dtypes[name])
    tables = [_html_table(*record_table(summary_cells(games, lang)))]
    if cascades:
        rows = [[key, *(_one_decimal(summary.columns[name][position]) for name in cascades)]
                for position, key in enumerate(summary.index)
                if any(not math.isnan(summary.columns[name][position]) for name in cascades)]
        tables.append(_html_table([tr(column, lang) for column in [summary.index_label, *cascades]], rows))
    return tables


def report_page(aggregates: Aggregates, tables: dict[str, Callable[[], Iterator[Table]]], titles: dict[str, str],
                pngs: dict[str, bytes], lang: str, boards: list[str | None] | None = None) -> Iterator[str]:
    """The text of the report page, in pieces, from the aggregates, :func:`report_tables`, the
    charts' titles and PNG renderings: summary, players, outcomes, lengths, dice, findings, inputs."""
    def section(key: str, *parts: str | Iterator[str]) -> Iterator[str]:
        yield f"<h2>{html.escape(tr(key, lang))}</h2>\n"
        for number, part in enumerate(parts):
            yield "\n" if number else ""
            yield from [part] if isinstance(part, str) else part

    def table(name: str, cells: Callable[[Table, str], list[dict[str, Any]]]) -> Iterator[str]:
        return _html_table_parts(record_table(cells(part, lang)) for part in tables[name]())

    def chart(name: str) -> str:
        return _image(pngs[name], titles[name])

    summary = ", ".join(plural(key, count, lang) for key, count in (
        ("games", aggregates.games), ("files", len(aggregates.groups["file"])), ("turns", aggregates.turns),
        ("legal_games", aggregates.legal), ("findings", aggregates.findings)))
    variants = Table.joined(tables["summary_by_variant"]())
    sections = [
        section("title_summary", f"<p>{html.escape(summary)}</p>", *_summary_html(variants, lang)),
        section("title_players", table("summary_by_player", summary_cells), chart("outcomes")),
        section("title_outcomes", _html_table(*outcomes_labelled(outcome_rows(aggregates, "variant"), lang).as_lists()),
                chart("first_mover")),
        section("title_lengths", chart("lengths")),
        section("title_dice", table("dice_fairness", fairness_cells), chart("dice")),
        section("title_luck", table("luck", luck_cells)),
        section("title_findings", _findings_html(aggregates, lang, boards)),
        section("title_inputs", _inputs_html(aggregates, lang)),
    ]
    if "analysis_by_player" in tables:
        sections.insert(2, section("title_quality", table("analysis_by_player", quality_cells)))
    if aggregates.matches:
        sections[1:1] = [section("title_standings", table("standings", standings_cells)),
                         section("title_matches", _matches_html(aggregates, lang))]
    yield (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
           f"<title>{html.escape(tr('title_report', lang))}</title>\n<style>{_STYLE}</style>\n</head>\n"
           f"<body>\n<h1>{html.escape(tr('title_report', lang))}</h1>")
    for part in sections:
        yield "\n"
        yield from part
    yield "\n</body>\n</html>\n"


def write_report(out_dir: str | Path, aggregates: Aggregates, lang: str = "en", *, force: bool = False) -> Path:
    """Write the aggregate tables (CSV), the charts (PNG and SVG) and ``report.html`` into
    ``out_dir`` and return the path of the page; every file is written atomically. Each table is
    written a part at a time (a row a player, a file or a match may make many)."""
    folder = report_folder(out_dir, force=force)
    tables = report_tables(aggregates)
    for name, parts in tables.items():
        with atomic_output(str(folder / f"{name}.csv"), force=True, newline="") as handle:
            for piece in csv_table_pieces(parts()):
                handle.write(piece)
            handle.write("\n")
    titles = {}
    for name, draw in REPORT_CHARTS.items():  # drawn, saved and let go one at a time
        figure = draw(aggregates, lang)
        for fmt in FORMATS:
            save_figure(figure, folder / f"{name}.{fmt}", force=True)
        titles[name] = str(figure.get_label())
        del figure
        gc.collect()  # (its artists hold one another: see finding_boards)
    pngs = {name: (folder / f"{name}.png").read_bytes() for name in REPORT_CHARTS}
    page = folder / REPORT_PAGE
    boards = finding_boards(aggregates.first_findings, folder, lang)
    with atomic_output(str(page), force=True) as handle:
        for piece in report_page(aggregates, tables, titles, pngs, lang, boards):
            handle.write(piece)
    return page
