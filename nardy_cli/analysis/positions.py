"""Positions per turn: the position before each roll in every notation (the position notation for
all games, GNU Backgammon's Position ID and eXtreme Gammon's XGID for short nardy), and the turns
of a corpus that reached a given position (``nardy find``; formats/stats-tables.md, "Positions").
"""
from __future__ import annotations

from typing import Any

from nardy_cli.core.position import Board, Position
from nardy_cli.core.scores import Score, match_length
from nardy_cli.core.sides import WHITE, other
from nardy_cli.notations.gnubg_ids import XGID, position_id, xgid
from nardy_cli.record import GameRecord
from nardy_cli.replay import GameReplay
from nardy_cli.run.corpus import CorpusGame

PositionKey = tuple[str, Board, Board]
FOUND_COLUMNS = ("file", "game", "turn", "side", "player", "dice", "play", "white", "black", "event")


def position_key(position: Position) -> PositionKey:
    """What ``nardy find`` compares: the variant and the checkers of the side to move and of its
    opponent, whichever colour they are (a Position ID has none); cube and first turns aside."""
    return position.variant, position.board(position.turn), position.board(other(position.turn))


def gnubg_position_id(position: Position) -> str | None:
    """GNU Backgammon's Position ID of a short-nardy position (None for other games)."""
    if position.variant != "short":
        return None
    return position_id(position.board(position.turn), position.board(other(position.turn)))


def position_xgid(position: Position, record: GameRecord, dice: tuple[int, int] | None = None) -> str | None:
    """eXtreme Gammon's XGID of a short-nardy position before the roll (``dice`` rolled, else not yet
    rolled; X = White), with the cube and the match score and length that the record's tags state;
    None for other games or a score the tags make impossible."""
    if position.variant != "short":
        return None
    score = Score.parse(record.tags.get("Score")) or Score()
    length = max(match_length(record.tags.get("MatchLength")), 0)
    owner = {None: 0, WHITE: 1}.get(position.cube_owner, -1)
    try:
        return xgid(XGID(position.white, position.black, position.cube_value, owner,
                         1 if position.turn == WHITE else -1, dice or (0, 0), score_x=score.white if length else 0,
                         score_o=score.black if length else 0, match_length=length))
    except ValueError:
        return None


def position_values(position: Position, record: GameRecord) -> tuple[str, str | None, str | None]:
    """The values of the position columns of a row of ``turns``: ``position``, ``gnubg_id``, ``xgid``."""
    return str(position), gnubg_position_id(position), position_xgid(position, record)


def found_turns(game: CorpusGame, result: GameReplay, key: PositionKey) -> list[dict[str, Any]]:
    """The turns of a replayed game whose position before the roll is ``key``'s (:data:`FOUND_COLUMNS`)."""
    record = game.record
    return [{"file": game.source, "game": game.index, "turn": turn.turn, "side": turn.side,
             "player": record.player(turn.side), "dice": f"{turn.dice[0]}{turn.dice[1]}", "play": turn.play,
             "white": record.player(WHITE), "black": record.player(other(WHITE)),
             "event": record.tags.get("Event", "?")}
            for turn in result.turns if position_key(turn.before) == key]
