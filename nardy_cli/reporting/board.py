"""A position as a text diagram for the terminal, and what a board shows of a game's turn.

The board is seen from White's side, in White's numbering: points 13–24 on top
(left to right), 12–1 below. Each side's checkers stand at the physical point
:func:`~nardy_cli.core.position.opposite_point` gives, so long nardy (both sides
counter-clockwise) and short nardy come out right. Short nardy's bar is in the
middle: White's checkers on it above, Black's below. The same board as a picture
is :mod:`nardy_cli.reporting.board_picture` (matplotlib); this module imports
neither matplotlib nor pandas, so a text ``nardy show`` starts fast.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from nardy_cli.analysis import SIDE_KEYS
from nardy_cli.core.engine import sequence_text
from nardy_cli.core.moves import point_name
from nardy_cli.core.position import Position, opposite_point
from nardy_cli.core.sides import BAR, BLACK, OFF, SIDE_NAMES, WHITE, Side
from nardy_cli.core.variants import VARIANTS
from nardy_cli.replay import GameReplay, action_text
from nardy_cli.reporting.labels import plural, tr

STACK = 5  # checkers drawn per point; a taller stack shows its count on the last one
BAR_STACK = 4  # the same on the bar
MARKS = {WHITE: "O", BLACK: "X"}
TOP = tuple(range(13, 25))
BOTTOM = tuple(range(12, 0, -1))
CELL = 3



@dataclass(frozen=True)
class BoardView:
    """What to draw: a position and, optionally, the dice, the steps of ``mover``'s play (in the
    mover's numbering; ``bad`` the index of the one a finding names), a note (a finding) shown in
    red, the players' names, a caption (the move) and how the game ended when it is over."""

    position: Position
    dice: tuple[int, int] | None = None
    mover: Side | None = None
    steps: tuple[tuple[int, int], ...] = ()
    note: str | None = None
    names: tuple[str, str] | None = None
    caption: str | None = None
    over: tuple[str | None, Side | None, int | None] | None = None  # ending, winner, points
    bad: int | None = None
    passes: tuple[int, ...] = ()  # crazy nardy: the steps the mover's cascade passes to the side to move
    xgid: str | None = None  # short nardy, a game's board: its XGID, with its game's match score and length


def white_point(variant: str, side: Side, point: int) -> int:
    """Where ``side``'s point (1-24, own numbering) is in White's numbering."""
    return point if side == WHITE else opposite_point(variant, point)


def board_points(position: Position) -> dict[int, tuple[Side, int]]:
    """The occupied points as {point in White's numbering: (side, checkers)}."""
    points = {}
    for point in range(1, 25):
        if position.white[point]:
            points[point] = (WHITE, position.white[point])
        black = position.black[opposite_point(position.variant, point)]
        if black:
            points[point] = (BLACK, black)
    return points


def turn_view(result: GameReplay, turn: int | None = None, *, before: bool = False) -> BoardView:
    """The board of a replayed game after (or ``before``) its roll number ``turn``.

    ``turn`` None is the last roll, 0 the start. When the roll is illegal, the
    view carries its findings as the note and highlights the step a finding
    names, or else every step of the recorded play. Raises ValueError for a
    roll the game does not have.
    """
    if result.start is None:
        raise ValueError("the game cannot be replayed: " + "; ".join(str(f) for f in result.findings))
    # the roll whose play cannot be made on the board, where an incomplete replay stopped
    stopped_at = None if result.complete else max((f.turn for f in result.findings if f.turn), default=None)
    last = stopped_at or max((t.turn for t in result.turns), default=0)
    turn = last if turn is None else turn
    names = (result.record.player(WHITE), result.record.player(BLACK))
    if turn == 0:
        return BoardView(result.start, names=names, xgid=_xgid(result.start, result))
    rolls = [(index, action) for index, action in enumerate(result.record.actions) if action.kind == "roll"]
    replayed = next((t for t in result.turns if t.turn == turn), None)
    if replayed is not None:
        position = replayed.before if before else replayed.after
    elif turn == stopped_at:
        assert result.final is not None  # a replay with a start has a final position
        position = result.final
    elif result.complete and 0 < turn <= len(rolls) and rolls[turn - 1][1].moves is None:
        position = _position_at(result, rolls[turn - 1][0])
    else:
        raise ValueError(f"the game has no replayed roll {turn}: its rolls are 1-{last}")
    action = rolls[turn - 1][1]
    number = f"{action.number} " if action.number is not None else ""
    caption = f"{number}{SIDE_NAMES[action.side]} {action_text(action)}"
    over = (result.ending, result.winner, result.points) if result.ending and turn >= last and not before else None
    steps = tuple((move.path[i], move.path[i + 1]) for move in action.moves or () for i in range(len(move.path) - 1))
    findings = [finding for finding in result.findings if finding.turn == turn]
    passes = () if before or replayed is None else replayed.passed
    rolled = action.dice if position.turn == action.side else None  # before the roll: the dice to play
    view = BoardView(position, action.dice, action.side, steps, names=names, caption=caption, over=over,
                     passes=passes, xgid=_xgid(position, result, rolled))
    if not findings:
        return view
    named = next((finding.step for finding in findings if finding.step), None)
    bad = None
    if named:
        step = (named.src, named.dst)
        bad = steps.index(step) if step in steps else None
        if bad is None:
            steps, bad = (*steps, step), len(steps)
    return replace(view, steps=steps, note="; ".join(str(f) for f in findings), bad=bad)


def _position_at(result: GameReplay, action_index: int) -> Position:
    """The position when the record's action ``action_index`` comes: after the last play before it
    (a roll with no play recorded, rolled then resigned, leaves the board as it was)."""
    played = [play for play in (*result.turns, *result.passed_plays) if play.action < action_index]
    assert result.start is not None  # a replay with a start
    return max(played, key=lambda play: play.action).after if played else result.start


def over_text(view: BoardView, lang: str) -> str | None:
    """``game over: White won with mars, 2 points``, or None while the game goes on."""
    if view.over is None:
        return None
    ending, winner, points = view.over
    if ending == "draw" or winner is None:
        return tr("game_drawn", lang)
    how = (tr(f"how_{outcome}", lang) if (outcome := _outcome(view)) else "") if ending == "finish" else \
        tr(f"how_{ending}", lang) if ending in ("drop", "resign") else ending or ""
    return tr("game_over", lang, side=tr(SIDE_KEYS[winner], lang), how=how,
              points=plural("points", points, lang) if points is not None else "?").replace("  ", " ")


def _outcome(view: BoardView) -> str | None:
    from nardy_cli.core.engine import outcome_category

    winner = view.over[1] if view.over else None
    return outcome_category(view.position, WHITE if winner == BLACK else BLACK) if winner else None


def cube_text(position: Position, lang: str) -> str | None:
    """``cube 2, Black's``; None for a cube never turned."""
    if position.cube_value == 1 and position.cube_owner is None:
        return None
    owner = tr(f"cube_{position.cube_owner}", lang) if position.cube_owner else tr("cube_centre", lang)
    return f"{tr('cube', lang)} {position.cube_value}, {owner}"


def steps_text(view: BoardView, lang: str) -> str:
    """The play's steps as written (the mover's numbering) and, for Black, in White's numbering too."""
    written = " ".join(f"{point_name(src)}/{point_name(dst)}" for src, dst in view.steps)
    mover = view.mover or view.position.turn
    if mover == WHITE:
        return written
    variant = view.position.variant
    shown = " ".join(f"{_white(variant, mover, src)}/{_white(variant, mover, dst)}" for src, dst in view.steps)
    return f"{written} = {shown} ({tr('white_numbering', lang)})"


def _step_marks(view: BoardView) -> dict[int, str]:
    """Points of the play in White's numbering: ``-`` where a checker left, ``+`` where one went
    (``+`` wins where a checker passed through)."""
    mover, variant = view.mover or view.position.turn, view.position.variant
    marks: dict[int, str] = {}
    for src, dst in view.steps:
        if src not in (BAR, OFF):
            marks.setdefault(white_point(variant, mover, src), "-")
        if dst not in (BAR, OFF):
            marks[white_point(variant, mover, dst)] = "+"
    return marks


def _white(variant: str, side: Side, point: int) -> str:
    return point_name(point) if point in (BAR, OFF) else str(white_point(variant, side, point))



# --- text --------------------------------------------------------------------------------


def _cell(occupant: tuple[Side, int] | None, row: int) -> str:
    """Row ``row`` (0 at the edge) of a stack drawn three characters wide."""
    if occupant is None or occupant[1] <= row:
        return " " * CELL
    side, count = occupant
    text = str(count) if row == STACK - 1 and count > STACK else MARKS[side]
    return f"{text:^{CELL}}"


def side_text(position: Position, side: Side, lang: str) -> str:
    """``White:  pips 167, off 0`` and the checkers on the bar, if any."""
    board = position.board(side)
    text = (f"{tr(SIDE_KEYS[side], lang)}:  {tr('pips', lang)} {position.pips(side)}, "
            f"{tr('off', lang)} {board[OFF]}")
    return text + (f", {tr('bar', lang)} {board[BAR]}" if board[BAR] else "")


def turn_line(view: BoardView, lang: str) -> str:
    """Variant, side to move and the dice: the ones to play, or the ones the other side just played;
    the cube; or how the game ended."""
    position = view.position
    line = tr("to_move", lang, side=tr(SIDE_KEYS[position.turn], lang))
    if view.dice:
        dice = f"{view.dice[0]}-{view.dice[1]}"
        mover = view.mover or position.turn
        if mover == position.turn and view.over is None:
            line += f", {tr('dice', lang)} {dice}"
        else:
            line = tr("rolled", lang, side=tr(SIDE_KEYS[mover], lang), dice=dice) + f" · {line}"
    if view.passes:  # inside a cascade: the side to move first plays the steps passed to it
        line += " · " + tr("passes", lang, steps=sequence_text(view.passes))
    over = over_text(view, lang)
    if over:
        line = line.split(" · ")[0] + f" · {over}" if view.dice else over
    cube = cube_text(position, lang)
    return f" {tr(position.variant, lang)} · {line}" + (f" · {cube}" if cube else "") + f" ({tr('numbering', lang)})"


def heading(view: BoardView, lang: str) -> list[str]:
    """The players and the move shown, when the view is of a game."""
    lines = []
    if view.names:
        lines.append(f" {MARKS[WHITE]} {view.names[0]} ({tr('white', lang)}) – {MARKS[BLACK]} {view.names[1]} "
                     f"({tr('black', lang)})")
    if view.caption:
        lines.append(f" {tr('move', lang)} {view.caption}")
    return lines


def _xgid(position: Position, result: GameReplay, dice: tuple[int, int] | None = None) -> str | None:
    if position.variant != "short":
        return None
    from nardy_cli.analysis.positions import position_xgid  # the IDs' codecs load for short nardy only

    return position_xgid(position, result.record, dice)


def id_lines(view: BoardView) -> list[str]:
    """Short nardy: the position's GNU Backgammon Position ID and, on a game's board, its XGID (as
    ``turns.csv`` gives it; before a roll, with the dice to play), to paste into those programs."""
    if view.position.variant != "short":
        return []
    from nardy_cli.analysis.positions import gnubg_position_id

    return [f" Position ID: {gnubg_position_id(view.position)}" + (f"  {view.xgid}" if view.xgid else "")]


def text_diagram(view: BoardView, lang: str = "en") -> str:
    """The position as a text diagram: ``O`` White, ``X`` Black, a stack over five shows its count."""
    position = view.position
    points = board_points(position)
    short = VARIANTS[position.variant].bar
    bars = {WHITE: (WHITE, position.white[BAR]), BLACK: (BLACK, position.black[BAR])}

    def numbers(half: tuple[int, ...]) -> str:
        left, right = ("".join(f"{p:^{CELL}}" for p in half[i:i + 6]) for i in (0, 6))
        return f"  {left}{' ' * (CELL + 2)}{right}"

    def rows(half: tuple[int, ...], bar: tuple[Side, int], order: range) -> list[str]:
        return [" |" + "".join(_cell(points.get(p), r) for p in half[:6]) + "|" + _cell(bar, r) + "|"
                + "".join(_cell(points.get(p), r) for p in half[6:]) + "|" for r in order]

    marks = _step_marks(view)

    def marked(half: tuple[int, ...]) -> list[str]:
        """A row of the play's marks by the numbers of ``half``: ``-`` where a checker left, ``+`` where it went."""
        if not any(point in marks for point in half):
            return []
        left, right = ("".join(f"{marks.get(p, ''):^{CELL}}" for p in half[i:i + 6]) for i in (0, 6))
        return [f"  {left}{' ' * (CELL + 2)}{right}"]

    border = " +" + "-" * 6 * CELL + "+" + "-" * CELL + "+" + "-" * 6 * CELL + "+"
    middle = " |" + " " * 6 * CELL + ("|BAR|" if short else "|   |") + " " * 6 * CELL + "|"
    lines = [*heading(view, lang), *marked(TOP), numbers(TOP), border, *rows(TOP, bars[WHITE], range(STACK)),
             middle, *rows(BOTTOM, bars[BLACK], range(STACK - 1, -1, -1)), border, numbers(BOTTOM), *marked(BOTTOM),
             *(f" {MARKS[side]} {side_text(position, side, lang)}" for side in (WHITE, BLACK)),
             turn_line(view, lang), *id_lines(view)]
    if view.steps:
        lines.append(" >> " + steps_text(view, lang) + f" ({tr('marks', lang)})")
    if view.note:
        lines.append(" !! " + view.note)
    return "\n".join(line.rstrip() for line in lines)
