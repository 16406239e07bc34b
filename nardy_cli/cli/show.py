"""``nardy show``: a board at any turn of a game, or of a given position (the board modules are
imported inside the command, a picture's matplotlib only for a picture)."""
from __future__ import annotations

import os
import re

import click

from nardy_cli.cli.options import lang_option, parse_dice, parse_position_and_roll, rule_option, usage_errors
from nardy_cli.cli.task import load_game
from nardy_cli.core.sides import BLACK, SIDE_NAMES, WHITE
from nardy_cli.replay import GameReplay
from nardy_cli.run.corpus import iter_games


def locate(path: str, line: int, column: int) -> tuple[int, int]:
    """The game of ``path`` (1-based) that holds ``line`` and the roll of that place: the last roll at
    or before it (0 for a place before the first roll)."""
    errors: list[str] = []
    found = None
    for number, game in enumerate(iter_games([path], on_error=errors.append), 1):
        if game.record.line > line:
            break
        found = number, game.record
    if errors:
        raise click.UsageError(errors[0])
    if found is None:
        raise click.UsageError(f"{path} has no game at line {line}")
    number, record = found
    rolls = [action for action in record.actions if action.kind == "roll"]
    return number, sum(1 for action in rolls if (action.line, action.column) <= (line, column))


def roll_of_move(result: GameReplay, text: str) -> int:
    """The roll index (1-based) of move ``5``/``5w`` (White) or ``5b``/``5...`` (Black) of a game."""
    match = re.fullmatch(r"\s*(\d+)\s*(w|b|white|black|\.\.\.)?\s*", text.lower())
    if not match:
        raise click.UsageError(f"--move {text}: expected a move number and side, like 5, 5w, 5b or 5...")
    number, side = int(match.group(1)), BLACK if (match.group(2) or "w")[0] in "b." else WHITE
    rolls = [action for action in result.record.actions if action.kind == "roll"]
    for index, action in enumerate(rolls, 1):
        if action.number == number and action.side == side:
            return index
    raise click.UsageError(f"--move {text}: the game has no roll of {SIDE_NAMES[side]} at move {number}")


@click.command(short_help="A board at any turn of a game, or of a given position.")
@click.argument("path", metavar="[FILE | FILE:LINE]", required=False)
@click.option("--game", "number", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of FILE (1 = the first).")
@click.option("--turn", type=click.IntRange(min=0),
              help="The board after roll K of the game (0 = the start; default: the last roll).")
@click.option("--move", "move_text", metavar="N[w|b]",
              help="The board after move N of White (5, 5w) or of Black (5b, 5...), as validate numbers moves.")
@click.option("--before", is_flag=True, help="The board before the roll instead of after it.")
@click.option("--position", "position_text", metavar="POSITION",
              help="Show this position instead of a game's: position notation, long / short for the start, "
                   "or (short nardy) a GNU Backgammon Position ID, GNUBG ID or XGID.")
@click.option("--dice", "dice_text", metavar="DICE",
              help="Dice to show with --position, e.g. 63 (default: a GNUBG ID's or XGID's roll).")
@rule_option
@click.option("-o", "--output", metavar="FILE",
              help="Draw the board into FILE (.png or .svg) instead of printing it.")
@click.option("--force", is_flag=True, help="Replace an existing file.")
@lang_option
@usage_errors
def show(path: str | None, number: int, turn: int | None, move_text: str | None, before: bool,
         position_text: str | None, dice_text: str | None, rules: tuple[str, ...], output: str | None, force: bool,
         lang: str) -> None:
    """A board: a game's position at a roll, or a given --position.

    FILE:LINE (or FILE:LINE:COLUMN, as validate prints a finding's place) shows
    the game and the roll of that place. Without -o the board is printed as text. When the roll is illegal, its
    finding is shown (in red in a picture) and the offending step is marked.
    """
    from nardy_cli.reporting.board import BoardView, text_diagram, turn_view

    if (path is None) == (position_text is None):
        raise click.UsageError("give either a FILE or --position")
    if dice_text and position_text is None:
        raise click.UsageError("--dice goes with --position; a game's roll shows its own dice")
    if position_text is not None:
        position, rolled = parse_position_and_roll(position_text)
        view = BoardView(position, parse_dice(dice_text) if dice_text else rolled)
    else:
        assert path is not None  # either a FILE or --position, checked above
        place = re.fullmatch(r"(.+?):(\d+)(?::(\d+))?", path) if not os.path.exists(path) else None
        if place:  # FILE:LINE[:COLUMN], as validate prints a finding's place
            path = place.group(1)
            number, turn = locate(path, int(place.group(2)), int(place.group(3) or 10**9))
        _, result = load_game(path, number, rules)
        if move_text:
            if turn is not None:
                raise click.UsageError("give --turn or --move, not both")
            turn = roll_of_move(result, move_text)
        try:
            view = turn_view(result, turn, before=before)
        except ValueError as error:
            raise click.UsageError(str(error)) from None
    if output:
        from nardy_cli.reporting.board_picture import board_figure
        from nardy_cli.reporting.figures import save_figure

        save_figure(board_figure(view, lang), output, force=force)
    else:
        click.echo(text_diagram(view, lang))
