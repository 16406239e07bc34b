"""The JSON document reader as it would be with the whole document in memory: the reference the
windowed reader of :mod:`nardy_cli.notations.jsonl` is tested against (the same games, errors and
places, by the same rules, without a window's cuts)."""
from __future__ import annotations

import io
import json
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator

from nardy_cli.notations.jsonl import _DECODER, _GAME_START, _message, _past_blanks, _quoted, _reason, game_from_dict
from nardy_cli.record import GameRecord, RecordError


def _document(first_line: int, lines: Iterable[str], source: str) -> Iterator[GameRecord]:
    """The games of a JSON document (its lines from line ``first_line`` on): an object, objects one
    after another, or an array of them.

    A value that cannot be read becomes a game holding the error, and reading resumes at the next
    game, or at the ``]`` that ends the document; so it does after a game with errors that text
    beginning no game follows. The document is kept as one text and an array of line offsets.
    """
    buffer = io.StringIO()
    starts = array("q", [0])  # the offset of each line in text, and the end
    for text_line in lines:
        buffer.write(text_line)
        starts.append(starts[-1] + len(text_line))
    text = buffer.getvalue()
    del buffer
    count = len(starts) - 1

    def place(offset: int) -> tuple[int, int]:
        index = bisect_right(starts, offset, hi=count) - 1
        return first_line + index, offset - starts[index] + 1

    position = _past_blanks(text, 0)
    in_array = text.startswith("[", position)
    if in_array:
        position = _past_blanks(text, position + 1)
    last = len(text.rstrip()) - 1
    end_of_array = last if in_array and last >= 0 and text[last] == "]" else len(text)

    def next_game(position: int) -> int:
        found = _GAME_START.search(text, position)
        return found.start() if found else end_of_array if in_array and position <= end_of_array else len(text)

    while position < len(text):
        if in_array and text[position] in ",]":
            in_array = text[position] == ","
            position = _past_blanks(text, position + 1)
            continue
        line, column = place(position)
        try:
            data, end = _DECODER.raw_decode(text, position)
        except (ValueError, RecursionError) as error:
            game = GameRecord(source=source, line=line)
            if isinstance(error, json.JSONDecodeError):
                game.errors.append(RecordError(*place(error.pos), f"invalid JSON: {_message(error)}"))
            else:
                game.errors.append(RecordError(line, column, f"invalid JSON: {_reason(error)}"))
            yield game
            position = next_game(position + 1)
            continue
        game = game_from_dict(data, source, line)
        position = _past_blanks(text, end)
        if in_array and position < len(text) and text[position] not in ",]{":  # ('{': a comma left out)
            yield game
            line, column = place(position)
            game = GameRecord(source=source, line=line)
            game.errors.append(RecordError(line, column, "expected ',' or ']' after a game in the array, found "
                                                         f"{text[position]!r}"))
            position = next_game(position)
        elif game.errors:
            ahead = _past_blanks(text, position + 1) if in_array and text.startswith(",", position) else position
            ends = ahead == len(text) or in_array and ahead == end_of_array
            if not (ends or _GAME_START.match(text, ahead)):
                found = _quoted(text, ahead)
                line, column = place(ahead)
                position = next_game(ahead)
                what = ("the end of the input" if position == len(text) else
                        f"{'the end of the array' if text[position] == ']' else 'the next game'}, "
                        f"on line {place(position)[0]}")
                game.errors.append(RecordError(line, column, "expected a game (an object whose first field is "
                                                             f'"tags", "actions" or "result"), found {found}: '
                                                             f"skipped to {what}"))
        yield game
    if in_array:
        line, column = place(len(text))
        game = GameRecord(source=source, line=line)
        game.errors.append(RecordError(line, column, "expected ']' to close the array of games, found the end of "
                                                     "the input"))
        yield game
