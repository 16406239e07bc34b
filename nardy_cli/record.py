"""Game records: what a notation holds, before any rules engine has judged it.

Every reader (NTN, MAT, SGF, JSON) produces :class:`GameRecord` objects and every
writer consumes them, so converting between notations never goes through a
lossy intermediate. Plays are kept as written (:class:`Move` paths in the
mover's own numbering); the engine resolves them into dice steps.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, SupportsIndex

if TYPE_CHECKING:
    from typing_extensions import Self

WHITE = "w"
BLACK = "b"
SIDES = (WHITE, BLACK)
SIDE_NAMES = {WHITE: "White", BLACK: "Black"}

STANDARD_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "WhiteRating", "BlackRating", "Variant",
                 "Rules", "Position", "Result", "Termination", "MatchLength", "Game", "Score", "Crawford",
                 "Annotator")
"""The tags of formats/ntn.md; readers keep any other tag too."""
_STANDARD_BY_CASE = {name.lower(): name for name in STANDARD_TAGS}


def standard_name(tag: str) -> str:
    """A tag's standard spelling when it is a standard tag written in another case (``variant``)."""
    return _STANDARD_BY_CASE.get(tag.lower(), tag)

BAR = 25
OFF = 0


def other(side: str) -> str:
    """The opponent of ``side``."""
    return BLACK if side == WHITE else WHITE


@dataclass(frozen=True)
class Move:
    """One move as written: a checker's path, e.g. ``24/18*/15`` or ``6/4(2)``.

    ``path`` holds points in the mover's numbering (25 = bar, 0 = off);
    ``hits[i]`` is True when landing ``path[i + 1]`` was marked with ``*``;
    ``count`` is the ``(n)`` repeat.
    """

    path: tuple[int, ...]
    hits: tuple[bool, ...] = ()
    count: int = 1

    def __post_init__(self) -> None:
        if not self.hits:
            object.__setattr__(self, "hits", (False,) * (len(self.path) - 1))

    @cached_property
    def legs(self) -> tuple[tuple[int, int], ...]:
        """The single hops written, each ``(from, to)``, repeats included: ``24/18/15(2)`` gives
        ``24/18, 18/15, 24/18, 18/15``."""
        path = self.path
        return tuple((path[i], path[i + 1]) for i in range(len(path) - 1)) * self.count

    def __str__(self) -> str:
        text = point_name(self.path[0])
        for point, hit in zip(self.path[1:], self.hits):
            text += "/" + point_name(point) + ("*" if hit else "")
        return text + (f"({self.count})" if self.count > 1 else "")


def point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


@dataclass(frozen=True)
class Evaluation:
    """A program's judgement of one decision, as the record carries it (formats/json.md).

    ``decision`` is ``move`` (the checker play of a roll), ``cube`` (to double or not: on a
    ``double`` action, or on a roll when the side did not double) or ``take`` (on a ``take``,
    ``drop`` or ``beaver``). ``played`` and ``best`` are the equities of the choice made and of
    the best choice, from the deciding side's point of view (None when not analysed), so
    ``best - played`` is the equity lost; ``luck`` is the luck of a roll's dice; ``level`` names
    how deep the program looked (``XGRoller++``, ``4-ply``...).
    """

    decision: str
    level: str = ""
    played: float | None = None
    best: float | None = None
    luck: float | None = None

    @property
    def lost(self) -> float | None:
        """The equity lost by the choice made (0 for the best), None when not analysed."""
        if self.played is None or self.best is None:
            return None
        return max(0.0, self.best - self.played)


@dataclass
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

    side: str
    kind: str = "roll"
    dice: tuple[int, int] | None = None
    moves: tuple[Move, ...] | None = None
    value: int | None = None
    number: int | None = None
    comments: list[str] = field(default_factory=list)
    line: int = 0
    column: int = 0
    analysis: tuple[Evaluation, ...] = ()

    @property
    def play_text(self) -> str:
        """The play in NTN/MAT text, ``-`` for no play, ``?`` when unrecorded."""
        if self.moves is None:
            return "?"
        return " ".join(str(m) for m in self.moves) if self.moves else "-"


def next_cell(cell: tuple[int, int], side: str) -> tuple[int, int]:
    """The (row, column) an action of ``side`` fills after ``cell``: actions fill the cells of
    numbered rows, White's column (0) then Black's (1), as NTN and MAT lay them out.
    Start from ``(0, 1)``."""
    row, column = cell
    wanted = 0 if side == WHITE else 1
    row, column = (row, 1) if column == 0 else (row + 1, 0)
    if column != wanted:
        row, column = (row, 1) if column == 0 else (row + 1, 0)
    return row, column


MESSAGE_CHARS = 240
"""The longest error message kept whole: longer ones quote too much of a bad input."""


@dataclass(frozen=True)
class RecordError:
    """A place where a record could not be read as its notation requires."""

    line: int
    column: int
    message: str

    def __post_init__(self) -> None:
        if len(self.message) > MESSAGE_CHARS:  # it quotes a huge line: keep its start and its end
            cut = MESSAGE_CHARS // 2
            object.__setattr__(self, "message", f"{self.message[:cut]} … {self.message[-cut:]}")

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


ERROR_LIMIT = 100
"""The most errors kept for one game, or for one input: the others are only counted."""


class CappedErrors(list[RecordError]):
    """Errors as a reader collects them: the first :data:`ERROR_LIMIT` kept, the others counted
    in ``more``, so a file of nothing but mistakes takes no more memory than one with a hundred."""

    more = 0

    def __init__(self, errors: Iterable[RecordError] = ()) -> None:
        super().__init__()
        self.extend(errors)

    def append(self, error: RecordError) -> None:
        if len(self) < ERROR_LIMIT:
            super().append(error)
        else:
            self.more += 1

    def extend(self, errors: Iterable[RecordError]) -> None:
        for error in errors:
            self.append(error)
        self.more += getattr(errors, "more", 0)

    # typeshed itself types list.__iadd__ against __add__ with an ignore: a subclass inherits the clash
    def __iadd__(self, errors: Iterable[RecordError]) -> Self:  # type: ignore[override,misc]
        self.extend(errors)
        return self

    def insert(self, index: SupportsIndex, error: RecordError) -> None:
        super().insert(index, error)
        self._trim()

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value)
        if isinstance(index, slice):
            self.more += getattr(value, "more", 0)
            self._trim()

    def _trim(self) -> None:
        while len(self) > ERROR_LIMIT:
            super().pop()
            self.more += 1

    @property
    def total(self) -> int:
        """How many errors there were, kept or not."""
        return len(self) + self.more


class InputErrorBudget:
    """The same cap over the games of each input, for what reports their errors: the first
    :data:`ERROR_LIMIT` errors of an input are shown, the others only counted."""

    def __init__(self) -> None:
        self.shown: dict[str, int] = {}
        self.more: dict[str, int] = {}

    def admit(self, source: str) -> bool:
        """Whether one more error of ``source`` is shown (else it is counted)."""
        if self.shown.get(source, 0) < ERROR_LIMIT:
            self.shown[source] = self.shown.get(source, 0) + 1
            return True
        self.more[source] = self.more.get(source, 0) + 1
        return False

    def messages(self) -> list[str]:
        """What to say of the errors counted but not shown, an input at a time."""
        return [f"{source}: and {count} more syntax errors in this input, not listed"
                for source, count in self.more.items()]


@dataclass
class GameRecord:
    """One game as recorded: tags, the actions in order, the declared result.

    Tags use NTN names (``Event``, ``White``, ``Variant``, ``Rules``,
    ``Result``, ``MatchLength``, ``Game``, ``Score``...); a reader keeps every
    tag it finds, in order. ``result`` is the result token as written
    (``2-0``, ``1/2-1/2``, ``*``) or None when the record has none;
    ``result_line``/``result_column`` locate it (0 when the notation cannot), as
    ``tag_places`` locates the tags (those of notations that can).
    """

    tags: dict[str, str] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    result: str | None = None
    comments: list[str] = field(default_factory=list)
    errors: list[RecordError] = field(default_factory=CappedErrors)  # always CappedErrors: see __setattr__
    notes: list[RecordError] = field(default_factory=list)  # what a reader read past, worth saying
    ends_match: bool = False  # the record says the game won the match (MAT's "Wins N points and the match")
    source: str = ""
    line: int = 0
    result_line: int = 0
    result_column: int = 0
    tag_places: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)  # name: (line, column)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "errors" and not isinstance(value, CappedErrors):
            value = CappedErrors(value)
        super().__setattr__(name, value)

    @property
    def errors_not_kept(self) -> int:
        """How many errors of this game were counted but not kept (beyond :data:`ERROR_LIMIT`)."""
        return getattr(self.errors, "more", 0)

    @property
    def variant(self) -> str:
        return self.tags.get("Variant", "long").strip().lower() or "long"

    def player(self, side: str) -> str:
        return self.tags.get(SIDE_NAMES[side], "?")

    def title(self) -> str:
        """``White – Black`` for messages."""
        return f"{self.player(WHITE)} – {self.player(BLACK)}"


# --- the text of a play, shared by NTN and MAT ---------------------------------

_POINT = r"(?:bar|off|\d{1,2})"
_MOVE_RE = re.compile(
    rf"(?P<path>{_POINT}(?:/{_POINT}\*?)+)(?:\((?P<count>\d)\))?",
    re.IGNORECASE,
)
_LANDING_RE = re.compile(rf"/({_POINT})(\*?)", re.IGNORECASE)


class PlaySyntaxError(ValueError):
    """A play's text is not ``from/to`` moves; ``offset`` is where it goes wrong."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def _point(text: str, offset: int, *, source: bool) -> int:
    lowered = text.lower()
    if lowered == "bar":
        return BAR
    if lowered == "off":
        return OFF
    value = int(text)
    if not 0 <= value <= 25:
        raise PlaySyntaxError(f"point {value} is not 0-25", offset)
    if (source and value == OFF) or (not source and value == BAR):
        raise PlaySyntaxError(f"a move cannot {'start off' if source else 'end on the bar'}", offset)
    return value


CACHED_PLAY_CHARS = 40
"""The longest play text whose parse is cached: real plays are shorter (``24/18 13/7 6/4(2)``);
longer texts are rare, and would make the cache grow with their size."""


def parse_play(text: str) -> tuple[Move, ...]:
    """Parse a play such as ``24/18*/15 13/7 6/4(2) bar/22 6/off``; ``-`` or empty is no play.

    Raises :class:`PlaySyntaxError` with the offset of the first bad token.
    """
    return _cached_play(text) if len(text) <= CACHED_PLAY_CHARS else _parse_play(text)


def _parse_play(text: str) -> tuple[Move, ...]:
    if text.strip() == "-":
        return ()
    moves: list[Move] = []
    for token in re.finditer(r"\S+", text):
        word, start = token.group(), token.start()
        match = _MOVE_RE.fullmatch(word)
        if not match:
            raise PlaySyntaxError(f"expected a move like 24/18 or 6/off(2), found {word!r}", start)
        first = word.split("/", 1)[0]
        path = [_point(first, start, source=True)]
        hits = []
        for landing in _LANDING_RE.finditer(match.group("path")):
            path.append(_point(landing.group(1), start + landing.start(1), source=False))
            hits.append(bool(landing.group(2)))
        if any(point == OFF for point in path[1:-1]):
            raise PlaySyntaxError("a path cannot go on after off", start)
        count = int(match.group("count") or 1)
        if not 1 <= count <= 4:
            raise PlaySyntaxError(f"repeat ({count}) must be 1-4", start)
        moves.append(Move(tuple(path), tuple(hits), count))
    return tuple(moves)


# Plays repeat a great deal across games, and Moves are immutable. 2^14 entries of at most
# CACHED_PLAY_CHARS characters (about 2 KB of Moves each at worst): the cache stays under 40 MB.
_cached_play = lru_cache(maxsize=1 << 14)(_parse_play)
