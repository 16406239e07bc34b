"""A JSON document is read through a window of its lines: the same games, errors and places as reading
it whole (the reader it replaced, kept in ``support/json_document.py``), in memory that does not grow
with the document."""
from __future__ import annotations

import io
import json
import tracemalloc
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from locations import SAMPLES
from nardy_cli.notations import jsonl
from nardy_cli.notations.jsonl import game_to_dict, json_array_item, read_games
from nardy_cli.notations.ntn import read_games as read_ntn
from nardy_cli.record import GameRecord
from support import json_document

WINDOWS = (1, 2, 7, 64, 4096, jsonl._WINDOW_CHARS)


@cache
def sample_games() -> tuple[GameRecord, ...]:
    games: list[GameRecord] = []
    for path in sorted(SAMPLES.glob("*/*.ntn")):
        if path.parent.name != "generated":
            with path.open(encoding="utf-8") as lines:
                games += read_ntn(lines, path.name)
    return tuple(games)


def documents() -> dict[str, str]:
    """The samples as JSON documents of the shapes the reader takes (the writer's array, one line,
    objects one after another), and some broken ones."""
    games = sample_games()
    array = "[" + ",".join("\n" + json_array_item(game) for game in games) + "\n]\n"
    return {
        "array": array,
        "one line": json.dumps([game_to_dict(game) for game in games], ensure_ascii=False) + "\n",
        "objects": "".join(json_array_item(game) + "\n" for game in games),
        "unclosed": array[:len(array) // 2],
        "comma left out": array.replace("},\n{", "}\n{", 3),
        "bad game": array.replace('"side": "b"', '"side" "b"', 1),
        "stray values": '[\n1,\n"x",\n' + array[2:].replace("},\n{", "},\n true,\n{", 2),
        "unterminated string": array.replace('"Result": "', '"Result": "\\', 1),
    }


def read(read_document, text: str) -> list[tuple]:
    lines = io.StringIO(text).readlines()
    return [(game.line, [(error.line, error.column, error.message) for error in game.errors], game_to_dict(game))
            for game in read_document(1, lines, "test.json")]


@pytest.mark.parametrize("window", WINDOWS)
@pytest.mark.parametrize("shape", list(documents()))
def test_the_window_reads_what_the_whole_document_gives(shape, window, monkeypatch):
    text = documents()[shape]
    expected = read(json_document._document, text)
    monkeypatch.setattr(jsonl, "_WINDOW_CHARS", window)
    assert read(jsonl._document, text) == expected
    assert len(expected) >= 3


EDITS = st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=3),
                           st.sampled_from(list('{}[],:"\\ \n\t0123456789.-eEtrufalsn') + ["\u0416", "\\u00", "{\n"])),
                 min_size=1, max_size=6)


@given(edits=EDITS, window=st.sampled_from(WINDOWS[:5]))
@settings(max_examples=300, deadline=None)
def test_a_damaged_document_reads_the_same_through_any_window(edits, window):
    games = sample_games()[:4]
    text = "[" + ",".join("\n" + json_array_item(game) for game in games) + "\n]\n"
    for at, removed, inserted in edits:
        at %= len(text) + 1
        text = text[:at] + inserted + text[at + removed:]
    expected = read(json_document._document, text)
    original = jsonl._WINDOW_CHARS
    jsonl._WINDOW_CHARS = window  # (hypothesis runs the examples within one test: no monkeypatch)
    try:
        assert read(jsonl._document, text) == expected
    finally:
        jsonl._WINDOW_CHARS = original


def test_reading_a_json_array_takes_memory_for_a_game_not_for_the_document(monkeypatch):
    monkeypatch.setattr(jsonl, "_WINDOW_CHARS", 1 << 16)  # both documents many windows long
    item = json_array_item(sample_games()[0])
    peaks = []
    for copies in (200, 1000):
        document = "[" + ",".join("\n" + item for _ in range(copies)) + "\n]\n"
        lines = io.StringIO(document).readlines()
        tracemalloc.start()
        try:
            count = sum(1 for _ in read_games(iter(lines), "big.json"))
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        del lines, document
        assert count == copies
    assert peaks[1] < peaks[0] + (1 << 18), peaks
