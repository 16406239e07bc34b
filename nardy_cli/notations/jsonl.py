"""JSON and JSON Lines: one game per object (formats/json.md, formats/nardy-game.schema.json).

``.jsonl`` files hold one game object per line and are read as a stream; a
``.json`` file holds one game object or an array of them. Plays are kept in
their written notation (``"24/18/15 13/7*"``), so nothing is lost.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from ..record import SIDES, Action, GameRecord, PlaySyntaxError, RecordError, parse_play

NAME = "jsonl"
EXTENSIONS = (".jsonl", ".json", ".ndjson")
KINDS = ("roll", "double", "take", "drop", "beaver", "resign")


def sniff(head: str) -> bool:
    text = head.lstrip("\ufeff \t\r\n")
    return text.startswith(("{", "[")) and ('"actions"' in head or '"tags"' in head)


def game_to_dict(game: GameRecord) -> dict[str, Any]:
    """The JSON object of a game (see the schema)."""
    actions = []
    for action in game.actions:
        item: dict[str, Any] = {"side": action.side, "kind": action.kind}
        if action.dice is not None:
            item["dice"] = list(action.dice)
        if action.kind == "roll":
            item["play"] = None if action.moves is None else action.play_text
        for key in ("value", "number"):
            if getattr(action, key) is not None:
                item[key] = getattr(action, key)
        if action.comments:
            item["comments"] = list(action.comments)
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
        game.tags = dict(tags)
        result = data.get("result")
        _expect(result is None or isinstance(result, str), '"result" must be a string or null')
        game.result = result
        game.comments = _strings(data.get("comments", []), '"comments"')
        actions = data.get("actions", [])
        _expect(isinstance(actions, list), '"actions" must be an array')
        for index, item in enumerate(actions, 1):
            game.actions.append(_action(item, index, line))
    except _Invalid as error:
        game.errors.append(RecordError(line, 1, str(error)))
    return game


def _strings(value: Any, what: str) -> list[str]:
    _expect(isinstance(value, list) and all(isinstance(v, str) for v in value), f"{what} must be an array of strings")
    return list(value)


def _action(item: Any, index: int, line: int) -> Action:
    where = f"action {index}"
    _expect(isinstance(item, dict), f"{where}: expected an object")
    side, kind = item.get("side"), item.get("kind", "roll")
    _expect(side in SIDES, f'{where}: "side" must be "w" or "b", found {side!r}')
    _expect(kind in KINDS, f'{where}: "kind" must be one of {", ".join(KINDS)}, found {kind!r}')
    dice = item.get("dice")
    if dice is not None:
        _expect(isinstance(dice, list) and len(dice) == 2 and all(isinstance(d, int) and 1 <= d <= 6 for d in dice),
                f'{where}: "dice" must be two numbers 1-6, found {dice!r}')
        dice = (dice[0], dice[1])
    moves = None
    if kind == "roll":
        _expect(dice is not None, f'{where}: a roll needs "dice"')
        play = item.get("play")
        _expect(play is None or isinstance(play, str), f'{where}: "play" must be a string or null')
        if play is not None and play.strip() != "?":
            try:
                moves = parse_play(play)
            except PlaySyntaxError as error:
                raise _Invalid(f"{where}: {error}") from None
    for key in ("value", "number"):
        _expect(item.get(key) is None or isinstance(item.get(key), int), f'{where}: "{key}" must be a whole number')
    return Action(side, kind, dice, moves, item.get("value"), item.get("number"),
                  _strings(item.get("comments", []), f'{where}: "comments"'), line=line, column=1)


def read_games(lines: Iterable[str], source: str = "") -> Iterator[GameRecord]:
    """Games from JSON Lines, or from a whole JSON document holding an object or an array."""
    iterator = iter(lines)
    pending: list[tuple[int, str]] = []
    for number, text in enumerate(iterator, 1):
        stripped = text.strip().lstrip("\ufeff")
        if not stripped:
            continue
        if not pending and stripped.startswith("{"):
            try:
                yield game_from_dict(json.loads(stripped), source, number)
                continue
            except json.JSONDecodeError:
                pass  # an object spread over several lines: read the document whole
        pending.append((number, text))
        pending.extend((n, t) for n, t in enumerate(iterator, number + 1))
        break
    if pending:
        yield from _document(pending, source)


def _document(numbered: list[tuple[int, str]], source: str) -> Iterator[GameRecord]:
    first_line = numbered[0][0]
    text = "".join(line for _, line in numbered).lstrip("\ufeff")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        game = GameRecord(source=source, line=first_line)
        game.errors.append(RecordError(first_line + error.lineno - 1, error.colno, f"invalid JSON: {error.msg}"))
        yield game
        return
    for item in data if isinstance(data, list) else [data]:
        yield game_from_dict(item, source, first_line)


def write_games(games: Iterable[GameRecord], out: TextIO) -> list[str]:
    """One game object per line (JSON Lines)."""
    for game in games:
        out.write(json.dumps(game_to_dict(game), ensure_ascii=False) + "\n")
    return []


def write_array(games: Iterable[GameRecord], out: TextIO) -> list[str]:
    """A JSON document: an array of game objects, written as a stream."""
    out.write("[")
    for index, game in enumerate(games):
        out.write(("," if index else "") + "\n" + json.dumps(game_to_dict(game), ensure_ascii=False, indent=2))
    out.write("\n]\n")
    return []
