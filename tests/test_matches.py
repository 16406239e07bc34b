"""Real records read right: the server dialects of the MAT reader, results and scores, and the
certification of whole matches (score lines, the Crawford game, the end of a match)."""
from __future__ import annotations

import json
import re
import subprocess

import pytest
from click.testing import CliRunner

from nardy_cli.cli.main import cli
from nardy_cli.core.scores import Result, Score, crawford_over, is_crawford_game, point_readings
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.notations import mat
from nardy_cli.replay import replay

OPENING = ("31: 8/5 6/5", "64: 24/18 13/9")  # a legal first exchange of short nardy


def row(number: int, left: str = "", right: str = "") -> str:
    """A numbered MAT line laid out as GNU Backgammon writes it."""
    return f"{number:3d}) {left:<27} {right}".rstrip()


def game(number: int, score: tuple[int, int], *lines: str, players: tuple[str, str] = ("Anna", "Boris")) -> str:
    return "\n".join([f" Game {number}", f" {players[0]} : {score[0]}".ljust(32) + f"{players[1]} : {score[1]}",
                      *lines, ""])


def match(length: int, *games: str) -> str:
    return f"; [Site \"Test\"]\n\n {length} point match\n\n" + "\n".join(games)


WHITE_WINS = "      Wins {} point{}"
BLACK_WINS = " " * 34 + "Wins {} point{}"


def wins(side: str, points: int, match_won: bool = False) -> str:
    return (WHITE_WINS if side == WHITE else BLACK_WINS).format(points, "s" if points > 1 else "") + \
        (" and the match" if match_won else "")


def resigned(number: int, score: tuple[int, int], winner: str, points: int, *, double: bool = False,
             match_won: bool = False) -> str:
    """A game of the opening exchange (and a double, taken), then a resignation."""
    lines = [row(1, OPENING[0], OPENING[1])]
    if double:
        lines.append(row(2, " Doubles => 2", " Takes"))
    return game(number, score, *lines, wins(winner, points, match_won))


def validate(tmp_path, text: str, *options: str) -> tuple[int, dict]:
    path = tmp_path / "match.mat"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(path), "--format", "json", "--jobs", "1", *options])
    return result.exit_code, json.loads(result.stdout)


def codes(report: dict) -> list[tuple[str, int, int]]:
    return [(finding["code"], finding["game"], finding["line"]) for finding in report["findings"]]


# --- the values: results, scores, the Crawford game -------------------------------------------


def test_results_and_scores_parse_and_print_one_way():
    assert Result.parse("0-3") == Result(BLACK, 3) and str(Result(BLACK, 3)) == "0-3"
    assert Result.parse("1/2-1/2") == Result(None) and str(Result(None)) == "1/2-1/2"
    assert Result.parse("2-2") is None and Result.parse("*") is None and Result.parse("1-0x") is None
    assert Score.parse(" 3 - 1 ") == Score(3, 1) and Score(3, 1).plus(BLACK, 2) == Score(3, 3)


@pytest.mark.parametrize(("score", "played", "expected"), [
    (Score(4, 2), False, True), (Score(2, 4), False, True), (Score(4, 4), False, False),  # double match point
    (Score(4, 3), True, False), (Score(3, 3), False, False), (Score(5, 2), False, False)])
def test_the_crawford_game(score, played, expected):
    assert is_crawford_game(score, 5, crawford_played=played) is expected


@pytest.mark.parametrize(("score", "expected"), [
    (Score(4, 0), True), (Score(0, 4), True),  # the side behind has won nothing since the leader got to 4
    (Score(4, 2), None), (Score(2, 4), None),  # the side behind may have won the Crawford game and more
    (Score(4, 4), False), (Score(3, 1), False), (Score(0, 0), False)])
def test_the_crawford_game_of_a_record_that_begins_mid_match(score, expected):
    assert is_crawford_game(score, 5, crawford_played=None) is expected
    over = crawford_over(score, 5, crawford_played=None, crawford=expected)
    assert over is (max(score.white, score.black) >= 4)


def test_point_readings_of_servers():
    # a backgammon on a 2-cube (6 points) won at 1-4 of a 5-point match: 6, the 4 needed, or 5 (the length)
    assert set(point_readings(6, 1, 5)) == {6, 4, 5}
    assert point_readings(2, 0, 0) == (2,)  # money play: the full value only


# --- dialects -----------------------------------------------------------------------------------


def test_capped_points_are_accepted_and_impossible_points_are_not(tmp_path):
    for points, found in ((6, []), (4, []), (5, []), (3, ["result"]), (4016, ["result"])):
        text = match(5, resigned(1, (1, 3), WHITE, points, double=True, match_won=True))
        status, report = validate(tmp_path, text)
        assert [code for code, *_ in codes(report)] == found, points
        assert status == (1 if found else 0)
    assert "more than a game on a 2-cube can be worth (6 points)" in report["findings"][0]["message"]


def test_impossible_points_are_never_counted_in_stats(tmp_path):
    path = tmp_path / "studio.mat"
    path.write_text(match(7, resigned(1, (0, 0), WHITE, 4016)), encoding="utf-8")
    (record,) = mat.read_games(path.read_text().splitlines(True), str(path))
    result = replay(record)
    assert result.points is None and [f.code for f in result.findings] == ["result"]


def test_losses_at_column_one_yields_to_the_wins_line(tmp_path):
    text = match(3, game(1, (0, 0), row(1, OPENING[0], OPENING[1]), "Losses 3 point", wins(WHITE, 3, True)))
    (record,) = mat.read_games(text.splitlines(True), "m")
    assert record.result == "3-0" and not record.errors
    assert [note.message for note in record.notes] == [
        "'Losses 3 point' ignored: the 'Wins' line on line 9 gives the game to White (3 points)"]
    status, report = validate(tmp_path, text)
    assert status == 0 and report["findings"] == [] and report["notes"][0]["code"] == "note"


def test_a_lone_losses_line_keeps_its_meaning():
    text = match(3, game(1, (0, 0), row(1, OPENING[0], OPENING[1]), BLACK_WINS.replace("Wins", "Losses")
                         .format(1, "")))
    (record,) = mat.read_games(text.splitlines(True), "m")
    assert record.result == "1-0" and not record.notes  # Black lost one point


def test_a_row_glued_onto_a_move_line():
    glued = (f" {row(2, '43: 8/4 6/3').strip()}              2)  Losses 2 point"
             "                      Wins 2 point and the match")
    text = match(5, game(1, (3, 0), row(1, OPENING[0], OPENING[1]), glued))
    (record,) = mat.read_games(text.splitlines(True), "m")
    assert not record.errors and record.result == "0-2"
    assert [a.dice for a in record.actions if a.kind == "roll"] == [(3, 1), (6, 4), (4, 3)]


def ntn_game(result: str, *tags: str) -> str:
    """White bears off the last checker; Black, all 15 on his 13, bore off none: a gammon."""
    return "\n".join(['[White "Anna"]', '[Black "Boris"]', '[Variant "short"]', '[Position "short w 1 13x15"]',
                      *tags, f'[Result "{result}"]', "", f"1. 21: 1/off {result}", ""])


@pytest.mark.parametrize(("result", "tags", "findings", "notes"), [
    ("2-0", (), [], []),
    ("1-0", (), [], ["1 point declared for a gammon (mars) on an unturned cube: consistent with jacoby=on"]),
    ("1-0", ('[Rules "short jacoby=off"]',), ["result"], []),  # the record states the option: no excuse
    ("3-0", (), ["result"], [])])
def test_an_undeclared_rule_explaining_the_result_is_a_note(tmp_path, result, tags, findings, notes):
    path = tmp_path / "gammon.ntn"
    path.write_text(ntn_game(result, '[MatchLength "16"]', *tags), encoding="utf-8")
    run = CliRunner().invoke(cli, ["validate", str(path), "--format", "json", "--jobs", "1"])
    report = json.loads(run.stdout)
    assert [finding["code"] for finding in report["findings"]] == findings
    assert [note["message"] for note in report["notes"] if not note["message"].startswith("unfinished")] == notes
    assert run.exit_code == (1 if findings else 0)


@pytest.mark.parametrize(("result", "option"), [("1-0", None), ("2-0", "jacoby=on")])
def test_a_result_the_jacoby_rule_decides_names_it(tmp_path, result, option):
    path = tmp_path / "money.ntn"
    path.write_text(ntn_game(result, '[Rules "short jacoby=on"]'), encoding="utf-8")  # money play: no MatchLength
    report = json.loads(CliRunner().invoke(cli, ["validate", str(path), "--format", "json", "-j", "1"]).stdout)
    assert [finding["option"] for finding in report["findings"]] == ([] if option is None else [option])


# --- matches ----------------------------------------------------------------------------------


def test_a_legal_match_at_double_match_point_is_clean(tmp_path):
    text = match(3, resigned(1, (0, 0), WHITE, 2), resigned(2, (2, 0), BLACK, 1),
                 resigned(3, (2, 1), BLACK, 2, double=True, match_won=True))
    status, report = validate(tmp_path, text)
    assert (status, report["findings"], report["matches"], report["complete_matches"]) == (0, [], 1, 1)


def test_a_one_game_file_at_double_match_point_may_double(tmp_path):
    status, report = validate(tmp_path, match(5, resigned(1, (4, 4), WHITE, 2, double=True, match_won=True)))
    assert (status, report["findings"]) == (0, [])


def test_a_double_in_the_crawford_game(tmp_path):
    text = match(3, resigned(1, (0, 0), WHITE, 2), resigned(2, (2, 0), BLACK, 2, double=True),
                 resigned(3, (2, 2), WHITE, 2, double=True, match_won=True))
    status, report = validate(tmp_path, text)
    (finding,) = report["findings"]
    assert (status, finding["code"], finding["game"], finding["option"], finding["line"]) == (1, "cube", 2,
                                                                                              "crawford=on", 13)
    status, report = validate(tmp_path, text, "--rule", "crawford=off")
    assert (status, report["findings"]) == (0, [])


def test_a_file_that_begins_a_match_after_its_crawford_game_may_have_been_played(tmp_path):
    text = match(5, resigned(1, (4, 2), BLACK, 2, double=True), resigned(2, (4, 4), WHITE, 2, double=True,
                                                                             match_won=True))
    status, report = validate(tmp_path, text)
    (note,) = report["notes"]
    assert (status, report["findings"], note["line"], note["option"]) == (0, [], 8, "crawford=on")
    assert note["message"] == ("the record begins the match at 4-2 in a 5-point match, where the Crawford game may "
                               "be over: the cube action is taken to show that it is")
    status, report = validate(tmp_path, match(5, resigned(1, (4, 0), BLACK, 2, double=True)))
    assert status == 1 and codes(report) == [("cube", 1, 8)]  # at 4-0 it is the Crawford game
    crawford_tag = ntn_game("4-0", '[MatchLength "5"]', '[Score "2-4"]', '[Crawford "yes"]')
    path = tmp_path / "tagged.ntn"
    path.write_text(crawford_tag.replace("1. 21: 1/off", "1. double 2\n1... take\n2. 21: 1/off"), encoding="utf-8")
    run = CliRunner().invoke(cli, ["validate", str(path), "--format", "json", "--jobs", "1"])
    assert [finding["code"] for finding in json.loads(run.stdout)["findings"]] == ["cube"]  # the tag tells


def test_a_wrong_score_line(tmp_path):
    text = match(5, resigned(1, (0, 0), WHITE, 1), resigned(2, (0, 1), BLACK, 1),
                 resigned(3, (1, 1), WHITE, 4, double=True, match_won=True))
    status, report = validate(tmp_path, text)
    assert status == 1 and codes(report) == [("score", 2, 10)]
    assert report["findings"][0]["message"] == ("the score before this game is stated as 0-1 but the games "
                                                "before give 1-0")


def test_a_game_after_the_match_is_won(tmp_path):
    text = match(3, resigned(1, (0, 0), WHITE, 3, match_won=True), resigned(2, (3, 0), BLACK, 1))
    status, report = validate(tmp_path, text)
    assert status == 1 and [code for code, *_ in codes(report)] == ["after-match"]


def test_an_unfinished_match_is_a_note(tmp_path):
    result = CliRunner().invoke(cli, ["validate", "--jobs", "1", str(tmp_path / "m.mat")])
    (tmp_path / "m.mat").write_text(match(5, resigned(1, (0, 0), WHITE, 1)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", "--jobs", "1", str(tmp_path / "m.mat")])
    assert result.exit_code == 0
    assert "note: unfinished match: it ends at 1-0 and nobody reached 5 points" in result.stdout
    assert "1 match (0 complete)" in result.stdout and "1 note" in result.stdout


@pytest.mark.slow
def test_the_real_corpus_has_no_finding(corpora):
    result = CliRunner().invoke(cli, ["validate", "--jobs", "1", "-q", str(corpora)])
    assert result.exit_code == 0 and " 0 findings" in result.stdout, result.stdout


# --- resignations through SGF, names through MAT ---------------------------------------------

CAPPED_GAMMON = match(5, resigned(1, (2, 0), WHITE, 3, double=True, match_won=True))  # a gammon (4) capped at 3


def sgf_of(mat_text: str) -> str:
    import io

    from nardy_cli.notations import sgf

    out = io.StringIO()
    sgf.write_games(list(mat.read_games(mat_text.splitlines(True), "m")), out)
    return out.getvalue()


def test_a_capped_resignation_is_written_at_its_level_and_read_back_as_stated():
    from nardy_cli.notations import sgf

    text = sgf_of(CAPPED_GAMMON)
    assert "RE[W+4R]" in text and "[Result:3-0]" in text
    (record,) = sgf.read_games(text.splitlines(True))
    (original,) = mat.read_games(CAPPED_GAMMON.splitlines(True), "m")
    assert record.result == original.result == "3-0"
    assert [(a.kind, a.value) for a in record.actions if a.kind == "resign"] == [("resign", 3)]


def test_gnubg_reads_the_intended_resignation_level(gnubg, tmp_path):
    from nardy_cli.notations import sgf

    ours, theirs = tmp_path / "capped.sgf", tmp_path / "gnubg.sgf"
    ours.write_text(sgf_of(CAPPED_GAMMON), encoding="utf-8")
    run = subprocess.run([gnubg, "-t", "-q"], input=f'load match "{ours}"\nsave match "{theirs}"\n',
                         capture_output=True, text=True, timeout=60)
    assert not re.search(r"(?i)warning|error", run.stdout + run.stderr)
    (saved,) = sgf.read_games(theirs.read_text(encoding="utf-8").splitlines(True))
    assert saved.result == "4-0" and saved.tags.get("Termination") == "resign"  # a gammon, not a single


def test_an_empty_name_is_never_written_to_mat():
    import io

    records = list(mat.read_games(match(3, resigned(1, (0, 0), WHITE, 1)).splitlines(True), "m"))
    records[0].tags["White"] = ""
    out = io.StringIO()
    warnings = mat.write_games(records, out)
    assert " White : 0" in out.getvalue()
    assert warnings == ["game 1 ( – Boris): White's name is empty; written as 'White'"]


def test_a_match_won_too_early(tmp_path):
    text = match(5, resigned(1, (0, 0), WHITE, 1, match_won=True), resigned(2, (1, 0), WHITE, 4, double=True,
                                                                             match_won=True))
    status, report = validate(tmp_path, text)
    assert status == 1 and [code for code, *_ in codes(report)] == ["match-result"]
    assert report["findings"][0]["message"] == ("the record says this game won the match, but the score after it "
                                                "is 1-0 in a 5-point match")


def test_a_match_given_up_is_a_note(tmp_path):
    # a server that ends a match on a timeout awards the points the winner needs
    status, report = validate(tmp_path, match(7, resigned(1, (1, 0), WHITE, 6, match_won=True)))
    assert (status, report["findings"]) == (0, [])
    assert report["notes"][0]["message"] == ("6 points declared: more than a game on a 1-cube is worth, but exactly "
                                             "what White needed to win the match (a match given up or lost on time?)")


def test_a_game_scored_by_an_unstated_rule_counts_its_declared_points_in_the_match(tmp_path):
    first = ntn_game("1-0", '[MatchLength "16"]', '[Game "1"]', '[Score "0-0"]')
    second = ntn_game("1-0", '[MatchLength "16"]', '[Game "2"]', '[Score "1-0"]')
    path = tmp_path / "session.ntn"
    path.write_text(first + "\n" + second, encoding="utf-8")
    report = json.loads(CliRunner().invoke(cli, ["validate", str(path), "--format", "json", "--jobs", "1"]).stdout)
    assert report["findings"] == [] and len(report["notes"]) == 3  # two Jacoby notes, the match unfinished


@pytest.mark.parametrize("number", ["1", "01", " 1 "])
def test_a_game_numbered_one_starts_another_match_however_the_number_is_written(tmp_path, number):
    first = ntn_game("2-0", '[MatchLength "16"]', '[Game "1"]', '[Score "0-0"]')
    again = ntn_game("2-0", '[MatchLength "16"]', f'[Game "{number}"]', '[Score "0-0"]')
    path = tmp_path / "two.ntn"
    path.write_text(first + "\n" + again, encoding="utf-8")
    report = json.loads(CliRunner().invoke(cli, ["validate", str(path), "--format", "json", "--jobs", "1"]).stdout)
    assert report["findings"] == [] and report["matches"] == 2


MATCH_MESSAGES = [
    "the score before this game is stated as 0-1 but the games before give 1-0",
    "tagged as the Crawford game, but at 3-1 in a 5-point match it is not the Crawford game",
    "tagged as not the Crawford game, but at 4-1 in a 5-point match it is the Crawford game",
    "the match was already over: Анна won it 3-0 in game 1",
    "the record says this game won the match, but the score after it is 1-0 in a 5-point match",
    "unfinished match: it ends at 3-1 and nobody reached 5 points",
    "unfinished match: it ends with a game of unknown points and nobody reached 5 points",
    "1 point declared for a gammon (mars) on an unturned cube: consistent with jacoby=on",
    "4 points declared for a backgammon (koks) on a 2-cube: consistent with scoring=oin-mars-koks",
    "6 points declared: more than a game on a 1-cube is worth, but exactly what White needed to win the match "
    "(a match given up or lost on time?)",
    "declared 4016-0: 4016 points is more than a game on a 1-cube can be worth (3 points)",
    "declared 0-5: no game on a 2-cube is worth 5 points",
    "'Losses 3 point' ignored: the 'Wins' line on line 9 gives the game to White (3 points)",
]


@pytest.mark.parametrize("message", MATCH_MESSAGES)
def test_match_findings_and_notes_are_in_russian(message):
    from test_russian import english_left

    from nardy_cli.reporting import russian

    translated = russian.message(message)
    assert translated != message and english_left(translated.replace("jacoby=on", "")
                                                  .replace("scoring=oin-mars-koks", "")) == [], translated


def test_certifying_keeps_no_match_it_has_counted(corpora):
    """A corpus of a match a file: the matches that ended are counted as they end, not kept."""
    from nardy_cli.analysis.validate import Certification, validate_games, validated
    from nardy_cli.run.corpus import iter_games

    paths = sorted(str(path) for path in (corpora / "bglab-sample").glob("*.txt"))[:20]
    certification = Certification()
    for _ in certification.certified(validated(game, result)
                                     for game, result in validate_games(iter_games(paths, on_error=pytest.fail))):
        assert len(certification.checker.finished) == 0
    assert certification.summary.as_dict()["matches"] == 20
