"""Immutable positions of both games and the position notation of formats/position.md.

A side's checkers are a 26-tuple in its *own* numbering: index 0 counts the
checkers borne off, 1-24 the points (24 = the start of its route, 1 = the last
point of its home), 25 the bar (short nardy only).
"""
from __future__ import annotations

import re
from typing import Final, cast

from nardy_cli.core.compiled import Value
from nardy_cli.core.moves import point_name
from nardy_cli.core.sides import BAR, BLACK, OFF, SIDE_NAMES, SIDES, WHITE, Side
from nardy_cli.core.variants import CHECKERS, HEAD, NACKGAMMON_START, NAMES, VARIANTS, Board, VariantError, VariantName
from nardy_cli.core.variants import variant as variant_entry


def opposite_point(variant: str, point: int) -> int:
    """The same point of the board in the other side's numbering (1-24)."""
    return VARIANTS[variant].opposite[point]


class PositionError(ValueError):
    """A position text or board that cannot be a position of the game."""


class Position(Value):
    """Both sides' checkers, the side to move and what the rules need besides (read-only).

    ``first`` holds the sides still to make their first turn (long nardy's head
    exception and opening rules); ``cube_value``/``cube_owner`` the doubling
    cube (owner None = centred).
    """

    # A plain class with read-only properties, not a frozen dataclass: the engine makes one every
    # turn, and compiled, a frozen dataclass can only be filled by seven generic attribute calls.
    __slots__ = ("_variant", "_turn", "_white", "_black", "_first", "_cube_value", "_cube_owner")
    __match_args__ = ("variant", "turn", "white", "black", "first", "cube_value", "cube_owner")

    def __init__(self, variant: VariantName, turn: Side, white: Board, black: Board,
                 first: frozenset[Side] = frozenset(), cube_value: int = 1, cube_owner: Side | None = None,
                 *, check: bool = True) -> None:
        """The position; :class:`PositionError` when it cannot be one of the game. ``check=False``
        trusts the caller to keep these invariants (the engine, from a checked position)."""
        self._variant, self._turn, self._white, self._black = variant, turn, white, black
        self._first, self._cube_value, self._cube_owner = first, cube_value, cube_owner
        if not check:
            return
        try:
            entry = variant_entry(variant)
        except VariantError as error:
            raise PositionError(str(error)) from None
        for side, board in ((WHITE, white), (BLACK, black)):
            if len(board) != 26 or any(n < 0 for n in board):
                raise PositionError(f"{SIDE_NAMES[side]}'s board must have 26 non-negative counts")
            if sum(board) != CHECKERS:
                raise PositionError(f"{SIDE_NAMES[side]} has {sum(board)} checkers, not {CHECKERS}")
            if not entry.bar and board[BAR]:
                raise PositionError(f"{entry.title} has no bar")
        for point in range(1, 25):
            if white[point] and black[entry.opposite[point]]:
                raise PositionError(f"White's point {point} holds checkers of both sides")

    @property
    def variant(self) -> VariantName:
        return self._variant

    @property
    def turn(self) -> Side:
        return self._turn

    @property
    def white(self) -> Board:
        return self._white

    @property
    def black(self) -> Board:
        return self._black

    @property
    def first(self) -> frozenset[Side]:
        return self._first

    @property
    def cube_value(self) -> int:
        return self._cube_value

    @property
    def cube_owner(self) -> Side | None:
        return self._cube_owner

    def _fields(self) -> tuple[VariantName, Side, Board, Board, frozenset[Side], int, Side | None]:
        return (self._variant, self._turn, self._white, self._black, self._first, self._cube_value,
                self._cube_owner)

    def with_turn(self, turn: Side) -> Position:
        """The same position with ``turn`` to move."""
        return self.unchecked(turn, self._white, self._black, self._first)

    def with_cube(self, value: int, owner: Side | None) -> Position:
        """The same position with the cube at ``value``, owned by ``owner`` (None: centred)."""
        return Position(self._variant, self._turn, self._white, self._black, self._first, value, owner, check=False)

    @classmethod
    def start(cls, variant: str = "long", turn: Side = WHITE) -> Position:
        """The starting position of a variant of the table; :class:`PositionError` for another name."""
        try:
            entry = variant_entry(variant)
        except VariantError as error:
            raise PositionError(str(error)) from None
        return cls(entry.name, turn, entry.start, entry.start, frozenset(SIDES) if entry.first_turns else frozenset())

    @classmethod
    def nackgammon(cls, turn: Side = WHITE) -> Position:
        """Nackgammon's start: how GNU Backgammon's and eXtreme Gammon's Nackgammon games are read."""
        return cls("short", turn, NACKGAMMON_START, NACKGAMMON_START)

    def unchecked(self, turn: Side, white: Board, black: Board, first: frozenset[Side]) -> Position:
        """A copy with new boards, turn and first-turn sides, trusting the caller (the engine)
        to keep the invariants that construction checks."""
        return Position(self._variant, turn, white, black, first, self._cube_value, self._cube_owner, check=False)

    def board(self, side: Side) -> Board:
        return self._white if side == WHITE else self._black

    def pips(self, side: Side) -> int:
        """Pip count: the sum of the point numbers of the side's checkers (bar = 25)."""
        board = self.board(side)
        return sum(point * board[point] for point in range(1, 26))

    def borne_off(self, side: Side) -> int:
        return self.board(side)[OFF]

    def winner(self) -> Side | None:
        """The side that has borne off all its checkers, if any."""
        if self._white[OFF] == CHECKERS:  # asked after every turn: the two sides written out
            return WHITE
        return BLACK if self._black[OFF] == CHECKERS else None

    def is_over(self) -> bool:
        return self.winner() is not None

    # --- position notation ---------------------------------------------------------

    def __str__(self) -> str:
        fields_ = [self.variant, self.turn, format_board(self.white), format_board(self.black)]
        first = "".join(side for side in SIDES if side in self.first) or "-"
        if first != default_first(self.variant, self.white, self.black):
            fields_.append(first)
        if self.cube_value != 1 or self.cube_owner:
            fields_.append(f"cube={self.cube_value}{self.cube_owner or ''}")
        return " ".join(fields_)

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read ``<variant> <side> <white> <black> [<first>] [cube=<value><owner>]``."""
        words = text.split()
        if len(words) < 4:
            raise PositionError(f"expected '<variant> <side> <white> <black> [<first>]', found {text!r}")
        variant, turn, white_text, black_text, *rest = words
        if variant not in NAMES:
            raise PositionError(f"unknown variant {variant!r}: expected one of {', '.join(NAMES)}")
        if turn not in SIDES:
            raise PositionError(f"side to move must be w or b, found {turn!r}")
        boards = []
        for name, board_text in (("White", white_text), ("Black", black_text)):
            try:
                boards.append(parse_board(board_text))
            except PositionError as error:
                raise PositionError(f"{name}'s checkers: {error}") from None
        white, black = boards
        first_text, cube_value, cube_owner = None, 1, None
        for word in rest:
            cube = re.fullmatch(r"cube=(\d{1,9})([wb]?)", word)
            if cube:
                cube_value, cube_owner = int(cube.group(1)), cast("Side | None", cube.group(2) or None)
                if cube_value < 1 or cube_value & (cube_value - 1):
                    raise PositionError(f"cube value must be a power of two, found {cube_value}")
            elif first_text is None and re.fullmatch(r"w?b?|-", word):
                first_text = word
            else:
                raise PositionError(f"expected first-turn sides (wb, w, b, -) or cube=N[w|b], found {word!r}")
        if first_text is None:
            first_text = default_first(variant, white, black)
        first = frozenset(side for side in SIDES if side in first_text)
        return cls(variant, turn, white, black, first, cube_value, cube_owner)


def default_first(variant: str, white: Board, black: Board) -> str:
    """Sides presumed on their first turn: where the head rule has a first-turn exception, those
    with all 15 on the head."""
    if not VARIANTS[variant].first_turns:
        return "-"
    return "".join(side for side, board in ((WHITE, white), (BLACK, black))
                   if board[HEAD] == CHECKERS) or "-"


def _point_text(point: int, count: int) -> str:
    """``13x5``, ``6`` or ``barx2``: one point of :func:`format_board`."""
    name = point_name(point)
    return name if count == 1 else f"{name}x{count}"


_POINT_TEXTS: Final = tuple(tuple(_point_text(point, count) for count in range(CHECKERS + 1)) for point in range(26))
"""By point and count: every point of a position's board, made once (a position is written at every
turn of the turns table)."""


def format_board(board: Board) -> str:
    """``24x2,13x5,8x3,6x5``: points highest first, ``bar`` for the bar, ``-`` for none."""
    parts = []
    for point in range(25, 0, -1):
        count = board[point]
        if count:
            parts.append(_POINT_TEXTS[point][count] if 0 < count <= CHECKERS else _point_text(point, count))
    return ",".join(parts) or "-"


def parse_board(text: str) -> Board:
    """The inverse of :func:`format_board`; checkers not listed are borne off."""
    counts = [0] * 26
    if text != "-":
        for part in text.split(","):
            match = re.fullmatch(r"(bar|\d{1,2})(?:x(\d{1,2}))?", part.strip(), re.IGNORECASE)
            if not match:
                raise PositionError(f"expected a point like 13x5, 6 or bar, found {part!r}")
            point = BAR if match.group(1).lower() == "bar" else int(match.group(1))
            if not 1 <= point <= BAR:
                raise PositionError(f"point {point} is not on the board (1-24, bar)")
            if counts[point]:
                raise PositionError(f"point {point} is listed twice")
            counts[point] = int(match.group(2) or 1)
            if counts[point] == 0:
                raise PositionError(f"{part!r} lists no checkers")
    on_board = sum(counts)
    if on_board > CHECKERS:
        raise PositionError(f"{on_board} checkers listed, at most {CHECKERS}")
    counts[OFF] = CHECKERS - on_board
    return tuple(counts)

