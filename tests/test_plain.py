"""The printed tables of nardy_cli.reporting.plain against pandas' own, on generated tables and on
the outputs of ``nardy stats``: byte for byte, without pandas in the command's process."""
import json
import math
from statistics import NormalDist

import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_layers import command_modules

from locations import CORPORA, SAMPLES, needs_corpus
from nardy_cli.analysis.aggregates import FINDING_COLUMNS, GROUPINGS, MATCH_COLUMNS, aggregate
from nardy_cli.analysis.validate import validate_games
from nardy_cli.cli import cli
from nardy_cli.reporting.labels import tr
from nardy_cli.reporting.plain import (
    Table,
    csv_table,
    html_table,
    html_table_pieces,
    json_value,
    markdown_table,
    text_table,
)
from nardy_cli.reporting.report import REPORT_CHARTS, SHOWN_FINDING_COLUMNS, report_page, report_tables
from nardy_cli.reporting.stats import (
    CASCADE_COLUMNS,
    chi_square_test,
    dice_counts,
    dice_fairness,
    fairness_display,
    luck_display,
    luck_table,
    mean_bounds,
    outcome_counts,
    quality_display,
    quality_summary,
    shortened,
    standings_display,
    standings_table,
    summarize,
    summary_display,
    wilson_bounds,
)
from nardy_cli.run.corpus import iter_games

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]) | st.sampled_from("Иван Пётр—|\t\n é"),
               max_size=12)
LABEL = st.text(st.sampled_from("abcxyz ИвПё—%()_"), min_size=1, max_size=10).filter(lambda label: label[0] != " ")
FLOAT = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.5, -0.0, 1e16, 1e-16, 2 / 3, 1e300])
INT = st.integers(-10 ** 12, 10 ** 12)


@st.composite
def tables(draw, kinds=(INT, TEXT)):
    """Unique column labels and rows whose every column holds one kind of value."""
    labels = draw(st.lists(LABEL, max_size=7, unique=True))
    rows = draw(st.integers(0, 6))
    columns = [draw(st.lists(draw(st.sampled_from(kinds)), min_size=rows, max_size=rows)) for _ in labels]
    return labels, [list(row) for row in zip(*columns)] if labels else []


@settings(max_examples=400, deadline=None)
@given(tables(), st.none() | st.integers(1, 220))
def test_text_is_to_string(table, width):
    labels, rows = table
    frame = pd.DataFrame(rows, columns=labels)
    assert text_table(labels, rows, line_width=width) == frame.to_string(index=False, line_width=width)


@settings(max_examples=300, deadline=None)
@given(tables((st.none() | st.booleans() | INT | FLOAT | TEXT,)))
def test_text_of_objects_is_to_string_of_filled_objects(table):
    labels, rows = table
    frame = pd.DataFrame([dict(zip(labels, row)) for row in rows], columns=labels)
    if rows:
        assert text_table(labels, rows, objects=True) == frame.astype(object).fillna("").to_string(index=False)


HEADER_STYLE = ' style="text-align: right;"'


def pandas_html(frame, css_class=""):
    """A table of the report as pandas wrote it."""
    html = frame.astype(object).fillna("—").to_html(index=False, border=0, classes=css_class or None)
    return html.replace(HEADER_STYLE, "", 1)


@settings(max_examples=400, deadline=None)
@given(tables((st.none() | st.booleans() | INT | FLOAT | TEXT,)), st.sampled_from(["", "inputs", "finding wide"]))
def test_html_is_to_html_of_filled_objects(table, css_class):
    labels, rows = table
    assert html_table(labels, rows, css_class) == pandas_html(pd.DataFrame(rows, columns=labels), css_class)


@settings(max_examples=200, deadline=None)
@given(tables((st.none() | INT | FLOAT | TEXT,)), st.integers(1, 3))
def test_html_in_parts_is_the_parts_to_html_joined(table, size):
    """Each part is typed on its own, as a DataFrame of it: whole numbers read as floats in one part only."""
    labels, rows = table
    parts = [rows[start:start + size] for start in range(0, len(rows), size)] or [[]]
    frames = [pandas_html(pd.DataFrame(part, columns=labels)) for part in parts]
    joined = frames[0].rsplit("  </tbody>", 1)[0] + "".join(
        frame.split("<tbody>\n", 1)[1].rsplit("  </tbody>", 1)[0] for frame in frames[1:]) + "  </tbody>\n</table>"
    assert "".join(html_table_pieces((labels, part) for part in parts)) == joined


@st.composite
def typed_tables(draw):
    """A :class:`Table` of int64, float64, bool and text columns, indexed by text (no column named as the index)."""
    rows = draw(st.integers(0, 5))
    table = Table(draw(st.none() | LABEL), draw(st.lists(TEXT, min_size=rows, max_size=rows)))
    for label in draw(st.lists(LABEL.filter(lambda label: label not in (table.index_label, "index")), max_size=6,
                               unique=True)):
        dtype, values = draw(st.sampled_from([("int64", INT), ("float64", FLOAT), ("bool", st.booleans()),
                                              (None, TEXT)]))
        table.add(label, draw(st.lists(values, min_size=rows, max_size=rows)), dtype)
    return table


@settings(max_examples=400, deadline=None)
@given(typed_tables())
def test_csv_and_json_are_pandas(table):
    frame = table.frame()
    assert csv_table(table) == frame.to_csv().rstrip("\n")
    assert csv_table(table, header=False) == frame.to_csv(header=False).rstrip("\n")
    assert json.dumps(table.records()) == json.dumps(json.loads(frame.reset_index().to_json(orient="records")))
    assert Table.of_frame(frame).frame().equals(frame)


@settings(max_examples=2000, deadline=None)
@given(st.floats() | st.floats(-1e6, 1e6) | st.floats(-1, 1) | st.floats(9e5, 2e6))
@example(900720.2466652775)  # its ten decimals' digits pass 2**53: compiled, they are not divided as floats
@example(-1999999.0000000001)
def test_json_value_is_the_value_pandas_writes(value):
    written = json.loads(pd.DataFrame({"x": [value]}).to_json(orient="records"))[0]["x"]
    assert json.dumps(json_value(value)) == json.dumps(written)


def test_markdown():
    expected = "| a | b\\|c |\n|---|---|\n| 1.0 | x |\n|  | y |"
    assert markdown_table(["a", "b|c"], [[1.0, "x"], [math.nan, "y"]]) == expected


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 10 ** 6), min_size=21, max_size=21), st.integers(0, 10 ** 6), st.integers(0, 10 ** 6))
def test_the_statistics_are_numpys_to_the_bit(counts, k, n):
    """The plain-Python tests, means and intervals give the bits numpy's array formulas gave."""
    import numpy as np

    from nardy_cli.reporting.stats import ROLL_PROBABILITIES, chi_square_survival

    observed = np.array(counts, dtype=float)
    expected = observed.sum() * np.array(ROLL_PROBABILITIES)
    statistic = ((observed - expected) ** 2 / expected).sum() if observed.sum() else np.nan
    assert repr(chi_square_test(counts, ROLL_PROBABILITIES)) == repr((float(statistic),
                                                                      chi_square_survival(float(statistic), 20)))
    k, n = np.array([min(k, n)], dtype=float), np.array([n], dtype=float)
    z = NormalDist().inv_cdf(0.5 + 0.95 / 2)
    with np.errstate(divide="ignore", invalid="ignore"):  # the formulas of the arrays, as they were
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        bounds = np.where(k == 0, 0.0, centre - half), np.where(k == n, 1.0, centre + half)
        mean = k / n
        variance = np.where(n > 1, (k * 3.5 - n * mean * mean) / (n - 1), np.nan)
        spread = z * np.sqrt(np.maximum(variance, 0) / n)
    assert repr(wilson_bounds(k[0], n[0])) == repr(tuple(float(bound[0]) for bound in bounds))
    assert repr(mean_bounds(k[0], k[0] * 3.5, n[0])) == repr((float(mean[0]), float((mean - spread)[0]),
                                                             float((mean + spread)[0])))


# --- nardy stats, against the same tables printed by pandas ----------------------------------


def pandas_statistics(aggregates, by, output_format, lang, min_rolls=0, top=None, width=100):
    """What ``nardy stats`` printed when pandas printed it."""
    summary = summarize(aggregates, by)
    fairness = shortened(dice_fairness(dice_counts(aggregates, total=True)), min_rolls, top)
    luck, analysis = luck_table(aggregates), quality_summary(aggregates)
    quality = None if analysis.empty else analysis
    if output_format == "csv":
        return summary.to_csv().rstrip("\n")
    if output_format == "json":
        data = {"by": summary.index.name, "summary": json.loads(summary.reset_index().to_json(orient="records")),
                "dice": json.loads(fairness.reset_index().to_json(orient="records")),
                "luck": json.loads(luck.reset_index().to_json(orient="records"))}
        if quality is not None:
            data["analysis"] = json.loads(quality.reset_index().to_json(orient="records"))
        return json.dumps(data, ensure_ascii=False, indent=2)
    tables = [summary_display(summary, lang), fairness_display(fairness, lang), luck_display(luck, lang)]
    headings = [tr(f"title_{'players' if by == 'player' else 'summary'}", lang), tr("title_dice", lang),
                tr("title_luck", lang)]
    if quality is not None:
        tables.append(quality_display(quality, lang))
        headings.append(tr("title_quality", lang))
    if output_format == "md":
        from nardy_cli.reporting.stats import markdown_table as frame_markdown

        return "\n\n".join(f"## {heading}\n\n{frame_markdown(table)}" for heading, table in zip(headings, tables))
    return "\n\n".join(table.to_string(index=False, line_width=width) for table in tables)


def pandas_standings(aggregates, output_format, lang):
    standings = standings_table(aggregates)
    if output_format == "csv":
        return standings.to_csv().rstrip("\n")
    if output_format == "json":
        return json.dumps(json.loads(standings.reset_index().to_json(orient="records")), ensure_ascii=False, indent=2)
    table = standings_display(standings, lang)
    if output_format == "md":
        from nardy_cli.reporting.stats import markdown_table as frame_markdown

        return f"## {tr('title_standings', lang)}\n\n{frame_markdown(table)}"
    return table.to_string(index=False) if len(table) else tr("no_data", lang)


INPUTS = [SAMPLES] + ([CORPORA / "bglab-sample", CORPORA / "xg", CORPORA / "tournament"] if CORPORA else [])
OPTIONS = [(by, output_format, "en") for by in GROUPINGS for output_format in ("table", "csv", "json", "md")]
OPTIONS += [("player", "table", "ru"), ("variant", "md", "ru")]


@pytest.fixture(scope="module", params=INPUTS, ids=lambda path: path.name)
def corpus(request):
    return request.param, aggregate(validate_games(iter_games([str(request.param)], on_error=print)))


@pytest.mark.parametrize(("by", "output_format", "lang"), OPTIONS, ids="-".join)
def test_stats_prints_what_pandas_printed(runner, corpus, by, output_format, lang, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    path, aggregates = corpus
    result = runner.invoke(cli, ["stats", str(path), "--by", by, "--format", output_format, "--lang", lang])
    assert result.stdout == pandas_statistics(aggregates, by, output_format, lang) + "\n"


@pytest.mark.parametrize("output_format", ["table", "csv", "json", "md"])
def test_standings_and_shortened_dice_tables_print_what_pandas_printed(runner, corpus, output_format, monkeypatch):
    path, aggregates = corpus
    result = runner.invoke(cli, ["stats", str(path), "--standings", "--format", output_format, "--lang", "ru"])
    assert result.stdout == pandas_standings(aggregates, output_format, "ru") + "\n"
    monkeypatch.setenv("COLUMNS", "57")
    result = runner.invoke(cli, ["stats", str(path), "--min-rolls", "200", "--top", "2", "--format", output_format])
    assert result.stdout == pandas_statistics(aggregates, "player", output_format, "en", 200, 2, 57) + "\n"


@needs_corpus
def test_stats_without_a_report_loads_neither_pandas_nor_numpy():
    """The printed tables are plain Python: pandas alone takes half a second and 50 MiB."""
    assert CORPORA is not None  # needs_corpus skips the test without them
    assert not command_modules("stats", str(CORPORA / "xg"), "--jobs", "1") & {"pandas", "numpy", "matplotlib"}
    assert not command_modules("stats", str(SAMPLES / "long"), "--standings", "--format", "json") & {"pandas", "numpy"}


def pandas_report_tables(aggregates, lang):
    """Every table of the report page as pandas wrote it."""
    def labelled(frame):
        return frame.rename(columns=lambda column: tr(column, lang))

    variants = summarize(aggregates, "variant")
    cascades = [column for column in CASCADE_COLUMNS if column in variants]
    tables = [pandas_html(summary_display(variants.drop(columns=cascades), lang))]
    if cascades:
        shown = variants.loc[variants[cascades].notna().any(axis=1), cascades].round(1).reset_index()
        tables.append(pandas_html(labelled(shown)))
    tables.append(pandas_html(summary_display(summarize(aggregates, "player"), lang)))
    counts = outcome_counts(aggregates, "variant")
    outcomes = counts.rename(columns=lambda outcome: tr(outcome, lang), index=lambda key: tr(key, lang))
    tables.append(pandas_html(outcomes.rename_axis(index=tr("variant", lang)).reset_index()))
    tables.append(pandas_html(fairness_display(dice_fairness(dice_counts(aggregates, total=True)), lang)))
    tables.append(pandas_html(luck_display(luck_table(aggregates), lang)))
    quality = quality_summary(aggregates)
    if not quality.empty:
        tables.append(pandas_html(quality_display(quality, lang)))
    if aggregates.matches:
        tables.append(pandas_html(standings_display(standings_table(aggregates), lang)))
        tables.append(pandas_html(labelled(pd.DataFrame(aggregates.first_matches, columns=list(MATCH_COLUMNS)))))
    if aggregates.findings:
        findings = pd.DataFrame(aggregates.first_findings, columns=list(FINDING_COLUMNS))
        findings = findings.loc[:, list(SHOWN_FINDING_COLUMNS)]
        findings["side"] = findings["side"].map(lambda side: tr(side, lang), na_action="ignore")
        findings["move_number"] = findings["move_number"].astype("Int64")
        tables.append(pandas_html(labelled(findings), "finding"))
    files = [(name, totals.games) for name, totals in aggregates.groups["file"].items()]
    tables.append(pandas_html(pd.DataFrame(files, columns=[tr("file", lang), tr("games", lang)]), "inputs"))
    rules = sorted(aggregates.rule_sets.items())
    tables.append(pandas_html(pd.DataFrame(rules, columns=[tr("rules", lang), tr("games", lang)]), "inputs"))
    return tables


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_report_page_has_the_tables_pandas_wrote(corpus, lang):
    _, aggregates = corpus
    charts = {name: b"" for name in REPORT_CHARTS}
    page = "".join(report_page(aggregates, report_tables(aggregates), dict.fromkeys(charts, ""), charts, lang))
    tables = pandas_report_tables(aggregates, lang)
    assert page.count("<table") == len(tables)
    for table in tables:
        assert f'<div class="wide">{table}</div>' in page
