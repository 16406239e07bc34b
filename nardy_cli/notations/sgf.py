"""GNU Backgammon's SGF dialect (``GM[6]``): reader and writer.

One SGF game tree is one game. Only the main line (the first child at every
branch) is read; other variations are skipped, however deeply nested.

Coordinates: a letter names a point *seen from White*: ``a`` is White's 1 point
(Black's 24) through ``x``, White's 24 (Black's 1); ``y`` is the bar and ``z``
off. A move ``W[41xwmi]`` is the dice, then one (from, to) letter pair per die
used. Long nardy, which GNU Backgammon does not know, is marked
``RU[LongNardy]``; there Black's point p is White's p+12 or p-12, so the
letters still name points seen from White.

GNU Backgammon writes ``MI[game:N]`` counting from 0 (the SGF spec says 1); this
module follows GNU Backgammon. ``formats/sgf.md`` says what is kept and lost.
"""
from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import cast

from nardy_cli import __version__
from nardy_cli.core.compiled import picklable
from nardy_cli.core.engine import Engine, Split
from nardy_cli.core.moves import Move, written_dice
from nardy_cli.core.position import CHECKERS, Position, PositionError, default_first, opposite_point
from nardy_cli.core.rules import Rules, tag_rules
from nardy_cli.core.scores import Result, Score, final_cube, is_money, match_length, resignation_level
from nardy_cli.core.sides import BAR, BLACK, OFF, SIDE_NAMES, SIDES, WHITE, Side, other
from nardy_cli.core.variants import VARIANTS, VariantName
from nardy_cli.notations import GameStarts, GameWriter, Target, analysis, gnubg_analysis, sniff_sgf, without_cascades
from nardy_cli.record import Action, ActionKind, Evaluation, GameRecord, RecordError

NAME = "sgf"
sniff = sniff_sgf  # told from the start of a text by the registry, which need not import this module

SIDE_LETTER = {WHITE: "W", BLACK: "B"}
LETTER_SIDE = {"W": WHITE, "B": BLACK}
CUBE_WORDS: tuple[ActionKind, ...] = ("double", "take", "drop")

# Root properties that are plain text tags, in the order the writer emits them.
TEXT_TAGS = {
    "PW": "White",
    "PB": "Black",
    "WR": "WhiteRating",
    "BR": "BlackRating",
    "DT": "Date",
    "EV": "Event",
    "RO": "Round",
    "PC": "Site",
    "AN": "Annotator",
    "GC": "MatchComment",
}
# GNU Backgammon writes these on a match's first game only; later games of the
# same match take them from it.
MATCH_TAGS = ("WhiteRating", "BlackRating", "Date", "Event", "Round", "Site", "Annotator", "MatchComment")
# An unknown root property XX is kept as tag SGF_XX and written back as XX.
RAW_TAG_PREFIX = "SGF_"
# Our private root property: NT[Key:Value] keeps the tags SGF has no property for.
PRIVATE_TAGS = "NT"
# Our private node property: NA[move played=-0.27 best=-0.21 luck=0.03 level=4-ply]... keeps an
# action's analysis, each value an NTN [%analysis ...] without its brackets.
ANALYSIS = "NA"
ANALYSIS_OPEN = "[%analysis "
# Root properties about the file or its analysis, not the game: not kept. Later
# nodes keep only moves, set-up, comments and the checker-play analysis A and LU (GNU
# Backgammon's DA, BM..., are read past).
DROPPED = {"FF", "GM", "CA", "AP", "GS"}
SETUP = {"AE", "AW", "AB", "CV", "CP", "CO"}

LONG_MARKER = "LongNardy"
NACKGAMMON = "Nackgammon"  # backgammon from Position.nackgammon()
RULE_TOKENS = {"Crawford", "CrawfordGame", "Jacoby", "NoCube", NACKGAMMON, LONG_MARKER}

_MOVE_VALUE = re.compile(r"([1-6])([1-6])([a-z]*)")
_RESULT_VALUE = re.compile(r"([WB])\+(\d{1,9})?(R|Resign)?", re.IGNORECASE)
_NEXT_GAME_LINE = re.compile(r"\s*\(\s*;\s*[A-Z]{1,2}\[")
_ROOT_NODE = re.compile(r"\(\s*;\s*(?:FF|GM)\s*\[")  # no variation starts so: the next game, its tree unclosed
_TREE_OPEN = re.compile(r"\((?=\s*(?:;|\Z))")  # a '(' that a ';' follows, maybe on the next line
_BLANKS = re.compile(r"\s*")
_WORD = re.compile(r"[A-Za-z]+")
_VALUE_STOP = re.compile(r"[\\\]]")
_ESCAPE = re.compile(r"\\(\r?\n|.)", re.DOTALL)

Counts = dict[Side, list[int]]  # side -> checkers on its own points: 0 off, 1-24, 25 bar


def game_starts(head: list[str]) -> GameStarts | None:
    """None: a collection is one tree of nodes in parentheses, read whole."""
    return None


# --- coordinates and conventions ----------------------------------------------------------


def point_to_letter(point: int, side: Side, variant: str = "short") -> str:
    """The SGF letter of ``point`` in ``side``'s own numbering (25 bar, 0 off)."""
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    white_point = point if side == WHITE else opposite_point(variant, point)
    return chr(ord("a") + white_point - 1)


def letter_to_point(letter: str, side: Side, variant: str = "short") -> int:
    """The point named by an SGF letter, in ``side``'s own numbering."""
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    white_point = ord(letter) - ord("a") + 1
    return white_point if side == WHITE else opposite_point(variant, white_point)


def _sgf_variant(variant: str) -> VariantName:
    """The game an SGF game tree is read and written as (its board, its RU tokens): the record's
    variant, or backgammon, SGF's game, for a variant nardy does not know (the Variant tag goes to NT)."""
    return cast(VariantName, variant) if variant in VARIANTS else "short"


def _rule_settings(tokens: Iterable[str], variant: str, is_match: bool) -> list[str]:
    """The rule options (``key=value``) that GNU Backgammon's RU tokens stand for."""
    tokens = set(tokens)
    settings = ["cube=off" if "NoCube" in tokens else "cube=on"]
    options = VARIANTS[variant].options
    if "jacoby" in options:
        settings.append("jacoby=on" if "Jacoby" in tokens else "jacoby=off")
    if is_match and "crawford" in options:
        settings.append("crawford=on" if tokens & {"Crawford", "CrawfordGame"} else "crawford=off")
    return settings


def _is_match(tags: dict[str, str]) -> bool:
    return not is_money(match_length(tags.get("MatchLength")))


def _date_from_sgf(value: str) -> str:
    """``2024-08-04`` as NTN writes dates, ``2024.08.04`` (``2024-08`` is ``2024.08.??``)."""
    if not re.fullmatch(r"\d{4}(-\d\d){0,2}", value):
        return value
    parts = value.split("-")
    return ".".join(parts + ["??"] * (3 - len(parts)))


def _date_to_sgf(value: str) -> str:
    """The inverse of :func:`_date_from_sgf`."""
    match = re.fullmatch(r"(\d{4})\.(\d\d|\?\?)\.(\d\d|\?\?)", value.strip())
    if not match or (match.group(2) == "??" and match.group(3) != "??"):
        return value
    return "-".join(part for part in match.groups() if part != "??")


# --- SGF text -----------------------------------------------------------------


def _unescape(raw: str, *, keep_newlines: bool) -> str:
    """SGF Text/SimpleText: ``\\x`` is x, backslash-newline vanishes, other spaces are blanks."""
    raw = _ESCAPE.sub(lambda match: "" if match.group(1) in ("\n", "\r\n") else match.group(1), raw)
    if keep_newlines:
        return re.sub(r"[^\S\n]", " ", raw)
    return re.sub(r"\s", " ", raw)


def _split_composed(raw: str) -> tuple[str, str] | None:
    """Split a raw ``key:value`` at its first unescaped colon."""
    match = re.match(r"((?:[^\\:]|\\.)*):(.*)", raw, re.DOTALL)
    return (match.group(1), match.group(2)) if match else None


def _escape(text: str, *, colons: bool = False) -> str:
    text = text.replace("\\", "\\\\").replace("]", "\\]")
    return text.replace(":", "\\:") if colons else text


def _values_text(values: list[str]) -> str:
    return "".join(f"[{_escape(value)}]" for value in values)


def _raw_tag_value(values: list[str]) -> str:
    """A property's values as one tag: the value itself, or ``[v1][v2]`` when ambiguous."""
    if len(values) == 1 and not (values[0].startswith("[") and values[0].endswith("]")):
        return values[0]
    return _values_text(values)


def _raw_tag_values(text: str) -> list[str]:
    """Inverse of :func:`_raw_tag_value`."""
    if text.startswith("[") and text.endswith("]"):
        found = re.findall(r"\[((?:[^\\\]]|\\.)*)\]", text, re.DOTALL)
        if "".join(f"[{value}]" for value in found) == text:
            return [_unescape(value, keep_newlines=True) for value in found]
    return [text]


class _Property:
    """One property as read: identifier, raw (still escaped) values and where each starts."""

    __slots__ = ("ident", "line", "column", "values", "starts")

    def __init__(self, ident: str, line: int, column: int) -> None:
        self.ident, self.line, self.column = ident, line, column
        self.values: list[str] = []
        self.starts: list[tuple[int, int]] = []

    def text(self, index: int = 0, *, keep_newlines: bool = False) -> str:
        return _unescape(self.values[index], keep_newlines=keep_newlines)

    def offset(self, index: int, chars: int) -> tuple[int, int]:
        """Line and column of character ``chars`` of value ``index`` (values on one line)."""
        line, column = self.starts[index]
        return line, column + chars


# --- lexer ----------------------------------------------------------------------

_SEEK, _NORMAL, _VALUE = range(3)



class _Token:
    """``(``, ``)``, ``;``, a whole property (``prop``) or an ``error`` with its message."""

    __slots__ = ("kind", "line", "column", "prop", "message")

    def __init__(self, kind: str, line: int, column: int, prop: _Property | None = None, message: str = "") -> None:
        self.kind, self.line, self.column, self.prop, self.message = kind, line, column, prop, message


class _Lexer:
    """Cuts SGF text, fed one line at a time, into tokens.

    Between game trees, and after an error, it seeks the next ``(;``. Its state is a
    few fields whatever the nesting, so no input can make it recurse.
    """

    def __init__(self) -> None:
        self.mode = _SEEK
        self.depth = 0
        self.seek_open: tuple[int, int] | None = None  # a '(' seen while seeking, awaiting ';'
        self.expect_node = False  # just after a '(' inside a game: only ';' may follow
        self.prop: _Property | None = None
        self.value: list[str] = []
        self.escaped = False
        self.input_end = (1, 1)  # just past the last character read

    def _error(self, line: int, column: int, message: str) -> _Token:
        self.mode, self.depth, self.prop, self.expect_node, self.seek_open = _SEEK, 0, None, False, None
        return _Token("error", line, column, message=message)

    def _flush(self) -> Iterator[_Token]:
        prop, self.prop = self.prop, None
        if prop is None:
            return
        if prop.values:
            yield _Token("prop", prop.line, prop.column, prop)
        else:
            yield self._error(prop.line, prop.column, f"expected '[' after property {prop.ident}")

    def feed(self, line_no: int, text: str) -> Iterator[_Token]:
        """Tokens of one line, given without its line end."""
        if self.mode == _VALUE and _NEXT_GAME_LINE.match(text):
            assert self.prop is not None
            line, column = self.prop.starts[-1]
            yield self._error(line, column - 1, f"expected ']' to close the value of {self.prop.ident}, "
                                                f"found the next game tree on line {line_no}")
        self.input_end = (line_no, len(text) + 1)
        pos = 0
        while pos < len(text) or self.mode == _VALUE:
            if self.mode == _VALUE:
                pos = self._value(text, pos)
                if pos > len(text):
                    return
                continue
            if self.mode == _SEEK:
                pos = yield from self._seek(line_no, text, pos)
                continue
            char = text[pos]
            column = pos + 1
            if char.isspace():
                pos = _past_blanks(text, pos)
            elif char == "[" and self.prop is not None:
                self.prop.starts.append((line_no, column + 1))
                self.mode, self.value, self.escaped = _VALUE, [], False
                pos += 1
            elif self.prop is not None:
                yield from self._flush()  # anything but '[' ends the property being read
            elif self.expect_node and char != ";":
                yield self._error(line_no, column, f"expected ';' after '(', found {char!r}")
            elif char == "[":
                yield self._error(line_no, column, "expected a property name before '['")
            elif char.isascii() and char.isalpha():
                word_match = _WORD.match(text, pos)
                assert word_match is not None
                word = word_match.group()
                ident = "".join(c for c in word if c.isupper())  # FF[3] allowed lower case: AddBlack = AB
                if not ident:
                    yield self._error(line_no, column, f"expected a property name in capitals, found {word!r}")
                    continue
                self.prop = _Property(ident, line_no, column)
                pos += len(word)
            elif char == "(" and _ROOT_NODE.match(text, pos):
                yield self._error(line_no, column, f"expected ')' to close the game tree ({self.depth} open), "
                                                   "found the next game tree")
            elif char in "();":
                pos += 1
                self.expect_node = char == "("
                if char == "(":
                    self.depth += 1
                elif char == ")":
                    self.depth -= 1
                yield _Token(char, line_no, column)
                if self.depth == 0:
                    self.mode = _SEEK
            else:
                yield self._error(line_no, column, f"expected '(', ';', ')' or a property, found {char!r}")

    def _seek(self, line_no: int, text: str, pos: int) -> Generator[_Token, None, int]:
        """Look for the ``(;`` that opens a game tree; return where to go on."""
        if self.seek_open is not None:  # a '(' ended what came before: a ';' may follow
            pos = _past_blanks(text, pos)
            if pos < len(text) and text[pos] == ";":
                (line, column), self.seek_open = self.seek_open, None
                self.mode, self.depth = _NORMAL, 1
                yield _Token("(", line, column)
                yield _Token(";", line_no, pos + 1)
                return pos + 1
            if pos < len(text):
                self.seek_open = None
            return pos
        found = _TREE_OPEN.search(text, pos)
        if found is None:
            return len(text)
        self.seek_open = (line_no, found.start() + 1)
        return found.end()

    def _value(self, text: str, pos: int) -> int:
        """Read value text from ``pos``; returns where to go on (past the line end: read on)."""
        assert self.prop is not None
        while pos < len(text):
            if self.escaped:
                self.escaped = False
                self.value.append(text[pos])
                pos += 1
                continue
            stop = _VALUE_STOP.search(text, pos)
            if stop is None:
                self.value.append(text[pos:])
                break
            self.value.append(text[pos:stop.start()])
            pos = stop.end()
            if stop.group() == "\\":
                self.escaped = True
                self.value.append("\\")
            else:
                self.prop.values.append("".join(self.value))
                self.mode = _NORMAL
                return pos
        self.value.append("\n")
        self.escaped = False
        return len(text) + 1

    def end(self) -> Iterator[_Token]:
        """The errors owed at the end of the input."""
        if self.mode == _VALUE:
            assert self.prop is not None
            line, column = self.prop.starts[-1]
            yield self._error(line, column - 1, f"expected ']' to close the value of {self.prop.ident}, "
                                                "found the end of the input")
            return
        yield from self._flush()
        if self.mode == _NORMAL:
            line, column = self.input_end
            yield self._error(line, column, f"expected ')' to close the game tree ({self.depth} open), "
                                            "found the end of the input")


def _past_blanks(text: str, pos: int) -> int:
    """Where the blanks from ``pos`` end."""
    match = _BLANKS.match(text, pos)
    return match.end() if match else pos


# --- building a game from main-line nodes ------------------------------------


class _GameBuilder:
    """Turns the main-line nodes of one game tree into a :class:`GameRecord`."""

    def __init__(self, source: str, line: int) -> None:
        self.record = GameRecord(tags={"Variant": "short"}, source=source, line=line)
        self.rule_tokens: list[str] = []
        self.resignation: Action | None = None  # from RE[..R], added after the last action
        self.game_index: int | None = None
        # the cube and the turn, followed to tell beavers and the side of a DI roll
        self.cube = 1
        self.offered: int | None = None  # the cube value of a double not yet answered
        self.beavered: str | None = None  # the side whose double was just beavered
        self.on_roll: Side | None = None
        self.dice_only: Action | None = None  # a DI node's roll, waiting for its play
        # set-up before the first move: the start position
        self.setup: Counts | None = None
        self.setup_at: tuple[int, int] | None = None
        self.setup_side: Side | None = None
        self.start_cube = 1  # CV's value: the cube above follows the doubles
        self.cube_owner: Side | None = None
        self.cube_set = False
        self.setup_after_play: list[str] = []

    def error(self, line: int, column: int, message: str) -> None:
        self.record.errors.append(RecordError(line, column, message))

    # game information

    def game_info(self, prop: _Property) -> bool:
        """Take a game-information property; False when it is not one."""
        tags = self.record.tags
        ident = prop.ident
        if ident in TEXT_TAGS:
            value = prop.text(keep_newlines=ident == "GC")
            tags[TEXT_TAGS[ident]] = _date_from_sgf(value.strip()) if ident == "DT" else value
        elif ident == "MI":
            self._match_info(prop)
        elif ident == "RU":
            self._rules(prop)
        elif ident == "RE":
            self._result(prop)
        elif ident == PRIVATE_TAGS:
            for index, raw in enumerate(prop.values):
                parts = _split_composed(raw)
                if parts is None:
                    self.error(*prop.offset(index, 0), f"expected Key:Value in {PRIVATE_TAGS}, found {raw!r}")
                elif _unescape(parts[0], keep_newlines=False) == "Result":
                    self.record.result = _unescape(parts[1], keep_newlines=True)
                else:
                    tags[_unescape(parts[0], keep_newlines=False)] = _unescape(parts[1], keep_newlines=True)
        else:
            return False
        return True

    def _match_info(self, prop: _Property) -> None:
        numbers: dict[str, int] = {}
        unknown: list[str] = []
        for index, raw in enumerate(prop.values):
            parts = _split_composed(raw)
            key = parts[0].strip().lower() if parts else ""
            if parts is None or key not in ("length", "game", "ws", "bs"):
                unknown.append(_unescape(raw, keep_newlines=False))
                continue
            text = parts[1].strip()
            if not re.fullmatch(r"\d{1,9}", text):
                self.error(*prop.offset(index, len(parts[0]) + 1), f"expected a number for MI {key}, found {text!r}")
                continue
            numbers[key] = int(text)
        tags = self.record.tags
        if "length" in numbers:
            tags["MatchLength"] = str(numbers["length"])
        if "game" in numbers:
            self.game_index = numbers["game"]
            tags["Game"] = str(numbers["game"] + 1)
        if "ws" in numbers or "bs" in numbers:
            tags["Score"] = str(Score(numbers.get("ws", 0), numbers.get("bs", 0)))
        if unknown:
            tags[RAW_TAG_PREFIX + "MI"] = _raw_tag_value(unknown)

    def _rules(self, prop: _Property) -> None:
        value = prop.text()
        self.rule_tokens = [token.strip() for token in value.split(":")]
        if LONG_MARKER in self.rule_tokens:
            self.record.tags["Variant"] = "long"
        if any(token not in RULE_TOKENS for token in self.rule_tokens):
            self.record.tags["SGFRules"] = value
        for token in self.rule_tokens:
            if token.startswith("Hypergammon"):
                self.error(*prop.offset(0, value.index(token)),
                           f"{token} is not played with 15 checkers; its start position cannot be given")

    def _result(self, prop: _Property) -> None:
        value = prop.text().strip()
        match = _RESULT_VALUE.fullmatch(value)
        if match is None or match.group(2) is None:
            self.record.tags["SGFResult"] = value  # RE[W+R], RE[0], RE[?]... kept as written
        if match is None:
            return
        winner = WHITE if match.group(1).upper() == "W" else BLACK
        points = int(match.group(2)) if match.group(2) else None
        if points is not None:
            self.record.result = f"{points}-0" if winner == WHITE else f"0-{points}"
        if match.group(3):
            self.record.tags["Termination"] = "resign"
            self.resignation = Action(other(winner), "resign", value=points, line=prop.line, column=prop.column)

    # nodes

    def node(self, props: list[_Property], *, root: bool) -> None:
        """Apply one main-line node: set-up first, then its move, then its comments."""
        move: _Property | None = None
        dice: _Property | None = None
        comments: list[str] = []
        gnubg: dict[str, list[str]] = {}  # GNU Backgammon's analysis of a roll: A[] and LU[]
        judged: list[Evaluation] = []  # nardy's own NA[]
        edits: list[_Property] = []  # set-up after the first move: a position edited during the game
        for prop in props:
            ident = prop.ident
            if ident in ("A", "LU") and not root:
                gnubg[ident] = [_unescape(raw, keep_newlines=False) for raw in prop.values]
            elif ident == ANALYSIS and not root:
                judged.extend(self._analysis(prop))
            elif ident in ("W", "B"):
                if move is None:
                    move = prop
                else:
                    self.error(prop.line, prop.column,
                               f"expected one move in a node, found {move.ident} and {ident}; {ident} ignored")
            elif ident == "C":
                comments.extend(_unescape(raw, keep_newlines=True) for raw in prop.values)
            elif ident == "PL":
                self._player(prop)
            elif ident == "DI":
                dice = prop
            elif ident in SETUP and self.record.actions:
                edits.append(prop)
            elif ident in SETUP:
                self._setup(prop)
            elif ident not in DROPPED and not self.game_info(prop) and root:
                self.record.tags[RAW_TAG_PREFIX + ident] = _raw_tag_value(
                    [_unescape(raw, keep_newlines=True) for raw in prop.values])
        if edits:
            self._edit(edits)
        action = self._dice(dice) if dice is not None else None
        if move is not None:
            action = self._move(move) or action
        if judged and action is not None:
            action.analysis += tuple(judged)
        elif gnubg and action is not None and action.kind == "roll" and action.moves is not None:
            # (not on DI's roll, never played: its player resigned; gnubg's statistics leave its luck out)
            evaluation = gnubg_analysis.move_evaluation(gnubg.get("A"), next(iter(gnubg.get("LU", ())), None))
            action.analysis += (evaluation,) if evaluation else ()
        if not comments:
            return
        if action is not None:
            action.comments.extend(comments)
        elif self.record.actions:
            self.record.actions[-1].comments.extend(comments)
        else:
            self.record.comments.extend(comments)

    def _analysis(self, prop: _Property) -> list[Evaluation]:
        """The evaluations of nardy's ``NA[move played=-0.27 best=-0.21 level=4-ply]...``."""
        judged = []
        for index, raw in enumerate(prop.values):
            try:
                judged.append(analysis.from_text(ANALYSIS_OPEN + _unescape(raw, keep_newlines=False) + "]"))
            except analysis.AnalysisError as error:
                self.error(*prop.offset(index, 0), f"{ANALYSIS}: {error}")
        return judged

    def _player(self, prop: _Property) -> None:
        side = LETTER_SIDE.get(prop.text().strip().upper())
        if side is None:
            self.error(*prop.offset(0, 0), f"expected PL[W] or PL[B], found {prop.text()!r}")
            return
        self.on_roll = side
        if not self.record.actions:
            self.setup_side = side

    def _edit(self, props: list[_Property]) -> None:
        """A node's set-up after the first move (GNU Backgammon's edit of the position during a game):
        one error for the node, its properties kept in the ``SGFSetup`` tag."""
        self.setup_after_play.extend(prop.ident + "".join(f"[{raw}]" for raw in prop.values) for prop in props)
        idents = " ".join(dict.fromkeys(prop.ident for prop in props))
        self.error(props[0].line, props[0].column,
                   f"set-up {idents} after the first move (the position edited during the game) cannot be "
                   "replayed: the moves after it are judged on the board before it; kept in tag SGFSetup")

    def _setup(self, prop: _Property) -> None:
        self.setup_at = self.setup_at or (prop.line, prop.column)
        value = prop.text().strip()
        if prop.ident == "CV":
            if not re.fullmatch(r"\d{1,9}", value) or int(value) < 1:
                self.error(*prop.offset(0, 0), f"expected a cube value such as CV[2], found {value!r}")
                return
            self.start_cube = self.cube = int(value)
            self.cube_set = True
        elif prop.ident in ("CP", "CO"):
            if value.lower() not in ("w", "b", "c", "n"):
                self.error(*prop.offset(0, 0), f"expected {prop.ident}[w], [b], [c] or [n], found {value!r}")
                return
            self.cube_owner = {"w": WHITE, "b": BLACK}.get(value.lower())
            self.cube_set = True
        else:
            self._place_checkers(prop)

    @property
    def variant(self) -> VariantName:
        """The game the tree is read as (:func:`_sgf_variant`), by the ``Variant`` tag so far (RU and
        NT set it)."""
        return _sgf_variant(self.record.variant)

    def _place_checkers(self, prop: _Property) -> None:
        variant = self.variant
        if self.setup is None:
            start = self._start()
            self.setup = {WHITE: list(start.white), BLACK: list(start.black)}
        for index, raw in enumerate(prop.values):
            value = _unescape(raw, keep_newlines=False).strip()
            match = re.fullmatch(r"([a-y])(?::([a-y]))?", value)
            if match is None or (match.group(2) or match.group(1)) < match.group(1):
                self.error(*prop.offset(index, 0),
                           f"expected a point a-y or a range such as a:y in {prop.ident}, found {value!r}")
                continue
            first, last = match.group(1), match.group(2) or match.group(1)
            for code in range(ord(first), ord(last) + 1):
                letter = chr(code)
                if prop.ident == "AE":
                    for side in SIDES:
                        self.setup[side][letter_to_point(letter, side, variant)] = 0
                else:
                    side = WHITE if prop.ident == "AW" else BLACK
                    self.setup[side][letter_to_point(letter, side, variant)] += 1

    def _start(self) -> Position:
        """The position a game starts from before any set-up."""
        return Position.nackgammon() if NACKGAMMON in self.rule_tokens else Position.start(self.variant)

    def _dice(self, prop: _Property) -> Action | None:
        text = prop.text().strip()
        dice = written_dice(text, 0, 1) if len(text) == 2 else None
        if dice is None:
            self.error(*prop.offset(0, 0), f"expected two dice 1-6 such as DI[31], found {text!r}")
            return None
        action = Action(self.on_roll or WHITE, "roll", dice=dice, moves=None,
                        line=prop.line, column=prop.column)
        self._add(action)
        self.dice_only = action
        return action

    def _move(self, prop: _Property) -> Action | None:
        side = LETTER_SIDE[prop.ident]
        text = prop.text().strip()
        if text in CUBE_WORDS:
            return self._cube_action(side, text, prop)
        match = _MOVE_VALUE.fullmatch(text)
        if not match:
            self.error(*prop.offset(0, 0), f"expected dice such as 41 then letter pairs, or double, take or "
                                           f"drop, in {prop.ident}[], found {text!r}")
            return None
        dice = (int(match.group(1)), int(match.group(2)))
        letters = match.group(3)
        lead = len(prop.values[0]) - len(prop.values[0].lstrip())
        variant = self.variant
        steps = []
        for at in range(0, len(letters), 2):
            pair = letters[at:at + 2]
            if len(pair) < 2 or pair[0] == "z" or pair[1] == "y":
                found = f"a lone {pair!r}" if len(pair) < 2 else repr(pair)
                self.error(*prop.offset(0, lead + 2 + at),
                           f"expected a (from, to) letter pair, from a-y to a-x or z, found {found}")
                return None
            steps.append(Move((letter_to_point(pair[0], side, variant), letter_to_point(pair[1], side, variant))))
        waiting = self.dice_only
        if waiting is not None and waiting.side == side and sorted(waiting.dice or ()) == sorted(dice):
            waiting.dice, waiting.moves = dice, tuple(steps)
            waiting.line, waiting.column = prop.line, prop.column
            self.dice_only = None
            return waiting
        action = Action(side, "roll", dice=dice, moves=tuple(steps), line=prop.line, column=prop.column)
        self._add(action)
        return action

    def _cube_action(self, side: Side, word: ActionKind, prop: _Property) -> Action | None:
        """``double`` (a beaver when it answers a double), ``take`` or ``drop``.

        SGF follows a beaver with the doubler's ``take``; a nardy ``beaver`` already
        includes it, so that take adds no action (None).
        """
        if word == "take" and self.beavered == side:
            self.beavered = None
            return None
        action = Action(side, word, line=prop.line, column=prop.column)
        if word == "double" and self.offered is not None and self.on_roll == other(side):
            action.kind = "beaver"
            self.cube, self.offered = self.offered * 2, None
            self._add(action)
            self.beavered = other(side)
            return action
        if word == "double":
            self.offered = action.value = self.cube * 2
            self.on_roll = side
        elif self.offered is not None:
            if word == "take":
                self.cube = self.offered
            self.offered = None
        self._add(action)
        return action

    def _add(self, action: Action) -> None:
        self.dice_only = self.beavered = None
        if action.kind == "roll":
            self.on_roll = other(action.side)
        self.record.actions.append(action)

    def finish(self, previous: GameRecord | None) -> GameRecord:
        """The finished record; match information missing here is taken from ``previous``."""
        record, tags = self.record, self.record.tags
        if (previous is not None and self.game_index
                and all(previous.tags.get(name) == tags.get(name) for name in ("White", "Black", "MatchLength"))):
            for name in MATCH_TAGS:
                if name in previous.tags and name not in tags:
                    tags[name] = previous.tags[name]
        variant = self.variant
        settings = _rule_settings(self.rule_tokens, variant, _is_match(tags))
        rules = Rules.preset(variant).with_options(settings).differences()
        if rules:
            tags["Rules"] = rules
        if "CrawfordGame" in self.rule_tokens:
            tags["Crawford"] = "yes"
        if self.resignation is not None:
            stated = Result.parse(record.result or "")
            if stated is not None and stated.winner is not None:
                self.resignation.value = stated.points  # NT's server figure, when it has one
            record.actions.append(self.resignation)
        elif record.actions and record.actions[-1].kind == "drop":
            tags.setdefault("Termination", "drop")
        if (self.setup is not None or self.cube_set or NACKGAMMON in self.rule_tokens) and "Position" not in tags:
            self._position()
        if self.setup_after_play:
            tags["SGFSetup"] = ";".join(self.setup_after_play)
        return record

    def _position(self) -> None:
        record = self.record
        if self.setup is None:
            start = self._start()
            self.setup = {WHITE: list(start.white), BLACK: list(start.black)}
        line, column = self.setup_at or (record.line, 1)
        for side, board in self.setup.items():
            board[OFF] = CHECKERS - sum(board[1:])
            if board[OFF] < 0:
                self.error(line, column, f"the set-up gives {SIDE_NAMES[side]} {CHECKERS - board[OFF]} checkers, "
                                         f"not {CHECKERS}")
                return
        # GNU Backgammon re-saves any set-up with PL[W]: after PL[W] (or none) the first action tells better
        turn = self.setup_side if self.setup_side == BLACK or not record.actions else record.actions[0].side
        turn = turn or WHITE
        white, black = tuple(self.setup[WHITE]), tuple(self.setup[BLACK])
        variant = self.variant
        first = frozenset(side for side in SIDES if side in default_first(variant, white, black))
        try:
            position = Position(variant, turn, white, black, first, self.start_cube, self.cube_owner)
        except PositionError as problem:
            self.error(line, column, f"the set-up is not a position of {VARIANTS[variant].title}: {problem}")
            return
        record.tags["Position"] = str(position)


# --- reading ------------------------------------------------------------------


class _TreeReader:
    """Follows the tree structure: the main line goes to the builder, variations are skipped."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.game: _GameBuilder | None = None
        self.previous: GameRecord | None = None
        self.depth = 0
        self.main_depth = 0
        self.child_seen = False
        self.skip_depth = 0
        self.node: list[_Property] | None = None
        self.root = False

    def take(self, token: _Token) -> GameRecord | None:
        """Handle one token; returns a game when this token completed it."""
        kind = token.kind
        if kind == "error":
            if self.game is None:
                return None
            self.game.error(token.line, token.column, token.message)
            return self._finish()
        if kind == "prop":
            if self.node is not None and not self.skip_depth and token.prop is not None:
                self.node.append(token.prop)
            return None
        self._flush_node()
        if kind == ";":
            if not self.skip_depth:
                self.node = []
        elif kind == "(":
            if self.depth == 0:
                self.game = _GameBuilder(self.source, token.line)
                self.main_depth, self.child_seen, self.skip_depth, self.root = 1, False, 0, True
            elif not self.skip_depth and self.depth == self.main_depth and not self.child_seen:
                self.main_depth += 1
            elif not self.skip_depth:
                self.skip_depth = self.depth + 1
            self.depth += 1
        elif kind == ")":
            if self.skip_depth == self.depth:
                self.skip_depth = 0
            elif not self.skip_depth and self.depth == self.main_depth:
                self.main_depth -= 1
                self.child_seen = True
            self.depth -= 1
            if self.depth == 0:
                return self._finish()
        return None

    def _flush_node(self) -> None:
        if self.node is not None and self.game is not None:
            self.game.node(self.node, root=self.root)
            self.root = False
        self.node = None

    def _finish(self) -> GameRecord | None:
        self._flush_node()
        game, self.game = self.game, None
        self.depth = 0
        if game is None:
            return None
        record = game.finish(self.previous)
        self.previous = record
        return record


def read_games(lines: Iterable[str], source: str = "") -> Iterator[GameRecord]:
    """Read SGF game trees from decoded ``lines``, yielding each game as soon as it is complete.

    Never raises on bad input: problems are :class:`RecordError` entries of the game
    they occur in, and reading goes on at the next ``(;``.
    """
    lexer = _Lexer()
    reader = _TreeReader(source)
    for line_no, line in enumerate(lines, 1):
        if line_no == 1:
            line = line.lstrip("\ufeff")
        for token in lexer.feed(line_no, line.rstrip("\r\n")):
            game = reader.take(token)
            if game is not None:
                yield game
    for token in lexer.end():
        game = reader.take(token)
        if game is not None:
            yield game


# --- writing ----------------------------------------------------------------------


class _GameTree:
    """The SGF text of one record; ``warnings`` name what it could not express."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.tags = record.tags
        self.variant = _sgf_variant(record.variant)  # a crazy-nardy game is never written (its cascades)
        self.used: set[str] = set()  # tags expressed by SGF properties
        self.private: list[tuple[str, str]] = []  # for NT, besides the tags not used
        self.warnings: list[str] = []
        self.regrouped = 0  # plays whose moves SGF writes otherwise grouped
        self.start = self._start()
        self.nackgammon = record.starts_nackgammon()  # RU[Nackgammon] says the start, no set-up nodes
        # the rules of the Rules tag, or the variant's preset when the tag does not fit it (then kept in NT)
        self.rules, self.rules_error = tag_rules(self.variant, self.tags.get("Rules"))

    def _start(self) -> Position:
        text = self.tags.get("Position")
        if text is None:
            return Position.start(self.variant)
        try:
            position = Position.parse(text)
        except PositionError as problem:
            self.warnings.append(f"Position not understood ({problem}); the usual start written, "
                                 f"Position kept in {PRIVATE_TAGS}")
            return Position.start(self.variant)
        if position.variant != self.variant:
            self.warnings.append(f"Position is {position.variant} but the game is {self.variant}; "
                                 f"the usual start written, Position kept in {PRIVATE_TAGS}")
            return Position.start(self.variant)
        self.used.add("Position")
        white, black = position.white, position.black
        usual_first = frozenset(side for side in SIDES if side in default_first(self.variant, white, black))
        if position.first != usual_first:  # set-up nodes cannot say it: NT keeps the whole text
            self.private.append(("Position", text))
        return position

    def text(self) -> str:
        """The game tree, ending with a line end."""
        nodes = [self._root(), *self._setup_nodes(), *self._action_nodes()]
        nodes[0] += self._private_and_comments()  # last: it takes every tag the rest left
        return "\n".join(nodes) + ")\n"

    # the root node

    def _root(self) -> str:
        if self.record.variant in ("short", "long"):
            self.used.add("Variant")
        else:
            self.warnings.append(f"variant {self.record.variant!r} is neither short nor long; written as "
                                 f"backgammon, Variant kept in {PRIVATE_TAGS}")
        if self.variant == "long":
            self.warnings.append(f"long nardy is marked RU[{LONG_MARKER}]; GNU Backgammon cannot replay it")
        parts = [f"(;FF[4]GM[6]CA[UTF-8]AP[nardy:{__version__}]", self._match_info()]
        for ident, name in TEXT_TAGS.items():
            if name == "Site" and name not in self.tags:
                name = "Place"
            if name not in self.tags:
                continue
            self.used.add(name)
            value = self.tags[name]
            if ident == "DT":
                value = _date_to_sgf(value)
            if ident != "GC":
                value = " ".join(value.splitlines())
            parts.append(f"{ident}[{_escape(value)}]")
        rules = self._rules()
        if rules:
            parts.append(f"RU[{_escape(rules)}]")
        parts.append(self._result())
        for name, value in self.tags.items():
            ident = name[len(RAW_TAG_PREFIX):]
            if name.startswith(RAW_TAG_PREFIX) and name not in self.used and re.fullmatch(r"[A-Z]+", ident):
                parts.append(ident + _values_text(_raw_tag_values(value)))
                self.used.add(name)
        return "".join(parts)

    def _match_info(self) -> str:
        tags, parts = self.tags, []
        length = tags.get("MatchLength", "").strip()
        if re.fullmatch(r"\d{1,9}", length):
            parts.append(f"[length:{int(length)}]")
            self.used.add("MatchLength")
        game = tags.get("Game", "").strip()
        if re.fullmatch(r"\d{1,9}", game) and int(game) >= 1:
            parts.append(f"[game:{int(game) - 1}]")
            self.used.add("Game")
        score = Score.parse(tags.get("Score"))
        if score:
            parts.append(f"[ws:{score.white}][bs:{score.black}]")
            self.used.add("Score")
        for name in ("MatchLength", "Game", "Score"):
            if name in tags and name not in self.used:
                self.warnings.append(f"{name} {tags[name]!r} does not fit MI's numbers; kept in {PRIVATE_TAGS}")
        raw = tags.get(RAW_TAG_PREFIX + "MI")
        if raw is not None:
            parts.append(_values_text(_raw_tag_values(raw)))
            self.used.add(RAW_TAG_PREFIX + "MI")
        return "MI" + "".join(parts) if parts else ""

    def _rules(self) -> str:
        """RU's tokens for the Rules, Crawford and Variant tags and the kept SGFRules."""
        tags, variant, is_match, rules = self.tags, self.variant, _is_match(self.tags), self.rules
        tokens = []
        if rules.cube == "off":
            tokens.append("NoCube")
        if is_match and rules.crawford == "on":
            tokens.append("Crawford")
        if tags.get("Crawford", "").strip().lower() == "yes":
            tokens.append("CrawfordGame")
            self.used.add("Crawford")
        if rules.jacoby == "on":
            tokens.append("Jacoby")
        if "SGFRules" in tags:
            tokens += [token for token in tags["SGFRules"].split(":") if token not in RULE_TOKENS]
            self.used.add("SGFRules")
        if self.nackgammon:
            tokens.append(NACKGAMMON)
        if variant == "long":
            tokens.append(LONG_MARKER)
        said = Rules.preset(variant).with_options(_rule_settings(tokens, variant, is_match))
        if "Rules" in tags and self.rules_error is None and said == rules:
            self.used.add("Rules")
        return ":".join(tokens)

    def _result(self) -> str:
        tags, record = self.tags, self.record
        result = record.result if record.result is not None else tags.get("Result")
        if tags.get("Result") not in (None, result):  # NT's Result is the result: the tag cannot go there
            self.warnings.append(f"Result tag {tags['Result']!r} dropped: it differs from the result {result!r}, "
                                 "which SGF keeps")
        self.used.add("Result")
        last = record.actions[-1] if record.actions else None
        resigned = tags.get("Termination") == "resign" or (last is not None and last.kind == "resign")
        if "SGFResult" in tags:
            self.used.update({"SGFResult", "Termination"} if resigned else {"SGFResult"})
            return f"RE[{_escape(tags['SGFResult'])}]"
        if result is None:
            return ""
        declared = Result.parse(result)
        if declared is None or declared.winner is None:
            if result != "*":
                self.warnings.append(f"result {result!r} has no RE form; kept in {PRIVATE_TAGS}, "
                                     "which GNU Backgammon ignores")
            self.private.append(("Result", result))
            return ""
        termination = tags.get("Termination")
        if termination == "resign" or (termination == "drop" and last is not None and last.kind == "drop"):
            self.used.add("Termination")
        points = declared.points
        if resigned:
            # GNU Backgammon takes RE's points over the cube as the level resigned: a server's figure
            # capped by the match is written at its level, the figure itself kept in NT
            cube = final_cube(action.kind for action in record.actions)
            score = Score.parse(tags.get("Score")) or Score()
            level = resignation_level(points, cube, score.of(declared.winner), match_length(tags.get("MatchLength")))
            if level is not None and level * cube != points:
                self.private.append(("Result", result))
                points = level * cube
        return f"RE[{'W' if declared.winner == WHITE else 'B'}+{points}{'R' if resigned else ''}]"

    def _private_and_comments(self) -> str:
        """NT with every tag SGF has no property for, then the game's comments."""
        text = ""
        private = [(name, value) for name, value in self.tags.items() if name not in self.used] + self.private
        if private:
            text += PRIVATE_TAGS + "".join(f"[{_escape(name, colons=True)}:{_escape(value)}]"
                                           for name, value in private)
        if self.record.comments:
            text += f"C[{_escape(chr(10).join(self.record.comments))}]"
        return text

    # the other nodes

    def _setup_nodes(self) -> list[str]:
        if "Position" not in self.used or self.nackgammon:
            return []
        start = self.start
        node = f";PL[{SIDE_LETTER[start.turn]}]AE[a:y]"
        for ident, side in (("AW", WHITE), ("AB", BLACK)):
            board = start.board(side)
            letters = "".join(f"[{point_to_letter(point, side, self.variant)}]" * board[point]
                              for point in range(1, 26))
            node += ident + letters if letters else ""
        nodes = [node]
        if start.cube_value != 1:
            nodes.append(f";CV[{start.cube_value}]")
        if start.cube_owner:
            nodes.append(f";CP[{start.cube_owner}]")
        return nodes

    def _action_nodes(self) -> list[str]:
        nodes = self._each_action_node()
        self._warn_play_losses()
        return nodes

    def _warn_play_losses(self) -> None:
        """What SGF's single steps cannot say of the plays, named for every game it happens in
        (formats/sgf.md, What is lost): hit marks, and how a play was grouped into moves."""
        plays = [action for action in self.record.actions if action.kind == "roll" and action.moves]
        marked = sum(any(any(move.hits) for move in action.moves or ()) for action in plays)
        regrouped = self.regrouped
        if marked:
            self.warnings.append(f"hit marks '*' of {marked} play{'s' if marked > 1 else ''} not written: SGF has "
                                 "none (the replay finds the hits again)")
        if regrouped:
            self.warnings.append(f"grouping of {regrouped} play{'s' if regrouped > 1 else ''} not kept: SGF writes "
                                 "single steps ('13/7/6' and '13/6' become '13/7 7/6', '6/4(2)' '6/4 6/4')")

    def _each_action_node(self) -> list[str]:
        engine, position = Engine(self.rules), self.start
        actions = self.record.actions
        nodes: list[str] = []
        for number, action in enumerate(actions, 1):
            where = f"action {number} ({action.side} {action.kind})"
            letter = SIDE_LETTER.get(action.side)
            if letter is None:
                self.warnings.append(f"{where}: side {action.side!r} is neither w nor b; left out")
                continue
            if action.kind in ("double", "beaver"):
                node = f";{letter}[double]"
            elif action.kind in ("take", "drop"):
                node = f";{letter}[{action.kind}]"
            elif action.kind == "resign":
                if number != len(actions):
                    self.warnings.append(f"{where}: SGF has no resignation before the end of a game; left out")
                if action.comments:
                    self.warnings.append(f"{where}: SGF has no node for a resignation; its comments are lost")
                continue
            elif action.kind == "roll" and action.dice and all(1 <= die <= 6 for die in action.dice):
                dice = f"{action.dice[0]}{action.dice[1]}"
                if action.moves is None:
                    node = f";PL[{letter}]DI[{dice}]"
                else:
                    if position.turn != action.side:
                        position = position.with_turn(action.side)
                    split = engine.split(position, action.dice, action.moves)
                    node = f";{letter}[{dice}{self._steps(split, action, where)}]"
                    position = split.position or position  # a play off the board: the board before it
            else:
                self.warnings.append(f"{where}: {action.kind} with dice {action.dice} has no SGF form; left out")
                continue
            if action.comments:
                node += f"C[{_escape(chr(10).join(action.comments))}]"
            if action.analysis:
                node += ANALYSIS + "".join(f"[{_escape(analysis.to_text(e)[len(ANALYSIS_OPEN):-1])}]"
                                           for e in action.analysis)
            nodes.append(node)
            doubler = other(action.side)
            following = actions[number] if number < len(actions) else None
            if action.kind == "beaver" and not (following and (following.side, following.kind) == (doubler, "take")):
                nodes.append(f";{SIDE_LETTER[doubler]}[take]")  # SGF's doubler accepts the beaver
        return nodes

    def _steps(self, split: Split, action: Action, where: str) -> str:
        assert action.dice is not None and action.moves is not None
        legs = [leg for move in action.moves for leg in move.legs]
        steps = legs if split.paths is None else [hop for path in split.paths for hop in zip(path, path[1:])]
        if any(move.count > 1 for move in action.moves) or steps != legs:
            self.regrouped += 1
        if split.paths is None:
            self.warnings.append(f"{where}: play {action.play_text!r} does not split into single steps of "
                                 f"{action.dice[0]}-{action.dice[1]}; its moves are written whole")
        if len(steps) > 4:
            self.warnings.append(f"{where}: {len(steps)} steps; GNU Backgammon reads only four")
        return "".join(point_to_letter(start, action.side, self.variant)
                       + point_to_letter(end, action.side, self.variant) for start, end in steps)


@dataclass(frozen=True)
class SgfGame:
    """A game's SGF tree, and the warnings of writing it."""

    text: str
    title: str
    warnings: tuple[str, ...]  # each to follow "game N (White – Black): "


def prepare(record: GameRecord) -> SgfGame:
    """The GNU Backgammon SGF game tree of ``record``."""
    tree = _GameTree(record)
    text = tree.text()
    return SgfGame(text, record.title(), tuple(tree.warnings))


class _SgfWriter(GameWriter[SgfGame]):
    """One game tree after another; each warning names its game."""

    def write(self, number: int, game: SgfGame) -> None:
        self.out.write(game.text)
        self.warn(f"game {number} ({game.title})", *game.warnings)


picklable(SgfGame)
TARGET = Target(without_cascades(prepare, "SGF"), _SgfWriter)
write_games = TARGET.write_games
