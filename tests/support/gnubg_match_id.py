"""GNU Backgammon's Match ID codec: test support, not part of nardy.

nardy reads and writes Position IDs and XGIDs (:mod:`nardy_cli.notations.gnubg_ids`); only the tests
need Match IDs, to hand gnubg a position with the dice rolled (tests/gnubg_judge.py) and to check
the shared base64 key decoding against gnubg itself (tests/test_gnubg_ids.py).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from enum import IntEnum

from nardy_cli.notations.gnubg_ids import _b64_key  # the base64 key decoding Position IDs use too

_MATCH_ID_LEN = 12
_MATCH_KEY_BYTES = 9
MAX_MATCH_LENGTH = 64
"""gnubg's MAXSCORE: it refuses Match IDs of longer matches."""


class GameState(IntEnum):
    """gnubg's game state, bits 9-11 of the Match ID."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True)
class MatchState:
    """The fields of a gnubg Match ID.

    Players are gnubg's absolute players 0 and 1 (in gnubg's own games, 0 is the
    top player "O"/gnubg, 1 the bottom player "X"/the user); ``score`` is
    ``(player 0, player 1)``. ``player_on_roll`` is the player who is on roll or
    has rolled; ``turn`` is the player who must act now (the other one while a
    double or a resignation awaits an answer). The Position ID that goes with a
    Match ID has ``player_on_roll``'s checkers as its side on roll. ``dice``
    are kept higher die first, as gnubg writes them. ``jacoby`` is the 67th
    bit, which gnubg 1.06+ stores inverted (so older IDs read as Jacoby on).
    """

    cube_value: int = 1
    cube_owner: int | None = None  # 0, 1, or None when centred
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    doubled: bool = False
    resigned: int = 0  # 0 none, 1 single game, 2 gammon, 3 backgammon
    dice: tuple[int, int] = (0, 0)  # (0, 0): not rolled yet
    match_length: int = 0  # 0: money game
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "game_state", GameState(self.game_state))
        object.__setattr__(self, "dice", tuple(sorted(self.dice, reverse=True)))
        object.__setattr__(self, "score", tuple(self.score))
        c = self.cube_value
        if not isinstance(c, int) or c < 1 or c > 1 << 15 or c & (c - 1):
            raise ValueError(f"cube_value must be a power of two from 1 to 32768, got {c!r}")
        if self.cube_owner not in (None, 0, 1):
            raise ValueError(f"cube_owner must be 0, 1 or None (centred), got {self.cube_owner!r}")
        if self.player_on_roll not in (0, 1) or self.turn not in (0, 1):
            raise ValueError(
                f"player_on_roll and turn must be 0 or 1, got {self.player_on_roll!r}, {self.turn!r}"
            )
        if self.resigned not in (0, 1, 2, 3):
            raise ValueError(f"resigned must be 0 (none), 1, 2 or 3, got {self.resigned!r}")
        if self.dice != (0, 0) and (len(self.dice) != 2 or any(d not in range(1, 7) for d in self.dice)):
            raise ValueError(f"dice must be two values 1-6, or (0, 0) when not rolled, got {self.dice!r}")
        if not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            raise ValueError(
                f"match_length must be 0 (money) to {MAX_MATCH_LENGTH}, got {self.match_length!r}"
            )
        if len(self.score) != 2 or any(s < 0 for s in self.score):
            raise ValueError(f"score must be two non-negative values, got {self.score!r}")
        if not self.match_length and max(self.score) >= 1 << 15:
            raise ValueError(f"score must be below 32768, got {self.score!r}")
        if self.match_length and max(self.score) > self.match_length:
            raise ValueError(f"score {self.score} exceeds the match length {self.match_length}")
        if self.crawford and not self.match_length:
            raise ValueError("a money game (match_length 0) has no Crawford game")


# (field, first bit, width) of the 67-bit match key, least significant bit first.
_MATCH_FIELDS = (
    ("cube", 0, 4),
    ("owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("state", 8, 3),
    ("turn", 11, 1),
    ("doubled", 12, 1),
    ("resigned", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


def match_id(state: MatchState) -> str:
    """The 12-character gnubg Match ID of ``state``."""
    values = {
        "cube": state.cube_value.bit_length() - 1,
        "owner": 3 if state.cube_owner is None else state.cube_owner,
        "on_roll": state.player_on_roll,
        "crawford": int(state.crawford),
        "state": int(state.game_state),
        "turn": state.turn,
        "doubled": int(state.doubled),
        "resigned": state.resigned,
        "die1": state.dice[0],
        "die2": state.dice[1],
        "length": state.match_length,
        "score0": state.score[0],
        "score1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }
    key = 0
    for name, first, _width in _MATCH_FIELDS:
        key |= values[name] << first
    return base64.b64encode(key.to_bytes(_MATCH_KEY_BYTES, "little")).decode()


def parse_match_id(mid: str) -> MatchState:
    """Decode a gnubg Match ID; raises ValueError on malformed or inconsistent IDs."""
    key = _b64_key(mid, _MATCH_ID_LEN, _MATCH_KEY_BYTES, "Match ID")
    v = {name: key >> first & ((1 << width) - 1) for name, first, width in _MATCH_FIELDS}
    if key >> 67:
        raise ValueError(f"Match ID {mid!r} has bits set after the 67 used ones")
    if v["owner"] == 2:
        raise ValueError(f"Match ID {mid!r} has cube owner bits 10, which mean nothing")
    if v["state"] > max(GameState):
        raise ValueError(f"Match ID {mid!r} has an unknown game state {v['state']}")
    try:
        return MatchState(
            cube_value=1 << v["cube"],
            cube_owner=None if v["owner"] == 3 else v["owner"],
            player_on_roll=v["on_roll"],
            crawford=bool(v["crawford"]),
            game_state=GameState(v["state"]),
            turn=v["turn"],
            doubled=bool(v["doubled"]),
            resigned=v["resigned"],
            dice=(v["die1"], v["die2"]),
            match_length=v["length"],
            score=(v["score0"], v["score1"]),
            jacoby=not v["no_jacoby"],
        )
    except ValueError as exc:
        raise ValueError(f"Match ID {mid!r} is inconsistent: {exc}") from exc
