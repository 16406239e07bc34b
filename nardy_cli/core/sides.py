"""The two sides and the special points, in every variant's mover numbering."""
from __future__ import annotations

from typing import Literal

Side = Literal["w", "b"]
"""``w`` (White) or ``b`` (Black): who is on roll, who owns a checker."""

WHITE: Side = "w"
BLACK: Side = "b"
SIDES: tuple[Side, Side] = (WHITE, BLACK)
SIDE_NAMES: dict[Side, str] = {WHITE: "White", BLACK: "Black"}

BAR = 25
"""The bar, in the mover's numbering (point 25); a move from it enters."""
OFF = 0
"""Off the board, in the mover's numbering (point 0); a move to it bears off."""


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return BLACK if side == WHITE else WHITE
