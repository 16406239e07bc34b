"""The two sides and the special points, in every variant's mover numbering."""
from __future__ import annotations

from typing import Final, Literal

Side = Literal["w", "b"]
"""``w`` (White) or ``b`` (Black): who is on roll, who owns a checker."""

# Final: compiled code then reads these constants without looking them up by name
WHITE: Final[Side] = "w"
BLACK: Final[Side] = "b"
SIDES: Final[tuple[Side, Side]] = (WHITE, BLACK)
SIDE_NAMES: Final[dict[Side, str]] = {WHITE: "White", BLACK: "Black"}

BAR: Final = 25
"""The bar, in the mover's numbering (point 25); a move from it enters."""
OFF: Final = 0
"""Off the board, in the mover's numbering (point 0); a move to it bears off."""


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return BLACK if side == WHITE else WHITE
