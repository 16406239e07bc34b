"""Results, match scores and the Crawford game: one home for each, used by every reader, writer,
the replay and the match checks.

A result token is ``W-B`` (the points each side won, one of them 0), ``1/2-1/2`` (a draw) or
``*`` (unfinished); a match score is ``W-B`` too, White first. Match length 0 is a money game.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from nardy_cli.core.compiled import Value
from nardy_cli.core.sides import BLACK, WHITE, Side

_PAIR_RE: Final = re.compile(r"\s*(\d{1,9})\s*-\s*(\d{1,9})\s*")  # longer numbers are no scores
DRAW: Final = "1/2-1/2"
UNFINISHED: Final = "*"
RESULT_TOKEN: Final = r"(?:0|[1-9]\d{0,8})-0|0-[1-9]\d{0,8}|1/2-1/2|\*"
"""A result as a word of movetext (NTN's grammar): one side's points, a draw or unfinished."""


class Score(Value):
    """A match score before a game: the points each side has, White first (read-only).

    A plain class, not a frozen dataclass: compiled, a dataclass's generated __init__ runs as
    interpreted code, and the match checks make scores for every game."""

    __slots__ = ("_white", "_black")
    __match_args__ = ("white", "black")

    def __init__(self, white: int = 0, black: int = 0) -> None:
        self._white, self._black = white, black

    @property
    def white(self) -> int:
        return self._white

    @property
    def black(self) -> int:
        return self._black

    def _fields(self) -> tuple[int, int]:
        return self._white, self._black

    @classmethod
    def parse(cls, text: str | None) -> Score | None:
        """``3-1`` as a Score; None when ``text`` is no ``W-B`` pair."""
        match = _PAIR_RE.fullmatch(text or "")
        return cls(int(match[1]), int(match[2])) if match else None

    def of(self, side: Side) -> int:
        return self.white if side == WHITE else self.black

    def plus(self, side: Side, points: int) -> Score:
        """The score after ``side`` wins ``points``."""
        return Score(self.white + points, self.black) if side == WHITE else Score(self.white, self.black + points)

    def __str__(self) -> str:
        return f"{self.white}-{self.black}"


class Result(Value):
    """A declared game result: a winner and the points won, or a draw (``winner`` None, 0 points)
    (read-only).

    A plain class, not a frozen dataclass: defining one compiles its six generated methods at
    every start (about 5 M instructions, as much as replaying a hundred turns)."""

    __slots__ = ("_winner", "_points")
    __match_args__ = ("winner", "points")

    def __init__(self, winner: Side | None, points: int = 0) -> None:
        self._winner, self._points = winner, points

    @property
    def winner(self) -> Side | None:
        return self._winner

    @property
    def points(self) -> int:
        return self._points

    def _fields(self) -> tuple[Side | None, int]:
        return self._winner, self._points

    @classmethod
    def parse(cls, text: str) -> Result | None:
        """``2-0``, ``0-3`` or ``1/2-1/2`` as a Result; None for ``*`` and for anything else
        (see :func:`result_error` for why)."""
        if text.strip() == DRAW:
            return cls(None)
        match = _PAIR_RE.fullmatch(text)
        if not match:
            return None
        white, black = int(match[1]), int(match[2])
        if (white == 0) == (black == 0):
            return None
        return cls(WHITE, white) if white else cls(BLACK, black)

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def __str__(self) -> str:
        if self.winner is None:
            return DRAW
        return f"{self.points}-0" if self.winner == WHITE else f"0-{self.points}"


def result_error(text: str) -> str | None:
    """Why ``text`` is not a result token (None when it is one, ``*`` included)."""
    if text.strip() == UNFINISHED or Result.parse(text) is not None:
        return None
    if _PAIR_RE.fullmatch(text):
        return f"result {text} names no single winner"
    return f"unreadable result {text!r}: expected W-B points, 1/2-1/2 or *"


def match_length(text: str | None) -> int:
    """The match length a ``MatchLength`` tag gives; 0 (money play) when absent or not a number."""
    text = (text or "").strip()
    return int(text) if text.isdigit() and len(text) <= 9 else 0


def is_money(length: int) -> bool:
    """Money play: no match length."""
    return length <= 0


def is_first_game(number: str | None) -> bool:
    """Whether a game's number (its ``Game`` tag) makes it the first game of a match, another match
    than the games before it with the same players: ``1``, written as it may be (``01``)."""
    text = (number or "").strip()
    return text.isdecimal() and int(text) == 1


def is_crawford_game(score: Score, length: int, *, crawford_played: bool | None = False) -> bool | None:
    """Whether a game played at ``score`` is the match's Crawford game: the first game after one
    side (only) reached ``length - 1``. At double match point the Crawford game is over.

    ``crawford_played`` None: the record begins the match with this game, not at its start. At 4-2
    in a 5-point match the side behind may have won the Crawford game and more: None, it cannot
    be told. At 4-0 it is the Crawford game: the side behind has won no game since."""
    needed = length - 1
    if needed <= 0 or (score.white == needed) == (score.black == needed) or max(score.white, score.black) >= length:
        return False
    if crawford_played is None:
        return True if min(score.white, score.black) == 0 else None
    return not crawford_played


def crawford_over(score: Score, length: int, *, crawford_played: bool | None, crawford: bool | None) -> bool:
    """Whether the Crawford game is over after a game at ``score`` (``crawford``: it was the
    Crawford game, None when that cannot be told): from a game with a side at ``length - 1`` on,
    every game is the Crawford game or one after it."""
    return bool(crawford_played) or bool(crawford) or max(score.white, score.black) >= length - 1


def point_readings(full: int, winner_score: int, length: int) -> tuple[int, ...]:
    """The figures a server may write for a game worth ``full`` points that a side at
    ``winner_score`` wins in a match of ``length``: the full value, capped at the points the winner
    needed (GNU Backgammon writes either), capped at the match length (Backgammon Galaxy)."""
    if is_money(length):
        return (full,)
    return tuple(dict.fromkeys((full, min(full, max(length - winner_score, 0)), min(full, length))))


RESIGNATION_LEVELS = (1, 2, 3)  # single, gammon (mars), backgammon (koks)


def final_cube(kinds: Iterable[str]) -> int:
    """The cube value after the cube actions ``kinds`` (a take doubles it, a beaver quadruples it)."""
    cube = 1
    for kind in kinds:
        cube *= 2 if kind == "take" else 4 if kind == "beaver" else 1
    return cube


def resignation_level(points: int, cube: int, winner_score: int, length: int,
                      levels: Iterable[int] = RESIGNATION_LEVELS) -> int | None:
    """The level (1 single, 2 gammon, 3 backgammon, or a scheme's own ``levels``) of a resignation
    stated as ``points`` on a ``cube``-cube, the smallest whose value a server may state that way
    (see :func:`point_readings`); None when none can."""
    return next((level for level in sorted(levels)
                 if points in point_readings(level * cube, winner_score, length)), None)

