"""``nardy plot``: charts of a game's pip race, and of a corpus's outcomes, lengths and dice.
matplotlib is imported inside the commands, as in :mod:`nardy_cli.cli.stats`."""
from __future__ import annotations

import click

from nardy_cli.analysis.aggregates import turn_rows
from nardy_cli.cli.options import (
    Corpus,
    corpus_options,
    legal_only_option,
    pass_corpus,
    picture_options,
    rule_option,
    usage_errors,
)
from nardy_cli.cli.task import load_game, read_statistics
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.reporting.labels import tr


@click.group(short_help="Charts: a game's pip race; a corpus's outcomes, lengths and dice.")
def plot() -> None:
    """Charts as PNG or SVG files: a game's pip race, or a corpus's outcomes, lengths and dice."""


@click.command()
@click.argument("path", metavar="FILE")
@click.option("--game", "number", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of FILE (1 = the first).")
@rule_option
@picture_options("race.png")
@usage_errors
def race(path: str, number: int, rules: tuple[str, ...], output: str, force: bool, lang: str) -> None:
    """Both sides' pip counts after every turn of one game of FILE."""
    from nardy_cli.reporting.charts import race_chart
    from nardy_cli.reporting.figures import save_figure

    game, result = load_game(path, number, rules)
    turns = turn_rows(game, result)
    start = (result.start.pips(WHITE), result.start.pips(BLACK)) if result.start else None
    subtitle = f"{game.record.title()}, {tr('game', lang)} {number}"
    names = (game.record.player(WHITE), game.record.player(BLACK))
    save_figure(race_chart(turns, start, subtitle, lang, names), output, force=force)


def corpus_plot(name: str, chart_name: str, help_text: str) -> click.Command:
    """``nardy plot NAME PATH...``: the chart ``charts.<chart_name>`` of a corpus's aggregates."""
    @click.command(name=name, help=help_text, short_help=help_text.split(" (")[0].rstrip(".") + ".")
    @corpus_options
    @legal_only_option
    @picture_options(f"{name}.png")
    @usage_errors
    @pass_corpus
    def command(corpus: Corpus, output: str, force: bool, lang: str) -> None:
        from nardy_cli.reporting import charts
        from nardy_cli.reporting.figures import save_figure

        aggregates, task = read_statistics(corpus)
        save_figure(getattr(charts, chart_name)(aggregates, lang), output, force=force)
        task.exit()
    return command


@click.command(short_help="A 6×6 heatmap of the rolls against fair dice.")
@corpus_options
@legal_only_option
@picture_options("dice.png")
@click.option("--player", help="Only this player's rolls (default: everyone's).")
@usage_errors
@pass_corpus
def dice(corpus: Corpus, output: str, force: bool, lang: str, player: str | None) -> None:
    """A 6×6 heatmap of the rolls against fair dice, with the chi-square p-value in the title."""
    from nardy_cli.reporting.charts import dice_chart
    from nardy_cli.reporting.figures import save_figure

    aggregates, task = read_statistics(corpus)
    try:
        figure = dice_chart(aggregates, player, lang)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    save_figure(figure, output, force=force)
    task.exit()


plot.add_command(race)
plot.add_command(corpus_plot("outcomes", "outcomes_chart",
                             "Each player's wins by oin, mars, home mars and koks (stacked bars)."))
plot.add_command(corpus_plot("lengths", "lengths_chart", "A histogram of game lengths in turns, per variant."))
plot.add_command(corpus_plot("first-mover", "first_mover_chart",
                             "The first mover's win rate per variant, with 95 % intervals."))
plot.add_command(dice)
