"""The actions of a game record (a roll and its play, a cube action, a resignation), the
analysis a program attached to them, and the cells of numbered rows they fill."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from nardy_cli.core.compiled import Value, picklable
from nardy_cli.core.moves import Move
from nardy_cli.core.sides import WHITE, Side


class Evaluation(Value):
    """A program's judgement of one decision, as the record carries it (formats/json.md).

    ``decision`` is ``move`` (the checker play of a roll), ``cube`` (to double or not: on a
    ``double`` action, or on a roll when the side did not double) or ``take`` (on a ``take``,
    ``drop`` or ``beaver``). ``played`` and ``best`` are the equities of the choice made and of
    the best choice, from the deciding side's point of view (None when not analysed), so
    ``best - played`` is the equity lost; ``luck`` is the luck of a roll's dice; ``level`` names
    how deep the program looked (``XGRoller++``, ``4-ply``...). Read-only.

    A plain class, not a frozen dataclass: defining one compiles its six generated methods at
    every start (see :class:`~nardy_cli.core.scores.Result`).
    """

    __slots__ = ("_decision", "_level", "_played", "_best", "_luck")
    __match_args__ = ("decision", "level", "played", "best", "luck")

    def __init__(self, decision: str, level: str = "", played: float | None = None, best: float | None = None,
                 luck: float | None = None) -> None:
        self._decision, self._level, self._played, self._best, self._luck = decision, level, played, best, luck

    @property
    def decision(self) -> str:
        return self._decision

    @property
    def level(self) -> str:
        return self._level

    @property
    def played(self) -> float | None:
        return self._played

    @property
    def best(self) -> float | None:
        return self._best

    @property
    def luck(self) -> float | None:
        return self._luck

    def _fields(self) -> tuple[str, str, float | None, float | None, float | None]:
        return self._decision, self._level, self._played, self._best, self._luck

    @property
    def lost(self) -> float | None:
        """The equity lost by the choice made (0 for the best), None when not analysed."""
        if self.played is None or self.best is None:
            return None
        return max(0.0, self.best - self.played)


ActionKind = Literal["roll", "double", "take", "drop", "beaver", "resign", "passed"]
"""What an :class:`Action` is (see there)."""
ACTION_KINDS: tuple[ActionKind, ...] = get_args(ActionKind)


@dataclass(init=False)
class Action:
    """One thing a side did: a roll (with its play), or a cube action, or a resignation.

    ``kind`` is one of ``roll``, ``double``, ``take``, ``drop``, ``beaver``, ``resign``, and
    ``passed``: in crazy nardy, the play of the steps the opponent's cascade passed to this side,
    right after that roll and with its dice (it takes no cell of its own).
    For a roll, ``moves`` is the play as written: ``()`` for "no play possible"
    and ``None`` when the record shows the roll but no play (a player who
    rolled and then resigned). ``value`` is the cube value offered by a
    ``double`` or the points of a ``resign`` when the record states them.
    ``analysis`` holds a program's evaluations of the decisions of this action.
    """

    side: Side
    kind: ActionKind = "roll"
    dice: tuple[int, int] | None = None
    moves: tuple[Move, ...] | None = None
    value: int | None = None
    number: int | None = None
    comments: list[str] = field(default_factory=list)
    line: int = 0
    column: int = 0
    analysis: tuple[Evaluation, ...] = ()

    # A written __init__, not the dataclass's: one is made for every cell of a record, and compiled,
    # a dataclass's generated __init__ runs as interpreted code, seven times as slow.
    def __init__(self, side: Side, kind: ActionKind = "roll", dice: tuple[int, int] | None = None,
                 moves: tuple[Move, ...] | None = None, value: int | None = None, number: int | None = None,
                 comments: list[str] | None = None, line: int = 0, column: int = 0,
                 analysis: tuple[Evaluation, ...] = ()) -> None:
        self.side, self.kind, self.dice, self.moves, self.value, self.number = side, kind, dice, moves, value, number
        self.comments = [] if comments is None else comments
        self.line, self.column, self.analysis = line, column, analysis

    @property
    def play_text(self) -> str:
        """The play in NTN/MAT text, ``-`` for no play, ``?`` when unrecorded."""
        if self.moves is None:
            return "?"
        return " ".join(str(m) for m in self.moves) if self.moves else "-"


def next_cell(cell: tuple[int, int], side: Side) -> tuple[int, int]:
    """The (row, column) an action of ``side`` fills after ``cell``: actions fill the cells of
    numbered rows, White's column (0) then Black's (1), as NTN and MAT lay them out.
    Start from ``(0, 1)``."""
    row, column = cell
    wanted = 0 if side == WHITE else 1
    row, column = (row, 1) if column == 0 else (row + 1, 0)
    if column != wanted:
        row, column = (row, 1) if column == 0 else (row + 1, 0)
    return row, column


picklable(Action)  # compiled, a class is made by its __init__, whatever pickle asks
