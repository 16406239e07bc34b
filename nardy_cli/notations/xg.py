"""eXtreme Gammon's binary ``.xg`` match files and ``.xgp`` position files (formats/xg.md).

Read from eXtreme Gammon's public description of the format ("XG file format"). A file is a
RichGameFormat container: an ``RGMH`` header, a JPEG thumbnail, then a zlib archive whose
members are ``temp.xg`` (the match as fixed-size 2,560-byte records), ``temp.xgi`` (its first
and last record), ``temp.xgr`` (rollouts) and ``temp.xgc`` (comments, one RTF text a line).
Records follow each other in play order: a match header, then per game a game header, a cube
record before each roll (the decision to double or not, and the answer), a move record per
roll, a game footer (winner, points, how it ended), and a match footer.

Player 1 is White (the left column of XG's and GNU Backgammon's MAT export), player 2 Black.
The games are read as the records stream out of the archive; the file itself is read whole
(XG files are small). Bad input never raises but :class:`~nardy_cli.files.sources.InputError`
naming the file and the record, after the games read before it.
"""
from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import IO, Final

from nardy_cli.core.moves import Move
from nardy_cli.core.position import CHECKERS, Position, PositionError
from nardy_cli.core.rules import Rules
from nardy_cli.core.sides import BAR, BLACK, OFF, WHITE, Side, other
from nardy_cli.core.variants import NACKGAMMON_START, SHORT, Board
from nardy_cli.notations import sniff_xg
from nardy_cli.record import Action, Evaluation, GameRecord, InputError, RecordError, next_cell

NAME = "xg"
sniff = sniff_xg  # told from the start of a text by the registry, which need not import this module

MAGIC = b"RGMH"
RECORD_BYTES = 2560
_TRAILER = struct.Struct("<IiiiiB")  # archive CRC, member count, version, directory size, archive size, packed
_TRAILER_BYTES = 36
_MEMBER_BYTES = 532  # name string[255], path string[255], original size, packed size, start, CRC, level
_CHUNK = 1 << 14
NOT_ANALYSED = -1000.0
_EQUITIES = struct.Struct("<224f")  # a move record's evaluations: 32 plays × 7 figures, the equity last
_POSITION = struct.Struct("<26b")

(HEADER_MATCH, HEADER_GAME, CUBE, MOVE, FOOTER_GAME, FOOTER_MATCH) = range(6)
RECORD_TYPES = 7  # the seventh (tsMissing) holds nothing for a game record


def _engine(white: Board, black: Board) -> list[int]:
    """Two boards as a ``PositionEngine``: White's (player 1's) checkers positive by its point
    numbers, 25 its bar; Black's negative, 0 its bar."""
    return [-black[BAR]] + [white[point] - black[25 - point] for point in range(1, 25)] + [white[BAR]]


_START: Final = _engine(SHORT.start, SHORT.start)
_NACKGAMMON_START: Final = _engine(NACKGAMMON_START, NACKGAMMON_START)

VARIATIONS = {0: "backgammon", 1: "Nackgammon", 2: "Hypergammon", 3: "Longgammon"}
LEVELS = {0: "1-ply", 1: "2-ply", 2: "3-ply", 12: "3-ply red", 3: "4-ply", 4: "5-ply", 5: "6-ply", 6: "7-ply",
          100: "Rollout", 998: "book", 999: "book", 1000: "XGRoller", 1001: "XGRoller+", 1002: "XGRoller++"}
"""eXtreme Gammon's analysis levels by number (its PLAYERLEVEL table)."""


# --- the container ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Member:
    """Where a member of the archive lies in it, and the checksum of its content."""

    start: int
    packed: int
    crc: int


def _members(payload: bytes) -> dict[str, _Member]:
    """The archive's members by name, from its directory at the end; ValueError when it is damaged."""
    if len(payload) < _TRAILER_BYTES:
        raise ValueError("the archive's directory is missing: the file is cut short")
    crc, count, _version, directory_size, archive_size, packed = _TRAILER.unpack_from(payload, len(payload) -
                                                                                      _TRAILER_BYTES)
    end = len(payload) - _TRAILER_BYTES
    if not (0 < count < 64 and 0 < directory_size <= end and archive_size == end - directory_size) \
            or zlib.crc32(payload[:end]) != crc:
        raise ValueError("the archive's directory is damaged or the file is cut short (its checksum does not match)")
    directory = payload[end - directory_size:end]
    if packed:
        directory = zlib.decompress(directory)
    members = {}
    for index in range(count):
        entry = directory[index * _MEMBER_BYTES:(index + 1) * _MEMBER_BYTES]
        if len(entry) < _MEMBER_BYTES:
            raise ValueError("the archive's directory is damaged")
        name = entry[1:1 + entry[0]].decode("latin-1")
        _size, packed_size, start, member_crc = struct.unpack_from("<iiiI", entry, 512)
        if not (0 <= start <= start + packed_size <= end - directory_size):
            raise ValueError(f"the archive's member {name} lies outside the archive")
        members[name] = _Member(start, packed_size, member_crc)
    return members


def _records(packed: bytes) -> Iterator[bytes]:
    """The 2,560-byte records of the zlib stream ``packed``, as they are decompressed; zlib.error
    on damage (after every whole record before it), ValueError when the stream is cut short."""
    stream = zlib.decompressobj()
    pending = b""
    for offset in range(0, len(packed), _CHUNK):
        chunk = packed[offset:offset + _CHUNK]
        saved = stream.copy()
        try:
            pending += stream.decompress(chunk)
        except zlib.error:  # again in small pieces, to give every record before the damage
            stream = saved
            for piece in range(0, len(chunk), 64):
                pending += stream.decompress(chunk[piece:piece + 64])
                whole = len(pending) - len(pending) % RECORD_BYTES
                yield from (pending[start:start + RECORD_BYTES] for start in range(0, whole, RECORD_BYTES))
                pending = pending[whole:]
        whole = len(pending) - len(pending) % RECORD_BYTES
        for start in range(0, whole, RECORD_BYTES):
            yield pending[start:start + RECORD_BYTES]
        pending = pending[whole:]
        if stream.eof:
            break
    pending += stream.flush()
    if not stream.eof:
        raise ValueError("the game data ends before its end: the file is cut short")
    if pending:
        raise ValueError("the game data ends inside a record")


# --- fields -------------------------------------------------------------------------------------


def _int(record: bytes, offset: int) -> int:
    return int(struct.unpack_from("<i", record, offset)[0])


def _double(record: bytes, offset: int) -> float:
    return float(struct.unpack_from("<d", record, offset)[0])


def _single(record: bytes, offset: int) -> float:
    return float(struct.unpack_from("<f", record, offset)[0])


def _ansi(record: bytes, offset: int, size: int) -> str:
    """A Pascal ``string[size]``: a length byte, then Windows-1252 text."""
    length = min(record[offset], size)
    return record[offset + 1:offset + 1 + length].decode("cp1252", errors="replace")


def _unicode(record: bytes, offset: int) -> str:
    """A ``TShortUnicodeString``: up to 129 UTF-16 characters ending with #0."""
    text = record[offset:offset + 258].decode("utf-16-le", errors="replace")
    return text.split("\0", 1)[0]


def _position(record: bytes, offset: int, side: str = WHITE) -> list[int]:
    """A ``PositionEngine`` seen by ``side``: 26 signed counts, its checkers positive by its point
    numbers (25 its bar), the opponent's negative (0 the opponent's bar). XG stores player 1's
    (White's) view; Black's is that turned round."""
    position = list(_POSITION.unpack_from(record, offset))
    return position if side == WHITE else [-count for count in reversed(position)]


def _text(value: str) -> str:
    return " ".join(value.split())


def _date(days: float) -> str | None:
    """A Delphi ``TDateTime`` (days since 30 December 1899) as ``YYYY.MM.DD``."""
    if not 1 < days < 2958466:  # 1900 to 9999
        return None
    return (datetime(1899, 12, 30) + timedelta(days=days)).strftime("%Y.%m.%d")


def _time(days: float) -> str | None:
    if not 1 < days < 2958466:
        return None
    moment = datetime(1899, 12, 30) + timedelta(days=days)
    return moment.strftime("%H.%M") if (moment.hour, moment.minute) != (0, 0) else None


def _equity(value: float) -> float:
    return round(value, 6)


def _played_best(played: float, lost: float) -> tuple[float, float]:
    """The equities of the choice made and of the best, so that the equity lost is ``lost`` (XG's
    figure), both rounded like every equity kept."""
    played = _equity(played)
    return played, _equity(played + _equity(lost))


def _level(number: int) -> str:
    return LEVELS.get(number, f"level {number}")


# --- comments -----------------------------------------------------------------------------------

_RTF_TOKEN = re.compile(r"\\'([0-9a-fA-F]{2})|\\u(-?\d+) ?\??|\\([a-zA-Z]+)(-?\d+)? ?|\\([^a-zA-Z])|([{}])|([^\\{}]+)")
_RTF_SKIPPED = {"fonttbl", "colortbl", "stylesheet", "info", "pict", "header", "footer", "generator"}


def rtf_text(rtf: str) -> str:
    """The plain text of an RTF comment: paragraphs and line breaks become newlines, escaped
    characters their Windows-1252 or Unicode character; tables, styles and pictures go."""
    out: list[str] = []
    depth, skip_from = 0, None  # skip_from: the depth of a group whose text is not shown
    starting_group = False
    for hexa, uni, word, _arg, symbol, brace, text in _RTF_TOKEN.findall(rtf):
        if brace == "{":
            depth += 1
            starting_group = True
            continue
        first, starting_group = starting_group, False
        if brace == "}":
            if skip_from is not None and depth <= skip_from:
                skip_from = None
            depth -= 1
            continue
        if skip_from is not None:
            continue
        if (symbol == "*" or word in _RTF_SKIPPED) and first:
            skip_from = depth
        elif hexa:
            out.append(bytes([int(hexa, 16)]).decode("cp1252", errors="replace"))
        elif uni:
            out.append(chr(int(uni) % 65536))
        elif word in ("par", "line"):
            out.append("\n")
        elif word == "tab":
            out.append("\t")
        elif symbol in ("\\", "{", "}"):
            out.append(symbol)
        elif text:
            out.append(text.replace("\r", "").replace("\n", ""))
    return "\n".join(line.strip() for line in "".join(out).strip().splitlines()).strip()


def _comments(raw: bytes) -> list[str]:
    """The comments of ``temp.xgc``: one RTF text a line; #1#2 inside one stands for a line end."""
    text = raw.decode("cp1252", errors="replace")
    return [rtf_text(line.replace("\x01\x02", "\r\n")) for line in text.split("\r\n")]


# --- building the games -------------------------------------------------------------------------


class _BadRecord(ValueError):
    """A record whose fields make no sense: the game gets an error naming it, the record is skipped."""


@dataclass
class _Game:
    record: GameRecord
    cell: tuple[int, int] = (0, 1)
    pending_cube: dict[str, Evaluation] = field(default_factory=dict)  # a side's "no double" judgement
    cube_value: int = 1
    start_cube: int = 1  # turned by automatic doubles before the first roll (centred)
    footer_comment: int = -1
    own_start: bool = False  # it starts from a position of its own, read from its first cube or move record

    def add(self, action: Action) -> None:
        """Add ``action``, numbered with the row it fills (as MAT and NTN lay actions out)."""
        self.cell = next_cell(self.cell, action.side)
        action.number = self.cell[0]
        self.record.actions.append(action)


class _MatchReader:
    """Turns the records of one file into game records."""

    def __init__(self, source: str, comments: list[str]) -> None:
        self.source = source
        self.comments = comments
        self.tags: dict[str, str] = {"Variant": "short"}
        self.match_comments: list[str] = []
        self.match_length: str | None = None
        self.game: _Game | None = None
        self.nackgammon = False  # the match's variation: backgammon from Nackgammon's start
        self.version = 0  # of the file's records (the match header's)
        self.number = 0  # the record being read, from 1

    def comment(self, index: int) -> list[str]:
        if 0 <= index < len(self.comments) and self.comments[index]:
            return [self.comments[index]]
        return []

    def error(self, message: str) -> None:
        error = RecordError(self.number, 1, f"record {self.number}: {message}")
        if self.game is not None:
            self.game.record.errors.append(error)
        else:
            raise InputError(f"{self.source}: {error.message}")

    def feed(self, record: bytes) -> Iterator[GameRecord]:
        self.number += 1
        kind = record[8]
        if kind == HEADER_MATCH:
            self.read_match_header(record)
        elif kind == HEADER_GAME:
            if self.game is not None:
                yield self.finish()
            self.start_game(record)
        elif kind == FOOTER_MATCH:
            if self.game is not None:
                yield self.finish()
        elif kind >= RECORD_TYPES:
            self.error(f"unknown record type {kind}: expected 0-6 (match/game header, cube, move, footer)")
        elif kind in (CUBE, MOVE, FOOTER_GAME):
            if self.game is None:
                raise InputError(f"{self.source}: record {self.number}: a {('cube', 'move', 'game footer')[kind - 2]} "
                                 "record before any game header; the file is damaged")
            try:
                if self.game.own_start and kind != FOOTER_GAME:
                    self.read_start(record)
                if kind == CUBE:
                    self.read_cube(record)
                elif kind == MOVE:
                    self.read_move(record)
            except _BadRecord as error:
                self.error(str(error))
            if kind == FOOTER_GAME:
                self.read_footer(record)
                yield self.finish()

    def finish(self) -> GameRecord:
        game = self.game
        assert game is not None
        record = game.record
        if game.own_start:
            self.error("the game starts from a position of its own, and no cube or move record tells it")
        elif "Position" not in record.tags and (self.nackgammon or game.start_cube > 1):
            record.set_short_start(self.nackgammon, game.start_cube)
        self.game = None
        return record

    # -- the records --

    def read_match_header(self, record: bytes) -> None:
        variation = _int(record, 96)
        if variation not in (0, 1):
            name = VARIATIONS.get(variation, f"variation {variation}")
            raise InputError(f"{self.source}: record {self.number}: the match is {name}, not backgammon: nardy reads "
                             "only backgammon and Nackgammon (short nardy) from XG files")
        self.nackgammon = variation == 1
        version = self.version = _int(record, 552)
        unicode = version >= 24

        def text(ansi_offset: int, size: int, unicode_offset: int) -> str:
            value = _unicode(record, unicode_offset) if unicode else ""
            return _text(value or _ansi(record, ansi_offset, size))

        tags = self.tags
        for tag, value in (("Site", text(283, 128, 1396)), ("Event", text(136, 128, 622)),
                           ("Round", text(417, 128, 1654)), ("Date", _date(_double(record, 128))),
                           ("Time", _time(_double(record, 128))), ("MatchID", str(_int(record, 268) or "")),
                           ("White", text(9, 40, 880)), ("Black", text(50, 40, 1138))):
            if value:
                tags[tag] = value
        for side, offset, experience in (("White", 104, 120), ("Black", 112, 124)):
            elo = _double(record, offset)
            if elo > 0:
                tags[side + "Elo"] = f"{elo:.2f}/{_int(record, experience)}"
        length = _int(record, 92)
        self.match_length = str(length) if 0 < length < 99999 else "0"  # 99999, unlimited: money play
        tags["CrawfordRule"] = "On" if record[100] else "Off"
        tags["Jacoby"] = "On" if record[101] else "Off"
        settings = [f"jacoby={'on' if record[101] else 'off'}"]
        if self.match_length != "0":
            settings.append(f"crawford={'on' if record[100] else 'off'}")
        if rules := Rules.preset("short").with_options(settings).differences():
            tags["Rules"] = rules  # what the game is judged under: XG's match rules
        tags["Beaver"] = "On" if record[102] else "Off"
        cube_limit = _int(record, 612)
        if 0 < cube_limit < 31:
            tags["CubeLimit"] = str(2 ** cube_limit)
        if unicode and (transcriber := _text(_unicode(record, 1960))):
            tags["Annotator"] = transcriber  # as MAT's Transcriber header and SGF's AN are read
        self.match_comments = self.comment(_int(record, 576))

    def start_game(self, record: bytes) -> None:
        tags = dict(self.tags)
        if self.match_length is not None:
            tags["MatchLength"] = self.match_length
        tags["Game"] = str(_int(record, 48))
        tags["Score"] = f"{_int(record, 12)}-{_int(record, 16)}"
        if record[20]:
            tags["Crawford"] = "yes"
        for side in ("White", "Black"):
            if elo := tags.get(side + "Elo"):
                tags[side + "Rating"] = elo.split("/", 1)[0]
        game = GameRecord(tags=tags, source=self.source, line=self.number)
        start = _position(record, 21)
        game.comments = list(self.match_comments) + self.comment(_int(record, 56))
        self.match_comments = []
        automatic_doubles = _int(record, 64) if self.version >= 26 else 0  # money play's, before the first roll
        cube = 2 ** automatic_doubles if 0 < automatic_doubles < 11 else 1
        self.game = _Game(game, footer_comment=_int(record, 60), cube_value=cube, start_cube=cube,
                          own_start=any(start) and start != (_NACKGAMMON_START if self.nackgammon else _START))

    def read_start(self, record: bytes) -> None:
        """The ``Position`` tag of a game from a position of its own (XG's "play from this
        position"): its first record's position and cube, which no action has changed yet (the game
        header holds the checkers, but not the cube)."""
        assert self.game is not None
        self.game.own_start = False
        side, engine, cube = _record_view(record)
        self.check_possible(engine)
        try:
            position = _side_position(engine, side, cube)
        except PositionError as problem:
            raise _BadRecord(f"the game's own start is not a position: {problem}") from None
        self.game.record.tags["Position"] = str(position)
        self.game.cube_value = position.cube_value

    def read_cube(self, record: bytes) -> None:
        assert self.game is not None
        side = _record_view(record)[0]
        doubled, answer, beaver, raccoon = (_int(record, offset) for offset in (16, 20, 24, 28))
        comments = self.comment(_int(record, 292))
        judged = self.cube_judgements(record, side, doubled == 1, answer)
        if doubled != 1:
            if judged[0] is not None:
                self.game.pending_cube[side] = judged[0]
            if comments:
                self.game.record.comments.extend(comments)
            return
        game = self.game
        game.cube_value *= 2
        game.add(Action(side, "double", value=game.cube_value, line=self.number, column=1, comments=comments,
                        analysis=tuple(e for e in judged[:1] if e)))
        taker = other(side)
        answer_analysis = tuple(e for e in judged[1:] if e)
        if answer == 2 or beaver == 1:
            game.cube_value *= 2
            game.add(Action(taker, "beaver", value=game.cube_value, line=self.number, column=2,
                            analysis=answer_analysis))
            if raccoon == 1:
                self.error(f"a raccoon (the doubler redoubled the beaver to {game.cube_value * 2}): nardy does not "
                           "replay raccoons")
        elif answer == 1:
            game.add(Action(taker, "take", line=self.number, column=2, analysis=answer_analysis))
        elif answer == 0:
            game.add(Action(taker, "drop", line=self.number, column=2, analysis=answer_analysis))

    def cube_judgements(self, record: bytes, side: str, doubled: bool,
                        answer: int) -> tuple[Evaluation | None, Evaluation | None]:
        """XG's judgement of the decision to double (or not) and of the answer, each from the deciding
        side's point of view: the equity of the choice made (no double, double/take or double/pass)
        and that equity plus XG's stored error (so the equity lost is exactly XG's figure)."""
        error_cube, error_take = _double(record, 200), _double(record, 216)
        level = _level(_int(record, 232))
        no_double, take, drop = (_single(record, 64 + offset) for offset in (88, 92, 96))
        cube = None
        if error_cube != NOT_ANALYSED:
            cube = Evaluation("cube", level, *_played_best(min(take, drop) if doubled else no_double, error_cube))
        answered = None
        if doubled and error_take != NOT_ANALYSED and answer in (0, 1, 2):
            answered = Evaluation("take", level, *_played_best(-drop if answer == 0 else -take, -error_take))
        return cube, answered

    def read_move(self, record: bytes) -> None:
        assert self.game is not None
        side, position, _ = _record_view(record)
        dice = _move_dice(record)
        if not _rolled(dice):
            raise _BadRecord(f"expected two dice 1-6, found {dice[0]} and {dice[1]}")
        self.check_possible(position)
        legs = struct.unpack_from("<8i", record, 68)
        moves = self.moves(position, legs)
        analysis = []
        if cube := self.game.pending_cube.pop(side, None):
            analysis.append(cube)
        error, luck = _double(record, 2312), _double(record, 2320)
        count = _int(record, 124 + 64)  # the plays XG evaluated, best first: one when the play was forced
        level = _level(_int(record, 2472))
        played = best = None
        if error != NOT_ANALYSED and count > 1:
            top = max(_EQUITIES.unpack_from(record, 124 + 1284)[6::7][:count])  # each play's 7th figure
            played, best = _played_best(_equity(top) + error, -error)
        if played is not None or luck != NOT_ANALYSED:
            analysis.append(Evaluation("move", level, played, best, None if luck == NOT_ANALYSED else _equity(luck)))
        self.game.add(Action(side, "roll", (dice[0], dice[1]), moves, line=self.number, column=1,
                             comments=self.comment(_int(record, 2524)), analysis=tuple(analysis)))

    def moves(self, position: list[int], legs: tuple[int, ...]) -> tuple[Move, ...] | None:
        """The play of a move record's legs (0-based points, 24 the bar, below 0 off; -1 after the
        last): None when the play is not recorded (all zeros: the side resigned instead)."""
        if legs[:2] == (0, 0):
            return None
        moves = []
        for start, end in zip(legs[::2], legs[1::2]):
            if start == -1:
                break
            if not (0 <= start <= 24 and -6 <= end < start and end <= 23) or start - max(end, -1) > 6:
                raise _BadRecord(f"expected a checker move from a point 1-25 at most 6 points down, found "
                                 f"{start + 1} to {end + 1}")
            moves.append(self.move(position, start + 1, max(end + 1, OFF)))
        return tuple(moves)

    @staticmethod
    def check_possible(position: list[int]) -> None:
        mine = sum(filter((0).__lt__, position))
        theirs = -sum(filter((0).__gt__, position))
        if mine > CHECKERS or theirs > CHECKERS or position[25] < 0 or position[0] > 0:
            raise _BadRecord(f"impossible position before the move: {mine} and {theirs} checkers (at most "
                             f"{CHECKERS} a side), or a side's checkers on the other's bar")

    @staticmethod
    def move(position: list[int], start: int, end: int) -> Move:
        """One leg played on ``position`` (updated), a hit marked as MAT and NTN mark it."""
        position[start] -= 1
        hit = end != OFF and position[end] == -1
        if hit:
            position[end] = 0
            position[0] -= 1
        if end != OFF:
            position[end] += 1
        return Move((start, end), (hit,))

    def read_footer(self, record: bytes) -> None:
        assert self.game is not None
        game = self.game
        game.record.comments.extend(self.comment(game.footer_comment))
        winner = {1: WHITE, -1: BLACK}.get(_int(record, 24))
        if winner is None:
            return  # a game not finished
        points, termination = _int(record, 28), _int(record, 32)
        game.record.result = f"{points}-0" if winner == WHITE else f"0-{points}"
        if termination >= 100:  # resigned (+100) or settled (+1000): the loser gave the points up
            game.record.tags["Termination"] = "resign"
            game.add(Action(other(winner), "resign", value=points, line=self.number, column=1))
        elif termination == 0:
            game.record.tags["Termination"] = "drop"


def _side_position(position: list[int], side: Side, cube: int) -> Position:
    """The :class:`Position` of a ``PositionEngine`` seen by ``side``, on roll, with XG's cube
    (``n``: value 2**|n|, owned by player 1, White, when positive, by player 2 when negative)."""
    mine, theirs = [0] * 26, [0] * 26
    for point in range(1, 26):
        mine[point] = max(position[point], 0)
    for point in range(1, 25):
        theirs[25 - point] = max(-position[point], 0)
    theirs[25] = max(-position[0], 0)
    mine[0], theirs[0] = CHECKERS - sum(mine), CHECKERS - sum(theirs)
    white, black = (mine, theirs) if side == WHITE else (theirs, mine)
    owner = None if cube == 0 else WHITE if cube > 0 else BLACK
    return Position("short", side, tuple(white), tuple(black), cube_value=2 ** min(abs(cube), 30), cube_owner=owner)


def file_position(path: str) -> tuple[Position, tuple[int, int] | None]:
    """The position an ``.xgp`` file shows (for an ``.xg`` file: the position before its last
    roll or cube decision), and the dice rolled there (None before a cube decision);
    :class:`~nardy_cli.core.position.PositionError` when there is none."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(64 << 20)
    except OSError as error:
        raise PositionError(f"{path}: cannot read: {error.strerror}") from None
    last = None
    try:
        for record in _file_records(data, path):
            if record[8] in (CUBE, MOVE):
                last = record
    except InputError as error:
        raise PositionError(str(error)) from None
    if last is None:
        raise PositionError(f"{path}: holds no position (no cube or move record)")
    side, engine, cube = _record_view(last)
    dice = _move_dice(last) if last[8] == MOVE else (0, 0)
    return _side_position(engine, side, cube), dice if _rolled(dice) else None


def _move_dice(record: bytes) -> tuple[int, int]:
    """A move record's dice, as stored."""
    first, second = struct.unpack_from("<2i", record, 100)
    return first, second


def _rolled(dice: tuple[int, int]) -> bool:
    return all(1 <= die <= 6 for die in dice)


def _record_view(record: bytes) -> tuple[Side, list[int], int]:
    """A cube or move record's side on roll, the ``PositionEngine`` before it seen by that side,
    and its cube (see :func:`_side_position`)."""
    if record[8] == MOVE:
        side, offset, cube = (WHITE if _int(record, 64) == 1 else BLACK), 9, _int(record, 108)
    else:
        side, offset, cube = (WHITE if _int(record, 12) == 1 else BLACK), 36, _int(record, 32)
    return side, _position(record, offset, side), cube


def _file_records(data: bytes, source: str) -> Iterator[bytes]:
    """The records of an XG file's game data, whole; InputError when it cannot be read."""
    payload = _payload(data, source)
    members, _ = _archive(payload)
    try:
        yield from _records(_game_data(payload, members))
    except (ValueError, zlib.error) as error:
        raise InputError(f"{source}: {error}; the file is damaged") from None


def _archive(payload: bytes) -> tuple[dict[str, _Member], str | None]:
    """The archive's members, or none and why when its directory is damaged (its game data is then
    read from the archive's start, where XG puts it)."""
    try:
        return _members(payload), None
    except (ValueError, zlib.error, struct.error) as error:
        return {}, str(error)


def _game_data(payload: bytes, members: dict[str, _Member]) -> bytes:
    """The packed ``temp.xg`` member of the archive ``payload``."""
    games = members.get("temp.xg")
    return payload[games.start:games.start + games.packed] if games else payload


def _payload(data: bytes, source: str) -> bytes:
    """The zlib archive of an XG file: what follows its RGMH header and thumbnail."""
    if not data.startswith(MAGIC):
        raise InputError(f"{source}: not an eXtreme Gammon file: expected it to begin with 'RGMH', found "
                         f"{data[:4]!r}")
    if len(data) < 24:
        raise InputError(f"{source}: the XG header is cut short")
    header_size, thumbnail_size = struct.unpack_from("<I", data, 8)[0], struct.unpack_from("<I", data, 20)[0]
    payload = data[header_size + thumbnail_size:]
    if header_size < 24 or not payload:
        raise InputError(f"{source}: the file is cut short: no game data after its header and thumbnail")
    return payload


def read_games(stream: IO[bytes], source: str) -> Iterator[GameRecord]:
    """The games of an XG file read from ``stream``, in order; raises
    :class:`~nardy_cli.files.sources.InputError` naming the file and the record after the games read
    before a damage (wrong magic number, cut short, corrupt archive, not backgammon)."""
    payload = _payload(stream.read(), source)
    members, damage = _archive(payload)
    games = members.get("temp.xg")
    if members and games is None:
        raise InputError(f"{source}: the archive holds no game data (temp.xg)")
    comments: list[str] = []
    if (held := members.get("temp.xgc")) is not None:
        try:
            comments = _comments(zlib.decompress(payload[held.start:held.start + held.packed]))
        except zlib.error as error:
            damage = f"the comments are damaged ({error})"
    reader = _MatchReader(source, comments)
    crc = 0
    try:
        for record in _records(_game_data(payload, members)):
            crc = zlib.crc32(record, crc)
            yield from reader.feed(record)
    except (ValueError, zlib.error) as error:
        raise InputError(f"{source}: cannot read past record {reader.number}: {error}; the file is damaged or cut "
                         "short (the games before were read)") from None
    if reader.game is not None:
        yield reader.finish()
    if games is not None and crc != games.crc:
        damage = "the game data does not match its checksum"
    if damage:
        raise InputError(f"{source}: {damage}; the file is damaged (the games before were read)")
