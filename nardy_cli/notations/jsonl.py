"""JSON and JSON Lines: one game per object (formats/json.md, formats/nardy-game.schema.json).

``.jsonl`` files hold one game object per line and are read as a stream; a
``.json`` file holds one game object or an array of them, read as a stream too (through a
window of its lines). Plays are kept in
their written notation (``"24/18/15 13/7*"``), so nothing is lost.
"""
from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from nardy_cli.core.moves import PlaySyntaxError, parse_play
from nardy_cli.core.sides import SIDES
from nardy_cli.notations import GameStarts, GameWriter, ObjectFields, Target, analysis, sniff_json
from nardy_cli.record import ACTION_KINDS, Action, GameRecord, RecordError, standard_name

NAME = "jsonl"
sniff = sniff_json  # told from the start of a text by the registry, which need not import this module
KINDS = ACTION_KINDS
PLAYED = ("roll", "passed")  # the kinds with a play
GAME_FIELDS = ObjectFields.of("tags", "comments", "actions", "result")
ACTION_FIELDS = ObjectFields.of("side", "kind", "dice", "play", "value", "number", "comments", "analysis")


def game_starts(head: list[str]) -> GameStarts | None:
    """JSON Lines (the first non-blank line holds a whole object) has a game on every line; a
    reader must read that first line first, as it tells how the file is read. A JSON document
    is read whole: None."""
    for number, line in enumerate(head):
        if line.strip():
            try:
                json_lines = isinstance(json.loads(line.strip().lstrip("\ufeff")), dict)
            except (ValueError, RecursionError):  # RecursionError: [[[[... nested too deeply
                json_lines = False
            return (_every_line, head[:number + 1]) if json_lines else None
    return None


def _every_line(lines: list[str]) -> list[int]:
    return [index for index, line in enumerate(lines) if line and not line.isspace()]


def game_to_dict(game: GameRecord) -> dict[str, Any]:
    """The JSON object of a game (see the schema)."""
    actions = []
    for action in game.actions:
        item: dict[str, Any] = {"side": action.side, "kind": action.kind}
        if action.dice is not None:
            item["dice"] = list(action.dice)
        if action.kind in PLAYED:
            item["play"] = None if action.moves is None else action.play_text
        for key in ("value", "number"):
            if getattr(action, key) is not None:
                item[key] = getattr(action, key)
        if action.comments:
            item["comments"] = list(action.comments)
        if action.analysis:
            item["analysis"] = [analysis.to_dict(evaluation) for evaluation in action.analysis]
        actions.append(item)
    data: dict[str, Any] = {"tags": dict(game.tags), "actions": actions, "result": game.result}
    if game.comments:
        data["comments"] = list(game.comments)
    return data


class _Invalid(ValueError):
    pass


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise _Invalid(message)


def game_from_dict(data: Any, source: str = "", line: int = 0) -> GameRecord:
    """A game from its JSON object; a malformed object gives a game whose ``errors`` say why."""
    game = GameRecord(source=source, line=line)
    try:
        _expect(isinstance(data, dict), f"expected a game object, found {type(data).__name__}")
        tags = data.get("tags", {})
        _expect(isinstance(tags, dict) and all(isinstance(v, str) for v in tags.values()),
                '"tags" must be an object of strings')
        game.tags = {standard_name(name): value for name, value in tags.items()}
        result = data.get("result")
        _expect(result is None or isinstance(result, str), '"result" must be a string or null')
        game.result = result
        game.comments = _strings(data.get("comments", []), '"comments"')
        actions = data.get("actions", [])
        _expect(isinstance(actions, list), '"actions" must be an array')
        for index, item in enumerate(actions, 1):
            game.actions.append(_action(item, index, line))
        unknown = GAME_FIELDS.unknown(data, "game field")
        if unknown and data.keys() - GAME_FIELDS.known <= ACTION_FIELDS.known:
            unknown += ' (an action\'s fields belong in "actions")'
        _expect(not unknown, unknown)
    except _Invalid as error:
        game.errors.append(RecordError(line, 1, str(error)))
    return game


def _strings(value: Any, what: str) -> list[str]:
    _expect(isinstance(value, list) and all(isinstance(v, str) for v in value), f"{what} must be an array of strings")
    return list(value)


def _action(item: Any, index: int, line: int) -> Action:
    where = f"action {index}"
    _expect(isinstance(item, dict), f"{where}: expected an object")
    unknown = ACTION_FIELDS.unknown(item, "field")
    _expect(not unknown, f"{where}: {unknown}")
    side, kind = item.get("side"), item.get("kind", "roll")
    _expect("side" in item, f'{where}: a {kind} action needs "side"')
    _expect(side in SIDES, f'{where}: "side" must be "w" or "b", found {side!r}')
    _expect(kind in KINDS, f'{where}: "kind" must be one of {", ".join(KINDS)}, found {kind!r}')
    dice = item.get("dice")
    if dice is not None:
        _expect(isinstance(dice, list) and len(dice) == 2 and all(isinstance(d, int) and 1 <= d <= 6 for d in dice),
                f'{where}: "dice" must be two numbers 1-6, found {dice!r}')
        dice = (dice[0], dice[1])
    moves = None
    if kind in PLAYED:
        _expect(dice is not None, f'{where}: a {kind} action needs "dice"')
        play = item.get("play")
        _expect(play is None or isinstance(play, str), f'{where}: "play" must be a string or null')
        if play is not None and play.strip() != "?":
            try:
                moves = parse_play(play)
            except PlaySyntaxError as error:
                raise _Invalid(f"{where}: {error}") from None
    for key in ("value", "number"):
        _expect(item.get(key) is None or isinstance(item.get(key), int), f'{where}: "{key}" must be a whole number')
    evaluations = item.get("analysis", [])
    _expect(isinstance(evaluations, list), f'{where}: "analysis" must be an array')
    try:
        judged = tuple(analysis.from_dict(evaluation) for evaluation in evaluations)
    except analysis.AnalysisError as error:
        raise _Invalid(f"{where}: {error}") from None
    return Action(side, kind, dice, moves, item.get("value"), item.get("number"),
                  _strings(item.get("comments", []), f'{where}: "comments"'), line=line, column=1, analysis=judged)


def read_games(lines: Iterable[str], source: str = "") -> Iterator[GameRecord]:
    """Games from JSON Lines, or from a whole JSON document holding an object or an array.

    When the first line holds a whole object the input is JSON Lines: each line is read on its
    own, so a bad line costs only its own game. Otherwise the text is one document, read value
    by value so that a bad game does not hide the others.
    """
    iterator = iter(lines)
    json_lines = False
    for number, text in enumerate(iterator, 1):
        if number == 1:
            text = text.removeprefix("\ufeff")
        stripped = text.strip()
        if not stripped:
            continue
        column = len(text) - len(text.lstrip()) + 1
        if json_lines or stripped.startswith("{"):
            game = _line_game(stripped, source, number, column, whole_line_expected=json_lines)
            if game is not None:
                json_lines = True
                yield game
                continue
        yield from _document(number, chain([text], iterator), source)
        return


def _line_game(text: str, source: str, line: int, column: int, *, whole_line_expected: bool) -> GameRecord | None:
    """The game of one JSON Lines line; None when the line may begin a document instead."""
    try:
        data, end = _DECODER.raw_decode(text)
    except json.JSONDecodeError as error:
        if not whole_line_expected:
            return None
        game = GameRecord(source=source, line=line)
        game.errors.append(RecordError(line, column + error.pos, f"invalid JSON: {_message(error)}; expected one "
                                                                 "game object on each line"))
        return game
    except (ValueError, RecursionError) as error:
        game = GameRecord(source=source, line=line)
        game.errors.append(RecordError(line, column, f"invalid JSON: {_reason(error)}"))
        return game
    game = game_from_dict(data, source, line)
    if end < len(text):
        game.errors.append(RecordError(line, column + end, f"expected the end of the line after the game object, "
                                                           f"found {_quoted(text, end)}"))
    return game


_DECODER = json.JSONDecoder()
_BLANKS = re.compile(r"\s*")


def _past_blanks(text: str, position: int) -> int:
    """Where the blanks from ``position`` end."""
    match = _BLANKS.match(text, position)
    return match.end() if match else position


def _quoted(text: str, position: int) -> str:
    """Up to 20 characters of ``text`` from ``position``, within its line, quoted for a message."""
    return repr(text[position:position + 20].partition("\n")[0])


def _message(error: json.JSONDecodeError) -> str:
    """The decoder's message without its dangling "at" (the error's place is given apart)."""
    return error.msg.removesuffix(" at").lower()


def _reason(error: ValueError | RecursionError) -> str:
    """Why the decoder refused a text whose syntax is right."""
    return "objects nested too deeply" if isinstance(error, RecursionError) else "a number too long to read"


def _document(first_line: int, lines: Iterable[str], source: str) -> Iterator[GameRecord]:
    """The games of a JSON document (its lines from line ``first_line`` on): an object, objects one
    after another, or an array of them.

    A value that cannot be read becomes a game holding the error, and reading resumes at the next
    game (:data:`_GAME_START`), or at the ``]`` that ends the document. Text that follows a game
    with errors and begins no game (the rest of a game whose object was closed too early) is
    skipped to the next game too, and the game says so. The document is read through a
    :class:`_Window`: memory holds about a game's lines, not the document's.
    """
    window = _Window(first_line, iter(lines))
    position = window.past_blanks(0)
    in_array = window.text.startswith("[", position)
    if in_array:
        position = window.past_blanks(position + 1)
    while not window.at_end(position):
        if in_array and window.text[position] in ",]":
            in_array = window.text[position] == ","
            position = window.past_blanks(position + 1)
            continue
        position = window.drop_before(position)
        line, column = window.place(position)
        data, end, error = window.decode(position)
        if error is not None:
            game = GameRecord(source=source, line=line)
            if isinstance(error, json.JSONDecodeError):
                game.errors.append(RecordError(*window.place(error.pos), f"invalid JSON: {_message(error)}"))
            else:
                game.errors.append(RecordError(line, column, f"invalid JSON: {_reason(error)}"))
            yield game
            position = window.next_game(position + 1, in_array)
            continue
        game = game_from_dict(data, source, line)
        position = window.past_blanks(end)
        if in_array and not window.at_end(position) and window.text[position] not in ",]{":  # ('{': a comma left out)
            yield game
            line, column = window.place(position)
            game = GameRecord(source=source, line=line)
            game.errors.append(RecordError(line, column, "expected ',' or ']' after a game in the array, found "
                                                         f"{window.text[position]!r}"))
            position = window.next_game(position, in_array)
        elif game.errors:
            ahead = position
            if in_array and window.text.startswith(",", ahead):
                ahead = window.past_blanks(ahead + 1)
            if not window.game_or_end(ahead, in_array):
                line, column = window.place(ahead)
                found = _quoted(window.text, ahead)
                position = window.next_game(ahead, in_array)
                game.errors.append(RecordError(line, column, "expected a game (an object whose first field is "
                                                             f'"tags", "actions" or "result"), found {found}: '
                                                             f"skipped to {window.what_is_at(position)}"))
        yield game
    if in_array:
        line, column = window.place(len(window.text))
        game = GameRecord(source=source, line=line)
        game.errors.append(RecordError(line, column, "expected ']' to close the array of games, found the end of "
                                                     "the input"))
        yield game


_GAME_START = re.compile(r'\{\s*"(?:tags|actions|result)"\s*:')
"""Where a game begins, in any layout: an object whose first field is one only a game has."""
_GAME_START_BEGUN = re.compile(r'\{\s*(?:"[a-z]*(?:"\s*)?)?\Z')
"""A text that ends with what may be the beginning of a :data:`_GAME_START` cut short."""


_WINDOW_CHARS = 1 << 20
"""At least how much more of a JSON document a :class:`_Window` reads at a time, and how far it reads
past the lines it holds before it drops them."""
_CUT_MARGIN = 64
"""How near the end of the text read a decoding error may come from the text being cut there (a
literal, a number or an escape cut short): the value is then decoded again with more text."""


class _Window:
    """The lines of a JSON document from the one where the value being read begins: one text, the
    offset of each line in it (and the end), and the number of its first line. Whole lines are read
    as the values need them and dropped once read past, so a value is decoded as it would be in the
    whole document, with memory for about a game's lines."""

    __slots__ = ("lines", "first", "text", "starts", "ended")

    def __init__(self, first_line: int, lines: Iterator[str]) -> None:
        self.lines, self.first = lines, first_line
        self.text = ""
        self.starts = array("q", [0])  # a line costs 8 bytes besides its text, however short
        self.ended = False

    def more(self) -> bool:
        """Read at least :data:`_WINDOW_CHARS` more characters, in whole lines; False at the end."""
        read: list[str] = []
        size = 0
        if not self.ended:
            for line in self.lines:
                read.append(line)
                size += len(line)
                self.starts.append(self.starts[-1] + len(line))
                if size >= _WINDOW_CHARS:
                    break
            else:
                self.ended = True
        self.text += "".join(read)
        return bool(read)

    def at_end(self, position: int) -> bool:
        """Whether ``position`` is the end of the document (reading more to tell)."""
        return position >= len(self.text) and not self.more()

    def past_blanks(self, position: int) -> int:
        """Where the blanks from ``position`` end (reading more while they reach the end of the text)."""
        position = _past_blanks(self.text, position)
        while position == len(self.text) and self.more():
            position = _past_blanks(self.text, position)
        return position

    def place(self, offset: int) -> tuple[int, int]:
        """The line and column of ``offset`` of the text."""
        index = self._line(offset)
        return self.first + index, offset - self.starts[index] + 1

    def _line(self, offset: int) -> int:
        """Which line held holds ``offset`` of the text (counted from 0; the end: the last)."""
        return bisect_right(self.starts, offset, hi=len(self.starts) - 1) - 1

    def drop_before(self, position: int) -> int:
        """Where ``position`` is once the lines before its own are dropped, when they hold more than
        :data:`_WINDOW_CHARS` (dropping copies the rest of the text)."""
        if position <= _WINDOW_CHARS:
            return position
        return position - self._drop(self._line(position))

    def _drop(self, lines: int) -> int:
        """Drop the first ``lines`` lines held; how many characters they held."""
        offset = self.starts[lines]
        self.text = self.text[offset:]
        self.starts = array("q", [start - offset for start in self.starts[lines:]])
        self.first += lines
        return offset

    def decode(self, position: int) -> tuple[Any, int, ValueError | RecursionError | None]:
        """The value at ``position`` and where it ends, or the error that stops its decoding, as
        in the whole document: where the text read may have cut the value short (the decoder
        stopped near its end, or in a string that runs to it), it is decoded again with more."""
        while True:
            try:
                data, end = _DECODER.raw_decode(self.text, position)
            except json.JSONDecodeError as error:
                cut = error.pos >= len(self.text) - _CUT_MARGIN or error.msg.startswith("Unterminated string")
                if cut and self.more():
                    continue
                return None, position, error
            except (ValueError, RecursionError) as error:  # too long a number, too deep: not for want of text
                return None, position, error
            if end >= len(self.text) and self.more():  # a number or a literal may go on
                continue
            return data, end, None

    def next_game(self, position: int, in_array: bool) -> int:
        """The offset of the first game start (:data:`_GAME_START`) from ``position`` on; when there
        is none: in an array, the offset of the ``]`` that ends the document, if one does, and else
        the end of the document (the text passed over is dropped as more is read)."""
        while True:
            found = _GAME_START.search(self.text, position)
            if found:
                return found.start()
            last = len(self.text.rstrip()) - 1  # kept, to tell at the end whether the document ends with ']'
            begun = _GAME_START_BEGUN.search(self.text, position)
            keep = max(position, min(last, begun.start()) if begun else last)
            position = keep - self._drop(self._line(keep))
            if not self.more():
                last = len(self.text.rstrip()) - 1
                return last if in_array and last >= position and self.text[last] == "]" else len(self.text)

    def game_or_end(self, position: int, in_array: bool) -> bool:
        """Whether a game starts at ``position``, or the document ends there (with the ``]`` of an
        array, in one)."""
        while True:
            if _GAME_START.match(self.text, position):
                return True
            if not (_GAME_START_BEGUN.match(self.text, position) and self.more()):
                break
        if in_array and self.text.startswith("]", position):
            position = self.past_blanks(position + 1)
        return self.at_end(position)

    def what_is_at(self, position: int) -> str:
        """What :meth:`next_game` found at ``position``, in words."""
        if position >= len(self.text):
            return "the end of the input"
        what = "the end of the array" if self.text[position] == "]" else "the next game"
        return f"{what}, on line {self.place(position)[0]}"


def json_line(record: GameRecord) -> str:
    """The game's JSON Lines line."""
    return json.dumps(game_to_dict(record), ensure_ascii=False) + "\n"


def json_array_item(record: GameRecord) -> str:
    """The game's object as an item of a JSON array."""
    return json.dumps(game_to_dict(record), ensure_ascii=False, indent=2)


class _JsonLinesWriter(GameWriter[str]):
    """One game object per line."""

    def write(self, number: int, game: str) -> None:
        self.out.write(game)


class _JsonArrayWriter(GameWriter[str]):
    """A JSON document: an array of game objects, written as a stream."""

    def begin(self) -> None:
        self.out.write("[")

    def write(self, number: int, game: str) -> None:
        self.out.write(("," if number > 1 else "") + "\n" + game)

    def end(self) -> Iterable[str]:
        self.out.write("\n]\n")
        return self.warnings


TARGET = Target(json_line, _JsonLinesWriter)
JSON_ARRAY = Target(json_array_item, _JsonArrayWriter)
write_games = TARGET.write_games
