"""Games grouped into matches and certified as matches: the score before each game, the Crawford
game, the end of the match (formats/findings.md, "Match findings").

Games of one input belong to one match while they have the same match length (more than 0),
the same two players (on either side) and the same ``MatchID``, ``Event`` and ``Round`` tags; a
``Game`` tag of 1 starts a new match. :class:`MatchChecker` takes the games in corpus order, as
small :class:`MatchGame` summaries built where the games are replayed, and returns the findings
each game gets as a game of its match.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nardy_cli.core.compiled import Value
from nardy_cli.core.scores import Score, crawford_over, is_crawford_game, is_first_game, match_length
from nardy_cli.core.sides import BLACK, WHITE, Side
from nardy_cli.record import GameRecord
from nardy_cli.replay import GameFinding, GameReplay

CUBE_KINDS = ("double", "take", "drop", "beaver")
CubeAt = tuple[int, int | None, Side, str, int, int]
"""Where a game's first cube action is: its turn, move number, side, kind, line and column."""


class MatchGame(Value):
    """What the match checks need of one replayed game; small enough to ship from a worker.

    A :class:`~nardy_cli.core.compiled.Value` whose fields are plain attributes, not to be changed:
    one is made for every game, and shipped, at a fraction of a compiled frozen dataclass's cost
    (whose ``__init__`` runs interpreted)."""

    __slots__ = ("source", "index", "title", "players", "key", "length", "number", "score", "crawford_tag",
                 "crawford_rule", "winner", "points", "line", "end", "cube", "rules", "ends_match", "date")
    __match_args__ = ("source", "index", "title", "players", "key", "length", "number", "score", "crawford_tag",
                      "crawford_rule", "winner", "points", "line", "end", "cube", "rules", "ends_match", "date")

    def __init__(self, source: str, index: int, title: str, players: tuple[str, str], key: tuple[str, ...],
                 length: int, number: str, score: Score | None, crawford_tag: bool | None, crawford_rule: str | None,
                 winner: Side | None, points: int | None, line: int, end: tuple[int, int], cube: CubeAt | None,
                 rules: str, ends_match: bool = False, date: str = "") -> None:
        self.source, self.index, self.title = source, index, title
        self.players = players  # White's and Black's names
        self.key = key  # the tags that tie the games of one match
        self.length = length
        self.number = number  # the Game tag
        self.score = score  # the score the record states before the game
        self.crawford_tag = crawford_tag  # what a Crawford tag states
        self.crawford_rule = crawford_rule  # "crawford=on" when judged so (as a finding names it), else None
        self.winner, self.points = winner, points
        self.line = line  # where the game starts
        self.end = end  # line and column of its result (or last action)
        self.cube = cube  # where the first cube action is, should the game be the Crawford game
        self.rules = rules
        self.ends_match = ends_match  # the record says so
        self.date = date  # the Date tag

    def _fields(self) -> tuple[Any, ...]:
        return (self.source, self.index, self.title, self.players, self.key, self.length, self.number, self.score,
                self.crawford_tag, self.crawford_rule, self.winner, self.points, self.line, self.end, self.cube,
                self.rules, self.ends_match, self.date)

    def at_cube(self, code: str, message: str) -> GameFinding:
        """A finding (or note) of the Crawford rule at the game's first cube action."""
        assert self.cube is not None
        turn, number, side, kind, line, column = self.cube
        return GameFinding(code, message, self.crawford_rule, turn=turn, move_number=number, side=side, action=kind,
                           line=line, column=column)

    @property
    def event(self) -> str:
        return self.key[2] or "?"  # as the game rows name a game without an Event tag

    @property
    def starts_match(self) -> bool:
        return is_first_game(self.number)


def match_game(source: str, index: int, record: GameRecord, result: GameReplay) -> MatchGame:
    """The :class:`MatchGame` of a replayed game."""
    tags, rules = record.tags, result.rules
    white, black = record.player(WHITE), record.player(BLACK)
    crawford = tags.get("Crawford", "").strip().lower()
    at = next((i for i, action in enumerate(record.actions) if action.kind in CUBE_KINDS), None)
    cube_at = None
    if at is not None:
        cube = record.actions[at]
        cube_at = (sum(1 for turn in result.turns if turn.action < at) + 1, cube.number, cube.side, cube.kind,
                   cube.line, cube.column)
    end_line = record.result_line or (record.actions[-1].line if record.actions else 0) or record.line
    length = match_length(tags.get("MatchLength"))
    return MatchGame(
        source=source, index=index, title=record.title(), players=(white, black),
        key=(source, tags.get("MatchID", ""), tags.get("Event", ""), tags.get("Round", ""),
             *sorted((white, black)), str(length)),
        length=length, number=tags.get("Game", ""),
        score=Score.parse(tags.get("Score")),
        crawford_tag=True if crawford in ("yes", "true") else False if crawford in ("no", "false") else None,
        crawford_rule=rules.describe("crawford") if rules is not None and rules.crawford == "on" else None,
        winner=result.winner, points=result.points, line=record.line, end=(end_line, record.result_column or 1),
        cube=cube_at, rules=result.rules_text,
        ends_match=record.ends_match, date=tags.get("Date", ""))


class Match:
    """One match as its games were read: who, how long, the score after each game.

    A plain class, not a dataclass: defining one compiles its generated methods at every start
    (see :class:`~nardy_cli.core.scores.Result`)."""

    def __init__(self, source: str, players: tuple[str, str], length: int, first_game: int, games: int = 0,
                 score: dict[str, int] | None = None, crawford_game: int | None = None, winner: str | None = None,
                 findings: int = 0, last: MatchGame | None = None, event: str = "", date: str = "") -> None:
        self.source = source
        self.players = players  # as the first game names them, White first
        self.length = length
        self.first_game = first_game  # the index in its input of the match's first game
        self.games = games
        self.score = score  # by player; None when a game's points are unknown
        self.crawford_game = crawford_game  # its number within the match (1-based)
        self.winner = winner  # a player's name
        self.findings = findings
        self.last = last
        self.event = event  # the Event tag of its games
        self.date = date  # the Date tag of its first game

    @property
    def complete(self) -> bool:
        return self.winner is not None

    def final_score(self) -> str:
        if self.score is None:
            return "?"
        return "-".join(str(self.score.get(name, 0)) for name in self.players)

    def row(self) -> dict[str, Any]:
        """The match as a row of ``matches.csv``."""
        return {"file": self.source, "first_game": self.first_game, "player1": self.players[0],
                "player2": self.players[1], "length": self.length, "games": self.games,
                "final_score": self.final_score(), "winner": self.winner, "complete": self.complete,
                "crawford_game": self.crawford_game, "findings": self.findings, "event": self.event,
                "date": self.date}


class MatchChecker:
    """Certifies the matches of games given in corpus order; money games are left alone (a plain
    class, as :class:`Match` is)."""

    def __init__(self) -> None:
        self.matches = 0
        self.complete = 0
        self.current: Match | None = None
        self.key: tuple[str, ...] | None = None
        self.crawford_played: bool | None = None  # None: no game of the match read yet
        self.finished: list[Match] = []  # ended matches not yet taken (see ended)

    def add(self, game: MatchGame) -> list[tuple[MatchGame, GameFinding]]:
        """The match findings of ``game``, after the note of a match that it shows to have ended
        unfinished."""
        found: list[tuple[MatchGame, GameFinding]] = []
        if game.length <= 0:
            found += self.close()
            return found
        if self.current is None or game.key != self.key or game.starts_match:
            found += self.close()
            self.start(game)
        match = self.current
        assert match is not None
        match.games += 1
        own = list(self.judge(match, game))
        match.findings += len(own)
        match.last = game
        return found + [(game, finding) for finding in own]

    def start(self, game: MatchGame) -> None:
        self.current = Match(game.source, game.players, game.length, game.index, event=game.event, date=game.date)
        self.key, self.crawford_played = game.key, None
        self.matches += 1

    def judge(self, match: Match, game: MatchGame) -> Iterator[GameFinding]:
        white, black = game.players
        by_side = white != black  # with two names alike the score is kept by side
        names = (white, black) if by_side else (WHITE, BLACK)
        if match.winner is not None:
            yield _at_start(game, "after-match", f"the match was already over: {match.winner} won it "
                                                     f"{match.final_score()} in game {match.games - 1}")
            return
        stated = game.score
        score_wrong = False
        if match.score is None or match.games == 1:
            start = stated or Score()
        else:
            start = Score(match.score.get(names[0], 0), match.score.get(names[1], 0))
            if stated is not None and stated != start:
                score_wrong = True
                yield _at_start(game, "score", f"the score before this game is stated as {stated} but the "
                                                   f"games before give {start}")
        inferred = is_crawford_game(start, game.length, crawford_played=self.crawford_played)
        crawford = inferred
        if game.crawford_tag is not None and game.crawford_tag != inferred:
            if score_wrong or inferred is None:
                crawford = game.crawford_tag
            else:
                yield _at_start(game, "crawford", f"tagged as {'' if game.crawford_tag else 'not '}the Crawford "
                                                      f"game, but at {start} in a {game.length}-point match it is "
                                                      f"{'' if inferred else 'not '}the Crawford game")
        if crawford:
            match.crawford_game = match.games
            if game.crawford_rule and game.cube is not None:
                yield game.at_cube("cube", "no doubling in the Crawford game")
        elif crawford is None and game.crawford_rule and game.cube is not None:
            yield game.at_cube("note", f"the record begins the match at {start} in a {game.length}-point match, "
                                       f"where the Crawford game may be over: the cube action is taken to show that "
                                       f"it is")
        self.crawford_played = crawford_over(start, game.length, crawford_played=self.crawford_played,
                                             crawford=crawford)
        if game.winner is None or game.points is None:
            match.score = None
            return
        end = start.plus(game.winner, game.points)
        match.score = {names[0]: end.white, names[1]: end.black}
        if end.of(game.winner) >= game.length:
            match.winner = game.players[0 if game.winner == WHITE else 1] if by_side else game.winner
        elif game.ends_match:
            yield GameFinding("match-result", f"the record says this game won the match, but the score after it is "
                                              f"{end} in a {game.length}-point match", line=game.end[0],
                              column=game.end[1], action="result")

    def close(self) -> list[tuple[MatchGame, GameFinding]]:
        """End the current match: a note that it is unfinished, if nobody won it (a player may leave a
        match on a server: that is no fault of the record)."""
        match, self.current, self.key = self.current, None, None
        if match is None:
            return []
        self.finished.append(match)
        if match.complete:
            self.complete += 1
            return []
        last = match.last
        assert last is not None
        where = f"at {match.final_score()}" if match.score is not None else "with a game of unknown points"
        return [(last, GameFinding("note", f"unfinished match: it ends {where} and nobody reached "
                                   f"{match.length} points", line=last.end[0], column=last.end[1],
                                   action="result"))]

    def ended(self) -> list[Match]:
        """The matches ended since the last call."""
        done, self.finished = self.finished, []
        return done


def _at_start(game: MatchGame, code: str, message: str) -> GameFinding:
    """A finding about a whole game of a match, at the line where the game starts."""
    return GameFinding(code, message, line=game.line, column=1)

