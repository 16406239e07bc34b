"""Charts, the HTML report and the stats / plot commands, checked against independent counts."""
import base64
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Sequence
from typing import Any, cast

import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.patches import Rectangle
from numpy.typing import ArrayLike

from nardy_cli import notations
from nardy_cli.analysis.aggregates import GROUPINGS, SCORED, Aggregates, aggregate, turn_rows
from nardy_cli.analysis.selfplay import generate
from nardy_cli.analysis.validate import validate_games
from nardy_cli.cli.main import cli
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.files.output import OutputError
from nardy_cli.reporting.charts import (
    dice_chart,
    first_mover_chart,
    lengths_chart,
    outcomes_chart,
    race_chart,
)
from nardy_cli.reporting.figures import save_figure
from nardy_cli.reporting.labels import tr
from nardy_cli.reporting.report import write_report
from nardy_cli.reporting.stats import summarize
from nardy_cli.run.corpus import iter_games

PLAYERS = ("Ann", "Boris", "Chen")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def points(values: ArrayLike) -> list[Any]:
    """A line's data, as a list: what a Line2D holds is a sequence (its stubs say ArrayLike)."""
    return list(cast(Iterable[Any], values))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """An NTN file of 4 long and 6 short self-played games between three players, its aggregates and
    (game, replay) pairs."""
    path = tmp_path_factory.mktemp("charts") / "games.ntn"
    records = [*generate(Rules.preset("long"), 4, 11), *generate(Rules.preset("short"), 6, 12)]
    for index, record in enumerate(records):
        record.tags["White"], record.tags["Black"] = PLAYERS[index % 3], PLAYERS[(index + 2) % 3]
    with open(path, "w", encoding="utf-8") as out:
        notations.notation("ntn").write_games(records, out)
    pairs = list(validate_games(iter_games([str(path)], on_error=pytest.fail)))
    return str(path), aggregate(pairs), pairs


def svg_text(data: bytes) -> str:
    """All the text of an SVG document, which must parse as XML with an <svg> root."""
    root = ElementTree.fromstring(data)
    assert root.tag.endswith("svg")
    return " ".join(root.itertext())


def assert_png(data: bytes, title: str) -> None:
    """A PNG file whose metadata holds ``title`` (plain ASCII)."""
    assert data.startswith(PNG_SIGNATURE)
    assert b"tEXtTitle\x00" + title.encode("ascii") in data


# --- charts -------------------------------------------------------------------------------


@pytest.mark.slow
def test_outcomes_chart_stacks_each_players_wins(corpus):
    _, aggregates, pairs = corpus
    replays = [result for _, result in pairs]
    figure = outcomes_chart(aggregates)
    assert figure.get_label() == "Wins by outcome, per player"
    axes = figure.axes[0]
    labels = [label.get_text() for label in axes.get_yticklabels()]
    names = [label.rsplit(" (n=", 1)[0] for label in labels]
    assert sorted(names) == sorted(PLAYERS)
    for outcome, bars in zip(SCORED, axes.containers):
        assert bars.get_label() == tr(outcome)
        for name, label, bar in zip(names, labels, bars):
            games = sum(r.record.player(side) == name for r in replays for side in (WHITE, BLACK))
            wins = sum(r.category == outcome for r in replays for side in (WHITE, BLACK)
                       if r.record.player(side) == name and r.winner == side)
            assert label == f"{name} (n={games})"
            assert bar.get_width() == pytest.approx(100 * wins / games)  # a share: no player dwarfs the rest
    assert axes.get_xlim() == (0, 100)


def test_lengths_chart_counts_every_game(corpus):
    _, aggregates, _ = corpus
    axes = lengths_chart(aggregates, "ru").axes[0]
    heights = {variant: sum(bar.get_height() for bar in bars)
               for variant, bars in zip(("long", "short"), axes.containers)}
    assert heights == {"long": 4, "short": 6}
    legend = axes.get_legend()
    assert legend is not None
    assert legend.get_texts()[0].get_text() == "длинные нарды"
    assert axes.get_xlabel() == "ходы"
    shortest = min(len(result.turns) for _, _, pairs in [corpus] for _, result in pairs)
    assert axes.containers[0][0].get_x() == shortest // 5 * 5 > 0  # the first bin is where the games begin


def test_first_mover_chart_bars_are_the_first_movers_win_rates(corpus):
    _, aggregates, pairs = corpus
    replays = [result for _, result in pairs]
    axes = first_mover_chart(aggregates).axes[0]
    rates = {}
    for variant in ("long", "short"):
        games = [r for r in replays if r.rules.variant == variant]
        rates[tr(variant)] = 100 * sum(r.winner == r.first_mover for r in games) / len(games)
    bars = cast(Sequence[Rectangle], axes.patches)  # the chart's patches are its bars
    shown = {tick.get_text(): bar.get_height() for tick, bar in zip(axes.get_xticklabels(), bars)}
    assert shown == pytest.approx(rates)


def test_dice_chart_title_gives_n_and_p_value(corpus):
    _, aggregates, pairs = corpus
    replays = [result for _, result in pairs]
    free_rolls = sum(len(r.turns) for r in replays) - 6  # short games' opening rolls are left out
    figure = dice_chart(aggregates)
    label = cast(str, figure.get_label())  # a figure's label is a str (its stubs say object)
    found = re.search(r"p = (\S+)$", label)
    assert found is not None
    p_value = float(found.group(1))
    assert f"n = {free_rolls}," in label
    assert 0 <= p_value <= 1
    player = dice_chart(aggregates, "Ann", "ru")
    ann_rolls = sum(1 for r in replays for t in r.turns if r.record.player(t.side) == "Ann"
                    and not (t.turn == 1 and r.rules.variant == "short"))
    assert cast(str, player.get_label()).startswith(f"Кости: Ann — n = {ann_rolls},")
    with pytest.raises(ValueError, match="no rolls of player 'Zoe'"):
        dice_chart(aggregates, "Zoe")
    image = player.axes[0].get_images()[0]
    assert image.get_clim() == (0.5, 1.5)  # the same colours in every dice chart
    for text in player.axes[0].texts:
        observed, expected = (float(part.split()[-1]) for part in text.get_text().splitlines())
        dark = abs(observed / expected - 1) > 0.3
        assert text.get_color() == ("white" if dark else "black")
        assert text.get_text().startswith("набл. ")


def test_race_chart_follows_the_pips_of_the_game(corpus):
    _, _, pairs = corpus
    game, result = pairs[0]
    figure = race_chart(turn_rows(game, result), (360, 360), "Ann – Boris", "ru", ("Ann", "Boris"))
    white, black, *marks = figure.axes[0].get_lines()
    legend_box = figure.axes[0].get_legend()
    assert legend_box is not None
    legend = [text.get_text() for text in legend_box.get_texts()]
    assert legend[:2] == ["Ann (белые)", "Boris (чёрные)"]
    illegal = [t.turn for t in result.turns if not t.legal]
    assert (points(marks[0].get_xdata()) if marks else []) == illegal
    assert points(white.get_xdata()) == list(range(len(result.turns) + 1))
    assert points(white.get_ydata()) == [360] + [t.after.pips(WHITE) for t in result.turns]
    assert points(black.get_ydata()) == [360] + [t.after.pips(BLACK) for t in result.turns]
    assert figure.get_label() == "Гонка: пипсы по ходам: Ann – Boris"


@pytest.mark.slow
def test_png_and_svg_files_carry_the_title(corpus, tmp_path):
    _, aggregates, _ = corpus
    figure = lengths_chart(aggregates)
    save_figure(figure, tmp_path / "lengths.png")
    save_figure(figure, tmp_path / "lengths.svg")
    assert_png((tmp_path / "lengths.png").read_bytes(), "Game length")
    assert "Game length" in svg_text((tmp_path / "lengths.svg").read_bytes())
    with pytest.raises(OutputError, match="already exists"):
        save_figure(figure, tmp_path / "lengths.png")
    with pytest.raises(OutputError, match=".png or .svg"):
        save_figure(figure, tmp_path / "lengths.jpg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lengths.png", "lengths.svg"]


def test_charts_of_nothing_say_so():
    for chart in (outcomes_chart, lengths_chart, first_mover_chart):
        texts = [text.get_text() for text in chart(Aggregates(), "ru").axes[0].texts]
        assert texts == ["нет данных"]


# --- report and commands ------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.slow
def test_stats_command_writes_the_report(corpus, tmp_path):
    path, aggregates, pairs = corpus
    replays = [result for _, result in pairs]
    out = tmp_path / "report"
    result = run("stats", path, "--out", str(out), "--lang", "ru", "--quiet")
    assert result.exit_code == 0, result.output
    for term in ("игрок", "оин", "марс", "кокс", "броски (n)", "все игроки", "Ann"):
        assert term in result.stdout
    expected = {f"{name}.csv" for name in ("games", "turns", "findings", "matches", "outcomes_by_variant",
                                           "dice_fairness", "dice_counts", "luck", "standings",
                                           *(f"summary_by_{by}" for by in GROUPINGS))}
    expected |= {f"{chart}.{fmt}" for chart in ("outcomes", "lengths", "first_mover", "dice")
                 for fmt in ("png", "svg")}
    assert {p.name for p in out.iterdir()} == expected | {"report.html"}
    games = pd.read_csv(out / "games.csv")
    assert len(games) == 10 and list(games["turns"]) == [len(r.turns) for r in replays]
    assert len(pd.read_csv(out / "turns.csv")) == sum(len(r.turns) for r in replays)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<table") == 7  # luck, the inputs and rule sets
    for term in ("Игроки", "Исходы", "домашний марс", "Кости", "Везение", "Замечаний нет", "Boris", "Chen"):
        assert term in page
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 4 and all(base64.b64decode(image).startswith(PNG_SIGNATURE) for image in images)
    assert "Длина партии" in svg_text((out / "lengths.svg").read_bytes())
    with pytest.raises(OutputError, match="already holds a report"):
        write_report(out, aggregates)


@pytest.mark.parametrize("output_format", ["table", "csv", "json", "md"])
def test_stats_formats(corpus, output_format):
    path, aggregates, _ = corpus
    result = run("stats", path, "--by", "variant", "--format", output_format)
    assert result.exit_code == 0, result.output
    summary = summarize(aggregates, "variant")
    if output_format == "json":
        data = json.loads(result.stdout)
        assert data["by"] == "variant"
        assert {row["variant"]: row["oin"] for row in data["summary"]} == summary["oin"].to_dict()
        assert data["dice"][0]["player"] == "all" and data["dice"][0]["n"] > 0
    elif output_format == "csv":
        assert result.stdout.startswith("variant,games,wins,win_rate,win_low,win_high,oin,")
    elif output_format == "md":
        assert "## Summary" in result.stdout and "| short nardy |" in result.stdout
    else:
        assert "long nardy" in result.stdout and "suspicious (p < 0.01)" in result.stdout


def test_stats_command_errors(corpus, tmp_path):
    path, _, _ = corpus
    result = CliRunner().invoke(cli, ["stats", path, str(tmp_path / "missing.ntn")])
    assert result.exit_code == 2 and "missing.ntn" in result.stderr and "Ann" in result.stdout
    result = CliRunner().invoke(cli, ["stats", path, "--rule", "head=nonsense"])
    assert result.exit_code == 2 and "head=nonsense" in result.output and "Traceback" not in result.output
    empty = tmp_path / "empty.ntn"
    empty.write_text("")
    result = CliRunner().invoke(cli, ["stats", str(empty)])
    assert result.exit_code == 2 and "no games found" in result.output


@pytest.mark.slow
def test_plot_commands(corpus, tmp_path):
    path, _, replays = corpus
    race = tmp_path / "race.svg"
    assert run("plot", "race", path, "--game", "2", "-o", str(race), "--lang", "ru").exit_code == 0
    assert "Гонка: пипсы по ходам: Boris – Ann, партия 2" in svg_text(race.read_bytes())
    picture = tmp_path / "first-mover.png"  # outcomes and lengths are made by the same code
    result = run("plot", "first-mover", path, "-o", str(picture), "-q")
    assert result.exit_code == 0, result.output
    assert_png(picture.read_bytes(), "First-mover advantage")
    result = CliRunner().invoke(cli, ["plot", "race", path, "--game", "11", "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "fewer than 11 games" in result.output
    result = CliRunner().invoke(cli, ["plot", "dice", path, "--player", "Zoe", "-o", str(tmp_path / "z.png")])
    assert result.exit_code == 2 and "no rolls of player 'Zoe'" in result.output
    result = CliRunner().invoke(cli, ["plot", "race", path, "-o", str(race)])
    assert result.exit_code == 2 and "--force" in result.output


def test_the_cli_and_the_counting_import_neither_pandas_nor_numpy():
    """Worker processes fork from a parent that has not imported them: they stay small."""
    code = ("import sys, nardy_cli.cli.main, nardy_cli.analysis.aggregates, nardy_cli.reporting.tables, "
            "nardy_cli.run.parallel; "
            "print(sorted(m for m in ('pandas', 'numpy', 'matplotlib', 'scipy', 'pyarrow') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_race_chart_marks_an_illegal_turn():
    from nardy_cli.replay import replay
    from nardy_cli.run.corpus import iter_games

    game = list(iter_games(["sample_games/long/kazan-cup-2026.ntn"], on_error=print))[1]
    result = replay(game.record)
    *_, marks = race_chart(turn_rows(game, result), None, "", "en", ("A", "B")).axes[0].get_lines()
    assert points(marks.get_xdata()) == [10] and points(marks.get_ydata()) == [result.turns[9].after.pips(BLACK)]
