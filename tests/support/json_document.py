"""The JSON document reader as it was before it read documents through a window (kept whole in
memory): the reference the windowed reader of :mod:`nardy_cli.notations.jsonl` is tested against."""
from __future__ import annotations

import io
import json
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator

from nardy_cli.notations.jsonl import _DECODER, _message, _past_blanks, _past_indent, _reason, game_from_dict
from nardy_cli.record import GameRecord, RecordError


def _document(first_line: int, lines: Iterable[str], source: str) -> Iterator[GameRecord]:
    """The games of a JSON document (its lines from line ``first_line`` on): an object, objects one
    after another, or an array of them.

    A value that cannot be read becomes a game holding the error, and reading resumes at the
    next line that opens an object indented no deeper than the first game (not at an object
    inside a game). The document is kept as one text and an array of line offsets: a line costs
    8 bytes besides its text, however short.
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
    indent = place(position)[1] - 1  # of the first game
    while position < len(text):
        if in_array and text[position] in ",]":
            in_array = text[position] == ","
            position = _past_blanks(text, position + 1)
            continue
        line, column = place(position)
        try:
            data, position = _DECODER.raw_decode(text, position)
        except (ValueError, RecursionError) as error:
            game = GameRecord(source=source, line=line)
            if isinstance(error, json.JSONDecodeError):
                game.errors.append(RecordError(*place(error.pos), f"invalid JSON: {_message(error)}"))
            else:
                game.errors.append(RecordError(line, column, f"invalid JSON: {_reason(error)}"))
            yield game
            position = _resume(text, starts, line - first_line + 1, indent)
            continue
        yield game_from_dict(data, source, line)
        if in_array or isinstance(data, dict):
            position = _past_blanks(text, position)
            if in_array and position < len(text) and text[position] not in ",]{":  # ('{': a comma left out)
                line, column = place(position)
                game = GameRecord(source=source, line=line)
                game.errors.append(RecordError(line, column, "expected ',' or ']' after a game in the array, found "
                                                             f"{text[position]!r}"))
                yield game
                position = _resume(text, starts, line - first_line + 1, indent)
        else:  # a stray number or string: text that is no game, skipped to the next object
            position = _resume(text, starts, line - first_line + 1, indent)
    if in_array:
        line, column = place(len(text))
        game = GameRecord(source=source, line=line)
        game.errors.append(RecordError(line, column, "expected ']' to close the array of games, found the end of "
                                                     "the input"))
        yield game


def _resume(text: str, starts: array, index: int, indent: int) -> int:
    """The offset of the first ``{`` that opens one of the lines from ``index`` on, indented at most ``indent``."""
    for at in range(index, len(starts) - 1):
        start = starts[at]
        blanks = _past_indent(text, start) - start
        if blanks <= indent and text.startswith("{", start + blanks):
            return start + blanks
    return starts[-1]
