"""Pictures of a position: a text diagram for the terminal and a matplotlib drawing.

Both show the board from White's side, in White's numbering: points 13–24 on
top (left to right), 12–1 below. Each side's checkers stand at the physical
point :func:`~nardy_cli.core.position.opposite_point` gives, so long nardy (both
sides counter-clockwise) and short nardy come out right. Short nardy's bar is
in the middle: White's checkers on it above, Black's below.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nardy_cli.analysis.aggregates import SIDE_KEYS
from nardy_cli.core.engine import sequence_text
from nardy_cli.core.moves import point_name
from nardy_cli.core.position import Position, opposite_point
from nardy_cli.core.sides import BAR, BLACK, OFF, SIDE_NAMES, WHITE, Side
from nardy_cli.core.variants import VARIANTS
from nardy_cli.replay import GameReplay, action_text, replay
from nardy_cli.reporting.labels import plural, tr

if TYPE_CHECKING:  # matplotlib is imported only to draw a picture: a text board starts fast
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

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
        return BoardView(result.start, names=names)
    replayed = next((t for t in result.turns if t.turn == turn), None)
    if replayed is not None:
        position = replayed.before if before else replayed.after
    elif turn == stopped_at:
        assert result.final is not None  # a replay with a start has a final position
        position = result.final
    else:
        raise ValueError(f"the game has no replayed roll {turn}: its rolls are 1-{last}")
    action = [action for action in result.record.actions if action.kind == "roll"][turn - 1]
    number = f"{action.number} " if action.number is not None else ""
    caption = f"{number}{SIDE_NAMES[action.side]} {action_text(action)}"
    over = (result.ending, result.winner, result.points) if result.ending and turn == last and not before else None
    steps = tuple((move.path[i], move.path[i + 1]) for move in action.moves or () for i in range(len(move.path) - 1))
    findings = [finding for finding in result.findings if finding.turn == turn]
    passes = () if before or replayed is None else replayed.passed
    view = BoardView(position, action.dice, action.side, steps, names=names, caption=caption, over=over,
                     passes=passes)
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


def finding_boards(findings: list[dict[str, Any]], folder: Path, lang: str = "en", limit: int = 50) -> list[str | None]:
    """For each finding (the dicts of ``validate --format json``), the name of a PNG picture of its
    board written under ``folder`` (``boards/…``), or None: the first ``limit`` findings with a turn,
    each game read again from its file and replayed under the finding's rules."""
    from nardy_cli.reporting.charts import save_figure
    from nardy_cli.run.corpus import iter_games

    wanted: dict[str, dict[int, list[int]]] = {}
    for index, finding in enumerate(findings):
        if finding.get("turn") and sum(len(v) for games in wanted.values() for v in games.values()) < limit:
            wanted.setdefault(finding["path"], {}).setdefault(finding["game"], []).append(index)
    names: list[str | None] = [None] * len(findings)
    for stale in (folder / "boards").glob("finding-*.png"):  # of an earlier report
        stale.unlink()
    for path, games in wanted.items():
        for game in iter_games([path], on_error=lambda message: None):
            for index in games.get(game.index, ()):
                finding = findings[index]
                result = replay(game.record, str(finding["rules"]).split()[1:])
                try:
                    view = turn_view(result, int(finding["turn"]))
                except ValueError:
                    continue
                name = f"boards/finding-{index + 1}.png"
                (folder / "boards").mkdir(exist_ok=True)
                save_figure(board_figure(view, lang), folder / name, force=True)
                names[index] = name
    return names


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


def _side_text(position: Position, side: Side, lang: str) -> str:
    """``White:  pips 167, off 0`` and the checkers on the bar, if any."""
    board = position.board(side)
    text = (f"{tr(SIDE_KEYS[side], lang)}:  {tr('pips', lang)} {position.pips(side)}, "
            f"{tr('off', lang)} {board[OFF]}")
    return text + (f", {tr('bar', lang)} {board[BAR]}" if board[BAR] else "")


def _turn_line(view: BoardView, lang: str) -> str:
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


def _heading(view: BoardView, lang: str) -> list[str]:
    """The players and the move shown, when the view is of a game."""
    lines = []
    if view.names:
        lines.append(f" {MARKS[WHITE]} {view.names[0]} ({tr('white', lang)}) – {MARKS[BLACK]} {view.names[1]} "
                     f"({tr('black', lang)})")
    if view.caption:
        lines.append(f" {tr('move', lang)} {view.caption}")
    return lines


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
    lines = [*_heading(view, lang), *marked(TOP), numbers(TOP), border, *rows(TOP, bars[WHITE], range(STACK)),
             middle, *rows(BOTTOM, bars[BLACK], range(STACK - 1, -1, -1)), border, numbers(BOTTOM), *marked(BOTTOM),
             *(f" {MARKS[side]} {_side_text(position, side, lang)}" for side in (WHITE, BLACK)),
             _turn_line(view, lang)]
    if view.steps:
        lines.append(" >> " + steps_text(view, lang) + f" ({tr('marks', lang)})")
    if view.note:
        lines.append(" !! " + view.note)
    return "\n".join(line.rstrip() for line in lines)


# --- picture -----------------------------------------------------------------------------

BOARD_WIDTH, HALF, GAP, TRAY_X = 13.0, 5.0, 1.0, 13.9
HEIGHT = 2 * HALF + GAP
CHECKER_RADIUS = 0.46
COLOURS = {
    "frame": "#5c3a1e", "felt": "#f3e3c3", "dark": "#b5651d", "light": "#e8c07d", "bar": "#8b5a2b",
    WHITE: "#fdfaf2", BLACK: "#2b2b2b", "highlight": "#d62728", "play": "#1f77b4",
}


def _column_x(point: int) -> float:
    """The x of a point's centre (White's numbering): 13-24 left to right on top, 12-1 below."""
    column = point - 13 if point >= 13 else 12 - point
    return column + 0.5 + (1 if column >= 6 else 0)


def _stack_y(point: int, index: int) -> float:
    """The y of the ``index``-th checker of a point's stack, counted from the board's edge."""
    return HEIGHT - 0.5 - index if point >= 13 else 0.5 + index


def _anchor(variant: str, side: Side, point: int) -> tuple[float, float]:
    """Where an arrow for ``side``'s point (own numbering, 25 bar, 0 off) starts or ends."""
    if point == BAR:
        return BOARD_WIDTH / 2, HALF + GAP + 0.5 if side == WHITE else HALF - 0.5
    if point == OFF:
        return TRAY_X, 1.5 if side == WHITE else HEIGHT - 1.5
    physical = white_point(variant, side, point)
    return _column_x(physical), _stack_y(physical, 2)


def _ink(side: Side) -> str:
    """The colour of text written on ``side``'s checkers and dice."""
    return COLOURS[BLACK] if side == WHITE else COLOURS[WHITE]


def _checker(axes: Axes, x: float, y: float, side: Side, label: str = "") -> None:
    from matplotlib.patches import Circle

    axes.add_patch(Circle((x, y), CHECKER_RADIUS, facecolor=COLOURS[side], edgecolor="black", linewidth=1))
    if label:
        axes.text(x, y, label, ha="center", va="center", fontsize=9, fontweight="bold", color=_ink(side))


def _draw_board(axes: Axes, short: bool) -> None:
    from matplotlib.patches import Polygon, Rectangle

    axes.add_patch(Rectangle((-0.2, -0.2), BOARD_WIDTH + 0.4, HEIGHT + 0.4, facecolor=COLOURS["frame"]))
    axes.add_patch(Rectangle((0, 0), BOARD_WIDTH, HEIGHT, facecolor=COLOURS["felt"]))
    axes.add_patch(Rectangle((6, 0), 1, HEIGHT, facecolor=COLOURS["bar"]))
    axes.add_patch(Rectangle((TRAY_X - 0.6, 0), 1.2, HEIGHT, facecolor=COLOURS["felt"],
                             edgecolor=COLOURS["frame"], linewidth=3))
    for point in range(1, 25):
        x, top = _column_x(point), point >= 13
        base, tip = (HEIGHT, HEIGHT - 0.9 * HALF) if top else (0, 0.9 * HALF)
        colour = COLOURS["dark"] if point % 2 else COLOURS["light"]
        axes.add_patch(Polygon([(x - 0.5, base), (x + 0.5, base), (x, tip)], facecolor=colour))
        axes.text(x, HEIGHT + 0.45 if top else -0.45, str(point), ha="center", va="center", fontsize=9)
    if short:
        axes.text(BOARD_WIDTH / 2, HEIGHT / 2, "BAR", ha="center", va="center", color="white", fontsize=7)


def _draw_checkers(axes: Axes, position: Position) -> None:
    from matplotlib.patches import Rectangle

    for point, (side, count) in board_points(position).items():
        for index in range(min(count, STACK)):
            label = str(count) if index == STACK - 1 and count > STACK else ""
            _checker(axes, _column_x(point), _stack_y(point, index), side, label)
    for side, start, direction in ((WHITE, HALF + GAP + 0.5, 1), (BLACK, HALF - 0.5, -1)):
        count = position.board(side)[BAR]
        for index in range(min(count, BAR_STACK)):
            label = str(count) if index == BAR_STACK - 1 and count > BAR_STACK else ""
            _checker(axes, BOARD_WIDTH / 2, start + direction * index, side, label)
    for side, start, direction in ((WHITE, 0.15, 1), (BLACK, HEIGHT - 0.4, -1)):
        count = position.borne_off(side)
        for index in range(count):
            axes.add_patch(Rectangle((TRAY_X - 0.45, start + direction * index * 0.28), 0.9, 0.25,
                                     facecolor=COLOURS[side], edgecolor="black", linewidth=0.8))
        if count:  # the count just past the top of its own stack
            axes.text(TRAY_X, start + direction * (count * 0.28 + 0.2) + (0.1 if side == WHITE else 0.15),
                      str(count), ha="center", va="center", fontsize=9, fontweight="bold")


def _draw_dice(axes: Axes, dice: tuple[int, int], side: Side) -> None:
    from matplotlib.patches import Rectangle

    for index, die in enumerate(dice):
        x = 9.0 + index * 1.0
        axes.add_patch(Rectangle((x - 0.4, HALF + 0.1), 0.8, 0.8, facecolor=COLOURS[side], edgecolor="black"))
        axes.text(x, HALF + GAP / 2, str(die), ha="center", va="center", fontsize=11, fontweight="bold",
                  color=_ink(side))


def _draw_cube(axes: Axes, position: Position, lang: str) -> None:
    """The cube left of the board: in the middle when centred, else on its owner's side (White's
    below, Black's above)."""
    from matplotlib.patches import Rectangle

    y = {None: HEIGHT / 2, WHITE: 1.0, BLACK: HEIGHT - 1.0}[position.cube_owner]
    axes.add_patch(Rectangle((-1.35, y - 0.45), 0.9, 0.9, facecolor="white", edgecolor="black", linewidth=1.5))
    axes.text(-0.9, y, str(position.cube_value if position.cube_owner else 64 if position.cube_value == 1
                           else position.cube_value), ha="center", va="center", fontsize=11, fontweight="bold")
    axes.text(-0.9, y - 0.75 if position.cube_owner != BLACK else y + 0.75, tr("cube", lang), ha="center",
              va="center", fontsize=7)


def board_figure(view: BoardView, lang: str = "en") -> Figure:
    """The position as a picture: the players, the move, triangles, checkers (counts on tall stacks),
    bar, borne-off trays, pip counts, dice, the cube, whose turn or how the game ended, the play's
    steps as arrows (the one a finding names in red) and the finding in red."""
    from matplotlib.patches import FancyArrowPatch

    from nardy_cli.reporting.charts import new_figure

    position = view.position
    title = "\n".join([*(line.strip() for line in _heading(view, lang)), _turn_line(view, lang).strip()])
    figure = new_figure(title, (9.0, 7.6 + 0.3 * len(_heading(view, lang))))
    axes = figure.add_subplot()
    _draw_board(axes, VARIANTS[position.variant].bar)
    _draw_checkers(axes, position)
    cube = VARIANTS[position.variant].cube or cube_text(position, lang) is not None
    if cube:
        _draw_cube(axes, position, lang)
    mover = view.mover or position.turn
    if view.dice:
        _draw_dice(axes, view.dice, mover)
    for index, (src, dst) in enumerate(view.steps):
        start, end = (_anchor(position.variant, mover, point) for point in (src, dst))
        red = view.note is not None and (view.bad is None or index == view.bad)
        axes.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=22, linewidth=3 if red else 2,
                                       color=COLOURS["highlight"] if red else COLOURS["play"],
                                       connectionstyle="arc3,rad=0.25", zorder=3))
    sides = "     ".join(_side_text(position, side, lang) for side in (WHITE, BLACK))
    axes.text(BOARD_WIDTH / 2, -1.2, sides, ha="center", va="center", fontsize=10)
    if view.steps:
        axes.text(BOARD_WIDTH / 2, -1.75, steps_text(view, lang), ha="center", va="center", fontsize=9)
    if view.note:
        axes.text(BOARD_WIDTH / 2, -2.3, textwrap.fill(view.note, 100), ha="center", va="top",
                  color=COLOURS["highlight"], fontsize=9)
    axes.set_xlim(-1.6 if cube else -0.4, TRAY_X + 0.8)
    axes.set_ylim(-3.7 if view.note else -2.2 if view.steps else -1.8, HEIGHT + 0.9)
    axes.set_aspect("equal")
    axes.set_axis_off()
    return figure
