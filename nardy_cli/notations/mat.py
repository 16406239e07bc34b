"""Jellyfish ``.mat`` match files, as written by GNU Backgammon, eXtreme Gammon,
Backgammon Galaxy and Backgammon Studio (user documentation: formats/mat.md).

A file holds ``; [Key "value"]`` headers, an ``N point match`` line, then games::

     Game 1
     lasse : 0                       underdog : 0
      1) 41: 13/9 24/23              51: 13/8 24/23
      2)  Doubles => 2                Drops
          Wins 1 point

The left column is White, the right column Black. Cells are split where GNU
Backgammon splits them, so a file this module reads the same way gnubg does.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, TextIO

from nardy_cli.core.compiled import picklable
from nardy_cli.core.moves import PlaySyntaxError, parse_play, written_dice
from nardy_cli.core.position import CHECKERS
from nardy_cli.core.rules import Rules, RulesError, stated_options, tag_rules
from nardy_cli.core.scores import Result, Score, crawford_over, is_crawford_game, is_first_game
from nardy_cli.core.scores import match_length as match_length_of
from nardy_cli.core.sides import BLACK, OFF, SIDE_NAMES, WHITE, Side, other
from nardy_cli.core.variants import NACKGAMMON_START
from nardy_cli.notations import GameStarts, GameWriter, Target, Warnings, without_cascades
from nardy_cli.record import Action, ActionKind, CappedErrors, GameRecord, RecordError, next_cell

NAME = "mat"
EXTENSIONS = (".mat", ".txt")

# --- the lines of a file ----------------------------------------------------------

# Patterns run on every line, so none may backtrack more than linearly: the key is taken whole to
# the first '"' and stripped (a lazy key before \s+ was quadratic in blanks).
_HEADER_RE: Final = re.compile(r'\s*;\s*\[\s*(?P<key>\w[^"\]]*)(?<=\s)"(?P<value>.*)"\s*\]\s*')
_MATCH_RE: Final = re.compile(r"\s*(?P<length>\d{1,9})\s+point\s+match\s*", re.IGNORECASE)
_GAME_RE: Final = re.compile(r"\s*Game\s+(?P<number>\d{1,9})\s*", re.IGNORECASE)
_BLACK_SCORE_RE: Final = re.compile(r":\s*(?P<score>\d{1,9})\s*\Z")  # the score line's last ``: n``
_WHITE_SCORE_RE: Final = re.compile(r"\s*(?P<score>\d{1,9})\s")  # after White's ``:``
_RATED_NAME_RE: Final = re.compile(r"(?P<name>.*?),(?P<rating>\d+(?:\.\d+)?)")
_ROLL_MARK_RE: Final = re.compile(r"[1-6][1-6]:")  # what shows a move line to the sniffer
_DICE_LIKE_RE: Final = re.compile(r"(?P<dice>\S{1,4}):")
_DOUBLE_RE: Final = re.compile(r"(?P<word>doubles|beavers)(?:\s*=>\s*(?P<value>\d{1,9}))?", re.IGNORECASE)
_ANSWER_RE: Final = re.compile(r"takes|drops", re.IGNORECASE)
_OUTCOME_RE: Final = re.compile(
    r"(?P<word>wins|losses)\s+(?P<points>\d{1,9})\s+points?(?P<match>\s+and\s+the\s+match)?", re.IGNORECASE)
_OUTCOMES_RE: Final = re.compile(rf"(?:{_OUTCOME_RE.pattern}\s*)+", re.IGNORECASE)  # cells sharing a line
_GLUED_ROW_RE: Final = re.compile(r"(?<=\s)\d{1,9}\)(?=\s)")  # Galaxy's next row, glued onto a move line
_CANNOT_MOVE_RE: Final = re.compile(r"cannot\s+move", re.IGNORECASE)
_UNRECORDED_RE: Final = re.compile(r"\?+")
_NON_WORD_RE: Final = re.compile(r"\W")

_CUBE_KINDS: Final[dict[str, ActionKind]] = {"doubles": "double", "beavers": "beaver", "takes": "take", "drops": "drop"}
_CELL_EXPECTED: Final = "a roll like '63: 24/18 13/10', 'Doubles => 2', 'Takes', 'Drops', 'Beavers' or 'Wins 1 point'"


# --- headers <-> tags: the one table both directions use ------------------------

HEADER_TAGS: tuple[tuple[str, str], ...] = (
    ("Site", "Site"),
    ("Event", "Event"),
    ("Round", "Round"),
    ("EventDate", "Date"),
    ("EventTime", "Time"),
    ("Match ID", "MatchID"),
    ("Player 1", "White"),
    ("Player 2", "Black"),
    ("Player 1 Elo", "WhiteElo"),
    ("Player 2 Elo", "BlackElo"),
    ("Variation", "Variant"),
    ("Crawford", "CrawfordRule"),
    ("Transcriber", "Annotator"),  # SGF's AN
)
"""Known MAT header keys and their tag names; any other key becomes a tag by losing all but letters, digits, ``_``."""

VARIATIONS: tuple[tuple[str, str], ...] = (("Backgammon", "short"), ("LongNardy", "long"))
"""``Variation`` header values and the ``Variant`` tag values they stand for."""
NACKGAMMON: Final = "NackGammon"
"""The ``Variation`` of a Nackgammon match (as GNU Backgammon writes it): short nardy from
Nackgammon's start, its games read with that ``Position`` tag (:meth:`GameRecord.starts_nackgammon`)."""

_TAG_OF_KEY: Final = dict(HEADER_TAGS)
_KEY_OF_TAG: Final = {tag: key for key, tag in HEADER_TAGS}
_VARIANT_OF_VARIATION: Final = {variation.lower(): variant for variation, variant in VARIATIONS}
_VARIATION_OF_VARIANT: Final = {variant: variation for variation, variant in VARIATIONS}

GAME_TAGS: Final = ("MatchLength", "Game", "Score", "WhiteRating", "BlackRating", "Crawford", "Termination", "Result")
"""Tags the layout itself carries (match line, game line, score line, result); never headers."""
UNWRITABLE_TAGS: Final = ("Position",)
"""Tags MAT cannot express: every MAT game starts from the standard position (or, under a
``NackGammon`` variation, from Nackgammon's)."""
RULE_HEADERS: Final = (("CrawfordRule", "crawford"), ("Jacoby", "jacoby"))
"""The tags of the headers that state a rule option of backgammon (``On``/``Off``), and the option."""


def header_rules(tags: dict[str, str]) -> list[str]:
    """The ``key=value`` settings that a game's ``Crawford`` and ``Jacoby`` headers state, as
    eXtreme Gammon writes them (Crawford in a match only; Jacoby counts in money play only)."""
    if tags.get("Variant") != "short":
        return []
    match = match_length_of(tags.get("MatchLength")) > 0
    settings = []
    for tag, option in RULE_HEADERS:
        value = tags.get(tag, "").strip().lower()
        if value in ("on", "off") and (match or option != "crawford"):
            settings.append(f"{option}={value}")
    return settings


def _header_addition(rules: str, tags: dict[str, str]) -> str:
    """What the rule headers state that a ``Rules`` tag ``rules`` does not, as rule text ("" when nothing)."""
    own = stated_options(rules) if rules else set()
    preset = Rules.preset("short")  # a default ("Crawford On" in every Galaxy file) adds nothing
    settings = [setting for setting in header_rules(tags)
                if (option := setting.partition("=")[0]) not in own and setting != preset.describe(option)]
    return preset.with_options(settings).differences() if settings else ""


def _with_header_rules(tags: dict[str, str]) -> None:
    """Add to the ``Rules`` tag (the rules a game is judged under) what the rule headers state
    and it does not."""
    rules = tags.get("Rules", "")
    added = _header_addition(rules, tags)
    if added:
        tags["Rules"] = f"{rules} {added}" if rules else added


def _tag_of_header(key: str, value: str) -> tuple[str, str]:
    tag = _TAG_OF_KEY.get(key) or _NON_WORD_RE.sub("", key)  # the pattern only for an unknown key
    if tag == "Variant":
        value = _VARIANT_OF_VARIATION.get(value.lower(), value)
    return tag, value


def _header_of_tag(tag: str, value: str) -> tuple[str, str]:
    if tag == "Variant":
        value = _VARIATION_OF_VARIANT.get(value, value)
    return _KEY_OF_TAG.get(tag, tag), value


def _rating_from_elo(elo: str | None) -> str | None:
    """The rating part of an Elo header such as ``1600.00/0`` (rating/experience)."""
    rating = (elo or "").split("/", 1)[0].strip()
    return rating or None


def _split_rating(name: str) -> tuple[str, str | None]:
    """A score-line name and its rating: ``Bob,1500`` is (``Bob``, ``1500``), as GamesGrid wrote them."""
    rated = _RATED_NAME_RE.fullmatch(name) if "," in name else None
    return (rated["name"], rated["rating"]) if rated else (name, None)


def _with_players(tags: dict[str, str], names: tuple[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """``tags`` with White and Black from the score line's names, and the players' rating tags.

    When the headers name the players the other way round (eXtreme Gammon's
    ``Player 1`` is the right-hand column), every White/Black header tag is swapped.
    """
    (white, white_rating), (black, black_rating) = _split_rating(names[0]), _split_rating(names[1])
    headers_reversed = (tags.get("White"), tags.get("Black")) == (black, white) and white != black
    if headers_reversed:
        tags = _swap_sides(tags)
    tags["White"], tags["Black"] = white, black
    ratings = {}
    for side, rating in (("White", white_rating), ("Black", black_rating)):
        rating = rating or _rating_from_elo(tags.get(side + "Elo"))
        if rating:
            ratings[side + "Rating"] = rating
    return tags, ratings


def _swap_sides(tags: dict[str, str]) -> dict[str, str]:
    """The tags with every White… and Black… name exchanged, order kept."""

    def swapped(tag: str) -> str:
        for mine, theirs in (("White", "Black"), ("Black", "White")):
            if tag.startswith(mine):
                return theirs + tag[len(mine):]
        return tag

    return {swapped(tag): value for tag, value in tags.items()}


def sniff(head: str) -> bool:
    """True when ``head`` (the start of a decoded file) looks like a MAT match file."""
    lines = head.lstrip("\ufeff").splitlines()
    if any(_MATCH_RE.fullmatch(line) for line in lines):
        return True
    has_game = any(_GAME_RE.fullmatch(line) for line in lines)
    return has_game and any(_row_number(line, 0, len(line))[0] >= 0 and _ROLL_MARK_RE.search(line) for line in lines)


def game_starts(head: list[str]) -> GameStarts | None:
    """None: a match file is read whole, as what a game means depends on the games before it (the
    match score, the Crawford game)."""
    return None


def _score_fields(text: str) -> tuple[str, int, str, int] | None:
    """White's name and score, Black's name and score from a score line ``name : n   name : n``.

    White's name ends at the first ``:`` followed by a number and a blank, Black's at the last
    ``:``. Found by scanning, not by one pattern: one with two lazy names backtracked cubically
    on a long line of blanks.
    """
    black = _BLACK_SCORE_RE.search(text)
    if black is None:
        return None
    colon = text.find(":")
    while 0 <= colon < black.start():
        white = _WHITE_SCORE_RE.match(text, colon + 1)
        if white and white.end() <= black.start():
            return (text[:colon].strip(), int(white["score"]), text[white.end():black.start()].strip(),
                    int(black["score"]))
        colon = text.find(":", colon + 1)
    return None


def _lstripped(text: str, start: int, end: int) -> int:
    """Where ``text[start:end].lstrip()`` starts in ``text``. Lines are read by index, not sliced and
    stripped (a copy each time); ASCII is tested first: compiled, ord is a primitive and a string
    method a call."""
    while start < end:
        code = ord(text[start])
        if code != 32 and (32 < code < 127 or not text[start].isspace()):
            break
        start += 1
    return start


def _rstripped(text: str, start: int, end: int) -> int:
    """Where ``text[start:end].rstrip()`` ends in ``text``."""
    while end > start:
        code = ord(text[end - 1])
        if code != 32 and (32 < code < 127 or not text[end - 1].isspace()):
            break
        end -= 1
    return end


def _row_number(text: str, start: int, end: int) -> tuple[int, int]:
    """The row number ``text[start:end]`` starts with (blanks, 1-9 digits, ``)``) and where it ends;
    (-1, start) when it starts with none. Read by hand, not by a pattern: it is asked of every move
    line. Never None: compiled, a tuple of two ints is passed unboxed, but an optional one is made."""
    digits = _lstripped(text, start, end)
    stop, value, ascii_digits = digits, 0, True
    while stop < end:
        digit = ord(text[stop]) - 48
        if not 0 <= digit <= 9:
            if ord(text[stop]) < 128 or not text[stop].isdecimal():
                break
            ascii_digits = False
        value = 10 * value + digit
        stop += 1
    if not 0 < stop - digits <= 9 or stop == end or ord(text[stop]) != ord(")"):
        return -1, start
    return (value if ascii_digits else int(text[digits:stop])), stop + 1


def _roll_dice(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The dice of the roll cell ``text[start:end]`` (a stripped cell: two digits 1-6 and ``:``,
    then its play), or None for another cell."""
    if end - start < 3 or ord(text[start + 2]) != ord(":"):
        return None
    return written_dice(text, start, start + 1)


class _Outcome:
    """A ``Wins N point(s)`` or ``Losses N point(s)`` cell, as the winner it names. Plain classes,
    these two, not dataclasses: making a dataclass costs a millisecond at every start."""

    def __init__(self, winner: Side, points: int, line: int, column: int, wins: bool, match: bool) -> None:
        self.winner, self.points, self.line, self.column = winner, points, line, column
        self.wins = wins  # written as Wins: a Losses line is where Backgammon Galaxy puts it, not always the loser's
        self.match = match  # "... and the match"


class _GameBuilder:
    """One game while its lines are read."""

    def __init__(self, record: GameRecord, number: str) -> None:
        self.record, self.number = record, number
        self.actions = record.actions  # the record's own list, appended to without an attribute look-up
        self.score_line_seen = False
        self.names: tuple[str, str] | None = None
        self.score: Score | None = None
        self.outcomes: list[_Outcome] = []
        self.empty_play: Action | None = None  # the last roll whose play was left empty
        self.nackgammon_marked = False  # DailyGammon's first cell said the game starts from Nackgammon's start
        self.row_offset = 0  # rows to take from the written numbers: 1 after a marker in the right cell

    def error(self, line: int, column: int, message: str) -> None:
        self.record.errors.add(RecordError(line, column, message))

    def read_score_line(self, line: int, text: str) -> bool:
        """Take the names and scores; False (and an error) when ``text`` is no score line."""
        self.score_line_seen = True
        fields = _score_fields(text)
        if fields is None:
            self.error(line, 1, f"expected the score line 'name : score   name : score' after ' Game {self.number}', "
                                f"found {text.strip()!r}")
            return False
        white, white_score, black, black_score = fields
        self.names = (white, black)
        self.score = Score(white_score, black_score)
        return True

    def read_move_line(self, line: int, text: str, end: int) -> None:
        """Read the cells of the move line ``text[:end]``; a row number further on starts a row glued onto it."""
        number, cells = _row_number(text, 0, end)
        if text.find(")", cells, end) < 0:  # the common line: one row
            self.read_row(line, text, 0, end, number, cells)
            return
        starts = [0] + [glued.start() for glued in _GLUED_ROW_RE.finditer(text, cells, end)]
        for start, stop in zip(starts, starts[1:] + [end]):
            if start > 0:
                number, cells = _row_number(text, start, stop)
            self.read_row(line, text, start, stop, number, cells)

    def read_row(self, line: int, text: str, start: int, end: int, number: int, cells: int) -> None:
        """Read the row ``text[start:end]``, whose cells start at ``cells`` after its row number
        (-1 when it has none, see :func:`_row_number`): its left cell White's, its right cell Black's.

        Split as GNU Backgammon splits it: when the row holds two ``:``, the right cell
        starts two characters before the second; otherwise at the first double space
        at or after column 16. The left cell starts after a leading ``N)``.
        """
        left_end, right_start = end, -1
        first = text.find(":", start, end)
        second = text.find(":", first + 1, end) if first >= 0 else -1
        if second - start > 3:
            left_end, right_start = second - 3, second - 2
        elif end - start > 15:
            gap = text.find("  ", start + 15, end)
            if gap >= 0:
                left_end, right_start = gap, gap + 1
        row = number - self.row_offset if number >= 0 else None
        self.read_cell(WHITE, text, cells if cells <= left_end else start, left_end, row, line)
        if right_start >= 0:
            self.read_cell(BLACK, text, right_start, end, row, line)

    def read_cell(self, side: Side, text: str, start: int, end: int, number: int | None, line: int) -> None:
        """Read one side's cell of a row, ``text[start:end]``, unless it is blank."""
        start = _lstripped(text, start, end)
        if start >= end:
            return
        end = _rstripped(text, start, end)
        dice = _roll_dice(text, start, end)
        is_roll = dice is not None  # not narrowed: compiled, a narrowed tuple is unboxed, then boxed again
        action: Action | None
        if is_roll:
            action = Action(side, "roll", dice, None, None, number, None, line, start + 1)
            if not self.read_play(action, text, _lstripped(text, start + 3, end), end):
                return
        elif text[start] in "WwLl" and _OUTCOMES_RE.fullmatch(text, start, end):
            for outcome in _OUTCOME_RE.finditer(text, start, end):
                won = outcome["word"].lower() == "wins"
                self.outcomes.append(_Outcome(side if won else other(side), int(outcome["points"]), line,
                                              outcome.start() + 1, won, outcome["match"] is not None))
            return
        else:
            action = self.cube_action(side, text[start:end], line, start + 1)
            if action is None:
                return
            action.number = number
        if self.outcomes:
            self.error(line, start + 1, f"expected nothing after the result {self.outcomes[0].points} point(s), "
                                        f"found {text[start:end]!r}")
            return
        self.actions.append(action)  # a beaver is a take and a redouble at once: no take follows it

    def read_play(self, roll: Action, text: str, start: int, end: int) -> bool:
        """Give ``roll`` its play, ``text[start:end]``; False when the roll is no action: after
        recording an error, or for DailyGammon's Nackgammon marker. Only the play is sliced: its
        text is the key of the parsed plays kept."""
        if start == end:
            roll.moves = ()  # the roll alone: no play possible (but see finish)
            self.empty_play = roll
            return True
        first = ord(text[start])
        if first == ord("?") and _UNRECORDED_RE.fullmatch(text, start, end):
            return True  # rolled, then resigned: the play stays None
        if (first == ord("C") or first == ord("c")) and _CANNOT_MOVE_RE.fullmatch(text, start, end):
            roll.moves = ()
            return True
        try:
            roll.moves = parse_play(text[start:end])
        except PlaySyntaxError as exc:
            play = text[start:end]
            if not self.actions and _is_nackgammon_marker(play):
                self.nackgammon_marked = True  # the marker is no action of the game
                self.row_offset = 1 if roll.side == BLACK else 0
                return False
            if play.startswith(_ILLEGAL_PLAY):
                self.error(roll.line, start + 1, "expected a play, found 'Illegal play (...)': a position set by "
                                                 "hand here (how GNU Backgammon and eXtreme Gammon export an "
                                                 "illegal play, or a board or cube edited during the game), which "
                                                 "nardy does not read; the roll is left out")
                return False
            self.error(roll.line, start + 1 + exc.offset, str(exc))
            return False
        return True

    def cube_action(self, side: Side, cell: str, line: int, column: int) -> Action | None:
        """The cube action a cell other than a roll holds, or None after recording an error."""
        # each pattern runs only where the cell's first characters allow it to match
        cube = _DOUBLE_RE.fullmatch(cell) if cell[0] in "DdBb" else None
        if cube:
            return Action(side, _CUBE_KINDS[cube["word"].lower()], value=int(cube["value"]) if cube["value"] else None,
                          line=line, column=column)
        if cell[0] in "TtDd" and _ANSWER_RE.fullmatch(cell):
            return Action(side, _CUBE_KINDS[cell.lower()], line=line, column=column)
        dice_like = _DICE_LIKE_RE.match(cell)
        if dice_like:
            self.error(line, column, f"expected two dice 1-6 before ':', found {dice_like['dice']!r}")
        else:
            self.error(line, column, f"expected {_CELL_EXPECTED}, found {cell!r}")
        return None

    def finish(self, headers: dict[str, str], match_length: str | None, comments: list[str],
               crawford_played: bool | None) -> GameRecord:
        """The finished record: header tags, then the tags of the layout, the result and how the game ended."""
        tags = dict(headers)
        tags.setdefault("Variant", "short")
        nackgammon = tags["Variant"].lower() == NACKGAMMON.lower()
        if nackgammon:
            tags["Variant"] = "short"
        ratings: dict[str, str] = {}
        if self.names:
            tags, ratings = _with_players(tags, self.names)
        if match_length is not None:
            tags["MatchLength"] = match_length
        tags["Game"] = self.number
        tags.update(ratings)
        _with_header_rules(tags)
        self.record.tags = tags
        if self.score:
            tags["Score"] = str(self.score)
            if _is_crawford_game(self.score, match_length, _crawford_rule(self.record), crawford_played) is True:
                tags["Crawford"] = "yes"
        if self.outcomes:
            self._settle_result(tags)
        elif self._ends_with_empty_play():  # the last roll of an unfinished game, not played yet
            self.actions[-1].moves = None
        if nackgammon or self.nackgammon_marked:
            self.record.set_short_start(nackgammon=True)
        self.record.comments[:0] = comments
        return self.record

    def _settle_result(self, tags: dict[str, str]) -> None:
        """The result of the first ``Wins`` cell, as GNU Backgammon reads it (else of a lone
        ``Losses`` cell); a ``Losses`` cell that says otherwise is ignored, with a note."""
        decisive = next((outcome for outcome in self.outcomes if outcome.wins), self.outcomes[0])
        for outcome in self.outcomes:
            if (outcome.winner, outcome.points) == (decisive.winner, decisive.points):
                continue
            if decisive.wins and not outcome.wins:
                self.record.notes.append(RecordError(
                    outcome.line, outcome.column, f"'Losses {outcome.points} point' ignored: the 'Wins' line on line "
                    f"{decisive.line} gives the game to {SIDE_NAMES[decisive.winner]} ({decisive.points} point"
                    f"{'s' if decisive.points != 1 else ''})"))
            else:
                self.error(outcome.line, outcome.column,
                           f"expected the result stated on line {decisive.line}, found a different one")
        points = decisive.points
        self.record.result = str(Result(decisive.winner, points))
        self.record.ends_match = decisive.match
        termination = _termination_of(self.record.actions, decisive.winner)
        if termination:
            tags["Termination"] = termination
        if termination == "resign":
            cell = (0, 1)
            for action in self.record.actions:
                cell = next_cell(cell, action.side)
            loser = other(decisive.winner)
            if self._ends_with_empty_play() and self.actions[-1].side == loser:
                self.actions[-1].moves = None  # rolled, then resigned: no play was made (as "????" says)
            self.record.actions.append(Action(side=loser, kind="resign", value=points,
                                              number=next_cell(cell, loser)[0],
                                              line=decisive.line, column=decisive.column))

    def _ends_with_empty_play(self) -> bool:
        """Whether the game's last action is a roll whose play was left empty."""
        return bool(self.actions) and self.actions[-1] is self.empty_play


def _is_crawford_game(score: Score, match_length: str | None, rule: bool,
                      crawford_played: bool | None) -> bool | None:
    """Whether a game at ``score`` is the Crawford game (None: it cannot be told), where the Crawford
    ``rule`` holds. MAT does not mark the Crawford game; GNU Backgammon infers it this way too (but
    under the Crawford rule whatever the headers say, and taking a file's first game at 6-5 in a
    7-point match for it, which it may follow)."""
    if not rule:
        return False
    return is_crawford_game(score, match_length_of(match_length), crawford_played=crawford_played)


def _crawford_rule(record: GameRecord) -> bool:
    """Whether the Crawford rule holds in a game, as its tags state it: the rules it is judged
    under (a backgammon game's ``Crawford`` header feeds its ``Rules`` tag)."""
    try:
        rules = tag_rules(record.variant, record.tags.get("Rules"))[0]
    except RulesError:  # a variant nardy does not know: it judges no rule there
        return False
    return rules.crawford == "on"


def _termination_of(actions: list[Action], winner: Side) -> str | None:
    """How a game the record gives to ``winner`` ended, as far as its text tells.

    ``drop`` when the last action is a dropped double, None when the winner's
    plays bear off all 15 checkers, otherwise ``resign``.
    """
    last = next((action for action in reversed(actions) if action.kind != "resign"), None)
    if last is not None and last.kind == "drop":
        return "drop"
    borne_off = 0  # plain loops: compiled, they cost a third of a list and a generator
    for action in actions:
        if action.side == winner and action.moves:  # a resignation has none
            for move in action.moves:
                if move.path[-1] == OFF:
                    borne_off += move.count
    return None if borne_off >= CHECKERS else "resign"


class _MatchReader:
    """The state of a file being read: the match headers and the game in progress."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.headers: dict[str, str] = {}
        self.match_length: str | None = None
        self.comments: list[str] = []
        self.stray_errors = CappedErrors()  # before any game: as many as the lines
        self.held_headers: list[re.Match[str]] = []  # header lines met inside a match (see release_headers)
        self.game: _GameBuilder | None = None
        self.games_read = 0
        self.crawford_played: bool | None = None  # None: no game of the match read yet

    def feed(self, line: int, raw: str) -> GameRecord | None:
        """Read one line, its line end included; the game it finishes, if any."""
        if line == 1:
            raw = raw.removeprefix("\ufeff")
        end = len(raw)  # the line is read up to its line end, never copied without it
        while end and (ord(raw[end - 1]) == ord("\n") or ord(raw[end - 1]) == ord("\r")):
            end -= 1
        start = _lstripped(raw, 0, end)
        if start == end:
            return None
        # a line is told by its first (and last) characters before any pattern runs on it: a move
        # line, by far the most common, starts with a digit and does not end with "match"
        first, last = ord(raw[start]), ord(raw[_rstripped(raw, start, end) - 1])
        header = _HEADER_RE.fullmatch(raw, 0, end) if first == ord(";") else None
        match_line = _MATCH_RE.fullmatch(raw, 0, end) if (48 <= first <= 57 or first > 127 and raw[start].isdecimal()) \
            and (last == ord("h") or last == ord("H")) else None
        game_line = _GAME_RE.fullmatch(raw, 0, end) if first == ord("G") or first == ord("g") else None
        if header and self.game:  # a next match's header only if its 'N point match' follows
            self.held_headers.append(header)
            return None
        finished = self.release_headers(match_line is not None) if self.held_headers else None
        if (header or match_line) and self.game:
            finished = self.finish_game()
            self.headers, self.match_length, self.comments, self.crawford_played = {}, None, [], None
        if header:
            self.feed_header(header)
        elif match_line:
            self.match_length = str(int(match_line["length"]))
        elif first == ord(";") or first == ord("#"):
            comment = raw[start + 1:end].strip()
            (self.game.record.comments if self.game else self.comments).append(comment)
        elif game_line:
            if self.game:
                finished = self.finish_game()
            self.start_game(line, game_line["number"])
        elif self.game is None:
            self.stray_errors.add(RecordError(line, 1, "expected a header '; [Key \"value\"]', 'N point match' "
                                                          f"or ' Game N', found {raw[start:end].rstrip()!r}"))
        elif self.game.score_line_seen:
            self.game.read_move_line(line, raw, end)
        elif not self.game.read_score_line(line, raw[:end]) and _row_number(raw, 0, end)[0] >= 0:
            self.game.read_move_line(line, raw, end)
        return finished

    def release_headers(self, next_match: bool) -> GameRecord | None:
        """Header lines met inside a match, now that the line after them shows what they were:
        the next match's headers before its 'N point match' (the game they finish returned),
        else comments of the game (a stray header line must not end the match and lose its
        length and headers)."""
        held, self.held_headers = self.held_headers, []
        if not next_match:
            assert self.game is not None
            self.game.record.comments.extend(header[0].lstrip()[1:].strip() for header in held)
            return None
        finished = self.finish_game() if self.game else None
        self.headers, self.match_length, self.comments, self.crawford_played = {}, None, [], None
        for header in held:
            self.feed_header(header)
        return finished

    def feed_header(self, header: re.Match[str]) -> None:
        tag, value = _tag_of_header(header["key"].rstrip(), header["value"])
        self.headers[tag] = value

    def start_game(self, line: int, number: str) -> None:
        record = GameRecord(source=self.source, line=line)
        if self.match_length is None:
            record.errors.add(RecordError(line, 1, f"expected 'N point match' before ' Game {number}', found none"))
        self.game = _GameBuilder(record, str(int(number)))
        if is_first_game(self.game.number):  # another match: its Crawford game is to come
            self.crawford_played = None

    def finish_game(self) -> GameRecord:
        assert self.game is not None
        score = self.game.score
        record = self.game.finish(self.headers, self.match_length, list(self.comments), self.crawford_played)
        if score:
            crawford = "Crawford" in record.tags
            self.crawford_played = crawford_over(score, match_length_of(self.match_length),
                                                 crawford_played=self.crawford_played, crawford=crawford)
        if self.stray_errors:  # (a method of an interpreted class: not called for nothing)
            record.errors.put_first(self.stray_errors)
            self.stray_errors = CappedErrors()
        self.game = None
        self.games_read += 1
        return record

    def close(self) -> GameRecord | None:
        """The last game, or a record of the errors of a text without games."""
        if self.held_headers:
            self.release_headers(False)
        if self.game:
            return self.finish_game()
        if self.stray_errors or not self.games_read and (self.headers or self.match_length or self.comments):
            # text but no game; a blank file holds none, as in every notation (--allow-empty accepts it)
            errors = self.stray_errors or CappedErrors([
                RecordError(1, 1, "expected a MAT match (' Game N' and its moves), found no game")])
            return GameRecord(tags={"Variant": "short", **self.headers}, errors=errors, source=self.source,
                              line=errors[0].line)
        return None


_ILLEGAL_PLAY: Final = "Illegal play ("  # a position set by hand (gnubg's MOVE_SETBOARD), written as Snowie text
_NACKGAMMON_BOARD: Final = ["0", *(str(NACKGAMMON_START[p] or -NACKGAMMON_START[25 - p]) for p in range(1, 25)), "0"]


def _is_nackgammon_marker(play: str) -> bool:
    """Whether a roll cell's play is DailyGammon's mark of a Nackgammon game: its first cell is a
    roll (``12:``) of the player who does not start, whose play is ``Illegal play (...)``, the
    site's own record of a position: match length, four flags, the names (the first to roll
    next), a field, the scores, the cube, a field, the 26 points of the board as the first named
    sees them (0 and 25 the bars, the first named's checkers positive), the next roll's dice."""
    if not (play.startswith(_ILLEGAL_PLAY) and play.endswith(")")):
        return False
    fields = play[len(_ILLEGAL_PLAY):-1].rstrip(";").split(";")
    return len(fields) == 40 and fields[12:38] == _NACKGAMMON_BOARD


def foreign_file(first_line: str) -> str | None:
    """What a file that shares MAT's extension is instead, by its first line (MATLAB's data files
    begin ``MATLAB 5.0 MAT-file``), or None."""
    if first_line.startswith("MATLAB ") and "MAT-file" in first_line[:40]:
        return "a MATLAB data file"
    return None


def read_games(lines: Iterable[str], source: str = "") -> Iterator[GameRecord]:
    """Read the games of MAT text one at a time; bad lines become ``RecordError``s, never exceptions."""
    reader = _MatchReader(source)
    for number, raw in enumerate(lines, 1):
        finished = reader.feed(number, raw)  # a plain call per line: a generator per line cost more
        if finished is not None:
            yield finished
    finished = reader.close()
    if finished is not None:
        yield finished


# --- writer --------------------------------------------------------------------

_LEFT_WIDTH: Final = 27  # gnubg writes "%3d) %-27s " before the right cell
_LEFT_RESULT_INDENT, _RIGHT_RESULT_INDENT = " " * 6, " " * 34  # gnubg's "Wins" lines of their own


def _result_of(record: GameRecord) -> Result | None:
    """The result of a game that one side won, else None."""
    result = Result.parse(record.result or "")
    return result if result is not None and result.winner is not None else None


@dataclass(frozen=True)
class MatGame:
    """A game's MAT lines but for what depends on the games before it (the match score and the
    game's number in its match), with the warnings of writing them."""

    title: str
    length: str
    headers: tuple[tuple[str, str], ...]  # the match headers the game's tags give
    stated_score: Score | None
    crawford_rule: bool  # whether the Crawford rule holds
    crawford_tag: str | None
    outcome: Result | None
    stated_number: str | None  # the Game tag, when it is a number
    names: tuple[str, str]  # of the score line
    rows: tuple[str, ...]  # the numbered lines of the moves
    result_beside: str | None  # the left cell of a last line whose right cell is Black's "Wins" text
    header_warnings: tuple[str, ...]  # each to follow "game N (White – Black): "
    game_warnings: tuple[str, ...]


def prepare(record: GameRecord) -> MatGame:
    """The MAT lines of ``record`` in GNU Backgammon's layout, as far as the record alone sets them."""
    header_warnings: list[str] = []
    game_warnings: list[str] = []
    length = record.tags.get("MatchLength", "0")
    if not re.fullmatch(r"\d{1,9}", length):
        header_warnings.append(f"match length {length!r} is not a number; written as a money game (0 point match)")
        length = "0"
    headers = _headers(record, header_warnings)
    outcome = _result_of(record)
    _check_game(record, outcome, game_warnings)
    rows = _move_rows(record, game_warnings)
    names = _score_line_names(record, game_warnings)
    result_beside = rows.pop()[0] if outcome and outcome.winner == BLACK and _row_open(rows) else None
    number = record.tags.get("Game", "")
    return MatGame(
        record.title(), length, tuple(headers),
        Score.parse(record.tags.get("Score")),
        _crawford_rule(record), record.tags.get("Crawford"), outcome, number if number.isdigit() else None,
        names, tuple(_row_text(row_number, left, right) for row_number, (left, right) in enumerate(rows, 1)),
        result_beside, tuple(header_warnings), tuple(game_warnings))


class _MatWriter(GameWriter[MatGame]):
    """Writes games one after another, starting a match block whenever the match tags change."""

    def __init__(self, out: TextIO, warnings: Warnings) -> None:
        super().__init__(out, warnings)
        self.match_key: tuple[object, ...] | None = None
        self.score = Score()
        self.games_in_match = 0
        self.crawford_played: bool | None = None  # None: no game of the match written yet

    def write(self, number: int, game: MatGame) -> None:
        label = f"game {number} ({game.title})"
        self.warn(label, *game.header_warnings)
        self.start_match_if_new(game, label)
        self.games_in_match += 1
        score = game.stated_score or self.score
        self.check_crawford(game, score, label)
        self.warn(label, *game.game_warnings)
        lines = [f" Game {game.stated_number or self.games_in_match}", _score_line(*game.names, score), *game.rows]
        if game.outcome:
            winner, points = game.outcome.winner, game.outcome.points
            assert winner is not None
            text = _wins_text(points, score.of(winner), int(game.length))
            if game.result_beside is not None:
                lines.append(_row_text(len(game.rows) + 1, game.result_beside, text))
            else:
                lines.append((_LEFT_RESULT_INDENT if winner == WHITE else _RIGHT_RESULT_INDENT) + text)
            self.score = score.plus(winner, points)
        self.out.write("\n".join(lines) + "\n\n")

    def start_match_if_new(self, game: MatGame, label: str) -> None:
        key = (game.headers, game.length)
        another = is_first_game(game.stated_number) and self.games_in_match > 0
        if key == self.match_key and not another:
            return
        if self.match_key is not None:
            why = "its match tags differ from the game before" if key != self.match_key else "it is game 1 of a match"
            self.warn(label, f"{why}, so it starts a second match in the file; GNU Backgammon imports only the "
                             "first match of a file")
        self.match_key, self.score, self.games_in_match, self.crawford_played = key, Score(), 0, None
        for key_name, value in game.headers:
            self.out.write(f'; [{key_name} "{value}"]\n')
        self.out.write(f"\n {game.length} point match\n\n")

    def check_crawford(self, game: MatGame, score: Score, label: str) -> None:
        """Warn when the record's Crawford tag is not what a reader will infer from the scores."""
        implied = _is_crawford_game(score, game.length, game.crawford_rule, self.crawford_played)
        self.crawford_played = crawford_over(score, match_length_of(game.length), crawford_played=self.crawford_played,
                                             crawford=implied)
        stated = game.crawford_tag
        if stated is not None and (stated == "yes") != implied:
            told = "cannot tell whether this game is " if implied is None else \
                f"this game is {'' if implied else 'not '}"
            self.warn(label, f"Crawford tag {stated!r} cannot be expressed: MAT readers infer the Crawford game "
                             f"from the scores, and {told}the Crawford game")


TARGET = Target(without_cascades(prepare, "MAT"), _MatWriter)
write_games = TARGET.write_games


def _headers(record: GameRecord, warnings: list[str]) -> list[tuple[str, str]]:
    headers = []
    nackgammon = record.starts_nackgammon()
    for tag, value in record.tags.items():
        if tag == "Rules":
            value = _rules_beyond_headers(value, record.tags)
            if not value:
                continue
        if nackgammon and tag in ("Variant", "Position"):
            if tag == "Variant":
                headers.append(_header_of_tag(tag, NACKGAMMON))
        elif tag in UNWRITABLE_TAGS:
            warnings.append(f"tag {tag} ({value!r}) cannot be expressed: a MAT game starts from the standard position")
        elif tag not in GAME_TAGS:
            if "\n" in value or "\r" in value:
                warnings.append(f"tag {tag}: line breaks in its value written as spaces")
                value = " ".join(value.splitlines())
            headers.append(_header_of_tag(tag, value))
    if "Variant" not in record.tags:
        headers.append(_header_of_tag("Variant", NACKGAMMON if nackgammon else record.variant))
    return headers


def _rules_beyond_headers(rules: str, tags: dict[str, str]) -> str:
    """A ``Rules`` tag without the end that the reader adds from the ``Crawford`` and ``Jacoby``
    headers (see :func:`_with_header_rules`), so that it reads back the same; "" when the headers
    say it all."""
    if rules == _header_addition("", tags):
        return ""
    cut = rules.find(" ")
    while cut > 0:
        if rules[cut + 1:] == _header_addition(rules[:cut], tags) and not rules[:cut].endswith(","):
            return rules[:cut]
        cut = rules.find(" ", cut + 1)
    return rules


def _check_game(record: GameRecord, outcome: Result | None, warnings: list[str]) -> None:
    """Warn about what this game holds that MAT cannot say."""
    if record.comments or any(action.comments for action in record.actions):
        warnings.append("comments dropped: MAT has no comments")
    if any(action.analysis for action in record.actions):
        warnings.append("analysis dropped: MAT has no analysis")
    if outcome is None and record.result is not None:  # no result at all: no "Wins" line says just that
        warnings.append(f"result {record.result!r} cannot be written: MAT states a result only as one side's "
                        "'Wins N points'")
    elif outcome is None and any(action.kind == "resign" for action in record.actions):
        warnings.append("a resignation with no result cannot be written: MAT states a resignation only by the "
                        "winner's 'Wins N points'")
    stated = record.tags.get("Result")
    if stated is not None and stated != record.result:
        warnings.append(f"Result tag {stated!r} dropped: MAT keeps only the result {record.result!r}")
    termination = record.tags.get("Termination")
    if outcome and termination is not None:
        assert outcome.winner is not None
        implied = _termination_of(record.actions, outcome.winner)
        if termination != implied:
            warnings.append(f"termination {termination!r} cannot be expressed: the MAT text implies "
                            f"{implied or 'a game played out'}")


def _score_line_names(record: GameRecord, warnings: list[str]) -> tuple[str, str]:
    """White's and Black's names as the score line gives them, with a rating the Elo tag does not give."""
    names, rated = [], []
    for side in ("White", "Black"):
        name = record.tags.get(side, "").strip()
        if not name:  # GNU Backgammon cannot import a score line with an empty name
            warnings.append(f"{side}'s name is empty; written as {side!r}")
            name = side
        rating = record.tags.get(side + "Rating")
        names.append(name)
        if rating and rating != _rating_from_elo(record.tags.get(side + "Elo")):
            if _split_rating(f"{name},{rating}") == (name, rating):
                name = f"{name},{rating}"
            else:
                warnings.append(f"{side}Rating {rating!r} cannot be written: the score line holds only 'name,number'")
        rated.append(name)
    for index, side in enumerate(("White", "Black")):
        own = record.tags.get(side, "")
        own = own if own.strip() else side  # (an empty name was written as the side: warned above)
        if own == names[index] and not _UNSAFE_IN_NAME_RE.search(own):
            continue  # nothing to write otherwise (most names): the reader need not be asked
        read = _names_read_back(rated[0], "Black")[0] if index == 0 else _names_read_back("White", rated[1])[1]
        if read != own:  # spaces at its ends, a ':' or ',' before a number, a leading '#' or ';'
            safe = " ".join(_UNSAFE_IN_NAME_RE.sub(" ", own).split()) or side
            got = "not as a name" if read is None else f"as {read!r}"
            warnings.append(f"{side}'s name {own!r} would be read back from the score line {got}; written as {safe!r}")
            rated[index] = rated[index].replace(names[index], safe, 1)
    return rated[0], rated[1]


_UNSAFE_IN_NAME_RE: Final = re.compile(r"[:;#,]")
"""What may end or hide a name on a score line: written as a space."""


def _score_line(white: str, black: str, score: Score) -> str:
    """A game's score line as GNU Backgammon writes it: each name and score, in two columns."""
    return " " + f"{white} : {score.white}".ljust(30) + f" {black} : {score.black}"


@lru_cache(maxsize=1024)
def _names_read_back(white: str, black: str) -> tuple[str | None, str | None]:
    """White's and Black's names as a reader takes them from a score line with these names (None
    for a name it does not take): the reader itself, on a game of that one line."""
    lines = [" 1 point match\n", " Game 1\n", _score_line(white, black, Score()) + "\n"]
    games = list(read_games(lines))
    if not games or games[0].errors:
        return None, None
    return games[0].tags.get("White"), games[0].tags.get("Black")


def _move_rows(record: GameRecord, warnings: list[str]) -> list[list[str | None]]:
    """The cells of the numbered lines: left White, right Black, a side's next cell below its last."""
    rows: list[list[str | None]] = []
    cube = 1
    for action, previous in zip(record.actions, (None, *record.actions)):
        if action.kind == "resign":
            continue  # the result cell says it
        if action.kind == "take" and previous and previous.kind == "beaver":
            continue  # the doubler's next roll takes a beaver
        if action.kind == "roll":
            if action.dice is None:
                warnings.append(f"a roll of {SIDE_NAMES[action.side]} without dice cannot be written; left out")
                continue
            cell = f"{action.dice[0]}{action.dice[1]}: " + _play_text(action)
        elif action.kind in ("double", "beaver"):
            cube = action.value or 2 * cube
            cell = f" {'Doubles' if action.kind == 'double' else 'Beavers'} => {cube}"
        elif action.kind in ("take", "drop"):
            cell = f" {action.kind.capitalize()}s"
        else:
            warnings.append(f"action {action.kind!r} cannot be written; left out")
            continue
        if action.side == BLACK and _row_open(rows):
            rows[-1][1] = cell
        else:
            rows.append([cell, None] if action.side == WHITE else [None, cell])
    return rows


def _play_text(action: Action) -> str:
    """A roll's play as MAT writes it: empty when no play was possible, ``????`` when unrecorded."""
    if action.moves is None:
        return "????"
    return " ".join(str(move) for move in action.moves)


def _wins_text(points: int, winner_score: int, length: int) -> str:
    """``Wins N point(s)``, with `` and the match`` when it brings the winner to the match length."""
    match_won = length and winner_score + points >= length
    return f"Wins {points} point{'s' if points > 1 else ''}" + (" and the match" if match_won else "")


def _row_open(rows: list[list[str | None]]) -> bool:
    """True when the last line has a left cell and room on its right."""
    return bool(rows) and rows[-1][0] is not None and rows[-1][1] is None


def _row_text(number: int, left: str | None, right: str | None) -> str:
    left = left or ""
    gap = " " if len(left) < _LEFT_WIDTH else "  "  # the cells need two spaces between them
    return f"{number:3d}) {left.ljust(_LEFT_WIDTH)}{gap}{right or ''}".rstrip()


picklable(MatGame)
