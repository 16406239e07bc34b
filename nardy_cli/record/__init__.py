"""Game records: what a notation holds, before any rules engine has judged it.

Every reader (NTN, MAT, SGF, JSON) produces :class:`GameRecord` objects and every
writer consumes them, so converting between notations never goes through a
lossy intermediate. Plays are kept as written (:class:`Move` paths in the
mover's own numbering); the engine resolves them into dice steps.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, SupportsIndex

from nardy_cli.core.position import Position, PositionError
from nardy_cli.core.sides import BLACK, SIDE_NAMES, WHITE, Side

# the actions and their analysis live in nardy_cli.record.actions (compiled); named here too, as before
from nardy_cli.record.actions import ACTION_KINDS as ACTION_KINDS
from nardy_cli.record.actions import Action as Action
from nardy_cli.record.actions import ActionKind as ActionKind
from nardy_cli.record.actions import Evaluation as Evaluation
from nardy_cli.record.actions import next_cell as next_cell

if TYPE_CHECKING:
    from typing_extensions import Self

STANDARD_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "WhiteRating", "BlackRating", "Variant",
                 "Rules", "Position", "Result", "Termination", "MatchLength", "Game", "Score", "Crawford",
                 "Annotator")
"""The tags of formats/ntn.md; readers keep any other tag too."""
_STANDARD_BY_CASE = {name.lower(): name for name in STANDARD_TAGS}


def standard_name(tag: str) -> str:
    """A tag's standard spelling when it is a standard tag written in another case (``variant``)."""
    return _STANDARD_BY_CASE.get(tag.lower(), tag)


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

    def add(self, error: RecordError) -> None:
        """Keep ``error``, or count it when :data:`ERROR_LIMIT` are kept. Readers call this rather
        than ``append``: compiled code (README, "Compiled build") appends to a list subclass as to a
        plain list, past the cap."""
        if len(self) < ERROR_LIMIT:
            super().append(error)
        else:
            self.more += 1

    def append(self, error: RecordError) -> None:
        self.add(error)

    def put_first(self, errors: CappedErrors) -> None:
        """``errors`` before these, the cap kept (``self[:0] = errors``, which compiled code would not cap)."""
        self[:0] = errors

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
    errors: CappedErrors = field(default_factory=CappedErrors)  # a list given is made one
    notes: list[RecordError] = field(default_factory=list)  # what a reader read past, worth saying
    ends_match: bool = False  # the record says the game won the match (MAT's "Wins N points and the match")
    source: str = ""
    line: int = 0
    result_line: int = 0
    result_column: int = 0
    tag_places: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)  # name: (line, column)

    def __post_init__(self) -> None:
        if not isinstance(self.errors, CappedErrors):
            self.errors = CappedErrors(self.errors)

    @property
    def errors_not_kept(self) -> int:
        """How many errors of this game were counted but not kept (beyond :data:`ERROR_LIMIT`)."""
        return getattr(self.errors, "more", 0)

    @property
    def variant(self) -> str:
        return self.tags.get("Variant", "long").strip().lower() or "long"

    def player(self, side: Side) -> str:
        return self.tags.get(SIDE_NAMES[side], "?")

    def starts_nackgammon(self) -> bool:
        """Whether the game is Nackgammon as GNU Backgammon's and eXtreme Gammon's files say it:
        short nardy whose ``Position`` tag is Nackgammon's start, the side of its first action to roll."""
        if self.variant != "short" or "Position" not in self.tags:
            return False
        try:
            return Position.parse(self.tags["Position"]) == self._start(nackgammon=True)
        except PositionError:
            return False

    def set_short_start(self, nackgammon: bool = False, cube: int = 1) -> None:
        """Make the game's ``Position`` tag short nardy's start (Nackgammon's, when asked), the side
        of its first action to roll, with a centred cube of ``cube`` (turned by automatic doubles)."""
        self.tags["Position"] = str(self._start(nackgammon).with_cube(cube, None))

    def _start(self, nackgammon: bool) -> Position:
        turn = self.actions[0].side if self.actions else WHITE
        return Position.nackgammon(turn) if nackgammon else Position.start("short", turn)

    def title(self) -> str:
        """``White – Black`` for messages."""
        return f"{self.player(WHITE)} – {self.player(BLACK)}"


class InputError(Exception):
    """An input that cannot be opened or decoded; the message says which, why and what to do."""
