"""``nardy generate``: self-played games, legal by construction."""
from __future__ import annotations

import sys

import click

from nardy_cli.analysis import exports
from nardy_cli.analysis.selfplay import BOTS, generate
from nardy_cli.cli.options import output_options, quiet_option, rule_option, usage_errors
from nardy_cli.core.rules import Rules
from nardy_cli.core.variants import NAMES as VARIANT_NAMES
from nardy_cli.files.output import atomic_output
from nardy_cli.files.spool import spools
from nardy_cli.run import progress


@click.command(name="generate", short_help="Self-played games, legal by construction.")
@click.option("--variant", type=click.Choice(VARIANT_NAMES), default="long", show_default=True,
              help="Which game: long nardy, short nardy (backgammon) or crazy nardy (gulbara).")
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same games.")
@click.option("--bot", type=click.Choice(BOTS), default="greedy", show_default=True,
              help="How both sides play: random (uniformly among the legal plays) or greedy (a simple "
                   "evaluation: race, safety, points made).")
@click.option("--to", "output_format", type=click.Choice(exports.TARGETS), default="ntn",
              show_default=True, help="Notation to write.")
@rule_option
@output_options
@quiet_option
@usage_errors
def generate_command(variant: str, games: int, seed: int, bot: str, output_format: str,
                     rules: tuple[str, ...], output: str | None, force: bool, quiet: bool) -> None:
    """Self-played games, legal by construction, for samples and benchmarks."""
    game_rules = Rules.preset(variant).with_options(list(rules))
    played = progress.counting(generate(game_rules, games, seed, bot), games, "Playing", "game",
                               show=progress.wanted(quiet) and bool(output or not sys.stdout.isatty()))
    target = exports.target(output_format)
    with spools() as spool, atomic_output(output, force=force) as out:  # (the warnings spooled, as convert's)
        for warning in target.write_prepared(map(target.prepare, played), out, spool):
            click.echo(f"warning: {warning}", err=True)
