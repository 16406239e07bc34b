"""Docs that cannot rot: every command example of README.md, sample_games/README.md and formats/*.md
runs on the bundled samples and exits as documented (a `console` example prints what it shows);
every record example of formats/ validates as its text says; every benchmark runs at tiny sizes."""
import gzip
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "sample_games" / "README.md", *sorted((ROOT / "formats").glob("*.md"))]
NARDY = str(Path(sys.executable).parent / "nardy")
SMALL = ["long/club-evening.ntn", "long/kazan-cup-2026.ntn", "short/club-night-cube.ntn"]

# What the examples exit with when it is not 0: each says so in its text (findings: exit 1).
EXIT = {
    "nardy validate sample_games/": 1,
    "nardy validate sample_games/long/kazan-cup-2026.ntn": 1,
    "nardy validate sample_games/long/kazan-cup-2026.ntn --format json": 1,
    "nardy validate games.ntn club/ archive.zip old-matches.mat.gz -": 1,
    "nardy validate corpus/ --jobs 0": 1,
    "nardy validate corpus/ --dask local:4": 1,
}
# Examples that cannot run here, and why.
NOT_RUN = {
    "nardy stats corpus/ --dask tcp://scheduler:8786": "needs a running Dask scheduler",
}


def blocks(path: Path):
    """(first line number, language, lines) of each fenced block of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = language = None
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            if start is None:
                start, language = number + 1, line[3:].strip()
            else:
                yield start, language, lines[start - 1:number - 1]
                start = None


def command_examples():
    """(place, command, documented output or None) of every `nardy` command in sh/console blocks."""
    for path in DOCS:
        name = path.relative_to(ROOT)
        for start, language, lines in blocks(path):
            if language == "console":
                commands = [offset for offset, line in enumerate(lines) if line.startswith("$ ")]
                for first, following in zip(commands, [*commands[1:], len(lines)]):
                    output = "\n".join(lines[first + 1:following])
                    yield f"{name}:{start + first}", lines[first][2:].strip(), output or None
            elif language in ("sh", ""):
                for offset, line in enumerate(lines):
                    command = re.split(r"\s+#\s", line)[0].strip()
                    if command.startswith("nardy "):
                        yield f"{name}:{start + offset}", command, None


EXAMPLES = list(command_examples())


def record_example(name: str, language: str, index: int = 0) -> str:
    return "\n".join([block for _, lang, block in blocks(ROOT / "formats" / name) if lang == language][index]) + "\n"


XG_MATCH = ROOT / "tests" / "data" / "xg" / "hsbt-paris-2023-unger-job-7pt.xg"  # a real match (see its LICENSE)


def xgp_file() -> bytes:
    """An eXtreme Gammon position file, made as tests/test_xg.py makes one."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_xg import game_header, match_header, move, pack

    points = [0] * 26
    points[24], points[13], points[8], points[6] = 2, 5, 3, 5
    points[1], points[12], points[17], points[19] = -2, -5, -3, -5
    return pack([match_header(), game_header(1), move(-1, (3, 1), (7, 4, 5, 4), struct.pack("<26b", *points))])


def made(folder: Path, exist_ok: bool = False) -> Path:
    """``folder``, made."""
    folder.mkdir(exist_ok=exist_ok)
    return folder


def workspace(folder: Path, command: str) -> None:
    """The files an example names, made from the bundled samples."""
    (folder / "sample_games").symlink_to(ROOT / "sample_games")
    samples = ROOT / "sample_games"
    match = record_example("mat.md", "")
    text = (samples / "long" / "club-evening.ntn").read_text(encoding="utf-8")
    makers = {
        "games/": lambda: [shutil.copy(samples / name, made(folder / "games", exist_ok=True) / Path(name).name)
                           for name in SMALL],
        "corpus/": lambda: [
            (made(folder / "corpus", exist_ok=True) / (Path(name).name + ".gz")).write_bytes(
                gzip.compress((samples / name).read_bytes()))
            for name in SMALL],
        "match.mat": lambda: (folder / "match.mat").write_text(match, encoding="utf-8"),
        "round3.ntn": lambda: shutil.copy(samples / SMALL[1], folder / "round3.ntn"),
        "corpus.jsonl": lambda: subprocess.run(
            [NARDY, "convert", str(samples / "long"), "--to", "jsonl",
             "-o", str(folder / "corpus.jsonl")], check=True, capture_output=True),
        "games.ntn": lambda: (folder / "games.ntn").write_text(text, encoding="utf-8"),
        "club/": lambda: shutil.copytree(samples / "short", folder / "club"),
        "archive.zip": lambda: zipfile.ZipFile(folder / "archive.zip", "w").writestr(
            "kazan.ntn", (samples / SMALL[1]).read_bytes()),
        "old-matches.mat.gz": lambda: (folder / "old-matches.mat.gz").write_bytes(gzip.compress(match.encode())),
        "records/": lambda: (made(folder / "records") / "m.mat").write_text(match),
        "export.txt": lambda: (folder / "export.txt").write_bytes(text.encode("cp1251")),
        "match.xg": lambda: shutil.copy(XG_MATCH, folder / "match.xg"),
        "matches/": lambda: shutil.copy(XG_MATCH, made(folder / "matches")),
        "study.xgp": lambda: (folder / "study.xgp").write_bytes(xgp_file()),
    }
    words = command.replace("*", " ").split()
    words = [word for before, word in zip(["", *words], words) if before not in ("-o", ">", "--out", "--parquet")]
    for name, make in makers.items():
        if any(word == name or word.startswith(name) for word in words):
            make()


@pytest.mark.slow
@pytest.mark.parametrize("place, command, output", [
    pytest.param(*example, id=example[0], marks=[pytest.mark.dask] if "--dask" in example[1] else [])
    for example in EXAMPLES])
def test_command_example_runs_as_documented(tmp_path, place, command, output):
    if command in NOT_RUN:
        pytest.skip(NOT_RUN[command])
    if "--dask" in command:
        pytest.importorskip("dask.distributed", reason="dask is not installed: pip install -e '.[dask]'")
    workspace(tmp_path, command)
    environment = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
                       COLUMNS="100")
    stdin = (ROOT / "sample_games" / SMALL[2]).read_text(encoding="utf-8") if command.endswith(" -") else ""
    result = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=environment, input=stdin,
                            capture_output=True, text=True, timeout=600, check=False)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == EXIT.get(command, 0), f"{place}: {command}\n{result.stdout}\n{result.stderr}"
    if output is not None:
        assert result.stdout.rstrip("\n") == output, f"{place}: {command}"


def test_exit_table_names_only_documented_commands():
    commands = {command for _, command, _ in EXAMPLES}
    assert set(EXIT) <= commands and set(NOT_RUN) <= commands


def validate_text(tmp_path, text: str, suffix: str):
    path = tmp_path / f"example{suffix}"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([NARDY, "validate", str(path)], capture_output=True, text=True, check=False)


@pytest.mark.slow
@pytest.mark.parametrize("name, language, index, suffix, games", [
    ("ntn.md", "ntn", 0, ".ntn", 1),   # the long-nardy game: legal, Black resigns a mars
    ("ntn.md", "ntn", 1, ".ntn", 1),   # the short-nardy game with the cube: legal, dropped at 4
    ("ntn.md", "ntn", 2, ".ntn", 1),   # the crazy-nardy game: cascades and passed steps
    ("ntn.md", "ntn", 3, ".ntn", 2),   # a resignation after a roll, a beaver: both legal
    ("mat.md", "", 0, ".mat", 1),      # the Galaxy layout: legal, a dropped redouble
    ("json.md", "json", 0, ".json", 1),
    ("sgf.md", "", 0, ".sgf", 1),      # a match game dropped at 2
])
def test_record_example_is_legal(tmp_path, name, language, index, suffix, games):
    result = validate_text(tmp_path, record_example(name, language, index), suffix)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = next(line for line in result.stdout.splitlines() if line.startswith("1 file, "))  # after any notes
    assert summary.startswith(f"1 file, {games} game{'s' if games > 1 else ''}, "), result.stdout
    assert f"{games} legal game" in summary


def test_json_example_follows_the_schema():
    schema = json.loads((ROOT / "formats" / "nardy-game.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(record_example("json.md", "json")), schema)


def test_findings_example_has_the_documented_shape(tmp_path):
    """formats/findings.md's line is what validate prints for that fault."""
    line = record_example("findings.md", "").strip()
    record = ('[Event "Round 3"]\n[White "Алиев Р."]\n[Black "Petrov S."]\n[Variant "long"]\n\n'
              "1. 63: 24/18 24/21\n")
    result = validate_text(tmp_path, record, ".ntn")
    printed = result.stdout.splitlines()[0].split(": ", 1)[1]
    assert line.split(": ", 1)[1].replace("game 2", "game 1").replace("move 7", "move 1") == printed


# --- benchmarks at tiny sizes -------------------------------------------------------------


def bench(*arguments: str) -> str:
    result = subprocess.run([sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=600,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_bench_engine_runs():
    output = bench("bench/bench_engine.py", "--games", "2", "--rounds", "1")
    assert "legal-play generations" in output and output.count("full path") >= 3


@pytest.mark.slow
def test_bench_startup_runs():
    assert "show (text board)" in bench("bench/bench_startup.py", "--repeat", "1")


@pytest.mark.slow
def test_bench_scale_runs(tmp_path):
    pytest.importorskip("psutil")
    output = bench("bench/bench_scale.py", "--sizes", "20", "--base", "10", "--short", "4", "--crazy", "4",
                   "--jobs", "1,2", "--tasks", "validate,stats,stats-parquet", "--players", "5",
                   "--cache", str(tmp_path))
    assert "20 games: 10 distinct games repeated 2 times, players drawn from 5 names" in output
    assert output.count("games/s") >= 8
    assert "a crazy-nardy turn" in output and "less a start-up of" in output and "µs/step" in output
    assert "x with 2 (medians of 5 rounds" in output


@pytest.mark.slow
def test_bench_scale_runs_on_local_dask(tmp_path):
    pytest.importorskip("dask.multiprocessing")
    output = bench("bench/bench_scale.py", "--sizes", "20", "--base", "10", "--short", "0", "--jobs", "1,local:1",
                   "--tasks", "validate", "--cache", str(tmp_path))
    assert "dask local:1" in output and output.count("turns/s") == 2


@pytest.mark.slow
def test_bench_corpus_runs(tmp_path):
    pytest.importorskip("psutil")
    for path in sorted((ROOT / "tests" / "data" / "mat").glob("*.mat"))[:3]:
        shutil.copy(path, tmp_path)
    output = bench("bench/bench_corpus.py", "--corpus", str(tmp_path), "--jobs", "1,2", "--rounds", "1",
                   "--against", sys.executable)
    assert " nardy validate:" in output and " nardy stats:" in output and "2 workers (against)" in output
    assert "validate's time" in output
    # even a run of a few hundredths of a second is sampled: Python with nardy loaded takes over 10 MiB
    assert all(int(peak) >= 10 for peak in re.findall(r"peak RSS +(\d+) MiB", output))


def test_bench_gulbara_runs():
    assert "µs/turn" in bench("bench/bench_gulbara.py", "--games", "1", "--rounds", "1")


def test_bench_luck_runs(tmp_path):
    shutil.copy(sorted((ROOT / "tests" / "data" / "mat").glob("*.mat"))[0], tmp_path)
    assert "% of the replay" in bench("bench/bench_luck.py", "--corpus", str(tmp_path), "--repeat", "1")


def test_sgf_set_up_example_gives_the_position_the_text_says():
    """formats/sgf.md: the set-up nodes of a position become the Position tag it names."""
    from nardy_cli.notations import notation

    fragment = record_example("sgf.md", "", 1)
    text = "(;FF[4]GM[6]CA[UTF-8]MI[length:0]PW[A]PB[B]\n" + fragment + ")\n"
    game = next(notation("sgf").read_games(text.splitlines(keepends=True), "setup.sgf"))
    assert not game.errors
    assert game.tags["Position"] == "short b 24x2,13x5,8x3,6x5 24x2,13x5,8x3,6x5 cube=2b"
