"""Moves as written (``24/18*/15``, ``6/off(2)``), the text of a play and a roll's dice, shared by every
notation."""
from __future__ import annotations

import threading
from typing import Any, Final, NamedTuple

from nardy_cli.core.compiled import Value
from nardy_cli.core.sides import BAR, OFF


class Move(Value):
    """One move as written: a checker's path, e.g. ``24/18*/15`` or ``6/4(2)`` (read-only).

    ``path`` holds points in the mover's numbering (25 = bar, 0 = off);
    ``hits[i]`` is True when landing ``path[i + 1]`` was marked with ``*``;
    ``count`` is the ``(n)`` repeat.
    """

    # A plain class, not a frozen dataclass: compiled, a dataclass's generated __init__ runs as
    # interpreted code, and a new play makes its Moves (see Position, which is alike).
    __slots__ = ("_path", "_hits", "_count", "_legs")
    __match_args__ = ("path", "hits", "count")

    def __init__(self, path: tuple[int, ...], hits: tuple[bool, ...] = (), count: int = 1) -> None:
        self._path, self._count = path, count
        self._hits = hits or (False,) * (len(path) - 1)
        self._legs = tuple([(path[i], path[i + 1]) for i in range(len(path) - 1)]) * count

    @property
    def path(self) -> tuple[int, ...]:
        return self._path

    @property
    def hits(self) -> tuple[bool, ...]:
        return self._hits

    @property
    def count(self) -> int:
        return self._count

    @property
    def legs(self) -> tuple[tuple[int, int], ...]:
        """The single hops written, each ``(from, to)``, repeats included: ``24/18/15(2)`` gives
        ``24/18, 18/15, 24/18, 18/15`` (worked out once: the engine asks for them at every check)."""
        return self._legs

    def _fields(self) -> tuple[tuple[int, ...], tuple[bool, ...], int]:
        return self._path, self._hits, self._count

    def __str__(self) -> str:
        text = point_name(self._path[0])
        for point, hit in zip(self._path[1:], self._hits):
            text += "/" + point_name(point) + ("*" if hit else "")
        return text + (f"({self._count})" if self._count > 1 else "")


def _point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


_POINT_NAMES: Final = tuple(_point_name(point) for point in range(26))  # made once: plays are written every turn


def point_name(point: int) -> str:
    """``13``, ``bar`` (25) or ``off`` (0)."""
    return _POINT_NAMES[point] if 0 <= point <= 25 else _point_name(point)


class Step(NamedTuple):
    """One die played by one checker: from ``src`` to ``dst`` (25 = bar, 0 = off)."""

    src: int
    dst: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{point_name(self.src)}/{point_name(self.dst)}{'*' if self.hit else ''}"


_STEPS: Final[list[Step | None]] = [None] * (26 * 26 * 7 * 2)  # by step_of's index; filled as they are made


def step_of(src: int, dst: int, die: int, hit: bool) -> Step:
    """The Step of these fields. Steps are immutable and few (26 points from, 26 to, 6 dice, hit
    or not), so each is built once and shared, without NamedTuple's slower keyword-aware
    constructor: building one costs a call through Python, looking it up almost nothing."""
    if 0 <= src <= 25 and 0 <= dst <= 25 and 0 <= die <= 6:
        index = ((src * 26 + dst) * 7 + die) * 2 + (1 if hit else 0)
        step = _STEPS[index]
        if step is None:
            step = _STEPS[index] = tuple.__new__(Step, (src, dst, die, bool(hit)))
        return step
    return tuple.__new__(Step, (src, dst, die, bool(hit)))


class PlaySyntaxError(ValueError):
    """A play's text is not ``from/to`` moves; ``offset`` is where it goes wrong."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def _point(text: str, offset: int, *, source: bool) -> int:
    lowered = text.lower() if text[:1] in "bBoO" else ""  # (see _point_end)
    if lowered in ("bar", "off"):
        value = BAR if lowered == "bar" else OFF
    else:
        value = int(text)
        if not 0 <= value <= 25:
            raise PlaySyntaxError(f"point {value} is not 0-25", offset)
    if (source and value == OFF) or (not source and value == BAR):
        raise PlaySyntaxError(f"a move cannot {'start off' if source else 'end on the bar'}", offset)
    return value


def written_dice(text: str, first: int, second: int) -> tuple[int, int] | None:
    """The dice of a roll whose faces are written at indexes ``first`` and ``second`` of ``text``,
    or None unless both are digits 1-6 (read by hand: every notation asks it of every turn)."""
    high, low = ord(text[first]) - 48, ord(text[second]) - 48  # compiled, ord is a primitive
    return (high, low) if 1 <= high <= 6 and 1 <= low <= 6 else None


CACHED_PLAY_CHARS: Final = 40
"""The longest play text whose parse is cached whole: real plays are shorter (``24/18 13/7 6/4(2)``);
a longer one (a crazy-nardy cascade's) seldom comes again, but its moves do, and are cached alone."""
PLAY_CACHE_BYTES = 16 << 20
"""What the parsed plays kept for reuse may take, estimated (see :class:`PlayCache`)."""


def parse_play(text: str) -> tuple[Move, ...]:
    """Parse a play such as ``24/18*/15 13/7 6/4(2) bar/22 6/off``; ``-`` or empty is no play.

    Raises :class:`PlaySyntaxError` with the offset of the first bad token.
    """
    return _PLAYS.get(text) if len(text) <= CACHED_PLAY_CHARS else _PLAYS.by_words(text)


class PlayCache:
    """Parsed plays by their text, the first kept dropped first when their estimated size passes
    ``budget`` bytes: plays repeat a great deal across games and Moves are immutable, but the
    variety of a corpus is unbounded (an entry count alone let the cache grow to 78 MiB on real
    data). A play found costs one look-up in a plain dict: keeping the order of use instead (an
    ordered dict) made a found play cost a tenth of a new one's parse. A play not found is made of
    its words' moves, each word kept as a play of its own: plays repeat less than their moves (the
    297 real matches of the corpora write 8,268 distinct plays in 32,954, with 532 distinct moves).
    Equal Moves of different plays are one object, counted once while a kept play holds it. The estimate is the memory
    tracemalloc measures, the Moves' ``legs`` computed (tests check it)."""

    ENTRY_BYTES = 140  # the key, the tuple, the dict's entry
    MOVE_BYTES = 300  # a Move, its path and hits, and its place (and key) in the table of Moves
    LEG_BYTES = 64  # a leg's (from, to) pair
    REFERENCE_BYTES = 8

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.bytes = 0
        self._plays: dict[str, tuple[Move, ...]] = {}
        # a Move's fields (hashed and compared as a tuple, not through the Move's methods): [the
        # Move kept, how many kept plays hold it]
        self._moves: dict[tuple[Any, ...], list[Any]] = {}
        self._lock = threading.Lock()  # library callers may parse in threads: one adds or drops at a time

    def __len__(self) -> int:
        return len(self._plays)

    def get(self, text: str) -> tuple[Move, ...]:
        """The parsed play of ``text``, parsed now unless it is kept."""
        moves = self._plays.get(text)  # a hit takes no lock: a look-up in a dict is atomic
        if moves is not None:
            return moves
        parsed = self.by_words(text) if " " in text else _parse_play(text)  # a syntax error raises, uncached
        with self._lock:
            if text in self._plays:
                return self._plays[text]
            shared = []
            for move in parsed:
                key = move._fields()
                kept = self._moves.get(key)
                if kept is None:
                    kept = self._moves[key] = [move, 0]
                    self.bytes += self._move_bytes(move)
                kept[1] += 1
                shared.append(kept[0])
            moves = self._plays[text] = tuple(shared)
            self.bytes += self._entry_bytes(text, moves)
            while self.bytes > self.budget:
                self._drop()
        return moves

    def by_words(self, text: str) -> tuple[Move, ...]:
        """The parsed play of ``text`` from the parsed moves of its words, each kept alone (not the
        play: see :meth:`get`)."""
        moves: tuple[Move, ...] = ()
        for word in text.split():
            try:
                word_moves = self.get(word) if len(word) <= CACHED_PLAY_CHARS else ()
            except PlaySyntaxError:
                word_moves = ()
            if not word_moves:  # an error, "-" (no play alone, wrong among moves) or a word too long to keep
                return _parse_play(text)  # which raises the error with its offset in the whole text
            moves += word_moves  # a play has few words: joined tuples cost less than a list made a tuple
        return moves

    def _move_bytes(self, move: Move) -> int:
        # ``legs`` repeats its distinct legs ``count`` times: a repeat costs a reference only
        legs = len(move.path) - 1
        return self.MOVE_BYTES + self.LEG_BYTES * legs + self.REFERENCE_BYTES * legs * move.count

    def _entry_bytes(self, text: str, moves: tuple[Move, ...]) -> int:
        return self.ENTRY_BYTES + len(text) + 8 * len(moves)

    def _drop(self) -> None:
        """Forget the play kept first, and the Moves no other kept play holds."""
        text = next(iter(self._plays))
        moves = self._plays.pop(text)
        self.bytes -= self._entry_bytes(text, moves)
        for move in moves:
            key = move._fields()
            kept = self._moves[key]
            kept[1] -= 1
            if not kept[1]:
                del self._moves[key]
                self.bytes -= self._move_bytes(move)

    def clear(self) -> None:
        with self._lock:
            self._plays.clear()
            self._moves.clear()
            self.bytes = 0


def _parse_play(text: str) -> tuple[Move, ...]:
    # Most plays are plain moves only, one checker from an ASCII point to another (13/7, 8/5*, 6/4(2)),
    # read here by hand; any other word, an error included, sends the whole text to the parser
    # of the full grammar.
    moves: list[Move] = []
    for word in text.split():
        end, count = len(word), 1
        if end > 3 and word[end - 1] == ")" and word[end - 3] == "(":  # a repeat, (2)
            end, count = end - 3, ord(word[end - 2]) - 48
        hit = word[end - 1] == "*"
        slash = word.find("/")
        source, target = _ascii_number(word, 0, slash), _ascii_number(word, slash + 1, end - hit)
        if not (0 < source <= BAR and 0 <= target < BAR and 1 <= count <= 4):  # -1: not a number
            return _parse_words(text)
        moves.append(Move((source, target), (hit,), count))
    return tuple(moves)


def _ascii_number(word: str, start: int, end: int) -> int:
    """The number written with one or two ASCII digits from ``start`` to ``end`` of ``word``, or -1."""
    if not 0 <= start < end <= start + 2:
        return -1
    value = 0
    for at in range(start, end):
        digit = ord(word[at]) - 48
        if not 0 <= digit <= 9:
            return -1
        value = 10 * value + digit
    return value


def _parse_words(text: str) -> tuple[Move, ...]:
    """The play's moves by the full grammar, each word read by :func:`_parse_move`."""
    if text.strip() == "-":
        return ()
    moves: list[Move] = []
    at, end = 0, len(text)
    while True:  # the words of the text, as str.split() finds them, each with its offset
        while at < end and text[at].isspace():
            at += 1
        if at == end:
            return tuple(moves)
        start = at
        while at < end and not text[at].isspace():
            at += 1
        moves.append(_parse_move(text[start:at], start))


def _parse_move(word: str, start: int) -> Move:
    """One written move, ``word`` found at offset ``start`` of its play. Its grammar, letters in
    any case: point ``/`` point [``*``] (more landings alike) [``(`` digit ``)``], a point being
    ``bar``, ``off`` or one or two digits; then what the points and the repeat may be."""
    landings: list[tuple[int, int, bool]] = []  # each landing's span in the word, and its hit mark
    at = _point_end(word, 0)
    while at and at < len(word) and word[at] == "/":
        point_end = _point_end(word, at + 1)
        if point_end == at + 1:
            break
        hit = point_end < len(word) and word[point_end] == "*"
        landings.append((at + 1, point_end, hit))
        at = point_end + hit
    repeat = word[at + 1:at + 2] if at + 3 == len(word) and word[at] == "(" and word[at + 2] == ")" else ""
    if not landings or not (at == len(word) or repeat.isdecimal()):
        raise PlaySyntaxError(f"expected a move like 24/18 or 6/off(2), found {word!r}", start)
    path = [_point(word[:landings[0][0] - 1], start, source=True)]
    path += [_point(word[begin:end], start + begin, source=False) for begin, end, _ in landings]
    if any(point == OFF for point in path[1:-1]):
        raise PlaySyntaxError("a path cannot go on after off", start)
    count = int(repeat or 1)
    if not 1 <= count <= 4:
        raise PlaySyntaxError(f"repeat ({count}) must be 1-4", start)
    return Move(tuple(path), tuple([hit for _, _, hit in landings]), count)  # from a list: a tuple made from
    # a generator keeps room for more (the parse cache measures what its plays take)


def _point_end(word: str, at: int) -> int:
    """Where the point written from offset ``at`` of ``word`` ends: ``at`` when none is there."""
    # the ASCII tests first (compiled, ord is a primitive and isdecimal a method call); only B, b,
    # O, o lower to a letter that begins bar or off
    if word[at:at + 1] in "bBoO" and word[at:at + 3].lower() in ("bar", "off"):
        return at + 3
    end = at
    while end < len(word) and end - at < 2 and (48 <= ord(word[end]) <= 57 or
                                                  (ord(word[end]) > 127 and word[end].isdecimal())):
        end += 1
    return end


_PLAYS: Final = PlayCache(PLAY_CACHE_BYTES)

