"""Round trips between notations over the real corpus and the samples, and `nardy convert`,
whose output is the same with worker processes or on Dask as in one process."""
import concurrent.futures
import copy
import io
import json
from collections.abc import Callable
from functools import cache, partial

import jsonschema
import pytest
from click.testing import CliRunner

from locations import ROOT, corpus_files, needs_corpus
from nardy_cli import notations
from nardy_cli.analysis import exports
from nardy_cli.cli import task as cli_module
from nardy_cli.cli.main import cli
from nardy_cli.notations.jsonl import game_to_dict
from nardy_cli.replay import replay
from nardy_cli.run import parallel


def read(name: str, text: str) -> list:
    return list(notations.notation(name).read_games(io.StringIO(text), "test"))


def write(name: str, games: list) -> str:
    out = io.StringIO()
    exports.writer(name)(games, out)
    return out.getvalue()


def same(games: list) -> list:
    """What must survive a lossless round trip: everything but places in files."""
    return [game_to_dict(game) for game in games]


def named(games: list) -> list:
    """The games as MAT writes them back: an empty player name becomes the side's name."""
    games = copy.deepcopy(games)
    for game in games:
        for side in ("White", "Black"):
            if not game.tags.get(side, "").strip():
                game.tags[side] = side
    return games


def same_game(games: list) -> list:
    """What must survive any round trip: players, match tags, dice, cube actions, the position
    after every turn (plays may be grouped differently), results."""
    kept = ("White", "Black", "MatchLength", "Game", "Score", "Variant")
    return [({k: game.tags.get(k) for k in kept}, game.result,
             [(a.side, a.kind, a.dice, a.value) for a in game.actions],
             [(turn.after.white, turn.after.black) for turn in replay(game).turns]) for game in games]


@pytest.fixture(scope="module")
def corpus_games(corpora) -> list:
    games = []
    for path in sorted(corpora.rglob("*")):
        if path.suffix in (".txt", ".mat"):
            games += notations.notation("mat").read_games(
                path.read_text(encoding="utf-8-sig").splitlines(keepends=True), str(path))
    assert len(games) > 800 and not any(game.errors for game in games)
    return games


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("via", ["ntn", "jsonl", "json"])
def test_mat_round_trips_losslessly(corpus_games, via):
    there = read(via if via != "json" else "jsonl", write(via, corpus_games))
    assert same(there) == same(corpus_games)
    back = read("mat", write("mat", there))
    assert same(back) == same(named(corpus_games))


@pytest.mark.slow
@needs_corpus
def test_mat_sgf_mat_keeps_the_games(corpus_games):
    games = corpus_games[::3]
    there = read("sgf", write("sgf", games))
    back = read("mat", write("mat", there))
    assert same_game(there) == same_game(games)
    assert same_game(back) == same_game(named(games))


def test_long_nardy_ntn_mat_ntn():
    games = read("ntn", (ROOT / "sample_games/long/club-evening.ntn").read_text(encoding="utf-8"))
    games += read("ntn", (ROOT / "sample_games/generated/long-200.ntn").read_text(encoding="utf-8"))[:40]
    through_mat = read("mat", write("mat", games))
    assert [g.actions and [(a.side, a.kind, a.dice, a.moves) for a in g.actions] for g in through_mat] == \
        [[(a.side, a.kind, a.dice, a.moves) for a in g.actions] for g in games]
    assert [g.result for g in through_mat] == [g.result for g in games]
    assert [g.tags["White"] for g in through_mat] == [g.tags["White"] for g in games]


def test_json_output_matches_the_schema():
    schema = json.loads((ROOT / "formats/nardy-game.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    for name in ("long/club-evening", "long/kazan-cup-2026", "short/club-night-cube", "gulbara/club-crazy-evening"):
        games = read("ntn", (ROOT / f"sample_games/{name}.ntn").read_text(encoding="utf-8"))
        for line in write("jsonl", games).splitlines():
            jsonschema.validate(json.loads(line), schema)


def test_convert_command_writes_atomically_and_warns(tmp_path):
    source = ROOT / "sample_games/long/club-evening.ntn"
    out = tmp_path / "club.csv"
    result = CliRunner().invoke(cli, ["convert", str(source), "--to", "csv", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning: CSV keeps no comments" in result.output
    rows = out.read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("game,event,round,white,black")
    actions = sum(len(game.actions) for game in read("ntn", source.read_text(encoding="utf-8")))
    assert len(rows) == 1 + actions
    again = CliRunner().invoke(cli, ["convert", str(source), "--to", "csv", "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.output
    assert CliRunner().invoke(cli, ["convert", str(source), "--to", "ntn", "-o", str(source), "--force"]).exit_code == 2
    assert not list(tmp_path.glob(".*.tmp"))


def csv_rows(text: str) -> list[dict[str, str]]:
    import csv
    return list(csv.DictReader(io.StringIO(write("csv", read("ntn", text)))))


def test_csv_gives_the_cube_a_take_turns():
    rows = csv_rows((ROOT / "sample_games/short/club-night-cube.ntn").read_text(encoding="utf-8"))
    double = next(index for index, row in enumerate(rows) if row["kind"] == "double")
    assert [(row["kind"], row["cube_value"]) for row in rows[double - 1:double + 3]] == [
        ("roll", "1"), ("double", "2"), ("take", "2"), ("roll", "2")]  # the take's row said 1


def test_csv_leaves_empty_what_the_replay_did_not_judge():
    rows = csv_rows('[Variant "long"]\n\n1. 63: 24/18 24/21   51: 24/19 19/18\n2. 42: 13/9 13/11   51: 24/19\n'
                    '3. 11: 24/23(4)\n*\n')
    judged = [(row["legal"], row["finding"], row["pips_white_after"], row["cube_value"]) for row in rows]
    assert judged == [("False", "head", "351", "1"), ("True", "", "351", "1"),
                      ("False", "no-checker", "351", "1"),  # the play that cannot be made: the replay stops
                      ("", "", "", ""), ("", "", "", "")]  # said True, with the pips where the replay stopped
    unknown = csv_rows('[Variant "nackgammon"]\n\n1. 31: 8/5 6/5\n*\n')
    assert [(row["legal"], row["hits"], row["pips_white_before"]) for row in unknown] == [("", "", "")]


def test_convert_to_stdout_and_back(tmp_path):
    source = ROOT / "sample_games/short/club-night-cube.ntn"
    result = CliRunner().invoke(cli, ["convert", str(source), "--to", "sgf"])
    assert result.exit_code == 0 and result.output.startswith("(;FF[4]GM[6]")
    sgf = tmp_path / "game.sgf"
    sgf.write_text(result.output, encoding="utf-8")
    back = CliRunner().invoke(cli, ["convert", str(sgf), "--to", "ntn"])
    assert back.exit_code == 0
    assert same_game(read("ntn", back.output)) == same_game(read("ntn", source.read_text(encoding="utf-8")))


@pytest.mark.parametrize("source", sorted((ROOT / "sample_games").rglob("*.ntn")), ids=lambda path: path.name)
@pytest.mark.parametrize("target", ["json", "jsonl"])
def test_json_records_are_told_by_their_opening_not_their_comments(tmp_path, source, target):
    # a comment in JSON may hold what NTN is told by ("5-5: "): the file is still JSON, and comes back whole
    direct = CliRunner().invoke(cli, ["convert", str(source), "--to", "ntn"])
    there = tmp_path / f"games.{target}"
    assert CliRunner().invoke(cli, ["convert", str(source), "-o", str(there)]).exit_code == 0
    assert notations.detect("games", there.read_text(encoding="utf-8")[:4096]) == "jsonl"
    back = CliRunner().invoke(cli, ["convert", str(there), "--to", "ntn"])
    assert (back.exit_code, back.output) == (direct.exit_code, direct.output)


def test_a_comment_opening_an_ntn_file_is_not_json():
    head = '{"Кубок Казани", 1-й тур: "tags" и "actions" в протоколе}\n[Variant "long"]\n1. 52: 24/22 24/19\n'
    assert notations.detect("games.txt", head) == "ntn"




# --- the same output with worker processes and on Dask ------------------------------------

# Long and short games with findings, files whose games cannot all be read, an archive holding one
# that is not read, a missing file: every kind of warning and error that convert prints.
SAMPLES = tuple(str(ROOT / path) for path in ("sample_games", "tests/data/hostile", "tests/data/mat/errors.mat",
                                              "no-such-file.ntn"))
SMALL = (str(ROOT / "sample_games/long"), *SAMPLES[1:])
MATCHES = tuple(str(path) for path in corpus_files("bglab-sample/*.txt")[:6])

Converted = tuple[int, bytes, bytes]


def converted(inputs: tuple[str, ...], target: str, *options: str) -> Converted:
    """Exit status, standard output and standard error of ``nardy convert``."""
    result = CliRunner().invoke(cli, ["convert", *inputs, "--to", target, *options])
    return result.exit_code, result.stdout_bytes, result.stderr_bytes


@pytest.fixture(scope="module")
def one_job() -> Callable[[tuple[str, ...], str], Converted]:
    """``nardy convert --jobs 1``, run once for each inputs and target."""
    return cache(lambda inputs, target: converted(inputs, target, "--jobs", "1"))


@pytest.mark.slow
@pytest.mark.parametrize("target", exports.TARGETS)
def test_two_jobs_write_what_one_job_writes(target, one_job):
    expected = one_job(SAMPLES, target)
    status, _, stderr = expected
    assert status == 2 and b"error: " in stderr and b"is converted as far as it could be read" in stderr
    assert converted(SAMPLES, target, "--jobs", "2") == expected


@pytest.mark.slow
@needs_corpus
@pytest.mark.parametrize("target", exports.TARGETS)
def test_two_jobs_on_real_match_files(target, one_job):
    assert len(MATCHES) == 6
    expected = one_job(MATCHES, target)
    assert expected[0] == 0 and expected[1]
    assert converted(MATCHES, target, "--jobs", "2") == expected


class CountingPool(concurrent.futures.ProcessPoolExecutor):
    """A process pool that counts the work units submitted to it."""

    submitted = 0

    def submit(self, *args, **kwargs):
        CountingPool.submitted += 1
        return super().submit(*args, **kwargs)


@pytest.mark.slow
@pytest.mark.parametrize("target", exports.TARGETS)
def test_files_cut_into_chunks_write_what_one_job_writes(target, one_job, monkeypatch):
    monkeypatch.setattr(cli_module, "map_games", partial(parallel.map_games, chunk_games=3))
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", CountingPool)  # imported by map_games
    monkeypatch.setattr(CountingPool, "submitted", 0)
    assert converted(SAMPLES, target, "--jobs", "2") == one_job(SAMPLES, target)
    assert CountingPool.submitted > 409 / 3  # the 409 sample games, three games a unit at most


def test_dask_writes_what_one_job_writes(one_job, dask_cluster):
    address = dask_cluster.scheduler.address
    for target in exports.TARGETS:
        assert converted(SMALL, target, "--dask", address) == one_job(SMALL, target), target
