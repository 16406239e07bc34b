"""``nardy moves``: every legal play of a roll in a position."""
from __future__ import annotations

import json

import click

from nardy_cli.cli.options import format_option, parse_dice, parse_position_and_roll, rule_option, usage_errors
from nardy_cli.core.engine import Engine, sequence_text
from nardy_cli.core.rules import Rules
from nardy_cli.core.variants import VARIANTS


@click.command(short_help="Every legal play of a roll in a position.")
@click.argument("position")
@click.argument("dice", required=False)
@rule_option
@format_option("text", "json")
@usage_errors
def moves(position: str, dice: str | None, rules: tuple[str, ...], output_format: str) -> None:
    """Every legal play of DICE in POSITION.

    POSITION is in nardy's position notation (formats/position.md), quoted, e.g.
    'long w 24x14,18 24x15 b', or just 'long' / 'short' / 'gulbara' for the start; for short
    nardy also a GNU Backgammon Position ID (4HPwATDgc/ABMA), GNUBG ID
    (4HPwATDgc/ABMA:cAkXAAAAAAAA), eXtreme Gammon XGID
    (XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10) or .xgp file. DICE: 63 or 6-3; it may
    be left out when the GNUBG ID, XGID or .xgp file gives the roll. In crazy nardy a double is
    a cascade: each play says which of its steps pass to the opponent.
    """
    start, rolled = parse_position_and_roll(position)
    roll = parse_dice(dice) if dice is not None else rolled
    if roll is None:
        raise click.UsageError("give the DICE: the position gives no roll")
    game_rules = Rules.preset(start.variant).with_options(list(rules))
    engine = Engine(game_rules)
    plays = sorted(engine.legal_plays(start, roll), key=lambda p: _play_order(p.steps))
    cascade = VARIANTS[start.variant].cascade and roll[0] == roll[1]
    if output_format == "json":
        click.echo(json.dumps({"position": str(start), "dice": list(roll),
                               "rules": {"variant": game_rules.variant, **game_rules.options()},
                               **({"steps": list(engine.steps(start, roll))} if cascade else {}),
                               "plays": [{"play": str(p), "position": str(p.position),
                                          **({"passes": list(p.passed)} if cascade else {})} for p in plays]},
                              ensure_ascii=False, indent=2))
        return
    click.echo(f"{start}  dice {roll[0]}-{roll[1]}  rules: {game_rules}")
    if cascade:
        click.echo(f"cascade: {sequence_text(engine.steps(start, roll))}, played in this order")
    if len(plays) == 1 and not plays[0].steps and not cascade:
        click.echo("no legal play: the roll is lost")
        return
    width = max(len(str(p)) for p in plays)
    for play in plays:
        passes = f"  passes {sequence_text(play.passed)}" if play.passed else ""
        click.echo(f"{str(play):<{width}}  {play.position}{passes}")
    click.echo(f"{len(plays)} legal play{'s' if len(plays) != 1 else ''}")


def _play_order(steps: tuple) -> tuple:
    return tuple((-s.src, -s.dst) for s in sorted(steps, key=lambda s: (-s.src, -s.dst)))
