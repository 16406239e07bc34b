"""A position as a picture (matplotlib): the board of :mod:`nardy_cli.reporting.board`, drawn.

Imported only to draw: ``nardy show -o`` and the boards of the HTML report's findings.
"""
from __future__ import annotations

import gc
import textwrap
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Polygon, Rectangle

from nardy_cli.core.position import Position
from nardy_cli.core.sides import BAR, BLACK, OFF, WHITE, Side
from nardy_cli.core.variants import VARIANTS
from nardy_cli.replay import replay
from nardy_cli.reporting.board import (
    BAR_STACK,
    STACK,
    BoardView,
    board_points,
    cube_text,
    heading,
    side_text,
    steps_text,
    turn_line,
    turn_view,
    white_point,
)
from nardy_cli.reporting.figures import new_figure, save_figure
from nardy_cli.reporting.labels import tr
from nardy_cli.run.corpus import iter_games

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
    axes.add_patch(Circle((x, y), CHECKER_RADIUS, facecolor=COLOURS[side], edgecolor="black", linewidth=1))
    if label:
        axes.text(x, y, label, ha="center", va="center", fontsize=9, fontweight="bold", color=_ink(side))


def _draw_board(axes: Axes, short: bool) -> None:
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
    for index, die in enumerate(dice):
        x = 9.0 + index * 1.0
        axes.add_patch(Rectangle((x - 0.4, HALF + 0.1), 0.8, 0.8, facecolor=COLOURS[side], edgecolor="black"))
        axes.text(x, HALF + GAP / 2, str(die), ha="center", va="center", fontsize=11, fontweight="bold",
                  color=_ink(side))


def _draw_cube(axes: Axes, position: Position, lang: str) -> None:
    """The cube left of the board: in the middle when centred, else on its owner's side (White's
    below, Black's above)."""
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
    position = view.position
    title = "\n".join([*(line.strip() for line in heading(view, lang)), turn_line(view, lang).strip()])
    figure = new_figure(title, (9.0, 7.6 + 0.3 * len(heading(view, lang))))
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
    sides = "     ".join(side_text(position, side, lang) for side in (WHITE, BLACK))
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


def finding_boards(findings: list[dict[str, Any]], folder: Path, lang: str = "en", limit: int = 50) -> list[str | None]:
    """For each finding (the dicts of ``validate --format json``), the name of a PNG picture of its
    board written under ``folder`` (``boards/…``), or None: the first ``limit`` findings with a turn,
    each game read again from its file and replayed under the finding's rules."""
    wanted: dict[str, dict[int, list[int]]] = {}
    for index, finding in enumerate(findings):
        if finding.get("turn") and sum(len(v) for games in wanted.values() for v in games.values()) < limit:
            wanted.setdefault(finding["path"], {}).setdefault(finding["game"], []).append(index)
    names: list[str | None] = [None] * len(findings)
    for stale in (folder / "boards").glob("finding-*.png"):  # of an earlier report
        stale.unlink()
    for path, games in wanted.items():
        last = max(games)
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
                # a figure's artists hold one another, so only the cycle collector frees them, and with
                # them the picture's 3 MB of pixels; the command's process runs it seldom (see cli.main):
                # 50 boards took 60 MB more without this
                gc.collect()
            if game.index >= last:  # (the rest of the file holds no game wanted)
                break
    return names
