"""GNU Backgammon Position ID and eXtreme Gammon XGID codecs.

Pure functions, no dependency on gnubg itself (they are checked against it in
the tests).

A side's checkers are a 26-tuple in that side's OWN numbering: index 0 = borne
off, 1..24 = points (24 = far end of its route, 1 = last home point), 25 = bar,
and the 26 entries add up to 15. One side's point ``p`` is the other's
``25 - p``.

Position ID (gnubg's "position key", 80 bits): for each side, for each of its
points 1..24 and then its bar, one 1-bit per checker followed by a 0-bit; the
side NOT on roll is written first, the side on roll second (gnubg's
``anBoard[0]`` / ``anBoard[1]``; gnubg's manual says the opposite, gnubg's code
and output do this). The bits are packed least significant bit first into 10
bytes, which are written as 14 base64 characters without padding.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nardy_cli.core import sides
    from nardy_cli.core.position import Position

Side = tuple[int, ...]
"""A side's 26 counts: [0] borne off, [1..24] points in its own numbering, [25] bar."""

CHECKERS = 15
OFF = 0
BAR = 25

_POSITION_ID_LEN = 14
_POSITION_KEY_BYTES = 10
_BASE64_CHARS = re.compile(r"[A-Za-z0-9+/]*")


# --------------------------------------------------------------------------- #
# Boards


def _check_side(side: Side, name: str) -> None:
    if len(side) != 26:
        raise ValueError(f"{name}: a side has 26 entries (off, points 1-24, bar), got {len(side)}")
    if any(not isinstance(n, int) or n < 0 for n in side):
        raise ValueError(f"{name}: checker counts must be non-negative integers, got {side}")
    if sum(side) != CHECKERS:
        raise ValueError(f"{name}: checkers must add up to {CHECKERS} (borne off included), got {sum(side)}")


def check_board(a: Side, b: Side, names: tuple[str, str] = ("on_roll", "opponent")) -> None:
    """Raise ValueError unless sides ``a`` and ``b`` form a position gnubg accepts.

    Mirrors gnubg's ``CheckPosition``: 15 checkers a side (borne off
    included), no point held by both sides, and not both sides on the bar
    against closed home boards.
    """
    _check_side(a, names[0])
    _check_side(b, names[1])
    for p in range(1, 25):
        if a[p] and b[25 - p]:
            raise ValueError(
                f"{names[0]}'s point {p} is {names[1]}'s point {25 - p}: both sides have checkers there"
            )
    if all(side[BAR] and all(side[p] >= 2 for p in range(1, 7)) for side in (a, b)):
        raise ValueError("both sides are on the bar against closed home boards")


def position_id(on_roll: Side, opponent: Side) -> str:
    """The 14-character gnubg Position ID of a position (opponent encoded first)."""
    check_board(on_roll, opponent)
    key, bit = 0, 0
    for side in (opponent, on_roll):
        for slot in range(1, 26):  # points 1..24, then the bar
            key |= ((1 << side[slot]) - 1) << bit
            bit += side[slot] + 1
    return base64.b64encode(key.to_bytes(_POSITION_KEY_BYTES, "little")).decode()[:_POSITION_ID_LEN]


def _b64_key(text: str, length: int, n_bytes: int, what: str) -> int:
    """Decode an unpadded base64 ID into its little-endian integer key (TypeError if not a string)."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a string, got {type(text).__name__}")
    if len(text) != length:
        raise ValueError(f"{what} must be {length} characters long, got {len(text)}: {text!r}")
    if not _BASE64_CHARS.fullmatch(text):
        bad = next(c for c in text if not _BASE64_CHARS.fullmatch(c))
        raise ValueError(f"{what} {text!r} has a character outside base64: {bad!r}")
    padded = text + "=" * (-length % 4)
    raw = base64.b64decode(padded, validate=True)
    if base64.b64encode(raw).decode() != padded:
        raise ValueError(f"{what} {text!r} has unused trailing bits set")
    return int.from_bytes(raw[:n_bytes], "little")


def parse_position_id(pid: str) -> tuple[Side, Side]:
    """Decode a Position ID into ``(on_roll, opponent)`` sides.

    The borne-off count of each side is 15 minus its checkers on the board.
    """
    key = _b64_key(pid, _POSITION_ID_LEN, _POSITION_KEY_BYTES, "Position ID")
    total_bits = 8 * _POSITION_KEY_BYTES
    sides: list[list[int]] = []
    bit = 0
    for name in ("opponent", "on_roll"):
        side = [0] * 26
        for slot in range(1, 26):
            while bit < total_bits and key >> bit & 1:
                side[slot] += 1
                bit += 1
            if bit >= total_bits:
                raise ValueError(f"Position ID {pid!r} ends in the middle of the {name}'s checkers")
            bit += 1  # the 0-bit closing this point
        on_board = sum(side)
        if on_board > CHECKERS:
            raise ValueError(
                f"Position ID {pid!r} gives the {name} {on_board} checkers, more than {CHECKERS}"
            )
        side[OFF] = CHECKERS - on_board
        sides.append(side)
    if key >> bit:
        raise ValueError(f"Position ID {pid!r} has bits set after both sides' checkers")
    opponent, on_roll = (tuple(s) for s in sides)
    try:
        check_board(on_roll, opponent)
    except ValueError as exc:
        raise ValueError(f"Position ID {pid!r} is not a legal position: {exc}") from exc
    return on_roll, opponent


# --------------------------------------------------------------------------- #
# Match ID

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


# --------------------------------------------------------------------------- #
# XGID

_CUBE_ACTIONS = ("", "D", "B", "R")


@dataclass(frozen=True)
class XGID:
    """The fields of an eXtreme Gammon XGID.

    ``x`` is the bottom player (upper-case letters, gnubg's player 1) and ``o``
    the top player (lower-case, gnubg's player 0), each in its own numbering.
    The position string is written in X's numbering: character 0 is O's bar,
    1..24 are X's points 1..24, 25 is X's bar.

    ``turn`` is 1 when X is on roll, -1 when O is; with ``cube_action`` "D" it
    is the player who doubled. ``cube_owner`` is 1 (X), -1 (O) or 0 (centred).
    ``dice`` is (0, 0) when not rolled; ``cube_action`` is "" or "D" (double
    offered), "B" (beaver), "R" (raccoon), which are written in the dice field.
    ``rules`` is field 8: in a match 1 marks the Crawford game; in a money game
    bit 0 is the Jacoby rule and bit 1 beavers. ``max_cube_exponent`` is XG's
    money-game cube limit (2 to that power); gnubg ignores it.
    """

    x: Side
    o: Side
    cube_value: int = 1
    cube_owner: int = 0
    turn: int = 1
    dice: tuple[int, int] = (0, 0)
    cube_action: str = ""
    score_x: int = 0
    score_o: int = 0
    rules: int = 0
    match_length: int = 0
    max_cube_exponent: int = 10

    def __post_init__(self) -> None:
        object.__setattr__(self, "x", tuple(self.x))
        object.__setattr__(self, "o", tuple(self.o))
        object.__setattr__(self, "dice", tuple(self.dice))
        check_board(self.x, self.o, ("X", "O"))
        c = self.cube_value
        if not isinstance(c, int) or c < 1 or c > 1 << 15 or c & (c - 1):
            raise ValueError(f"cube_value must be a power of two from 1 to 32768, got {c!r}")
        if self.cube_owner not in (-1, 0, 1):
            raise ValueError(f"cube_owner must be 1 (X), -1 (O) or 0 (centred), got {self.cube_owner!r}")
        if self.turn not in (-1, 1):
            raise ValueError(f"turn must be 1 (X) or -1 (O), got {self.turn!r}")
        if self.cube_action not in _CUBE_ACTIONS:
            raise ValueError(f"cube_action must be one of {_CUBE_ACTIONS}, got {self.cube_action!r}")
        if len(self.dice) != 2 or (self.dice != (0, 0) and any(d not in range(1, 7) for d in self.dice)):
            raise ValueError(f"dice must be two values 1-6, or (0, 0) when not rolled, got {self.dice!r}")
        if self.cube_action and self.dice != (0, 0):
            raise ValueError(f"no dice can be rolled while a cube action {self.cube_action!r} is pending")
        if self.match_length < 0 or self.score_x < 0 or self.score_o < 0 or self.max_cube_exponent < 0:
            raise ValueError("match_length, scores and max_cube_exponent must be non-negative")
        if self.match_length and max(self.score_x, self.score_o) > self.match_length:
            raise ValueError(
                f"scores {self.score_x}-{self.score_o} exceed the match length {self.match_length}"
            )
        allowed_rules = (0, 1) if self.match_length else (0, 1, 2, 3)
        if self.rules not in allowed_rules:
            raise ValueError(f"rules must be one of {allowed_rules} here, got {self.rules!r}")

    def position(self) -> tuple[Side, Side]:
        """``(side whose turn it is, other side)``, as ``turn`` says."""
        return (self.x, self.o) if self.turn == 1 else (self.o, self.x)


def _xg_char(n: int, upper: bool) -> str:
    return chr((ord("A") if upper else ord("a")) + n - 1) if n else "-"


def xgid(state: XGID) -> str:
    """The ``XGID=...`` string of ``state``."""
    chars = [_xg_char(state.o[BAR], upper=False)]
    for p in range(1, 25):
        if state.x[p]:
            chars.append(_xg_char(state.x[p], upper=True))
        else:
            chars.append(_xg_char(state.o[25 - p], upper=False))
    chars.append(_xg_char(state.x[BAR], upper=True))
    dice = state.cube_action or f"{state.dice[0]}{state.dice[1]}"
    fields = (
        "".join(chars),
        state.cube_value.bit_length() - 1,
        state.cube_owner,
        state.turn,
        dice,
        state.score_x,
        state.score_o,
        state.rules,
        state.match_length,
        state.max_cube_exponent,
    )
    return "XGID=" + ":".join(str(f) for f in fields)


_INT = re.compile(r"-?\d+")


def parse_xgid(text: str) -> XGID:
    """Decode an XGID (the ``XGID=`` prefix is optional)."""
    if not isinstance(text, str):
        raise TypeError(f"an XGID must be a string, got {type(text).__name__}")
    fields = text.strip().removeprefix("XGID=").split(":")
    if len(fields) != 10:
        raise ValueError(f"an XGID has 10 ':'-separated fields, got {len(fields)}: {text!r}")
    pos, *numbers = fields
    if len(pos) != 26:
        raise ValueError(f"the XGID position must be 26 characters, got {len(pos)}: {pos!r}")
    x, o = [0] * 26, [0] * 26
    for i, ch in enumerate(pos):
        if ch == "-":
            continue
        if "A" <= ch <= "P" and i != 0:
            x[BAR if i == 25 else i] = ord(ch) - ord("A") + 1
        elif "a" <= ch <= "p" and i != 25:
            o[BAR if i == 0 else 25 - i] = ord(ch) - ord("a") + 1
        else:
            raise ValueError(f"bad character {ch!r} at index {i} of the XGID position {pos!r}")
    for name, side in (("X", x), ("O", o)):
        on_board = sum(side)
        if on_board > CHECKERS:
            raise ValueError(f"the XGID gives {name} {on_board} checkers, more than {CHECKERS}")
        side[OFF] = CHECKERS - on_board
    cube, owner, turn, dice, score_x, score_o, rules, length, max_cube = numbers
    for name, value in (
        ("cube", cube),
        ("cube position", owner),
        ("turn", turn),
        ("score 1", score_x),
        ("score 2", score_o),
        ("rules", rules),
        ("match length", length),
        ("max cube", max_cube),
    ):
        if not _INT.fullmatch(value):
            raise ValueError(f"XGID field {name!r} must be an integer, got {value!r}")
    if dice in _CUBE_ACTIONS[1:]:
        action, rolled = dice, (0, 0)
    elif re.fullmatch(r"[0-6]{2}", dice):
        action, rolled = "", (int(dice[0]), int(dice[1]))
    else:
        raise ValueError(f"XGID dice field must be two digits, 'D', 'B' or 'R', got {dice!r}")
    if not 0 <= int(cube) <= 15:
        raise ValueError(f"XGID cube exponent must be 0-15, got {cube}")
    try:
        return XGID(
            x=tuple(x),
            o=tuple(o),
            cube_value=1 << int(cube),
            cube_owner=int(owner),
            turn=int(turn),
            dice=rolled,
            cube_action=action,
            score_x=int(score_x),
            score_o=int(score_o),
            rules=int(rules),
            match_length=int(length),
            max_cube_exponent=int(max_cube),
        )
    except ValueError as exc:
        raise ValueError(f"XGID {text!r} is not valid: {exc}") from exc


def short_position(text: str) -> tuple[Position, tuple[int, int] | None]:
    """A short-nardy :class:`~nardy_cli.core.position.Position` from a GNU Backgammon Position ID,
    a GNUBG ID (``PositionID:MatchID``) or an XGID, and the dice rolled there (None when the text
    gives none). The player on roll is White; a Match ID's or an XGID's cube comes along (White owns
    it when the player on roll does)."""
    from nardy_cli.core.position import Position  # the codecs themselves stay free of the engine

    text = text.strip()
    cube, centred, on_roll_owns, dice = 1, True, False, (0, 0)
    if text.upper().startswith("XGID=") or text.count(":") >= 9:
        xg = parse_xgid(text)
        on_roll, opponent = xg.position()
        cube, centred, on_roll_owns, dice = xg.cube_value, xg.cube_owner == 0, xg.cube_owner == xg.turn, xg.dice
    elif ":" in text:
        pid, _, mid = text.partition(":")
        on_roll, opponent = parse_position_id(pid)
        state = parse_match_id(mid)
        cube, centred = state.cube_value, state.cube_owner is None
        on_roll_owns, dice = state.cube_owner == state.player_on_roll, state.dice
    else:
        on_roll, opponent = parse_position_id(text)
    owner: sides.Side | None = None if centred else "w" if on_roll_owns else "b"
    position = Position("short", "w", on_roll, opponent, frozenset(), cube, owner)
    return position, None if dice == (0, 0) else dice
