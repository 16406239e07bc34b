"""NTN, the nardy text notation: a streaming, tolerant reader and a canonical writer.

The notation is specified for users in ``formats/ntn.md``. In short: PGN-style
tag pairs, then movetext in which every action (a roll with its play, a cube
action, a resignation) fills one *cell*; cells alternate White, Black, White...
and a move number ``N.`` / ``N...`` names White's / Black's cell of row ``N``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Final, TextIO

from nardy_cli.core.compiled import picklable
from nardy_cli.core.moves import PlaySyntaxError, parse_play, written_dice
from nardy_cli.core.scores import RESULT_TOKEN, UNFINISHED
from nardy_cli.core.sides import SIDES, other
from nardy_cli.notations import GameStarts, GameWriter, Target, Warnings, analysis
from nardy_cli.record import Action, ActionKind, GameRecord, RecordError, standard_name

NAME = "ntn"
EXTENSIONS = (".ntn",)

CUBE_WORDS: Final[tuple[ActionKind, ...]] = ("double", "take", "drop", "beaver", "resign")
VALUED_WORDS: Final = ("double", "beaver", "resign")
UNRECORDED_PLAY: Final = "?"
PASSED_MARK: Final = ">"  # after a cascade's play: the opponent's play of the steps it passes
WHITE_COLUMN_WIDTH: Final = 28  # "N. <White's cell>" is padded to this width before Black's cell

MOVE_NUMBER_DIGITS: Final = 9  # the reader's bound, which the writer keeps to
VALUE_DIGITS: Final = 18  # of a cube or resignation value

_TAG_NAME: Final = r"[A-Za-z0-9_]+"
_TAG_RE: Final = re.compile(rf'\[\s*({_TAG_NAME})\s*"([^"\\]*(?:\\.[^"\\]*)*)"\s*\]', re.DOTALL)
_TAG_LINE_RE: Final = re.compile(rf"\s*(?:{_TAG_RE.pattern}\s*)+", re.DOTALL)
COMMENT_OPENERS: Final = "{;"  # a comment to its closing }, or to the end of the line
_COMMENT_MARKS: Final = COMMENT_OPENERS + "}"
# A word that can only be a play's (a slash, no "." or ":", no result): a run of them one space apart
# is one token, so a cascade's twenty moves cost one match, not forty. Its characters are written out:
# importing `string` compiles a pattern, 1.5 ms of every start.
_PLAY_CHARS: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz*()/"
_PLAY_TABLE: Final = bytes(char in _PLAY_CHARS for char in map(chr, range(128)))  # by character code: 1 or 0
_SPACE_TABLE: Final = bytes(char.isspace() for char in map(chr, range(128)))  # the spaces str.split() cuts at
_SLASH: Final = ord("/")
_DOT: Final = ord(".")
_COLON: Final = ord(":")
_PLAY_WORD = rf"[{re.escape(_PLAY_CHARS.replace('/', ''))}]*/[{re.escape(_PLAY_CHARS)}]*(?![^\s{{;])"
_TOKEN_RE: Final = re.compile(
    rf"""
    \s*
    (?:
      (?P<comment>[{COMMENT_OPENERS}])
    | (?P<number>\d{{1,{MOVE_NUMBER_DIGITS}}}\.(?:\.\.)?)
    | (?P<moves>{_PLAY_WORD}(?:[ ]{_PLAY_WORD})*)
    | (?P<roll>[^\s{{;:]*:)
    | (?P<word>[^\s{{;]+)
    )?
    """,
    re.VERBOSE,
)
_BARE_ROLL_RE: Final = re.compile(r"[1-6][1-6]")
_RESULT_RE: Final = re.compile(RESULT_TOKEN)
_VALUE_RE: Final = re.compile(rf"[1-9]\d{{0,{VALUE_DIGITS - 1}}}")
# Unrolled loops ([^x]*(?:\\.[^x]*)*) take linear time on any text, long or unclosed.
_COMMENT_BODY_RE: Final = re.compile(r"[^\\}]*(?:\\(?:.|\Z)[^\\}]*)*", re.DOTALL)
_COMMENT_UNESCAPE_RE: Final = re.compile(r"\\([\\}\[\s])")
_TAG_UNESCAPE_RE: Final = re.compile(r'\\(["\\])')
_SPACE_RE: Final = re.compile(r"\s*")
# A roll, spaced (`1. 63: 24/18`) or not (`1.63:24/18`), but not a time (`12:30`).
_SNIFF_RE: Final = re.compile(r'^\s*\[Variant\s*"(?:long|short|gulbara)"\s*\]'
                              r'|(?:^|[\s.])[1-6]-?[1-6]:(?:\s|$|[-?]|(?:\d{1,2}|bar)\*?/)', re.M | re.I)

Cell = tuple[int, int]  # (move number, 0 for White's column or 1 for Black's)


def sniff(head: str) -> bool:
    """True when ``head``, the start of a file, looks like NTN."""
    text = head.lstrip("\ufeff \t\r\n")
    opens_like_ntn = text.startswith(("[", "{")) or re.match(r"\d+\.", text) is not None
    return opens_like_ntn and _SNIFF_RE.search(text) is not None


def game_starts(head: list[str]) -> GameStarts:
    """Where a game plainly begins: the first line, a tag line after movetext, any line after a
    movetext line that ends with a result (and holds no comment, which might hide it)."""
    return _GameStarts(), []


class _GameStarts:
    """Told a file's lines a batch at a time, in order (what a line leaves to the next is kept)."""

    def __init__(self) -> None:
        self.movetext = False
        self.ended = True

    def __call__(self, lines: list[str]) -> list[int]:
        found: list[int] = []
        movetext, ended = self.movetext, self.ended
        for index in range(len(lines)):  # a loop compiled over a batch: a call a line cost more than it
            text = lines[index].strip()
            if not text:
                continue
            tag = text[0] == "["
            start = ended or (tag and movetext)
            if start:
                found.append(index)
            plain = not tag and text[0] not in COMMENT_OPENERS
            movetext = plain or (movetext and not start)
            ended = plain and _ends_with_result(text)
        self.movetext, self.ended = movetext, ended
        return found


def _ends_with_result(text: str) -> bool:
    """Whether a movetext line ends with a result and holds no comment (which might hide it)."""
    word_start = text.rfind(" ") + 1
    # Every result holds a hyphen or is "*": testing that first spares the word's copy and the
    # pattern on most lines, which end with a play (the parent cutting a big file tests every line).
    if text.find("-", word_start) < 0 and len(text) - word_start != len(UNFINISHED):
        return False
    word = text[word_start:]
    return (("-" in word or word == UNFINISHED) and _RESULT_RE.fullmatch(word) is not None
            and not any(mark in text for mark in _COMMENT_MARKS))


# --- cells: where an action stands in the movetext ------------------------------------


def _following(cell: Cell | None) -> Cell:
    """The cell after ``cell``: White's then Black's column of each row."""
    if cell is None:
        return (1, 0)
    number, column = cell
    return (number, 1) if column == 0 else (number + 1, 0)


def _cell_label(cell: Cell) -> str:
    number, column = cell
    return f"{number}." + (".." if column else "")


# --- reader ------------------------------------------------------------------------


def read_games(lines: Iterable[str], source: str = "") -> Iterator[GameRecord]:
    """Read NTN games from text lines, yielding each game as soon as it ends.

    Never raises on bad input: every malformed place becomes a
    :class:`RecordError` in its game, and reading resumes after it.
    """
    reader = _Reader(source)
    for line_number, line in enumerate(lines, 1):
        text = line.rstrip("\r\n")
        if line_number == 1:
            text = text.removeprefix("\ufeff")
        yield from reader.feed(line_number, text)
    yield from reader.finish()


def _dice(text: str) -> tuple[int, int] | None:
    """The dice of a roll written ``63`` or ``6-3``, or None (not a pattern: its match took a tenth
    of a turn's reading)."""
    if len(text) == 2:
        return written_dice(text, 0, 1)
    return written_dice(text, 0, 2) if len(text) == 3 and text[1] == "-" else None


def _escapes_next(text: str) -> bool:
    """Whether ``text`` ends with a ``\\`` that escapes what follows (an odd number of them)."""
    return (len(text) - len(text.rstrip("\\"))) % 2 == 1


def _comment_text(parts: list[str]) -> str:
    """The text of a ``{...}`` comment from its lines, its edges stripped but for escaped spaces,
    undoing :func:`_escape_comment`."""
    raw = "\n".join(parts).lstrip()
    end = len(raw.rstrip())
    if end < len(raw) and _escapes_next(raw[:end]):  # the space after it is escaped
        end += 1
    return _COMMENT_UNESCAPE_RE.sub(r"\1", raw[:end])


def _match_end(pattern: re.Pattern[str], text: str, position: int) -> int:
    """Where ``pattern``, which also matches the empty string, stops matching from ``position``."""
    match = pattern.match(text, position)
    assert match is not None
    return match.end()


def _space_end(text: str, position: int) -> int:
    """Where the spaces from ``position`` end: the pattern runs only where a space is (most tag
    lines start and end with their tags)."""
    if position < len(text) and text[position].isspace():
        return _match_end(_SPACE_RE, text, position)
    return position


def _quoted(text: str, limit: int = 24) -> str:
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'


_Token = tuple[str, int, int]  # the kind (a group of _TOKEN_RE), start and end of a token
_PLAIN_LENGTH: Final = 4096  # the longest line the plain reading cuts (it holds all its words at once)
_PATTERN_TOKENS: Final = 64  # the most tokens the pattern reads at once (a line may hold a million)


def _tokens(text: str, position: int) -> list[_Token]:
    """The next tokens of a movetext line from ``position``: to its end, its first comment opener
    (the last token then), or :data:`_PATTERN_TOKENS` tokens. A short line of plain words (ASCII,
    no comment) is read a character at a time (:func:`_plain_tokens`): compiled, that costs a fifth
    of the pattern's matches (0.46 against 2.05 µs a line of a short-nardy game; interpreted, 4.2
    against 2.3 µs: the compiled build is the one to be fast). The pattern reads any other line,
    and a line with a word the plain reading does not know."""
    if (len(text) - position <= _PLAIN_LENGTH and text.isascii()
            and not any(text.find(opener, position) >= 0 for opener in COMMENT_OPENERS)):
        tokens = _plain_tokens(text, position)
        if tokens is not None:
            return tokens
    return _pattern_tokens(text, position)


def _pattern_tokens(text: str, position: int) -> list[_Token]:
    """:func:`_tokens` by :data:`_TOKEN_RE`, the grammar's definition."""
    tokens: list[_Token] = []
    while position < len(text) and len(tokens) < _PATTERN_TOKENS:
        match = _TOKEN_RE.match(text, position)
        assert match is not None  # it matches the empty string
        kind = match.lastgroup
        if kind is None:  # only spaces are left (the word alternative matches any non-space)
            break
        start, position = match.span(kind)
        tokens.append((kind, start, position))
        if kind == "comment":
            break
    return tokens


def _plain_tokens(text: str, position: int) -> list[_Token] | None:
    """:func:`_tokens` of an ASCII line with no comment, each word told as :data:`_TOKEN_RE` tells
    it; None at a word that holds more than one token (``1.63:``), left to the pattern. One pass
    over the characters, each looked up by its code (compiled, 5.3 k instructions a line of a
    short-nardy game, against 12.5 k for splitting the line and finding, stripping and searching
    each word)."""
    tokens: list[_Token] = []
    length, index = len(text), position
    end = position  # where the last word ends
    run = -1  # the start of the play words one space apart that the last word ends, if it is one
    while True:
        while index < length and _SPACE_TABLE[ord(text[index])]:
            index += 1
        if index == length:
            break
        start, slash, plain, dot, colon = index, False, True, -1, -1  # plain: only a play's characters
        while index < length:
            code = ord(text[index])
            if _SPACE_TABLE[code]:
                break
            if code == _SLASH:
                slash = True
            elif not _PLAY_TABLE[code]:
                plain = False
                if code == _DOT and dot < 0:
                    dot = index
                elif code == _COLON and colon < 0:
                    colon = index
            index += 1
        play = slash and plain
        if run >= 0 and not (play and start == end + 1 and text[end] == " "):
            tokens.append(("moves", run, end))
            run = -1
        end = index
        if play:
            if run < 0:
                run = start
            continue
        if 0 < dot - start <= MOVE_NUMBER_DIGITS and text[start:dot].isdigit():
            if dot == end - 1 or (dot == end - 3 and text.startswith("...", dot)):
                tokens.append(("number", start, end))
                continue
            return None
        if colon == end - 1:
            tokens.append(("roll", start, end))
        elif colon >= 0:
            return None
        else:
            tokens.append(("word", start, end))
    if run >= 0:
        tokens.append(("moves", run, end))
    return tokens


class _OpenPlay:
    """A roll whose play is still being read: its pieces, each a word or words one space apart as
    written, with the line and column of its first word."""

    # a written __init__, not a dataclass's: compiled, that one runs as interpreted code (one a turn)
    def __init__(self, action: Action) -> None:
        self.action = action
        self.pieces: list[tuple[str, int, int]] = []

    def words(self) -> list[tuple[str, int, int]]:
        """The play's words, each with its line and column."""
        words = []
        for piece, line, column in self.pieces:
            for word in piece.split(" "):
                words.append((word, line, column))
                column += len(word) + 1
        return words


@dataclass
class _OpenComment:
    """A ``{`` comment that goes on past the end of its line."""

    line: int
    column: int
    parts: list[str] = field(default_factory=list)


class _Reader:
    """The state of reading one file: the game being read and where its movetext stands."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.game: GameRecord | None = None
        self._reset_movetext()

    def _reset_movetext(self) -> None:
        self.in_tag_section = False
        self.last_cell: Cell | None = None
        self.named_cell: Cell | None = None
        self.play: _OpenPlay | None = None
        self.comment: _OpenComment | None = None
        self.valued: Action | None = None  # a double, beaver or resign that a number may follow
        self.skipping = False  # dropping the play of a turn that could not be read

    # -- lines --

    def feed(self, line: int, text: str) -> Iterator[GameRecord]:
        """Read one line (without its line end)."""
        position = 0
        if self.comment is not None:
            if _TAG_LINE_RE.fullmatch(text):
                self._abandon_comment()
            else:
                position = self._continue_comment(text, 0)
                if position < 0:
                    return
        if self.comment is None and position == 0 and text.lstrip().startswith("["):
            yield from self._tag_line(line, text)
        elif text.strip():
            yield from self._movetext(line, text, position)
        else:
            self.in_tag_section = False

    def finish(self) -> Iterator[GameRecord]:
        """End of input: yield the game still being read, if any."""
        if self.comment is not None:
            self._abandon_comment()
        if self.game is not None:
            yield self._end_game()

    # -- games --

    def _begin(self, line: int) -> GameRecord:
        if self.game is None:
            self.game = GameRecord(source=self.source, line=line)
        return self.game

    def _end_game(self) -> GameRecord:
        self._close_play()
        game = self.game
        assert game is not None
        self.game = None
        self._reset_movetext()
        return game

    def _error(self, line: int, column: int, message: str) -> None:
        self._begin(line).errors.add(RecordError(line, column, message))

    # -- tags --

    def _tag_line(self, line: int, text: str) -> Iterator[GameRecord]:
        game = self.game
        if game is not None and not self.in_tag_section and (game.tags or self._movetext_started()):
            yield self._end_game()
        game = self._begin(line)
        self.in_tag_section = True
        position = _space_end(text, 0)
        while position < len(text):
            match = _TAG_RE.match(text, position)
            if match is None:
                self._error(line, position + 1, f'expected a tag like [Event "..."], found {_quoted(text[position:])}')
                return
            tag, written = match.group(1, 2)
            name = standard_name(tag)
            value = _TAG_UNESCAPE_RE.sub(r"\1", written) if "\\" in written else written
            if name in game.tags:
                self._error(line, position + 1, f"tag {name} is given twice; the first value is kept")
            else:
                game.tags[name] = value
                game.tag_places[name] = (line, position + 1)
            position = _space_end(text, match.end())

    def _movetext_started(self) -> bool:
        """Whether the game has more than comments and errors: then a tag line starts another game."""
        return self.last_cell is not None or self.named_cell is not None

    # -- comments --

    def _continue_comment(self, text: str, position: int) -> int:
        """Read comment text from ``position``; return where the movetext resumes, or -1."""
        comment = self.comment
        assert comment is not None
        end = _match_end(_COMMENT_BODY_RE, text, position)
        comment.parts.append(text[position:end])
        if end == len(text):
            return -1
        self.comment = None
        self._attach_comment(comment.line, _comment_text(comment.parts))
        return end + 1

    def _abandon_comment(self) -> None:
        """Keep an unclosed comment's text, and report where it was opened."""
        comment = self.comment
        assert comment is not None
        self.comment = None
        self._error(comment.line, comment.column, "comment is not closed with }")
        self._attach_comment(comment.line, _comment_text(comment.parts))

    def _attach_comment(self, line: int, text: str) -> None:
        """A comment belongs to the action it follows, or to the game before the first action."""
        game = self._begin(line)
        if game.actions and analysis.is_tagged(text):  # [%analysis ...]: a program's evaluation of the action
            action = game.actions[-1]
            try:
                action.analysis += (analysis.from_text(text),)
            except analysis.AnalysisError as error:
                self._error(line, 1, str(error))
            return
        (game.actions[-1].comments if game.actions else game.comments).append(text)

    # -- movetext --

    def _movetext(self, line: int, text: str, position: int) -> Iterator[GameRecord]:
        while position < len(text):
            tokens = _tokens(text, position)
            if not tokens:
                return
            position = tokens[-1][2]
            for kind, start, end in tokens:
                token, column = text[start:end], start + 1
                self._begin(line)
                self.in_tag_section = False
                if kind == "comment":  # the last of the tokens
                    if token == ";":
                        self._attach_comment(line, text[end:].strip())
                        return
                    self.comment = _OpenComment(line, column)
                    position = self._continue_comment(text, end)
                    if position < 0:
                        return
                else:
                    game = self._token(kind, token, line, column)
                    if game is not None:
                        yield game

    def _token(self, kind: str, token: str, line: int, column: int) -> GameRecord | None:
        """Read one token; the game it ends, if it is a result."""
        if kind == "moves":
            if self.play is not None:
                self.play.pieces.append((token, line, column))
                return None
            kind, token = "word", token.partition(" ")[0]  # out of place: the first word is reported, the others
            # skipped after it
        if kind == "word" and token == PASSED_MARK:
            self._close_play()
            self.valued, self.skipping = None, False
            self._passed(line, column)
            return None
        if self.play is not None and kind == "word" and self._is_play_word(token):
            self.play.pieces.append((token, line, column))
            return None
        self._close_play()
        valued, self.valued = self.valued, None
        skipping, self.skipping = self.skipping, False
        if kind == "number":
            self._move_number(token, line, column)
        elif kind == "roll":
            self._roll(token[:-1], line, column)
        elif valued is not None and _VALUE_RE.fullmatch(token):
            valued.value = int(token)
        elif _RESULT_RE.fullmatch(token):
            return self._result(token, line, column)
        elif (word := token.lower()) in CUBE_WORDS:
            action = self._add_action(line, column, word)
            if action.kind in VALUED_WORDS:
                self.valued = action
        elif _BARE_ROLL_RE.fullmatch(token):
            self._error(line, column + len(token), f'expected ":" after the roll {token}')
            self._roll(token, line, column)
        else:
            if not (skipping and self._is_play_word(token)):
                self._error(
                    line, column, f"expected a roll like 63:, a cube action or a result, found {_quoted(token)}"
                )
            self.skipping = True
        return None

    @staticmethod
    def _is_play_word(token: str) -> bool:
        """Whether a word belongs to the play it follows (any word but a result, cube word or roll)."""
        return not (_RESULT_RE.fullmatch(token) or token.lower() in CUBE_WORDS or _BARE_ROLL_RE.fullmatch(token))

    def _move_number(self, token: str, line: int, column: int) -> None:
        cell = (int(token.rstrip(".")), 1 if token.endswith("...") else 0)
        if cell[0] < 1:
            self._error(line, column, f"move numbers start at 1, found {_quoted(token)}")
        elif self.last_cell is not None and cell <= self.last_cell:
            expected = _cell_label(_following(self.last_cell))
            self._error(line, column, f"move number {token} goes back: expected {expected} or a later one")
        else:
            self.named_cell = cell

    def _take_cell(self) -> Cell:
        cell = self.named_cell or _following(self.last_cell)
        self.named_cell, self.last_cell = None, cell
        return cell

    def _add_action(self, line: int, column: int, kind: ActionKind, dice: tuple[int, int] | None = None) -> Action:
        number, side = self._take_cell()
        action = Action(SIDES[side], kind, dice, number=number, line=line, column=column)
        self._begin(line).actions.append(action)
        return action

    def _roll(self, dice_text: str, line: int, column: int) -> None:
        dice = _dice(dice_text)
        if dice is None:
            self._error(line, column, f"expected a roll like 63: or 6-3:, found {_quoted(dice_text + ':')}")
            self._take_cell()
            self.skipping = True
            return
        self.play = _OpenPlay(self._add_action(line, column, "roll", dice))

    def _passed(self, line: int, column: int) -> None:
        """``>``: the opponent's play of the steps the roll before passes (crazy nardy)."""
        game = self._begin(line)
        roll = game.actions[-1] if game.actions else None
        if roll is None or roll.kind != "roll" or roll.dice is None:
            self._error(line, column, 'expected ">" right after a roll\'s play, before the steps it passes')
            self.skipping = True
            return
        action = Action(other(roll.side), "passed", roll.dice, number=roll.number, line=line, column=column)
        game.actions.append(action)
        self.play = _OpenPlay(action)

    def _close_play(self) -> None:
        """Turn the collected play tokens of the open roll into its moves."""
        play, self.play = self.play, None
        if play is None:
            return
        action, pieces = play.action, play.pieces
        if not pieces:
            after = 'the passed steps after ">"' if action.kind == "passed" else "the play after the roll"
            self._error(
                action.line,
                action.column,
                f'expected {after}: moves like 24/18, "-" when none is possible or "?"',
            )
            return
        if len(pieces) == 1 and pieces[0][0] == UNRECORDED_PLAY:
            return
        try:
            action.moves = parse_play(" ".join([piece for piece, _, _ in pieces]))
        except PlaySyntaxError as error:
            words = play.words()
            starts = list(accumulate((len(word) + 1 for word, _, _ in words[:-1]), initial=0))
            index = bisect_right(starts, error.offset) - 1
            _, line, column = words[index]
            self._error(line, column + error.offset - starts[index], str(error))

    def _result(self, token: str, line: int, column: int) -> GameRecord:
        game = self._begin(line)
        game.result, game.result_line, game.result_column = token, line, column
        declared = game.tags.get("Result")
        if declared is not None and declared != token:
            self._error(line, column, f'result {token} differs from the Result tag "{declared}"')
        return self._end_game()


# --- writer ------------------------------------------------------------------------


@dataclass(frozen=True)
class NtnGame:
    """A game's NTN text, and what the writer needs to know of it to join it to the games around it."""

    text: str | None  # None: the game is empty and is not written
    tagged: bool
    has_result: bool
    has_tags_or_actions: bool
    warnings: tuple[str, ...]  # each to follow "game N: "


def prepare(game: GameRecord) -> NtnGame:
    """The NTN text of ``game`` in the canonical layout."""
    warnings: list[str] = []
    empty = not (game.tags or game.actions or game.comments or game.result is not None)
    text = None if empty else "".join(line + "\n" for line in _game_lines(game, warnings))
    return NtnGame(text, bool(game.tags), game.result is not None, bool(game.tags or game.actions), tuple(warnings))


class _NtnWriter(GameWriter[NtnGame]):
    """Games separated by a blank line; warns where a reader would join a game to the one before."""

    def __init__(self, out: TextIO, warnings: Warnings) -> None:
        super().__init__(out, warnings)
        self.previous: NtnGame | None = None

    def write(self, number: int, game: NtnGame) -> None:
        if game.text is None:
            self.warnings.append(f"game {number} is empty and is not written")
            return
        previous = self.previous
        if previous is not None:
            if not previous.has_result and (not game.tagged or not previous.has_tags_or_actions):
                self.warnings.append(f"game {number} follows a game without a result and will be read as part of it")
            self.out.write("\n")
        self.out.write(game.text)
        self.warn(f"game {number}", *game.warnings)
        self.previous = game


TARGET = Target(prepare, _NtnWriter)
write_games = TARGET.write_games


def _game_lines(game: GameRecord, warnings: list[str]) -> list[str]:
    lines = [_tag_text(name, value, warnings) for name, value in game.tags.items()]
    lines = [line for line in lines if line]
    movetext = [f"{{ {_escape_comment(text)} }}" for text in game.comments]
    movetext += _movetext_lines(game.actions, warnings)
    if game.result is not None:
        result = _result_token(game.result, warnings)
        if result is not None:
            movetext.append(result)
    if lines and movetext:
        lines.append("")
    return lines + movetext


def _result_token(result: str, warnings: list[str]) -> str | None:
    """``result`` as the reader reads a result (``02-0`` as ``2-0``), or None with a warning."""
    if _RESULT_RE.fullmatch(result):
        return result
    points = re.fullmatch(rf"\s*(\d{{1,{VALUE_DIGITS}}})-(\d{{1,{VALUE_DIGITS}}})\s*", result)
    if points and (token := f"{int(points.group(1))}-{int(points.group(2))}") and _RESULT_RE.fullmatch(token):
        return token
    warnings.append(f"result {result!r} is not an NTN result (W-0, 0-B, 1/2-1/2 or *); left out")
    return None


def _tag_text(name: str, value: str, warnings: list[str]) -> str:
    if not re.fullmatch(_TAG_NAME, name):
        warnings.append(f"tag name {name!r} is not letters, digits and _; the tag is left out")
        return ""
    if re.search(r"[\r\n]", value):
        warnings.append(f"tag {name} spans lines; written on one line")
        value = re.sub(r"[\r\n]+", " ", value)
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _escape_comment(text: str) -> str:
    """``\\`` and ``}`` escaped everywhere, ``[`` where it begins a line (it would look like a tag),
    and a space at either end (the reader strips a comment's edges)."""
    escaped = text.replace("\\", "\\\\").replace("}", "\\}")
    escaped = re.sub(r"(?m)^(\s*)\[", r"\1\\[", escaped)
    if escaped[:1].isspace():
        escaped = "\\" + escaped
    if escaped[-1:].isspace() and not _escapes_next(escaped[:-1]):
        escaped = escaped[:-1] + "\\" + escaped[-1]
    return escaped


def _movetext_lines(actions: list[Action], warnings: list[str]) -> list[str]:
    """One row per move number: White's cell padded to a column, then Black's cell."""
    lines: list[str] = []
    open_row: tuple[int, str] | None = None  # a White cell that Black's cell may still join
    previous: Cell | None = None
    for action, text, commented in _cells(actions, warnings):
        cell = _writer_cell(action, previous)
        if cell[0] >= 10 ** MOVE_NUMBER_DIGITS:
            warnings.append(f"move number {cell[0]} has more than {MOVE_NUMBER_DIGITS} digits; the rest of the game "
                            "is left out")
            break
        previous = cell
        number, column = cell
        if column == 1 and open_row is not None and open_row[0] == number:
            lines.append(f"{open_row[1]:<{WHITE_COLUMN_WIDTH}}  {text}")
            open_row = None
            continue
        if open_row is not None:
            lines.append(open_row[1])
            open_row = None
        if column == 1:
            lines.append(f"{number}... {text}")
        elif commented:
            lines.append(f"{number}. {text}")
        else:
            open_row = (number, f"{number}. {text}")
    if open_row is not None:
        lines.append(open_row[1])
    return lines


def _cells(actions: list[Action], warnings: list[str]) -> list[tuple[Action, str, bool]]:
    """Each cell's action, its text with comments, and whether it has comments; passed steps
    join the cell of their cascade's roll after ``>``."""
    cells: list[tuple[Action, str, bool]] = []
    for action in actions:
        text = _action_text(action, warnings)
        if text is None:
            continue
        if action.number is not None and action.number >= 10 ** MOVE_NUMBER_DIGITS:
            warnings.append(f"move number {action.number} has more than {MOVE_NUMBER_DIGITS} digits; renumbered")
        comments = [analysis.to_text(evaluation) for evaluation in action.analysis]  # nothing to escape there
        comments += [_escape_comment(comment) for comment in action.comments]
        text += "".join(f"  {{ {comment} }}" for comment in comments)
        if action.kind != "passed":
            cells.append((action, text, bool(comments)))
        elif cells and cells[-1][0].kind == "roll" and cells[-1][0].dice == action.dice:
            roll, roll_text, commented = cells[-1]
            cells[-1] = (roll, f"{roll_text} {PASSED_MARK} {text}", commented or bool(comments))
        else:
            warnings.append(f"passed steps of {action.side} that follow no roll of the same dice are left out")
    return cells


def _writer_cell(action: Action, previous: Cell | None) -> Cell:
    """The action's own cell when its number allows, else the next cell of its side."""
    column = SIDES.index(action.side)
    if action.number is not None and 1 <= action.number < 10 ** MOVE_NUMBER_DIGITS:
        stated = (action.number, column)
        if previous is None or stated > previous:
            return stated
    cell = _following(previous)
    return cell if cell[1] == column else _following(cell)


def _action_text(action: Action, warnings: list[str]) -> str | None:
    """The cell text of an action, or None (with a warning) when NTN cannot write it."""
    if action.kind == "roll":
        if action.dice is None:
            warnings.append(f"a roll of {action.side} without dice is left out")
            return None
        return f"{action.dice[0]}{action.dice[1]}: {action.play_text}"
    if action.kind == "passed":
        return action.play_text
    if action.kind not in CUBE_WORDS:
        warnings.append(f"action {action.kind!r} is not an NTN action; left out")
        return None
    if action.kind in VALUED_WORDS and action.value is not None:
        if 1 <= action.value < 10 ** VALUE_DIGITS:
            return f"{action.kind} {action.value}"
        warnings.append(f"{action.kind} value {action.value} is not a positive number of at most {VALUE_DIGITS} "
                        "digits; left out")
    return action.kind


picklable(NtnGame)
