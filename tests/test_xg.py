"""eXtreme Gammon's binary .xg files (issue 14): the real files of the shared corpus read the same
games as their .mat twins, validate clean, convert to MAT files GNU Backgammon imports with the
same games, keep comments and XG's analysis; bad files give a clear error, never a traceback."""
from __future__ import annotations

import io
import json
import re
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from locations import CORPORA, ROOT, corpus_files
from nardy_cli import notations
from nardy_cli.analysis import exports
from nardy_cli.cli.main import cli
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.files.sources import iter_sources
from nardy_cli.notations import mat, sgf, xg
from nardy_cli.notations.jsonl import game_to_dict
from nardy_cli.record import Evaluation, GameRecord, InputError
from nardy_cli.replay import replay
from nardy_cli.run.corpus import read_source

XG_DIR = CORPORA / "xg" if CORPORA else None
XG_FILES = corpus_files("xg/*.xg")
HSBT = "hsbt-paris-2023-unger-job-7pt.xg"
CHARLOT = "charlot1-charlot2_7p_2025-11-08-2305.xg"
TWINS = {HSBT: "tournament/kevung_gbf__test_HSBT-Paris-2023_Unger-Job_7pt.mat",
         CHARLOT: "xg/charlot1-charlot2_7p_2025-11-08-2305.mat"}

needs_corpus = pytest.mark.skipif(not XG_FILES, reason="the shared corpus of .xg files is not here")


def read_xg(name: str) -> list[GameRecord]:
    assert XG_DIR is not None  # the tests that read them need the corpus
    path = XG_DIR / name
    return list(xg.read_games(io.BytesIO(path.read_bytes()), str(path)))


def read_path(path: Path | str) -> list[GameRecord]:
    return list(read_source(next(iter_sources([str(path)]))))


def same_game(games: list[GameRecord]) -> list:
    """Players, match tags, every roll, play (as the position after it), cube action, resignation, result."""
    kept = ("White", "Black", "MatchLength", "Game", "Score", "Variant", "Crawford", "Termination")
    return [({k: game.tags.get(k) for k in kept}, game.result,
             [(a.side, a.kind, a.dice, a.value) for a in game.actions],
             [(turn.after.white, turn.after.black) for turn in replay(game).turns]) for game in games]


# --- the real files ------------------------------------------------------------------------------


@needs_corpus
@pytest.mark.parametrize("name", TWINS)
def test_an_xg_file_gives_the_games_of_its_mat_twin(name):
    assert CORPORA is not None  # needs_corpus skips the test without them
    assert same_game(read_xg(name)) == same_game(read_path(CORPORA / TWINS[name]))


@needs_corpus
@pytest.mark.parametrize("path", XG_FILES, ids=lambda path: path.name)
def test_every_real_file_validates_clean(path):
    games = read_xg(path.name)
    assert games
    assert [error for game in games for error in game.errors] == []
    assert [finding for game in games for finding in replay(game).findings] == []
    assert all(game.result for game in games)


@needs_corpus
def test_the_match_header_becomes_tags():
    first = read_xg(HSBT)[0]
    assert {tag: first.tags[tag] for tag in ("White", "Black", "Event", "Site", "Round", "Date", "Time",
                                             "MatchLength", "CrawfordRule", "Jacoby", "Beaver", "CubeLimit",
                                             "Annotator", "Game", "Score", "Variant")} == {
        "White": "Kévin Unger", "Black": "Maxence Job", "Event": "HSBT Paris 2023",
        "Site": "Paris, Fédération Française de Bridge", "Round": "Tableau Or 2", "Date": "2023.11.26",
        "Time": "09.30", "MatchLength": "7", "CrawfordRule": "On", "Jacoby": "Off", "Beaver": "Off",
        "CubeLimit": "1024", "Annotator": "Kévin Unger", "Game": "1", "Score": "0-0", "Variant": "short"}


@needs_corpus
def test_the_crawford_game_is_marked():
    crawford = [game.tags["Game"] for game in read_xg(CHARLOT) if game.tags.get("Crawford") == "yes"]
    assert crawford == ["4"]


@needs_corpus
def test_comments_are_plain_text_on_their_move():
    commented = [(game.tags["Game"], action.side, action.dice, action.comments)
                 for game in read_xg("match_with_comment.xg") for action in game.actions if action.comments]
    assert commented == [("1", WHITE, (5, 4), ["coup assez difficile"]),
                         ("1", WHITE, (6, 6), ["les double 66 sont toujpurs difficiles à trouver"])]


@needs_corpus
def test_analysis_of_a_checker_play_and_a_cube_action():
    game = read_xg(HSBT)[0]
    eleven = game.actions[3]
    assert (eleven.side, eleven.dice) == (BLACK, (1, 1))
    cube, move = eleven.analysis
    assert (move.decision, move.level, move.played, move.best, move.luck) == (
        "move", "XGRoller++", -0.267778, -0.211639, -0.034544)
    assert move.lost == pytest.approx(0.056139)
    assert cube.decision == "cube" and cube.lost == 0
    double, drop = game.actions[-2:]
    assert (double.kind, drop.kind) == ("double", "drop")
    assert [(e.decision, e.played, e.best) for e in double.analysis] == [("cube", 1.0, 1.0)]
    assert [(e.decision, e.played, e.best) for e in drop.analysis] == [("take", -1.0, -1.0)]


# --- GNU Backgammon as judge -----------------------------------------------------------------------


def gnubg_games(gnubg: str, tmp_path: Path, mat_file: Path) -> list[GameRecord]:
    """The games of ``mat_file`` as GNU Backgammon imports them (saved again as SGF and read back)."""
    saved = tmp_path / f"{mat_file.stem}.gnubg.sgf"
    commands = tmp_path / f"{mat_file.stem}.commands"
    commands.write_text(f'set display off\nimport mat "{mat_file}"\nsave match "{saved}"\n')
    run = subprocess.run([gnubg, "-t", "-q", "-r", "-c", str(commands)], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=120, check=False)
    assert saved.exists(), run.stdout + run.stderr
    with saved.open(encoding="utf-8") as lines:
        return list(sgf.read_games(lines))


def gnubg_view(games: list[GameRecord]) -> list:
    """What GNU Backgammon's import keeps of a match: players, rolls, positions, cube actions, results."""
    return [((game.tags.get("White"), game.tags.get("Black"), game.tags.get("MatchLength")), game.result,
             [(a.side, a.kind, a.dice) for a in game.actions if a.kind != "resign"],
             [(turn.after.white, turn.after.black) for turn in replay(game).turns]) for game in games]


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("path", XG_FILES, ids=lambda path: path.name)
def test_gnubg_imports_the_mat_conversion_with_the_same_games(gnubg, tmp_path, path):
    games = read_xg(path.name)
    converted = tmp_path / f"{path.stem}.mat"
    with converted.open("w", encoding="utf-8") as out:
        warnings = mat.write_games(games, out)
    assert all(warning.endswith(("comments dropped: MAT has no comments", "analysis dropped: MAT has no analysis"))
               for warning in warnings)
    imported = gnubg_games(gnubg, tmp_path, converted)
    assert gnubg_view(imported) == gnubg_view(games)
    if path.name in TWINS:
        assert CORPORA is not None  # needs_corpus skips the test without them
        assert gnubg_view(imported) == gnubg_view(gnubg_games(gnubg, tmp_path, CORPORA / TWINS[path.name]))


# --- the command line ------------------------------------------------------------------------------


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("options", [[], ["--jobs", "2"]], ids=["sequential", "two workers"])
def test_every_command_takes_xg_files(runner, tmp_path, options):
    assert XG_DIR is not None  # needs_corpus skips the test without them
    validated = runner.invoke(cli, ["validate", *options, str(XG_DIR)])
    assert validated.exit_code == 0, validated.output
    assert f"{len(XG_FILES) + 2} files" in validated.output and " 0 findings" in validated.output
    for target in ("ntn", "mat", "sgf", "json", "jsonl", "csv"):
        out = tmp_path / f"match.{target}"
        converted = runner.invoke(cli, ["convert", *options, "--to", target, "-o", str(out), str(XG_DIR / HSBT)])
        assert converted.exit_code == 0, converted.output
        assert out.stat().st_size > 0
    assert runner.invoke(cli, ["stats", *options, str(XG_DIR / HSBT)]).exit_code == 0
    shown = runner.invoke(cli, ["show", str(XG_DIR / HSBT)])
    assert shown.exit_code == 0 and "White" in shown.output


@needs_corpus
def test_standard_input_is_read_when_named():
    assert XG_DIR is not None  # needs_corpus skips the test without them
    data = (XG_DIR / HSBT).read_bytes()
    result = CliRunner().invoke(cli, ["validate", "--from", "xg", "-"], input=data)
    assert result.exit_code == 0 and "7 games" in result.output
    unnamed = CliRunner().invoke(cli, ["validate", "-"], input=data)
    assert unnamed.exit_code == 2 and "add --from xg" in unnamed.stderr


# --- bad input ------------------------------------------------------------------------------------


def record(kind: int, fields: dict[int, bytes] | None = None) -> bytes:
    """A 2,560-byte record of type ``kind`` with ``fields`` (offset: bytes) set."""
    data = bytearray(xg.RECORD_BYTES)
    data[8] = kind
    for offset, value in (fields or {}).items():
        data[offset:offset + len(value)] = value
    return bytes(data)


def pack(records: list[bytes], comments: bytes | None = None) -> bytes:
    """An XG container holding ``records`` (and ``comments``), as eXtreme Gammon lays it out."""
    header = bytearray(8232)
    header[:12] = b"RGMH" + struct.pack("<II", 1, 8232)
    games = b"".join(records)
    members = [("temp.xg", games), ("temp.xgi", games[:xg.RECORD_BYTES] + games[-xg.RECORD_BYTES:])]
    if comments is not None:
        members.append(("temp.xgc", comments))
    body, directory = b"", b""
    for name, content in members:
        packed = zlib.compress(content)
        entry = bytes([len(name)]) + name.encode().ljust(255, b"\0") + bytes(256)
        directory += entry + struct.pack("<iiiIB3x", len(content), len(packed), len(body), zlib.crc32(content), 0)
        body += packed
    packed_directory = zlib.compress(directory)
    archive = body + packed_directory
    trailer = struct.pack("<IiiiiB", 0, len(members), 1, len(packed_directory), len(body), 1).ljust(36, b"\0")
    trailer = struct.pack("<I", zlib.crc32(archive)) + trailer[4:]
    return bytes(header) + archive + trailer


def start_position() -> bytes:
    points = [0] * 26
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        points[point] = count
    for point, count in ((1, 2), (12, 5), (17, 3), (19, 5)):
        points[point] = -count
    return struct.pack("<26b", *points)


def match_header(variation: int = 0) -> bytes:
    return record(0, {9: b"\x05Alice", 50: b"\x03Bob", 92: struct.pack("<ii", 3, variation), 552: struct.pack("<i", 1)})


def game_header(number: int) -> bytes:
    return record(1, {48: struct.pack("<i", number), 56: struct.pack("<ii", -1, -1)})


def move(side: int, dice: tuple[int, int], legs: tuple[int, ...], position: bytes | None = None) -> bytes:
    legs = legs + (-1,) * (8 - len(legs))
    return record(3, {9: position or start_position(), 64: struct.pack("<i9i", side, *legs[:8], dice[0])[:36],
                      100: struct.pack("<ii", *dice), 2312: struct.pack("<dd", -1000, -1000),
                      2524: struct.pack("<i", -1)})


def footer(winner: int, points: int, termination: int) -> bytes:
    return record(4, {24: struct.pack("<iii", winner, points, termination)})


def game(number: int) -> list[bytes]:
    """A short game: White plays 31 (8/5 6/5), then resigns a single game."""
    return [game_header(number), move(1, (3, 1), (7, 4, 5, 4)), footer(-1, 1, 101)]


def read_bytes(data: bytes, name: str = "made.xg") -> tuple[list[GameRecord], list[str]]:
    """The games read from ``data`` before any error, and the error."""
    games: list[GameRecord] = []
    try:
        games.extend(xg.read_games(io.BytesIO(data), name))
    except InputError as error:
        return games, [str(error)]
    return games, []


def test_a_made_file_reads_and_validates():
    games, errors = read_bytes(pack([match_header(), *game(1), *game(2), record(5)]))
    assert errors == []
    assert [(g.tags["White"], g.tags["Black"], g.tags["Game"], g.result, g.tags["Termination"]) for g in games] == [
        ("Alice", "Bob", "1", "0-1", "resign"), ("Alice", "Bob", "2", "0-1", "resign")]
    assert [str(m) for m in games[0].actions[0].moves or ()] == ["8/5", "6/5"]
    assert all(replay(g).findings == [] for g in games)


def test_a_wrong_magic_number_is_named():
    data = bytearray(pack([match_header(), *game(1)]))
    data[:4] = b"RIFF"
    assert read_bytes(bytes(data))[1] == [
        "made.xg: not an eXtreme Gammon file: expected it to begin with 'RGMH', found b'RIFF'"]


@pytest.mark.parametrize("keep", [0.999, 0.9, 0.6, 0.3, 8300 / 12000])
def test_a_file_cut_short_keeps_the_games_before(keep):
    data = pack([match_header(), *game(1), *game(2), *game(3), record(5)])
    games, errors = read_bytes(data[:int(len(data) * keep)])
    assert len(errors) == 1 and errors[0].startswith("made.xg: ") and "cut short" in errors[0]
    assert [g.tags["Game"] for g in games] == ["1", "2", "3"][:len(games)]


def test_corrupt_zlib_data_is_named_and_the_games_before_kept():
    records = [match_header()] + [r for number in range(1, 40) for r in game(number)] + [record(5)]
    data = bytearray(pack(records))
    middle = 8232 + len(zlib.compress(b"".join(records))) // 2
    data[middle:middle + 16] = bytes(16)
    games, errors = read_bytes(bytes(data))
    assert len(errors) == 1 and "made.xg" in errors[0] and "damaged" in errors[0]
    assert 0 < len(games) < 39


def test_an_unknown_record_type_is_an_error_on_its_game():
    games, errors = read_bytes(pack([match_header(), game_header(1), record(9), *game(1)[1:], *game(2)]))
    assert errors == []
    assert [str(error) for error in games[0].errors] == [
        "3:1: record 3: unknown record type 9: expected 0-6 (match/game header, cube, move, footer)"]
    assert games[1].errors == []


def test_an_impossible_position_is_an_error_naming_the_record():
    crowded = struct.pack("<26b", 0, *([1] * 20), 0, 0, 0, 0, 0)
    records = [match_header(), game_header(1), move(1, (3, 1), (7, 4, 5, 4), crowded), footer(-1, 1, 101)]
    games, errors = read_bytes(pack(records))
    assert errors == []
    assert [error.message for error in games[0].errors] == [(
        "record 3: impossible position before the move: 20 and 0 checkers (at most 15 a side), or a side's "
        "checkers on the other's bar")]
    assert replay(games[0]).findings


@pytest.mark.parametrize("variation, name", [(2, "Hypergammon"), (3, "Longgammon")])
def test_a_match_of_another_variation_is_refused_by_name(variation, name):
    games, errors = read_bytes(pack([match_header(variation), *game(1)]))
    assert games == []
    assert errors == [(f"made.xg: record 1: the match is {name}, not backgammon: nardy reads only backgammon "
                       "and Nackgammon (short nardy) from XG files")]


def nackgammon_position() -> bytes:
    points = [0] * 26
    for point, count in ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)):
        points[point], points[25 - point] = count, -count
    return struct.pack("<26b", *points)


def test_a_nackgammon_match_is_short_nardy_from_its_start_as_gnubg_s_files_are_read():
    """Nackgammon (variation 1) was refused whole; GNU Backgammon's MAT and SGF of it are read as
    short nardy from the Nackgammon start, and so is XG's."""
    start = nackgammon_position()
    nack = [record(1, {21: start, 48: struct.pack("<i", 1), 56: struct.pack("<ii", -1, -1)}),
            move(-1, (3, 1), (7, 4, 5, 4), start), footer(1, 1, 101)]
    usual = [record(1, {21: start_position(), 48: struct.pack("<i", 2), 56: struct.pack("<ii", -1, -1)}),
             move(1, (3, 1), (7, 4, 5, 4)), footer(-1, 1, 101)]
    games, errors = read_bytes(pack([match_header(1), *nack, *usual]))
    assert errors == []
    nack_game, usual_game = games
    assert nack_game.tags["Variant"] == "short" and nack_game.errors == []
    assert nack_game.tags["Position"] == "short b 24x2,23x2,13x4,8x3,6x4 24x2,23x2,13x4,8x3,6x4"
    assert replay(nack_game).findings == []
    # in a Nackgammon match, a game from backgammon's start is a game from a position of its own
    assert usual_game.errors == [] and replay(usual_game).findings == []
    assert usual_game.tags["Position"] == "short w 24x2,13x5,8x3,6x5 24x2,13x5,8x3,6x5"


def test_a_bad_file_in_a_directory_spares_the_others(tmp_path):
    (tmp_path / "good.xg").write_bytes(pack([match_header(), *game(1)]))
    (tmp_path / "bad.xg").write_bytes(b"RGMH" + bytes(30))
    result = CliRunner().invoke(cli, ["validate", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert ("1 file, 1 game, 1 match (0 complete), 1 turn, 1 legal game, 0 findings, 1 note, 1 unreadable input"
            in result.output)
    assert f"error: {tmp_path / 'bad.xg'}: the file is cut short" in result.stderr


# --- comments ---------------------------------------------------------------------------------------


def test_rtf_comments_become_plain_text():
    rtf = (r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fcharset0 Arial;}}{\colortbl;}{\*\generator Riched20;}"
           r"\pard\fs20\f0 caf\'e9 \u8364? first\par second line\par}")
    assert xg.rtf_text(rtf) == "café € first\nsecond line"


def test_comments_of_a_made_file_attach_to_their_move():
    position_move = move(1, (3, 1), (7, 4, 5, 4))
    commented = position_move[:2524] + struct.pack("<i", 1) + position_move[2528:]
    comments = b"{\\rtf1 zero\\par}\r\n{\\rtf1 one\\par\x01\x02two\\par}\r\n"
    games, errors = read_bytes(pack([match_header(), game_header(1), commented, footer(-1, 1, 101)], comments))
    assert errors == []
    assert games[0].actions[0].comments == ["one\ntwo"]



# --- the analysis in other notations ---------------------------------------------------------------


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("target", ["ntn", "jsonl", "json"])
@pytest.mark.parametrize("path", XG_FILES, ids=lambda path: path.name)
def test_ntn_and_json_keep_the_analysis_exactly(path, target):
    games = read_xg(path.name)
    out = io.StringIO()
    assert exports.writer(target)(games, out) == []
    back = list(notations.notation(target).read_games(io.StringIO(out.getvalue()), "back"))
    assert [game_to_dict(game) for game in back] == [game_to_dict(game) for game in games]
    assert sum(len(action.analysis) for game in back for action in game.actions) > 100


@needs_corpus
def test_json_with_analysis_matches_the_schema():
    schema = json.loads((ROOT / "formats/nardy-game.schema.json").read_text(encoding="utf-8"))
    for game in read_xg(HSBT):
        jsonschema.validate(game_to_dict(game), schema)


def test_the_ntn_analysis_form_of_formats_ntn_md():
    text = ('[Variant "short"]\n\n'
            "1. 31: 8/5 6/5  { [%analysis move played=-0.5 best=-0.25 luck=1e-06 level=\"3-ply red\"] }  { nice }\n"
            "1... double 2  { [%analysis cube played=1.0 best=1.0 level=XGRoller++] }\n"
            "2. drop  { [%analysis take level=4-ply best=-1 played=-1.0] }\n1-0\n")
    game, = notations.notation("ntn").read_games(io.StringIO(text), "hand")
    assert game.errors == []
    assert [(a.kind, a.comments, a.analysis) for a in game.actions] == [
        ("roll", ["nice"], (Evaluation("move", "3-ply red", -0.5, -0.25, 1e-06),)),
        ("double", [], (Evaluation("cube", "XGRoller++", 1.0, 1.0),)),
        ("drop", [], (Evaluation("take", "4-ply", -1.0, -1.0),))]


@pytest.mark.parametrize("comment, message", [
    ("[%analysis guess played=1]", "an analysis decision must be one of move, cube, take, found 'guess'"),
    ("[%analysis move played=x1]", "expected a number after played=, found 'x1'"),
    ("[%analysis move played=nan]", "expected a finite number after played=, found 'nan'"),
    ("[%analysis move depth=3]", "unknown analysis field 'depth': expected level, played, best, luck"),
    ("[%analysis move played=1", "expected an analysis like"),
])
def test_a_badly_written_ntn_analysis_is_reported(comment, message):
    text = f'[Variant "short"]\n\n1. 31: 8/5 6/5  {{ {comment} }}\n*\n'
    game, = notations.notation("ntn").read_games(io.StringIO(text), "hand")
    assert len(game.errors) == 1 and message in game.errors[0].message
    assert game.actions[0].analysis == () and game.actions[0].comments == []


@pytest.mark.parametrize("item, message", [
    ({"decision": "move", "played": "0.1"}, "action 1: an analysis \"played\" must be a number"),
    ({"decision": "move", "depth": 3}, "action 1: unknown analysis field 'depth'"),
    ("move", "action 1: an analysis must be an object, found str"),
])
def test_a_malformed_json_analysis_is_reported(item, message):
    data = {"tags": {"Variant": "short"}, "result": None,
            "actions": [{"side": "w", "kind": "roll", "dice": [3, 1], "play": "8/5 6/5", "analysis": [item]}]}
    game, = notations.notation("jsonl").read_games(io.StringIO(json.dumps(data) + "\n"), "j")
    assert len(game.errors) == 1 and game.errors[0].message.startswith(message)


@pytest.mark.slow
@needs_corpus
def test_the_benchmark_runs_at_a_tiny_size():
    run = subprocess.run([sys.executable, str(ROOT / "bench/bench_xg.py"), "--corpus", str(XG_DIR), "--files", "3",
                          "--rounds", "1", "--jobs", "1"], capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("games/s") == 2 and "MiB held" in run.stdout


def test_a_game_from_a_position_of_its_own_without_a_record_to_tell_it_is_an_error():
    header = game_header(1)
    elsewhere = struct.pack("<26b", 0, -15, *([0] * 22), 15, 0)
    header = header[:21] + elsewhere + header[47:]
    games, errors = read_bytes(pack([match_header(), header, footer(-1, 1, 101)]))
    assert errors == []
    assert [error.message for error in games[0].errors] == [
        "record 3: the game starts from a position of its own, and no cube or move record tells it"]


@needs_corpus
@pytest.mark.parametrize("path", XG_FILES, ids=lambda path: path.name)
def test_a_game_from_a_position_of_its_own_starts_there_with_its_cube(path):
    """A real game cut after its first take, as XG saves a game played from a position: its header
    holds the checkers, not the cube; its first record holds both."""
    records = list(xg._file_records(path.read_bytes(), path.name))
    kinds = [record[8] for record in records]
    game, first_take = 0, None
    for index, record in enumerate(records):
        game += kinds[index] == 1
        if kinds[index] == 2 and struct.unpack_from("<ii", record, 16) == (1, 1):
            first_take = index
            break
    assert first_take is not None
    start = kinds.index(3, first_take)  # the first roll after the take
    header = max(index for index in range(start) if kinds[index] == 1)
    end = kinds.index(4, start)  # the game's footer
    own_start = records[header][:21] + records[start][9:35] + records[header][47:]
    games, errors = read_bytes(pack([records[0], own_start, *records[start:end + 1]]))
    original = read_xg(path.name)[game - 1]
    rolls_before = sum(kind == 3 for kind in kinds[header:start])
    before = replay(original).turns[rolls_before].before
    (cut,) = games
    assert errors == [] and not cut.errors
    assert cut.tags["Position"] == str(before) and before.cube_value == 2 and before.cube_owner is not None
    def played(actions):
        return [(a.side, a.kind, a.dice, a.moves, a.value, a.analysis, a.comments) for a in actions]

    assert played(cut.actions) == played(original.actions[len(original.actions) - len(cut.actions):])
    replayed = replay(cut)
    assert not replayed.findings and replayed.final == replay(original).final
    assert cut.result == original.result


@needs_corpus
def test_gnubg_loads_the_sgf_conversion_with_its_analysis_property(gnubg, tmp_path):
    games = read_xg(HSBT)
    converted, saved = tmp_path / "match.sgf", tmp_path / "gnubg.sgf"
    with converted.open("w", encoding="utf-8") as out:
        warnings = sgf.write_games(games, out)
    assert all("SGF has none" in warning for warning in warnings), warnings  # hit marks only: the replay finds them
    assert "NA[move played=" in converted.read_text(encoding="utf-8")
    back = list(sgf.read_games(io.StringIO(converted.read_text(encoding="utf-8"))))
    assert [[action.analysis for action in game.actions] for game in back] == [
        [action.analysis for action in game.actions] for game in games]
    run = subprocess.run([gnubg, "-t", "-q", "-r"], input=f'load match "{converted}"\nsave match "{saved}"\n',
                         capture_output=True, text=True, timeout=120, check=False)
    output = run.stdout + run.stderr
    assert [line for line in output.splitlines() if str(converted) in line or re.search(r"(?i)warning|error", line)] \
        == []
    with saved.open(encoding="utf-8") as lines:
        assert gnubg_view(list(sgf.read_games(lines))) == gnubg_view(games)


def test_a_game_without_a_match_header_is_still_read():
    games, errors = read_bytes(pack(game(1)))
    assert errors == [] and [(g.tags["Game"], g.result) for g in games] == [("1", "0-1")]


@needs_corpus
def test_workers_and_dask_read_xg_files_as_the_parent_does(dask_cluster, tmp_path):
    from nardy_cli.run.parallel import map_games

    (tmp_path / "bad.xg").write_bytes(b"RGMH" + bytes(30))
    paths = [*map(str, XG_FILES), str(tmp_path / "bad.xg")]

    def run(**options):
        errors: list[str] = []
        games = [game_to_dict(game.record) for game in map_games(paths, _record_of, on_error=errors.append, **options)]
        return games, errors

    sequential = run(jobs=1)
    assert len(sequential[0]) == 27 and len(sequential[1]) == 1
    assert run(jobs=2) == sequential
    assert run(dask=dask_cluster) == sequential


def _record_of(game):
    return game


def cube(side: int, doubled: int, answer: int, beaver: int = -1, raccoon: int = -1) -> bytes:
    return record(2, {12: struct.pack("<5i", side, doubled, answer, beaver, raccoon), 200: struct.pack("<d", -1000),
                      216: struct.pack("<d", -1000), 292: struct.pack("<i", -1)})


def money_header() -> bytes:
    return record(0, {9: b"\x05Alice", 50: b"\x03Bob", 92: struct.pack("<ii", 99999, 0), 102: b"\x01",
                      552: struct.pack("<i", 1)})


def test_beavers_raccoons_settlements_and_unfinished_games():
    white_roll, black_roll = move(1, (3, 1), (7, 4, 5, 4)), move(-1, (3, 1), (7, 4, 5, 4))
    records = [money_header(),
               game_header(1), white_roll, cube(-1, 1, 2, 1, 1), black_roll, footer(-1, 8, 1001),
               game_header(2), white_roll, cube(-1, 1, 1), footer(0, 0, 0)]
    games, errors = read_bytes(pack(records))
    assert errors == []
    settled, unfinished = games
    assert settled.tags["MatchLength"] == "0" and settled.tags["Beaver"] == "On"
    assert [(a.side, a.kind, a.value) for a in settled.actions] == [
        (WHITE, "roll", None), (BLACK, "double", 2), (WHITE, "beaver", 4), (BLACK, "roll", None),
        (WHITE, "resign", 8)]
    assert [error.message for error in settled.errors] == [
        "record 4: a raccoon (the doubler redoubled the beaver to 8): nardy does not replay raccoons"]
    assert (settled.result, settled.tags["Termination"]) == ("0-8", "resign")
    assert [(a.side, a.kind) for a in unfinished.actions] == [(WHITE, "roll"), (BLACK, "double"), (WHITE, "take")]
    assert unfinished.result is None and "Termination" not in unfinished.tags


def test_automatic_doubles_of_a_money_session_start_the_game_on_their_cube():
    """XG's money play may turn the cube when both first dice are equal: the game header (from version
    26) says how often, and the game starts with that cube, centred (it was replayed on a 1-cube)."""
    header = money_header()[:552] + struct.pack("<i", 32) + money_header()[556:]
    automatic = game_header(1)[:64] + struct.pack("<i", 1) + game_header(1)[68:]
    games, errors = read_bytes(pack([header, automatic, move(1, (3, 1), (7, 4, 5, 4)), cube(-1, 1, 0),
                                     footer(-1, 2, 0)]))
    (game,) = games
    assert errors == [] and game.errors == []
    assert game.tags["Position"] == "short w 24x2,13x5,8x3,6x5 24x2,13x5,8x3,6x5 cube=2"
    assert [(action.kind, action.value) for action in game.actions] == [("roll", None), ("double", 4), ("drop", None)]
    assert game.result == "0-2" and replay(game).findings == []


def test_the_match_rules_are_the_rules_the_games_are_judged_under():
    header = match_header()
    no_crawford_jacoby = header[:100] + b"\x00\x01" + header[102:]
    games, _ = read_bytes(pack([no_crawford_jacoby, *game(1)]))
    assert games[0].tags["Rules"] == "crawford=off jacoby=on"
    rules = replay(games[0]).rules
    assert rules is not None and (rules.crawford, rules.jacoby) == ("off", "on")
    usual, _ = read_bytes(pack([header[:100] + b"\x01" + header[101:], *game(1)]))
    assert "Rules" not in usual[0].tags


def test_moves_and_show_take_an_xgp_file(tmp_path):
    """An .xgp file made as XG lays one out: Black on roll, the board from White's side."""
    points = [0] * 26  # XG keeps player 1's (White's) view whoever is on roll
    points[25], points[24], points[13], points[8], points[6] = 1, 1, 5, 3, 5  # White, one on the bar
    points[1], points[12], points[17], points[19] = -2, -5, -3, -5  # Black's start, from White's side
    position = move(-1, (3, 1), (7, 4, 5, 4), struct.pack("<26b", *points))
    position = position[:108] + struct.pack("<i", 1) + position[112:]  # cube 2, player 1's (White's)
    xgp = tmp_path / "study.xgp"
    xgp.write_bytes(pack([match_header(), game_header(1), position]))
    shown, rolled = xg.file_position(str(xgp))
    assert str(shown) == "short b bar,24,13x5,8x3,6x5 24x2,13x5,8x3,6x5 cube=2w"  # White's checkers first
    assert rolled == (3, 1)
    result = CliRunner().invoke(cli, ["moves", str(xgp), "31"])
    assert result.exit_code == 0 and "8/5 6/5" in result.output, result.output
    assert CliRunner().invoke(cli, ["moves", str(xgp)]).output == result.output  # the file's roll
    board = CliRunner().invoke(cli, ["show", "--position", str(xgp)])
    assert board.exit_code == 0 and "Black to move, dice 3-1" in board.output
    (tmp_path / "not.xgp").write_bytes(b"RIFF")
    refused = CliRunner().invoke(cli, ["moves", str(tmp_path / "not.xgp"), "31"])
    assert refused.exit_code == 2 and "not an eXtreme Gammon file" in refused.output + refused.stderr


@needs_corpus
@pytest.mark.parametrize("path", XG_FILES, ids=lambda path: path.name)
def test_the_last_position_of_a_real_file_is_the_replay_s(path):
    game = read_xg(path.name)[-1]
    replayed = replay(game)
    last_roll = next(action for action in reversed(game.actions) if action.kind == "roll")
    position, rolled = xg.file_position(str(path))
    if position.turn == last_roll.side:
        assert rolled == last_roll.dice  # the position before the last roll (final when its play is unrecorded)
        before = replayed.final if last_roll.moves is None else replayed.turns[-1].before
    else:  # before a cube decision of the other side, after the last roll
        before = replayed.final
        assert position.turn != replayed.turns[-1].side and rolled is None
    assert before is not None
    assert (position.white, position.black) == (before.white, before.black)
    assert (position.cube_value, position.cube_owner) == (before.cube_value, before.cube_owner)


@pytest.mark.slow
@needs_corpus
def test_hits_are_marked_where_xg_s_own_text_export_marks_them():
    assert CORPORA is not None  # needs_corpus skips the test without them
    text_export = CORPORA / "tournament/kevung_gbf__test_HSBT-Paris-2023_Unger-Job_7pt_XGstyle.txt"

    def hit_points(action):  # XG writes 13/10*(2) for a hit by the first of two checkers: points, not counts
        return {move.path[i + 1] for move in action.moves or () for i, hit in enumerate(move.hits) if hit}

    ours = [[hit_points(action) for action in game.actions] for game in read_xg(HSBT)]
    theirs = [[hit_points(action) for action in game.actions] for game in read_path(text_export)]
    assert ours == theirs
    assert sum(len(points) for game in ours for points in game) > 50
