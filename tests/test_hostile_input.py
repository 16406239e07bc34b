"""Hostile and messy input (issue 7): never crash, never lose a record, never damage a user's files.

Encodings and line ends, compressed files, archives and trees, fuzzing of every reader with
hypothesis, pathological sizes (measured with tracemalloc), output safety, and the messages
the command line gives for bad inputs. formats/input.md is the user's side of these promises.
"""
from __future__ import annotations

import bz2
import errno
import functools
import gzip
import io
import json
import lzma
import os
import pickle
import re
import signal
import stat
import struct
import subprocess
import sys
import threading
import time
import tracemalloc
import zipfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from locations import CORPORA, DATA, ROOT, SAMPLES, corpus_files
from nardy_cli import notations
from nardy_cli.analysis import exports
from nardy_cli.cli.main import cli
from nardy_cli.core import moves as moves_module
from nardy_cli.core.moves import parse_play
from nardy_cli.files import sources
from nardy_cli.files.output import atomic_output
from nardy_cli.files.sources import Source, read_lines, shown, split_lines
from nardy_cli.notations.jsonl import game_to_dict
from nardy_cli.record import ERROR_LIMIT, Action, CappedErrors, GameRecord, RecordError
from nardy_cli.replay import replay
from nardy_cli.run.corpus import CorpusGame, iter_games, read_source

HOSTILE = DATA / "hostile"
SAMPLE = SAMPLES / "short/club-night-cube.ntn"  # a Cyrillic name, comments, a double
KAZAN = SAMPLES / "long/kazan-cup-2026.ntn"  # six long-nardy games
FORMATS = ("ntn", "mat", "sgf", "jsonl", "json")

fuzz = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- helpers ---------------------------------------------------------------------------------


def read_all(*paths: Path | str, encoding: str | None = None, pattern: str | None = None
             ) -> tuple[list[CorpusGame], list[str]]:
    """Every game of ``paths`` through :func:`iter_games`, and the input errors reported."""
    errors: list[str] = []
    games = list(iter_games([str(path) for path in paths], on_error=errors.append, encoding=encoding,
                            pattern=pattern))
    return games, errors


def essentials(record: GameRecord) -> dict:
    """What must come out of a record unharmed: everything but places in the file (and the
    Crawford tag, which MAT infers from the games before)."""
    data = game_to_dict(record)
    data["tags"].pop("Crawford", None)
    return data


def written(fmt: str, games: list[GameRecord]) -> str:
    out = io.StringIO()
    exports.writer(fmt)(games, out)
    return out.getvalue()


def sample_games() -> list[GameRecord]:
    return list(notations.notation("ntn").read_games(io.StringIO(SAMPLE.read_text(encoding="utf-8")), "sample"))


def bytes_source(data: bytes, name: str = "input") -> Source:
    return Source(name, lambda: io.BytesIO(data))


def check_located(data: bytes, name: str, fmt: str | None = None) -> list[GameRecord]:
    """Read ``data`` as a file called ``name`` and replay every game: nothing may raise, and
    every error and finding must name a line of the input and a column."""
    source = bytes_source(data, name)
    binary = notations.is_binary(fmt) if fmt else data.startswith(b"RGMH")  # XG: lines are its records
    lines = len(data) // 2560 + 1 if binary else max(1, sum(1 for _ in read_lines(source)))
    try:
        records = list(read_source(source, fmt))
    except notations.UnknownFormat:
        assert fmt is None
        return []
    except sources.InputError as failure:  # a binary file that is damaged, or none at all
        assert binary and str(failure).startswith(f"{name}: "), failure
        return []
    for record in records:
        assert len(record.errors) <= ERROR_LIMIT  # the others only counted (issue 15.1)
        for error in record.errors:
            assert 1 <= error.line <= lines and error.column >= 1, (error, lines)
        for finding in replay(record).findings:
            assert 1 <= finding.line <= lines and finding.column >= 1, (finding, lines)
    return records


# --- encodings -------------------------------------------------------------------------------

ENCODED: dict[str, Callable[[str], bytes]] = {
    "utf-8": lambda text: text.encode("utf-8"),
    "utf-8 with BOM": lambda text: text.encode("utf-8-sig"),
    "utf-16-le with BOM": lambda text: b"\xff\xfe" + text.encode("utf-16-le"),
    "utf-16-be with BOM": lambda text: b"\xfe\xff" + text.encode("utf-16-be"),
    "utf-16-le without BOM": lambda text: text.encode("utf-16-le"),
    "utf-32 with BOM": lambda text: text.encode("utf-32"),
    "cp1251": lambda text: text.encode("cp1251"),
}


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize("encoding", ENCODED)
def test_every_encoding_and_line_end_reads_the_same_games(tmp_path, encoding, line_end):
    path = tmp_path / "game.ntn"
    path.write_bytes(ENCODED[encoding](SAMPLE.read_text(encoding="utf-8").replace("\n", line_end)))
    games, errors = read_all(path)
    assert not errors
    assert [essentials(game.record) for game in games] == [essentials(game) for game in sample_games()]
    assert games[0].record.tags["Black"] == "Петрова А."


def test_real_world_fixtures():
    (mat,), errors = read_all(HOSTILE / "cp1251-crlf.mat")  # Russian Windows, as a MAT export
    assert not errors and not mat.record.errors and mat.record.tags["Black"] == "Петрова А."
    (notepad,), errors = read_all(HOSTILE / "utf16le-bom-crlf.ntn")  # Windows Notepad's "Unicode"
    assert not errors and essentials(notepad.record) == essentials(sample_games()[0])


def ascii_games(size: int) -> str:
    """Whole games of plain ASCII text, at least ``size`` characters of them."""
    text = SAMPLE.read_text(encoding="utf-8").replace("Петрова А.", "Petrova A.") + "\n"
    return text * (size // len(text) + 1)


def test_cp1251_after_64_kib_of_ascii_is_still_cp1251(tmp_path):
    path = tmp_path / "late.ntn"
    path.write_bytes(ascii_games(100_000).encode("ascii") + SAMPLE.read_text(encoding="utf-8").encode("cp1251"))
    games, errors = read_all(path)
    assert not errors and len(games) > 30
    assert games[-1].record.tags["Black"] == "Петрова А."
    assert not any("\ufffd" in str(game_to_dict(game.record)) for game in games)


def test_valid_utf8_is_never_read_as_cp1251(tmp_path):
    late = tmp_path / "late.ntn"
    late.write_bytes(ascii_games(100_000).encode("ascii") + SAMPLE.read_bytes())
    games, _ = read_all(late)
    assert games[-1].record.tags["Black"] == "Петрова А."
    damaged = tmp_path / "damaged.ntn"  # Cyrillic first: a later bad byte is damage, not CP1251
    later = ascii_games(1000).encode("ascii").replace(b"Petrova", b"Petr\xffva")
    damaged.write_bytes(SAMPLE.read_bytes() + b"\n" + later)
    games, _ = read_all(damaged)
    assert games[0].record.tags["Black"] == "Петрова А."
    assert games[-1].record.tags["Black"] == "Petr\ufffdva A."


def auto_decoded(data: bytes) -> str:
    """The rule formats/input.md states for a file without a byte-order mark: line by line,
    UTF-8 where valid, else the code page the first telling line shows (CP1251 until one does)
    until the file has shown a UTF-8 letter, else U+FFFD."""
    decoded, utf8_letters, page = [], False, None
    for line in data.splitlines(keepends=True):
        try:
            decoded.append(line.decode("utf-8"))
            utf8_letters = utf8_letters or not line.isascii()
        except UnicodeDecodeError:
            page = page or sources.code_page(line)
            decoded.append(line.decode("utf-8" if utf8_letters else page or "cp1251", errors="replace"))
    return "".join(decoded)


@pytest.mark.parametrize(("text", "encoding", "page"), [
    ("Петрова А.", "cp1251", "cp1251"), ("Aлиев", "cp1251", "cp1251"),  # a Latin A typed among Russian letters
    ("Ли Ян", "cp1251", "cp1251"), ("в", "cp1251", None), ("№5", "cp1251", None),
    ("Jörgen Müller", "cp1252", "cp1252"), ("Ærø", "cp1252", "cp1252"), ("Sebastião", "cp1252", "cp1252"),
    ("Café à Paris", "cp1252", "cp1252"), ("Ó", "cp1252", None),
    ("Exported by “NardyClub” – 2026", "cp1252", None),  # the same punctuation in both pages: no letter
    ("«Кубок Казани»", "cp1251", "cp1251"), ("Ёлкин", "cp1251", "cp1251"),
])
def test_the_code_page_of_a_line_by_hand(text, encoding, page):
    assert sources.code_page(text.encode(encoding)) == page


def test_a_western_windows_file_keeps_its_accented_names(tmp_path):
    """An old server's MAT export in CP1252: read as CP1251, ``Jörgen`` became ``Jцrgen``."""
    text = (HOSTILE / "cp1251-crlf.mat").read_bytes().decode("cp1251").replace("Петрова А.", "Jörgen Ærø")
    path = tmp_path / "western.mat"
    path.write_bytes(text.encode("cp1252"))
    (mat,), errors = read_all(path)
    assert not errors and not mat.record.errors and mat.record.tags["Black"] == "Jörgen Ærø"


def test_a_stray_byte_costs_only_its_line(tmp_path):
    """Issue 15.5: one bad byte before any Russian letter no longer turns a UTF-8 file to CP1251."""
    path = tmp_path / "stray.ntn"
    path.write_bytes(b'; exported \xff by hand\n' + SAMPLE.read_bytes())
    games, errors = read_all(path)
    assert not errors and games[0].record.tags["Black"] == "Петрова А."
    assert games[0].record.comments[0] == "exported я by hand"  # the bad line alone is CP1251


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_mark_starting_with_cyrillic(tmp_path, encoding):
    """Issue 15.9: no NUL bytes at the start (Cyrillic letters are 0x04xx), still UTF-16."""
    text = "; Клубный вечер\n" + SAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "cyrillic-first.ntn"
    path.write_bytes(text.encode(encoding))
    games, errors = read_all(path)
    assert not errors and games[0].record.tags["Black"] == "Петрова А."
    assert sources.sniff_encoding("Петрова".encode("cp1251")) is None


PIECES = [b"a", b" ", b"\n", b"\r", b"\r\n", b"[", "Ж".encode(), "Ж".encode("cp1251"), "ё".encode(), b"\xff",
          "№".encode("cp1251"), "€".encode()]


@fuzz
@given(st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join), st.integers(1, 9))
def test_decoding_follows_its_rule_whatever_the_chunks(data, chunk):
    with mock.patch.object(sources, "CHUNK_BYTES", chunk), mock.patch.object(sources, "SNIFF_BYTES", 1):
        lines = list(read_lines(bytes_source(data)))
    assert "".join(lines) == auto_decoded(data)
    assert all(re.fullmatch(r"[^\r\n]*(\r\n|\r|\n)?", line) for line in lines)


@fuzz
@given(st.text(alphabet="ab\r\n\u2028\u2029\x0b\x0c\x1c\x1e\x85", max_size=40),
       st.lists(st.integers(0, 40), max_size=5))
def test_lines_split_at_cr_lf_and_crlf_wherever_the_pieces_are_cut(text, cuts):
    cuts = sorted({min(cut, len(text)) for cut in cuts})
    pieces = [text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)])]
    assert list(split_lines(pieces)) == re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)


def test_encoding_can_be_forced(tmp_path):
    path = tmp_path / "game.ntn"
    path.write_bytes(SAMPLE.read_bytes())
    (game,), _ = read_all(path, encoding="latin-1")
    assert game.record.tags["Black"] == "Петрова А.".encode().decode("latin-1")
    path.write_bytes(SAMPLE.read_text(encoding="utf-8").encode("cp1251"))
    (game,), _ = read_all(path, encoding="cp1251")
    assert game.record.tags["Black"] == "Петрова А."
    for wrong in ("klingon", "rot13"):
        games, errors = read_all(path, encoding=wrong)
        assert not games and len(errors) == 1 and f"unknown encoding {wrong!r}" in errors[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_line_ends_tabs_and_trailing_garbage_lose_nothing(tmp_path, fmt):
    games = list(notations.notation("ntn").read_games(io.StringIO(KAZAN.read_text(encoding="utf-8"))))[:3]
    text = written(fmt, games)
    plain = tmp_path / f"plain.{fmt}"
    plain.write_text(text, encoding="utf-8", newline="")
    expected = [essentials(game.record) for game in read_all(plain)[0]]
    lines = text.splitlines()
    if fmt == "sgf":  # blanks in values are read as spaces
        lines = [line.replace(" ", "\t") for line in lines]
    elif fmt == "ntn":  # between tokens, not in tags or comments
        lines = [re.sub(r" {2,}|(?<=[.:]) ", "\t", line) if line[:1].isdigit() else line for line in lines]
    mixed = "".join(line + ("\r\n", "\r", "\n")[number % 3] for number, line in enumerate(lines))
    messy = tmp_path / f"messy.{fmt}"
    messy.write_bytes((mixed + "\x1a\x00 ]]) trailing {garbage [\n").encode("utf-8"))
    games_read, errors = read_all(messy)
    assert not errors
    assert [essentials(game.record) for game in games_read[:len(expected)]] == expected
    for game in games_read[len(expected):]:  # the garbage, where a reader keeps it, is located
        assert game.record.errors and game.record.errors[0].line == len(lines) + 1


def test_mixed_line_ends_fixture():
    games, errors = read_all(HOSTILE / "mixed-ends-tabs.ntn")
    assert not errors and essentials(games[0].record) == essentials(sample_games()[0])
    assert [(error.line, error.column) for error in games[1].record.errors] == [(39, 1), (39, 25)]


# --- compressed files, archives and trees ---------------------------------------------------

COMPRESS = {".gz": lambda data: gzip.compress(data, mtime=0), ".bz2": bz2.compress, ".xz": lzma.compress}


@pytest.mark.parametrize("extension", COMPRESS)
def test_compressed_files_by_name_and_by_content(tmp_path, extension):
    data = COMPRESS[extension](SAMPLE.read_bytes())
    named = tmp_path / f"game.ntn{extension}"
    named.write_bytes(data)
    unnamed = tmp_path / "game.ntn"  # compressed, but not named so: told from its first bytes
    unnamed.write_bytes(data)
    for path in (named, unnamed):
        (game,), errors = read_all(path)
        assert not errors and essentials(game.record) == essentials(sample_games()[0])
    piped = CliRunner().invoke(cli, ["convert", "-", "--to", "jsonl"], input=data)
    assert piped.exit_code == 0 and "Петрова А." in piped.stdout


def test_standard_input_named_twice_is_read_once():
    result = CliRunner().invoke(cli, ["validate", "-", "-"], input=SAMPLE.read_bytes())
    assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
    assert re.match(r"1 files?, 1 games?, 54 turns", result.stdout)  # the second read finds nothing left
    assert "error: cannot tell the notation of <stdin>" in result.stderr


def test_a_record_under_a_long_comment_is_still_told_and_other_text_is_not(tmp_path):
    """The notation is told from the first 60 lines, and from up to 64 KiB when they tell nothing: a
    hand-written NTN record in a .txt file, its tournament rules in a comment before the first roll."""
    rules = "".join(f"  пункт {number} — правила игры, контроль времени, запись партий.\n" for number in range(1, 120))
    record = tmp_path / "kazan.txt"
    record.write_text(f'[Event "Кубок"]\n\n{{ Регламент:\n{rules}}}\n1. 63: 24/18/15    51: 24/19/18\n*\n',
                      encoding="utf-8")
    prose = tmp_path / "readme.txt"
    prose.write_text("These are the records of the cup.\n" * 200, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(record), str(prose)])
    assert result.exit_code == 2 and re.match(r"1 files?, 1 games?, 2 turns, 1 legal game", result.stdout)
    assert f"error: cannot tell the notation of {prose}" in result.stderr


def test_a_matlab_data_file_is_refused_by_name_and_the_other_inputs_read(tmp_path):
    """MATLAB's data files share MAT's extension: one was read as one game of syntax findings."""
    matlab = tmp_path / "samples.mat"
    matlab.write_bytes(b"MATLAB 5.0 MAT-file, Platform: GLNXA64, Created on: Mon Dec  7 16:00:00 2026".ljust(116)
                       + bytes(range(256)) * 4)
    result = CliRunner().invoke(cli, ["validate", str(matlab), str(SAMPLE)])
    assert result.exit_code == 2 and re.match(r"1 files?, 1 games?, 54 turns", result.stdout)
    assert f"{matlab}: a MATLAB data file, not a backgammon match (MAT) record" in result.stderr


def test_zip_archives_are_read_like_directories():
    games, errors = read_all(HOSTILE / "games.zip")
    archive = str(HOSTILE / "games.zip")
    assert [game.source for game in games] == [f"{archive}:club/long/club-evening.ntn"] * 2 + [
        f"{archive}:club/short/club-night-cube.ntn.gz"]
    assert games[2].record.tags["Black"] == "Петрова А."  # a gzipped member
    assert errors == [f"{archive}:inner.zip: an archive inside an archive is not read; unpack {archive} and "
                      "name inner.zip itself"]  # and notes/README.md is no record: not read
    only_short, _ = read_all(HOSTILE / "games.zip", pattern="club/SHORT/*")  # a path, in any case
    assert [game.source for game in only_short] == [f"{archive}:club/short/club-night-cube.ntn.gz"]


def test_directories_are_walked_with_a_glob(tmp_path):
    files = {"a/one.ntn": SAMPLE.read_bytes(), "a/b/c/two.MAT": written("mat", sample_games()).encode(),
             "a/b/three.ntn.gz": gzip.compress(SAMPLE.read_bytes()), "skip/notes.md": b"notes",
             "x.sgf": written("sgf", sample_games()).encode()}
    for relative, data in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_bytes(data)
    games, errors = read_all(tmp_path)
    assert not errors
    assert [Path(game.source).relative_to(tmp_path).as_posix() for game in games] == [
        "x.sgf", "a/one.ntn", "a/b/three.ntn.gz", "a/b/c/two.MAT"]  # the order of a sorted walk, top first
    mats, _ = read_all(tmp_path, pattern="*.mat")
    assert [Path(game.source).name for game in mats] == ["two.MAT"]
    nothing, errors = read_all(tmp_path, pattern="*.xml")
    assert not nothing and errors == [f"{tmp_path}: no file here matches --glob '*.xml'; name the files to read "
                                      "with --glob, e.g. '*.txt' (or add --allow-empty to accept it)"]


def test_a_linked_folder_in_a_tree_is_reported_not_skipped(tmp_path):
    (tmp_path / "event" / "round1").mkdir(parents=True)
    (tmp_path / "event" / "round1" / "a.ntn").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "b.ntn").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "event" / "round2").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "event" / "round1" / "loop").symlink_to(tmp_path / "event")
    games, errors = read_all(tmp_path / "event", pattern="*.ntn")
    assert [Path(game.source).name for game in games] == ["a.ntn"] * len(sample_games())
    message = ": a link to a folder is not followed, so that no folder is read twice; name it itself to read it"
    assert errors == [f"{tmp_path / 'event' / 'round2'}{message}", f"{tmp_path / 'event' / 'round1' / 'loop'}{message}"]
    named, errors = read_all(tmp_path / "event" / "round2")  # as the message says
    assert [Path(game.source).name for game in named] == ["b.ntn"] * len(sample_games()) and not errors


def test_a_folder_that_cannot_be_listed_is_reported_and_the_rest_read(tmp_path, monkeypatch):
    for folder in ("a", "b", "c"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"{folder}.ntn").write_bytes(SAMPLE.read_bytes())
    listed = os.scandir

    def scandir(path):  # (root, who may run the tests, lists a folder whatever its mode)
        if os.path.basename(path) == "b":
            raise PermissionError(13, "Permission denied", path)
        return listed(path)

    monkeypatch.setattr(os, "scandir", scandir)
    games, errors = read_all(tmp_path)
    assert [Path(game.source).name for game in games] == ["a.ntn"] * len(sample_games()) + ["c.ntn"] * len(
        sample_games())
    assert errors == [f"{tmp_path / 'b'}: cannot list this folder: Permission denied; check that you may read it, "
                      "or name the files to read"]
    whole, errors = read_all(tmp_path / "b")
    assert not whole and errors == [f"{tmp_path / 'b'}: cannot list this folder: Permission denied; check that you "
                                    "may read it, or name the files to read"]


def test_what_macos_writes_beside_a_file_is_no_record(tmp_path):
    """A zip made on a Mac holds ``__MACOSX/round1/._a.ntn`` beside ``round1/a.ntn``, and a Mac's copy
    to a FAT disk leaves ``._a.ntn``: an AppleDouble header each, read as a game with a syntax error."""
    apple_double = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        " + bytes(12)
    (tmp_path / "a.ntn").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "._a.ntn").write_bytes(apple_double)
    (tmp_path / "._b.ntn").write_bytes(SAMPLE.read_bytes())  # a record so named is read
    archive = tmp_path / "mac.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("round1/a.ntn", SAMPLE.read_bytes())
        zipped.writestr("__MACOSX/round1/._a.ntn", apple_double)
    games, errors = read_all(tmp_path)
    assert not errors
    assert list(dict.fromkeys(game.source for game in games)) == [
        str(tmp_path / "._b.ntn"), str(tmp_path / "a.ntn"), f"{archive}:round1/a.ntn"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_in_a_folder_is_reported_not_waited_on(tmp_path):
    """Opening a named pipe waits for a writer: one in a folder (``x.ntn``, ``y.zip``) hung the command."""
    (tmp_path / "a.ntn").write_bytes(SAMPLE.read_bytes())
    os.mkfifo(tmp_path / "x.ntn")
    os.mkfifo(tmp_path / "y.zip")
    (tmp_path / "gone.ntn").symlink_to(tmp_path / "nowhere.ntn")  # a broken link is still opened, and says so
    games, errors = read_all(tmp_path)
    assert [Path(game.source).name for game in games] == ["a.ntn"] * len(sample_games())
    pipe = ": a pipe or a device, not a file, is not read in a folder (it could wait forever); name it itself to " \
        "read it"
    assert errors == [f"{tmp_path / 'gone.ntn'}: cannot read: No such file or directory; check that the file exists "
                      "and that you may read it", f"{tmp_path / 'x.ntn'}{pipe}", f"{tmp_path / 'y.zip'}{pipe}"]


@pytest.mark.parametrize(("path", "named"), [
    ("тур.ntn", "тур.ntn"), ("\udcf2\udcf3\udcf0.ntn", "\\xf2\\xf3\\xf0.ntn"),  # bytes kept as surrogates
    ("a\ud800b.ntn", "a\\ud800b.ntn"), ("\udcf2\ud800", "\\udcf2\\ud800")])  # surrogates that stand for no byte
def test_shown_names_write_as_utf8(path, named):
    assert shown(path) == named
    named.encode("utf-8")


def test_a_file_name_that_is_not_utf8_is_named_with_its_bytes_escaped(tmp_path):
    """A CP1251 name, as archives made on Windows leave them, stopped ``validate`` on a UTF-8
    terminal and ``stats --out`` anywhere: Python keeps the bytes as lone surrogates, which no UTF-8
    output writes. The file is read, and named with those bytes as \\xNN."""
    folder = tmp_path / "event"
    folder.mkdir()
    with open(os.fsencode(folder) + b"/" + "тур".encode("cp1251") + b".ntn", "wb") as out:
        out.write(b'[Event "x"]\n1. 33: 24/21 zz\n')
    label = f"{folder}/\\xf2\\xf3\\xf0.ntn"
    games, errors = read_all(folder)
    assert [game.source for game in games] == [label] and not errors
    strict = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}  # as on a desktop's UTF-8 locale
    for jobs in ("1", "2"):
        result = run_nardy("validate", str(folder), "--jobs", jobs, env=strict)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert result.stdout.startswith(f"{label}:2:14: game 1 (? – ?): syntax: expected a move")
    report = CliRunner().invoke(cli, ["stats", str(folder), "-q", "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    assert (tmp_path / "report" / "findings.csv").read_text(encoding="utf-8").splitlines()[1].startswith(label)


def test_an_output_name_that_is_not_utf8_is_named_with_its_bytes_escaped(tmp_path):
    out = os.fsdecode(os.fsencode(tmp_path) + b"/" + "отчёт".encode("cp1251"))
    named = f"{tmp_path}/\\xee\\xf2\\xf7\\xb8\\xf2"
    strict = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    for attempt in ("report written to", "already holds a report"):
        result = run_nardy("stats", str(SAMPLE), "-q", "--out", out, env=strict)
        assert "Traceback" not in result.stderr and f"{named}" in result.stderr and attempt in result.stderr
    converted = run_nardy("convert", str(SAMPLE), "--to", "json", "-o", out, env=strict)
    assert f"{named}: is a directory; name the output file" in converted.stderr


def damage(data: bytes, *, cut: bool) -> bytes:
    """``data`` cut at 60%, or with 32 bytes scrambled there."""
    at = len(data) * 3 // 5
    return data[:at] if cut else data[:at] + bytes(byte ^ 0xA5 for byte in data[at:at + 32]) + data[at + 32:]


@pytest.mark.slow
@pytest.mark.parametrize("extension", [".gz", ".xz"])
@pytest.mark.parametrize("cut", [True, False], ids=["cut-short", "scrambled"])
def test_a_damaged_compressed_file_is_named_and_the_rest_read(tmp_path, extension, cut):
    big = (ROOT / "sample_games/generated/long-200.ntn").read_bytes()
    bad = tmp_path / f"bad.ntn{extension}"
    bad.write_bytes(damage(COMPRESS[extension](big), cut=cut))
    good = tmp_path / "good.ntn"
    good.write_bytes(SAMPLE.read_bytes())
    games, errors = read_all(bad, good)
    assert len(errors) == 1 and errors[0].startswith(f"{bad}: cannot read after line ")
    assert "damaged, cut short" in errors[0]
    read_before = [game for game in games if game.source == str(bad)]
    assert len(read_before) > 20  # the games before the damage
    assert games[-1].source == str(good)


def test_a_damaged_archive_is_named_and_the_rest_read(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a-broken.zip").write_bytes(b"PK\x03\x04 this is no archive")
    with zipfile.ZipFile(tree / "b-crc.zip", "w") as archive:
        archive.writestr("first.ntn", SAMPLE.read_bytes())
        archive.writestr("second.ntn", SAMPLE.read_bytes())
    raw = bytearray((tree / "b-crc.zip").read_bytes())
    at = raw.index(b"[Event") + 2  # inside the first member's stored data
    raw[at] ^= 0xFF
    (tree / "b-crc.zip").write_bytes(bytes(raw))
    (tree / "c-good.ntn").write_bytes(SAMPLE.read_bytes())
    games, errors = read_all(tree)
    assert [game.source for game in games] == [f"{tree}/b-crc.zip:second.ntn", f"{tree}/c-good.ntn"]
    assert errors[0].startswith(f"{tree}/a-broken.zip: not a readable zip archive (")
    assert errors[1].startswith(f"{tree}/b-crc.zip:first.ntn: cannot read from its start: Bad CRC-32")
    assert errors[1].endswith("fetch it again, or unpack it yourself")


@pytest.mark.slow
def test_zip_member_names_never_become_output_paths(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    with zipfile.ZipFile(work / "evil.zip", "w") as archive:
        for member in ("../../escaped.ntn", "/etc/nardy-evil.ntn", "..\\..\\windows.ntn", "games.ntn"):
            archive.writestr(member, SAMPLE.read_bytes())
    monkeypatch.chdir(work)
    before = set(tmp_path.rglob("*"))
    result = CliRunner().invoke(cli, ["convert", "evil.zip", "--to", "ntn", "-o", "all.ntn"])
    assert result.exit_code == 0, result.output
    assert set(tmp_path.rglob("*")) - before == {work / "all.ntn"}
    assert not Path("/etc/nardy-evil.ntn").exists()
    assert len(read_all(work / "all.ntn")[0]) == 4


# --- fuzzing every reader --------------------------------------------------------------------


def seed_files() -> dict[str, bytes]:
    """Real files of every notation: the samples, the test data, a few corpus files."""
    seeds = {path.name: path.read_bytes() for path in [
        *(ROOT / "sample_games").glob("[ls]*/*.ntn"), *(ROOT / "tests/data/mat").glob("*.mat"),
        *(ROOT / "tests/data/sgf").glob("*.sgf"), *HOSTILE.glob("*.ntn"), *HOSTILE.glob("*.mat")]}
    seeds.update((path.name, path.read_bytes()) for path in corpus_files("**/*.txt")[:12])
    games = list(notations.notation("ntn").read_games(io.StringIO(KAZAN.read_text(encoding="utf-8"))))[:3]
    seeds.update({f"kazan.{fmt}": written(fmt, games).encode() for fmt in ("jsonl", "json", "sgf", "mat")})
    return seeds


SEEDS = seed_files()
SEED_NAMES = sorted(SEEDS)


@st.composite
def edited(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` after a few random edits: bytes inserted, deleted or replaced, lines doubled or dropped."""
    noise = st.sampled_from([b"(", b")", b"{", b"}", b"[", b"]", b'"', b"\\", b";", b":", b"\r", b"\n", b"\x00",
                             b"\xd0", b"\xff", b" 1-0 ", b"63:", b"(;GM[6]", b" Game 2\n", b"double", b"\t"])
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "double-line", "drop-line", "cut"]))
        if kind == "insert":
            data = data[:at] + draw(st.one_of(noise, st.binary(min_size=1, max_size=6))) + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 40)):]
        elif kind == "replace":
            data = data[:at] + draw(noise) + data[at + 1:]
        elif kind == "cut":
            data = data[:at]
        else:
            lines = data.splitlines(keepends=True)
            if lines:
                index = draw(st.integers(0, len(lines) - 1))
                lines[index:index + 1] = [lines[index]] * 2 if kind == "double-line" else []
                data = b"".join(lines)
    return data


@fuzz
@given(st.binary(max_size=3000), st.sampled_from([None, *notations.NAMES]))
def test_random_bytes_never_crash_any_reader(data, fmt):
    check_located(data, "random.bin", fmt)


@settings(fuzz, max_examples=30)
@given(st.lists(st.sampled_from([":", "x", "{", "(", "[", '"', " ", "\n", "63:", " Game 1\n", ";"]), min_size=1,
                max_size=8).map("".join), st.integers(200, 2000), st.sampled_from(notations.NAMES))
def test_mistakes_repeated_keep_at_most_the_cap(piece, times, fmt):
    """Issue 15.1's class: whatever mistake is repeated, a game keeps at most ERROR_LIMIT errors and
    counts the others (check_located asserts the cap)."""
    check_located((piece * times).encode(), "repeated.txt", fmt)


@pytest.mark.slow
@settings(fuzz, max_examples=150)
@given(st.sampled_from(SEED_NAMES).flatmap(lambda name: st.tuples(st.just(name), edited(SEEDS[name]))),
       st.sampled_from([None, None, *notations.NAMES]))
def test_edited_real_files_never_crash_and_every_error_is_located(named, fmt):
    name, data = named
    check_located(data, name, fmt)


@functools.lru_cache
def three_games(fmt: str) -> tuple[bytes, int, int, list[GameRecord]]:
    """A file of three games in ``fmt``, the byte range of the middle game's body, and the games.

    The range leaves out what separates the games: the MAT ``Game 2`` line and the JSON ``{``
    before it, the empty line after it in NTN (a game cut short in its tags, with no empty
    line after them, takes the next game's tags: formats/ntn.md says so).
    """
    games = list(notations.notation("ntn").read_games(io.StringIO(KAZAN.read_text(encoding="utf-8"))))[:3]
    if fmt == "mat":  # one money session: the games share the match's headers, no Crawford game
        for game in games:
            game.tags = {**games[0].tags, "Result": game.tags["Result"], "MatchLength": "0", "Score": "0-0"}
    text = written(fmt, games).encode()
    starts = {"ntn": b"[Event", "mat": b" Game ", "sgf": b"(;FF", "jsonl": b'{"tags"', "json": b'{\n  "tags"'}[fmt]
    second = [match.start() for match in re.finditer(re.escape(starts), text)][1:3]
    body = text.index(b"\n", second[0]) + 1 if fmt in ("mat", "json") else second[0]
    end = second[1] - (2 if fmt == "ntn" else 1)
    return text, body, end, list(read_source(bytes_source(text, f"three.{fmt}")))


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
@settings(fuzz, max_examples=40)
@given(data=st.data())
def test_a_broken_game_spares_the_games_around_it(fmt, data):
    text, start, end, games = three_games(fmt)
    assert len(games) == 3 and not any(game.errors for game in games)
    middle = data.draw(edited(text[start:end]))
    broken = text[:start] + middle + text[end:]
    records = check_located(broken, f"three.{fmt}", fmt)
    assert essentials(records[0]) == essentials(games[0])
    # NTN gives comments that stand before a tag section to the game that follows, so text of the
    # broken game turned into a comment (an inserted ';') may join the last game's opening comments
    last, expected = essentials(records[-1]), essentials(games[2])
    last_comments, expected_comments = last.pop("comments", []), expected.pop("comments", [])
    assert last == expected
    assert last_comments[len(last_comments) - len(expected_comments):] == expected_comments


# --- pathological sizes: bounded time and memory --------------------------------------------

MIB = 1 << 20
LONG_LINES = {  # a 10 MiB line (the x) where each reader is weakest: a comment, a value, a header, a string
    "comment.ntn": ('[Variant "long"]\n\n1. 31: 24/21 24/23 {', "} 1-0\n"),
    "header.mat": ('; [Site "', '"]\n 1 point match\n\n Game 1\n a : 0   b : 0\n'),
    "value.sgf": ("(;FF[4]GM[6]C[", "];W[31hehc])\n"),
    "string.jsonl": ('{"tags": {"Event": "', '"}, "actions": []}\n'),
}


def measured(action: Callable[[], object]) -> tuple[float, int]:
    """CPU seconds (a loaded machine stretches only wall time) and peak traced bytes of ``action``."""
    tracemalloc.start()
    started = time.process_time()
    try:
        action()
        return time.process_time() - started, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", LONG_LINES)
def test_a_10_mib_line_is_read_in_bounded_time_and_memory(tmp_path, name):
    path = tmp_path / name
    before, after = LONG_LINES[name]
    path.write_text(before + "x" * 10 * MIB + after, encoding="utf-8")
    seconds, peak = measured(lambda: [replay(game.record) for game in read_all(path)[0]])
    assert seconds < 5 and peak < 5 * path.stat().st_size, (seconds, peak)


@pytest.mark.slow
def test_long_first_lines_are_not_all_kept_to_tell_the_notation(tmp_path):
    path = tmp_path / "blank-start.ntn"
    path.write_text('[Variant "long"]\n\n' + (" " * MIB + "\n") * 60 + "1. 31: 24/21 24/23 1-0\n", encoding="ascii")
    seconds, peak = measured(lambda: read_all(path))
    assert peak < 10 * MIB, peak  # the 60 first lines, 60 MiB, were all kept before


REGEX_TRAPS = {  # lines that took quadratic or cubic time, or crashed: (text, times) pairs
    "mat": [(" 1 point match\n Game 1\n", 1), (" ", MIB), (":1\n; [k", 1), (" ", MIB), ("\n", 1)],
    "ntn": [('[Event "', 1), ("\\x", MIB), ("\n1. {", 1), ("\\}", MIB), ("\n", 1)],
    "sgf": [("(", MIB), ("\n", 1), ("x", MIB), ("\n(;GM[6]", 1), ("(", MIB), ("\n", 1)],
    "jsonl": [("[", MIB), ("\n", 1), ('"x" ', MIB), ("\n", 1)],
}


@pytest.mark.slow
@pytest.mark.parametrize("fmt", REGEX_TRAPS)
def test_no_line_makes_a_reader_backtrack_or_crash(fmt):
    text = "".join(part * times for part, times in REGEX_TRAPS[fmt])
    started = time.process_time()  # CPU time: a backtracking pattern takes minutes, a loaded machine only wall time
    check_located(text.encode(), f"trap.{fmt}", fmt)
    assert time.process_time() - started < 5


TINY = {
    "ntn": '[Variant "short"]\n1. 31: 8/5 6/5 *\n\n',
    "jsonl": '{"tags": {"Variant": "short"}, "actions": [{"side": "w", "dice": [3, 1], "play": "8/5 6/5"}]}\n',
    "sgf": "(;GM[6];W[31hehc])\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("fmt, count", [("ntn", 100_000), ("jsonl", 10_000), ("sgf", 10_000)])
def test_many_tiny_games_stream_in_constant_memory(tmp_path, fmt, count):
    """10^5 NTN games (10^6 take a minute), a window of them traced: what it leaves behind is the
    reading buffers (a chunk of 64 KiB and its lines), never the games (about 1 KB each)."""
    path = tmp_path / f"tiny.{fmt}"
    path.write_text(TINY[fmt] * count, encoding="utf-8")
    games = iter_games([str(path)], on_error=pytest.fail)
    window = range(count // 2, count // 2 + min(5000, count // 4))
    for index, game in enumerate(games):  # noqa: B007  (the last game is checked after the loop)
        if index == window.start:
            tracemalloc.start()
        elif index == window.stop:
            grown = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
    assert index == count - 1 and game.record.actions
    assert grown < 1_000_000, grown


@pytest.mark.slow
def test_deep_sgf_nesting(tmp_path):
    levels = 100_000
    variation = "(;GM[6];W[31hehc](;B[21])" + "(;B[31]" * levels + ")" * (levels + 1) + "\n(;GM[6];B[31hehc])\n"
    unclosed = "(;GM[6];W[31hehc]" + "(;C[x]" * levels + "\n(;GM[6];B[31hehc])\n"
    for text in (variation, unclosed):
        path = tmp_path / "deep.sgf"
        path.write_text(text, encoding="ascii")
        started = time.process_time()
        games, errors = read_all(path)
        assert time.process_time() - started < 5
        assert not errors and len(games) == 2 and games[1].record.actions[0].dice == (3, 1)
    assert games[0].record.errors[0].message == "expected ')' to close the game tree (100001 open), found the next " \
                                                "game tree"
    path.write_text(variation.replace("(;B[31]" * levels, "(;B[31]" * 10_000).replace(")" * levels, ")" * 10_000))
    seconds, peak = measured(lambda: read_all(path))  # traced, 10^4 levels: tracing is slow
    assert peak < 2 * MIB, peak  # nothing kept per level: the lexer and the tree reader only count them


# --- the fixes this issue made in the readers ------------------------------------------------

HUGE = "9" * 5000  # int() refuses more than 4300 digits
HUGE_NUMBERS = {
    "mat": f" {HUGE} point match\n 1 point match\n Game {HUGE}\n Game 1\n a : {HUGE}  b : 0\n"
           f" {HUGE}) 31: 8/5 6/5   Doubles => {HUGE}\n     Wins {HUGE} points\n",
    "ntn": f'[Variant "long"]\n[MatchLength "{HUGE}"]\n[Score "{HUGE}-1"]\n\n1. 31: 24/21 24/23 {HUGE}-0\n',
    "sgf": f"(;GM[6]MI[length:{HUGE}][game:{HUGE}][ws:{HUGE}][bs:{HUGE}]RE[W+{HUGE}]AE[a:y]CV[{HUGE}];W[31hehc])\n",
    "jsonl": '{"tags": {}, "actions": [{"side": "w", "dice": [3, 1], "play": "24/21", "value": ' + HUGE + '}]}\n',
}


@pytest.mark.parametrize("fmt", HUGE_NUMBERS)
def test_numbers_of_thousands_of_digits_are_mistakes_not_crashes(fmt):
    records = check_located(HUGE_NUMBERS[fmt].encode(), f"huge.{fmt}", fmt)
    assert records
    for target in exports.TARGETS:  # and the writers take what the readers kept
        written(target, records)


def test_a_non_ascii_letter_in_sgf_is_a_mistake():
    (record,) = check_located("(;GM[6]Жx[1];W[31hehc])\n".encode(), "letter.sgf", "sgf")
    assert [str(error) for error in record.errors] == ["1:8: expected '(', ';', ')' or a property, found 'Ж'"]


def test_findings_about_a_whole_game_have_a_place():
    (record,) = check_located(b'; [Variation "Backgammonx"]\nno match here\n', "headers.mat", "mat")
    assert record.line == 2
    (finding, *_) = replay(record).findings
    assert (finding.line, finding.column) == (2, 1) and "unknown variant" in finding.message
    assert replay(record).rules is None  # not judged, under no rules


def test_an_error_quotes_at_most_240_characters_of_the_input():
    (record,) = check_located(b" 1 point match\n" + b"x" * 10_000 + b"\n", "long.mat", "mat")
    message = record.errors[0].message
    assert len(message) <= 243 and message.startswith("expected a header") and message.endswith("xxx'")


def test_json_lines_with_a_broken_first_line_keep_the_others():
    records = check_located(b'{"tags": \n{"tags": {"White": "A"}}\n{"tags": {"White": "B"}}\n', "x.jsonl", "jsonl")
    assert [record.tags.get("White") for record in records] == [None, "A", "B"]
    assert [str(error) for error in records[0].errors] == ["3:1: invalid JSON: expecting ',' delimiter"]


def test_a_json_array_broken_after_a_game_keeps_the_next_one():
    """A '[' where the ',' between games belongs (found by the fuzz test): the next game was read as
    the item of a nested array, so it was lost, and the outer array reported unclosed."""
    text = b'[\n{\n  "tags": {"White": "A"}\n}[\n{\n  "tags": {"White": "B"}\n}\n]\n'
    records = check_located(text, "x.json", "json")
    assert [record.tags.get("White") for record in records] == ["A", None, "B"]
    assert [str(error) for error in records[1].errors] == [
        "4:2: expected ',' or ']' after a game in the array, found '['"]


def json_three_games() -> tuple[str, list[GameRecord]]:
    """The three games of :func:`three_games` as the JSON array ``nardy convert --to json`` writes."""
    text, _, _, games = three_games("json")
    return text.decode(), games


def test_a_json_game_closed_too_early_spares_the_next_one():
    """The middle game lost its '"actions": [' and the '{' of its first action (found by the fuzz
    test): its object closed at that action's end, the other actions became items of the array,
    and the ']' that closed its actions closed the array; the last game came out as an error."""
    text, games = json_three_games()
    second = text.index('{\n  "tags"', text.index('{\n  "tags"') + 1)
    cut = text.index('  "actions": [\n    {\n', second)
    broken = text[:cut] + text[cut + len('  "actions": [\n    {\n'):]
    records = check_located(broken.encode(), "three.json", "json")
    assert len(records) == 3
    assert game_to_dict(records[0]) == game_to_dict(games[0]) and game_to_dict(records[2]) == game_to_dict(games[2])
    third = broken.count("\n", 0, broken.index('{\n  "tags"', cut)) + 1
    assert records[1].tags == games[1].tags and [error.message for error in records[1].errors] == [
        "unknown game field 'dice': expected tags, comments, actions, result (an action's fields belong in "
        '"actions")',
        'expected a game (an object whose first field is "tags", "actions" or "result"), found \'{\': skipped to '
        f"the next game, on line {third}"]


@pytest.mark.parametrize("layout", ["pretty", "one line"])
@pytest.mark.parametrize("broken", [1, 2])
def test_a_broken_game_in_a_json_array_is_the_only_finding(layout, broken):
    """A game whose JSON is broken costs only itself, wherever it stands and however the array is
    laid out (the last game's error also reported the array unclosed, and on one line the games
    after a broken one were lost)."""
    text, games = json_three_games()
    if layout == "one line":
        text = json.dumps(json.loads(text), ensure_ascii=False) + "\n"
    starts = [match.start() for match in re.finditer(r'\{\s*"tags"', text)]
    at = text.index('"number"', starts[broken])
    records = check_located((text[:at] + "," + text[at:]).encode(), "three.json", "json")
    assert [bool(record.errors) for record in records] == [index == broken for index in range(3)]
    assert records[broken].errors[0].message.startswith("invalid JSON: ")
    assert all(game_to_dict(records[index]) == game_to_dict(games[index]) for index in range(3) if index != broken)


@pytest.mark.parametrize("game, message", [
    ({"Tags": {}}, "unknown game field 'Tags': expected tags, comments, actions, result"),
    ({"actions": [{"side": "w", "kind": "roll", "dice": [3, 1], "play": "8/5 6/5", "comment": "x"}]},
     "action 1: unknown field 'comment': expected side, kind, dice, play, value, number, comments, analysis"),
    ({"actions": [{"side": "w", "knd": "double", "value": 2}]}, "action 1: unknown field 'knd'"),
    ({"actions": [{"kind": "roll", "dice": [3, 1], "play": "8/5 6/5"}]}, 'action 1: a roll action needs "side"'),
])
def test_an_unknown_field_is_reported_not_dropped_and_a_missing_side_named(game, message):
    (record,) = check_located((json.dumps({"tags": {"Variant": "short"}, "actions": [], "result": None, **game})
                               + "\n").encode(), "x.jsonl", "jsonl")
    assert len(record.errors) == 1 and record.errors[0].message.startswith(message)


def test_a_json_array_with_a_comma_left_out_keeps_both_games():
    records = check_located(b'[{"tags": {"White": "A"}} {"tags": {"White": "B"}}]\n', "x.json", "json")
    assert [record.tags.get("White") for record in records] == ["A", "B"]


@pytest.mark.parametrize("where", ["--jobs 2", "--dask local:2"])
def test_validate_with_workers_survives_what_the_readers_survive(tmp_path, where):
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100_000 + "\n", encoding="ascii")
    result = CliRunner().invoke(cli, ["validate", str(path), *where.split(), "-q"])
    assert result.exit_code == 1 and "syntax" in result.stdout, result.output


# --- output safety ---------------------------------------------------------------------------


def convert(*args: str, **kwargs: Any):
    return CliRunner().invoke(cli, ["convert", *args], **kwargs)


def test_output_is_written_to_a_temporary_file_then_renamed(tmp_path, monkeypatch):
    out = tmp_path / "out.ntn"
    out.write_text("old\n", encoding="utf-8")
    seen: list[tuple[str, list[str]]] = []
    real_write = notations.Target.write_prepared

    def watching_write(target: notations.Target, games: Iterator, stream: TextIO, gather: Callable) -> Iterable[str]:
        warnings = real_write(target, games, stream, gather)
        seen.append((out.read_text(encoding="utf-8"), sorted(path.name for path in tmp_path.iterdir())))
        return warnings

    monkeypatch.setattr(notations.Target, "write_prepared", watching_write)
    result = convert(str(SAMPLE), "--to", "ntn", "-o", str(out), "--force")
    assert result.exit_code == 0, result.output
    (old_text, during), = seen
    assert old_text == "old\n" and len(during) == 2 and re.fullmatch(r"\.out\.ntn\.\d+-\w+\.tmp", during[0])
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out.ntn"]
    assert "Петрова А." in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("failure", [RuntimeError("writer bug"), OSError(errno.ENOSPC, "No space left on device")])
@pytest.mark.parametrize("existing", [False, True])
def test_a_failed_conversion_leaves_no_partial_output(tmp_path, monkeypatch, failure, existing):
    out = tmp_path / "out.sgf"
    if existing:
        out.write_text("old\n", encoding="utf-8")

    def failing_write(target: notations.Target, games: Iterator, stream: TextIO, gather: Callable) -> list[str]:
        stream.write("(;FF[4]GM[6]" * 1000)
        raise failure

    monkeypatch.setattr(notations.Target, "write_prepared", failing_write)
    result = convert(str(SAMPLE), "--to", "sgf", "-o", str(out), *(["--force"] if existing else []))
    assert sorted(path.name for path in tmp_path.iterdir()) == (["out.sgf"] if existing else [])
    if existing:
        assert out.read_text(encoding="utf-8") == "old\n"
    if isinstance(failure, OSError):  # a full disk is the user's to fix: a message, no traceback
        assert result.exit_code == 2 and "cannot write: No space left on device" in result.output
    else:  # a bug: the command line says so (with --debug, the traceback)
        assert result.exception is failure or "writer bug" in result.stderr


def test_an_interrupted_write_leaves_nothing(tmp_path):
    with pytest.raises(KeyboardInterrupt), atomic_output(str(tmp_path / "out.ntn")) as stream:
        stream.write("half a game")
        raise KeyboardInterrupt
    assert not list(tmp_path.iterdir())


def test_an_output_never_overwrites_an_input(tmp_path):
    game = tmp_path / "games" / "game.ntn"
    game.parent.mkdir()
    game.write_bytes(SAMPLE.read_bytes())
    (tmp_path / "link.ntn").symlink_to(game)
    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("game.ntn", SAMPLE.read_bytes())
    before = {path: path.read_bytes() for path in (game, archive)}
    for inputs, output in (([game], game), ([game], tmp_path / "link.ntn"),
                           ([game], tmp_path / "games" / ".." / "games" / "game.ntn"), ([archive], archive),
                           ([game.parent], game.parent / "all.ntn"), ([tmp_path / "link.ntn"], game)):
        result = convert(*map(str, inputs), "--to", "ntn", "-o", str(output), "--force")
        assert result.exit_code == 2 and ("is one of the inputs" in result.output
                                          or "is inside the input directory" in result.output), result.output
    assert {path: path.read_bytes() for path in before} == before
    assert not (game.parent / "all.ntn").exists()


def test_an_existing_output_is_replaced_only_with_force(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("mine\n", encoding="utf-8")
    refused = convert(str(SAMPLE), "--to", "jsonl", "-o", str(out))
    assert refused.exit_code == 2 and "already exists; add --force to replace it" in refused.output
    assert out.read_text(encoding="utf-8") == "mine\n"
    assert convert(str(SAMPLE), "--to", "jsonl", "-o", str(out), "--force").exit_code == 0
    assert "Петрова А." in out.read_text(encoding="utf-8")


def test_dash_is_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = convert(str(SAMPLE), "--to", "jsonl", "-o", "-")
    assert result.exit_code == 0 and "Петрова А." in result.stdout and not list(tmp_path.iterdir())


def test_an_output_directory_is_refused(tmp_path):
    result = convert(str(SAMPLE), "--to", "ntn", "-o", str(tmp_path), "--force")
    assert result.exit_code == 2 and "is a directory" in result.output
    missing = convert(str(SAMPLE), "--to", "ntn", "-o", str(tmp_path / "no" / "such" / "out.ntn"))
    assert missing.exit_code == 2 and "cannot write" in missing.output


# --- messages --------------------------------------------------------------------------------


def bad_inputs(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    """Inputs that cannot be read: the arguments, and what the message must say."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "garbage.bin").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "broken.ntn.gz").write_bytes(damage(gzip.compress(KAZAN.read_bytes() * 30), cut=True))
    (tmp_path / "broken.zip").write_bytes(b"PK\x03\x04 cut short")
    game = str(SAMPLE)
    return {
        "missing": ([str(tmp_path / "nope.ntn")], "no such file or directory"),
        "garbage": ([str(tmp_path / "garbage.bin")], "cannot tell the notation"),
        "cut-short gzip": ([str(tmp_path / "broken.ntn.gz")], "damaged, cut short"),
        "bad zip": ([str(tmp_path / "broken.zip")], "not a readable zip archive"),
        "archive in archive": ([str(HOSTILE / "games.zip")], "an archive inside an archive is not read"),
        "empty directory": ([str(tmp_path / "empty")], "name the files to read with --glob"),
        "glob matching nothing": ([str(HOSTILE), "--glob", "*.sgf"], "no file here matches --glob '*.sgf'"),
        "unknown encoding": ([game, "--encoding", "klingon"], "unknown encoding 'klingon'"),
    }


@pytest.mark.slow
@pytest.mark.parametrize("command", ["validate", "convert"])
def test_bad_inputs_give_a_message_and_exit_2_never_a_traceback(tmp_path, command):
    for case, (args, message) in bad_inputs(tmp_path).items():
        extra = ["--to", "jsonl", "-o", str(tmp_path / "out.jsonl"), "--force"] if command == "convert" else []
        result = CliRunner().invoke(cli, [command, *args, *extra])
        assert result.exit_code == 2, (case, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (case, result.exception)
        assert "Traceback" not in result.output and message in result.stderr, (case, result.stderr)
        assert "error: " in result.stderr.lower(), case  # "error: ..." for inputs, "Error: ..." for usage


# --- issue 15: bounded memory, safe outputs, clean shutdown ---------------------------------

MEMORY_LIMIT = 150 * MIB
ERROR_HEAVY = {  # about 1 MiB of mistakes: one line of them, or a line each
    "one line": ":" * MIB,
    "lines": ":\n" * (MIB // 2),
}


def run_nardy(*args: str, limit: int | None = None, timeout: float = 120, **popen: Any
              ) -> subprocess.CompletedProcess:
    """``nardy ARGS`` in a fresh interpreter, its address space (and its workers') limited to ``limit`` bytes."""
    prelude = (f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit})); " if limit else "")
    code = prelude + "import sys; from nardy_cli.cli.main import cli; sys.exit(cli(sys.argv[1:]))"
    popen.setdefault("capture_output", True)
    return subprocess.run([sys.executable, "-c", code, *args], timeout=timeout, text=True, cwd=ROOT, check=False,
                          **popen)


@pytest.mark.slow
@pytest.mark.parametrize("shape", ERROR_HEAVY)
@pytest.mark.parametrize("fmt", notations.NAMES)
def test_error_heavy_inputs_run_in_bounded_memory(tmp_path, fmt, shape):
    """Issue 15.1: a file of nothing but mistakes took 1.4 KB a byte (1 MiB: 1.4 GB). Under a 150 MB
    address-space limit every reader finishes, lists 100 errors of a game and counts the others."""
    path = tmp_path / "mistakes.txt"
    path.write_text(ERROR_HEAVY[shape], encoding="ascii")
    result = run_nardy("validate", str(path), "--from", fmt, "--format", "json", "--jobs", "1", limit=MEMORY_LIMIT)
    assert result.returncode in (1, 2) and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert "out of memory" not in result.stderr
    report = json.loads(result.stdout)
    assert len(report["findings"]) <= 2 * (ERROR_LIMIT + 1)
    if len(report["findings"]) > ERROR_LIMIT:  # SGF skips text outside game trees, JSON stops at the first
        assert any(re.search(r"and \d+ more syntax errors", text) for text in
                   [finding["message"] for finding in report["findings"]] + report.get("not_listed", []))


@pytest.mark.slow
@pytest.mark.parametrize("where", ["--jobs 2", "--dask local:2"])
def test_error_heavy_input_with_workers_runs_in_bounded_memory(tmp_path, where):
    path = tmp_path / "mistakes.ntn"
    path.write_text(ERROR_HEAVY["lines"], encoding="ascii")
    result = run_nardy("validate", str(path), *where.split(), "-q", limit=MEMORY_LIMIT)
    assert result.returncode == 1 and "syntax" in result.stdout, result.stderr[-2000:]


def test_errors_are_capped_per_game_and_counted():
    text = '[Variant "long"]\n\n1. ' + "x: " * 300 + "\n"
    (record,) = check_located(text.encode(), "many.ntn", "ntn")
    assert len(record.errors) == ERROR_LIMIT and record.errors_not_kept == 200
    findings = [finding.message for finding in replay(record).findings if finding.code == "syntax"]
    assert len(findings) == ERROR_LIMIT + 1 and findings[-1] == "and 200 more syntax errors in this game, not listed"
    shipped = pickle.loads(pickle.dumps(record))  # to and from a worker, the count goes along
    assert shipped.errors == record.errors and shipped.errors_not_kept == 200
    errors = CappedErrors(record.errors)  # copies keep the count
    errors[:0] = CappedErrors([RecordError(1, 1, "first")] * 3)
    assert errors[0].message == "first" and len(errors) == ERROR_LIMIT and errors.total == 303


@pytest.mark.parametrize("command", ["validate", "convert"])
def test_errors_are_capped_per_input(tmp_path, command):
    path = tmp_path / "many.jsonl"
    path.write_text('{"tags": {}}\n' + "not json\n" * 250, encoding="ascii")
    extra = ["--to", "ntn", "-o", str(tmp_path / "out.ntn")] if command == "convert" else []
    result = CliRunner().invoke(cli, [command, str(path), "--jobs", "1", *extra])
    listed = result.stderr if command == "convert" else result.stdout
    assert len(re.findall(r"invalid JSON", listed)) == ERROR_LIMIT
    assert f"{path}: and 150 more syntax errors in this input, not listed" in listed
    if command == "validate":
        assert "250 findings" in result.stdout  # counted, all of them, in the summary


@pytest.mark.slow
def test_the_parse_cache_is_bounded_by_size():
    """Issue 15.6: 20 files of 1 MB move lines kept 1.43 GB in the cache of parsed plays. A long
    play is not kept whole, only its moves, each alone."""
    for number in range(20):
        parse_play(" ".join(f"{number % 24 + 1}/{(number + k) % 24 + 1}" for k in range(5000)))
    assert max(map(len, moves_module._PLAYS._plays)) <= moves_module.CACHED_PLAY_CHARS
    assert parse_play("24/18 13/7") is parse_play("24/18 13/7")  # short plays are cached
    assert parse_play("24/18 " * 10)[9] is parse_play("24/18")[0]  # and the moves of long ones


_CACHE_MEASURE = """
import json, sys, tracemalloc
from nardy_cli.core.moves import PlayCache
budget = 1 << 18
texts = [f"{a}/{a - b}{'*' if c % 2 else ''} {a - 1}/{a - b - 1}/{a - b - 2} {c}/{c - 1}({b % 4 + 1})"
         for a in range(8, 25) for b in range(1, 7) for c in range(2, 26)]
texts += [f"{a}/{b} {c}/{d}" for a in range(2, 25) for b in range(1, a) for c in range(1, 25) for d in range(3)]
for move in PlayCache(budget).get("24/18* 13/7(2) 6/off"):  # what a first parse builds once (compiled patterns)
    assert move.legs
results = []
for shapes in (texts[:2448], texts[2448:]):  # long plays of many Moves, short plays sharing theirs
    cache = PlayCache(budget)
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for text in shapes:
        for move in cache.get(" ".join(text.split())):  # a fresh key, as a reader makes
            assert move.legs
    measured = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    results.append([len(shapes), len(cache), cache.bytes, measured])
json.dump(results, sys.stdout)
"""


def test_the_parse_cache_is_bounded_by_memory():
    """Issue 13: the cache of parsed plays grew to 78 MiB a process on real data. Its estimate of
    its own size is close to what tracemalloc measures (plays of many long Moves take up to a
    third more than estimated), so its budget bounds its memory. Measured in a fresh interpreter:
    in this one, tracemalloc also counts other tests' threads (a Dask cluster's) and frees their
    garbage, both of which it would take for the cache's."""
    budget = 1 << 18
    output = subprocess.run([sys.executable, "-c", _CACHE_MEASURE], capture_output=True, text=True, check=True)
    for shapes, kept, estimated, measured in json.loads(output.stdout):
        assert shapes > kept > 0 and 0.9 * budget <= estimated <= budget
        assert 0.75 * estimated <= measured <= 1.4 * estimated, (measured, estimated)
    cache = moves_module.PlayCache(budget)
    assert cache.get("24/18 13/7") is cache.get("24/18 13/7")
    assert cache.get("13/7 24/18")[1] is cache.get("24/18 13/7")[0]  # equal Moves are one


def test_a_header_line_inside_a_match_costs_nothing():
    """Issue 15.7: a stray '; [Key "value"]' line cost the game its result and every later game its
    match length, headers and Crawford tag."""
    text, _, _, games = three_games("mat")
    lines = text.decode().splitlines(keepends=True)
    at = next(number for number, line in enumerate(lines) if line.startswith("  3)"))
    lines.insert(at, '; [Annotator "stray"]\n')
    records = check_located("".join(lines).encode(), "stray.mat", "mat")
    assert [essentials(record) for record in records[1:]] == [essentials(game) for game in games[1:]]
    first, expected = essentials(records[0]), essentials(games[0])
    assert first.pop("comments") == ['[Annotator "stray"]'] and expected.pop("comments", []) == []
    assert first == expected
    assert records[0].result == games[0].result and not records[0].errors


def test_the_ntn_writer_writes_only_what_its_reader_reads():
    """Issue 15.10: move numbers of 10^9 and more and result strings the reader rejects."""
    game = GameRecord(tags={"Variant": "short"}, result="02-0", actions=[
        Action("w", "roll", (3, 1), parse_play("8/5 6/5"), number=10 ** 9),
        Action("b", "roll", (6, 6), parse_play("24/18(2)"), number=10 ** 12)])
    out = io.StringIO()
    warnings = exports.writer("ntn")([game, replace(game, result="1-1 ")], out)
    assert "game 1: move number 1000000000 has more than 9 digits; renumbered" in warnings
    assert "game 2: result '1-1 ' is not an NTN result (W-0, 0-B, 1/2-1/2 or *); left out" in warnings
    first, second = list(notations.notation("ntn").read_games(io.StringIO(out.getvalue())))
    assert not first.errors and not second.errors
    assert [action.play_text for action in first.actions] == ["8/5 6/5", "24/18(2)"] and first.result == "2-0"
    assert [action.play_text for action in second.actions] == ["8/5 6/5", "24/18(2)"] and second.result is None


@pytest.mark.slow
@pytest.mark.parametrize(("name", "content"), [
    ("cut.ntn", ""), ("cut.ntn", "\n\n\n"), ("cut.ntn", "   \r\n\t\n"), ("cut.json", "[]\n"),
    ("cut.mat", ""), ("cut.mat", "\ufeff\r\n  \n"), ("cut.sgf", ""),
], ids=["empty", "newlines", "blank", "[]", "empty-mat", "blank-mat", "empty-sgf"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_input_without_a_game_is_an_error_unless_allowed(tmp_path, name, content, jobs):
    """Issue 15.11: a record cut to nothing passed certification as "0 files, 0 games", exit 0."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    good = str(SAMPLE)
    result = CliRunner().invoke(cli, ["validate", good, str(path), "--jobs", jobs])
    assert result.exit_code == 2 and f"error: {path}:1:1: no game in this input" in result.stderr
    assert "--allow-empty" in result.stderr and "1 file, 1 game" in result.stdout
    allowed = CliRunner().invoke(cli, ["validate", good, str(path), "--jobs", jobs, "--allow-empty"])
    assert allowed.exit_code == 0 and not allowed.stderr


def test_an_empty_directory_follows_the_same_rule(tmp_path):
    (tmp_path / "empty").mkdir()
    refused = CliRunner().invoke(cli, ["validate", str(tmp_path / "empty")])
    assert refused.exit_code == 2 and "no file here" in refused.stderr and "--allow-empty" in refused.stderr
    assert CliRunner().invoke(cli, ["validate", str(tmp_path / "empty"), "--allow-empty"]).exit_code == 0
    converted = CliRunner().invoke(cli, ["convert", str(tmp_path / "empty"), "--to", "ntn", "--allow-empty"])
    assert converted.exit_code == 0 and converted.stdout == ""


# outputs that are not regular files


def test_a_fifo_is_written_through_never_replaced(tmp_path):
    """Issue 15.2: `-o DEVICE --force` replaced the device node with a regular file."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = convert(str(SAMPLE), "--to", "jsonl", "-o", str(fifo), "--force")
    reader.join(10)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(fifo.stat().st_mode) and "Петрова А." in received[0].decode()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["pipe"]  # no temporary file either


@pytest.mark.slow
def test_a_device_node_is_written_through_never_replaced(tmp_path):
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own
    except (PermissionError, AttributeError):
        pytest.skip("cannot make a device node here")
    for args in ([], ["--force"]):
        result = convert(str(SAMPLE), "--to", "ntn", "-o", str(device), *args)
        assert result.exit_code == 0, result.output
        assert stat.S_ISCHR(device.stat().st_mode)


@pytest.mark.slow
def test_standard_output_named_as_a_path_is_written_through(tmp_path):
    out = tmp_path / "redirected.jsonl"
    with out.open("w") as stdout:
        before = os.fstat(stdout.fileno()).st_ino
        result = run_nardy("convert", str(SAMPLE), "--to", "jsonl", "-o", "/dev/stdout", stdout=stdout,
                           stderr=subprocess.PIPE, capture_output=False)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_ino == before and "Петрова А." in out.read_text(encoding="utf-8")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["redirected.jsonl"]


# faults: full outputs, no memory


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_full_disk_or_standard_output_is_a_plain_message(jobs):
    """Issue 15.8: with workers, a full disk ended in 'RuntimeError: cannot join current thread'; a full
    standard output was 'internal error, please report it'."""
    full = run_nardy("convert", str(KAZAN), "--to", "jsonl", "-o", "/dev/full", "--jobs", jobs)
    assert full.returncode == 2 and "/dev/full: cannot write: No space left on device" in full.stderr
    with open("/dev/full", "w") as stdout:
        piped = run_nardy("convert", str(KAZAN), "--to", "jsonl", "--jobs", jobs, stdout=stdout,
                          stderr=subprocess.PIPE, capture_output=False)
    assert piped.returncode == 2
    assert "error: cannot write the output: No space left on device" in piped.stderr
    for result in (full, piped):
        assert "Traceback" not in result.stderr and "please report" not in result.stderr, result.stderr


def test_memory_error_is_a_plain_message(monkeypatch):
    def exhausted(*args: object, **kwargs: object) -> Iterator[object]:
        raise MemoryError
    monkeypatch.setattr("nardy_cli.cli.task.map_games", exhausted)
    result = CliRunner().invoke(cli, ["validate", str(SAMPLE)])
    assert result.exit_code == 2 and "error: out of memory" in result.stderr and "report" not in result.stderr


# killing the parent


def long_run_input(tmp_path: Path) -> Path:
    """Games enough to keep two workers busy for some seconds."""
    path = tmp_path / "long.ntn"
    path.write_bytes((ROOT / "sample_games/generated/long-200.ntn").read_bytes() * 12)
    return path


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with suppress(OSError):
            found.update(int(child) for child in (task / "children").read_text().split())
    return found


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def started_with_workers(args: list[str], **popen: Any) -> tuple[subprocess.Popen, set[int]]:
    # Ctrl-C as from a terminal: a shell's background job (CI run with `&`) inherits SIGINT ignored,
    # and a program started so rightly keeps ignoring it.
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from nardy_cli.cli.main import cli; sys.exit(cli(sys.argv[1:]))")
    process = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, **popen)
    deadline = time.monotonic() + 30
    while len(workers := children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) >= 2, "the workers did not start"
    return process, workers


def ended(pids: set[int], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(running(pid) for pid in pids)


pytestmark_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.mark.slow
@pytestmark_linux
@pytest.mark.parametrize("where", ["--jobs 2", "--dask local:2"])
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_end_with_a_killed_parent_and_the_pipe_closes(tmp_path, signum, where):
    """Issue 15.3: after kill -9 (or SIGTERM) of a run with workers, both stayed alive for ever and
    a pipe into another program never closed."""
    process, workers = started_with_workers(["validate", str(long_run_input(tmp_path)), *where.split()],
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    process.send_signal(signum)
    process.wait(10)
    assert ended(workers), "workers outlived their parent"
    closed = threading.Thread(target=process.stdout.read)  # EOF: no worker holds the pipe open
    closed.start()
    closed.join(10)
    assert not closed.is_alive()
    process.stdout.close()


@pytest.mark.slow
@pytestmark_linux
@pytest.mark.parametrize("where", ["--jobs 2", "--dask local:2"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_removes_the_temporary_file(tmp_path, signum, where):
    out = tmp_path / "out" / "all.jsonl"
    out.parent.mkdir()
    process, workers = started_with_workers(["convert", str(long_run_input(tmp_path)), "--to", "jsonl", "-o",
                                             str(out), *where.split()], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not list(out.parent.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    (temporary,) = out.parent.iterdir()
    assert re.fullmatch(rf"\.all\.jsonl\.{process.pid}-\w+\.tmp", temporary.name)
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode in (1, 2) and "Traceback" not in stderr, stderr
    assert not list(out.parent.iterdir()) and ended(workers)


def test_workers_forked_just_before_a_signal_are_ended(monkeypatch):
    """A signal between the pool's forking its workers and its starting the thread that ends them
    (its first submit does both) left them waiting for work and the run waiting for them at its exit
    (seen once under load: SIGTERM to `convert --dask local:2`, the message written, no exit)."""
    from concurrent.futures import ProcessPoolExecutor

    from nardy_cli.run.parallel import _worker_pool

    forked = []

    def forks_then_interrupted(pool):
        pool._launch_processes()
        forked.extend(pool._processes.values())
        raise KeyboardInterrupt

    monkeypatch.setattr(ProcessPoolExecutor, "_start_executor_manager_thread", forks_then_interrupted)
    with pytest.raises(KeyboardInterrupt), _worker_pool(2) as pool:
        pool.submit(int)
    for process in forked:
        process.join(10)
    assert len(forked) == 2 and not any(process.is_alive() for process in forked)


@pytest.mark.slow
def test_a_killed_runs_temporary_file_is_removed_by_the_next_run(tmp_path):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = tmp_path / f".out.ntn.{gone.pid}-abc123.tmp"  # what a kill -9 leaves
    stale.write_text("half a game")
    live = tmp_path / f".out.ntn.{os.getppid()}-def456.tmp"  # another run, still writing
    live.write_text("half a game")
    other = tmp_path / f".other.ntn.{gone.pid}-abc123.tmp"
    other.write_text("not ours")
    result = convert(str(SAMPLE), "--to", "ntn", "-o", str(tmp_path / "out.ntn"))
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([live.name, other.name, "out.ntn"])


@pytest.mark.slow
def test_a_game_too_long_to_ship_streams_with_the_rest_of_its_file(tmp_path, monkeypatch):
    """A game of thousands of lines of mistakes is not shipped to a worker whole (its lines would
    cost 60 bytes each there and here): the rest of its file is read here, with the same results."""
    from nardy_cli.analysis.validate import validated
    from nardy_cli.run import parallel
    from nardy_cli.run.parallel import map_games, replayed

    games = KAZAN.read_text(encoding="utf-8").split("\n\n[Event")
    giant = '[Event "giant"]\n\n' + "1. 31: 24/21 24/23\n" + "x:\n" * 3000 + "1-0\n"
    path = tmp_path / "giant.ntn"
    path.write_text("\n\n[Event".join(games[:3]) + "\n\n" + giant + "\n[Event" + "\n\n[Event".join(games[3:]),
                    encoding="utf-8")
    monkeypatch.setattr(parallel, "GAME_LIMIT", 20_000)
    streamed_from: list[int] = []
    stream = parallel._stream

    def stream_here(unit, *rest):
        streamed_from.append(unit.first_line)
        return stream(unit, *rest)

    monkeypatch.setattr(parallel, "_stream", stream_here)
    task = functools.partial(replayed, build=validated)

    def lines(jobs: int) -> list[str]:
        errors: list[str] = []
        results = list(map_games([str(path), str(SAMPLE)], task, jobs=jobs, chunk_games=1, on_error=errors.append))
        assert not errors
        return [line for result in results for line in result.lines]

    streamed = lines(2)
    assert streamed_from == [len("\n\n[Event".join(games[:3]).splitlines()) + 2]  # from the giant game on
    assert streamed == lines(1) and any("game 4 (? – ?): syntax: and 2900 more" in line for line in streamed)


# --- eXtreme Gammon's binary files (issue 14) ----------------------------------------------------

XG_FILES = corpus_files("xg/*.xg")


def uncommented(record: GameRecord) -> dict:
    """A game's essentials but comments: XG keeps them at the end of its archive, which a cut loses."""
    data = essentials(record)
    data.pop("comments", None)
    for action in data["actions"]:
        action.pop("comments", None)
    return data


@functools.lru_cache
def xg_seed(name: str) -> tuple[bytes, list[dict]]:
    assert CORPORA is not None  # its tests are skipped without the corpus's .xg files
    data = (CORPORA / "xg" / name).read_bytes()
    return data, [uncommented(record) for record in read_source(bytes_source(data, name))]


@pytest.mark.slow
@pytest.mark.skipif(not XG_FILES, reason="no .xg files in the shared corpus")
@settings(fuzz, max_examples=100)
@given(st.sampled_from([path.name for path in XG_FILES]), st.data())
def test_a_damaged_xg_file_never_crashes_and_keeps_the_games_before(name, data):
    original, games = xg_seed(name)
    damaged = bytearray(original)
    how = data.draw(st.sampled_from(["cut", "flip", "zeros"]))
    at = data.draw(st.integers(0, len(original) - 1))
    if how == "cut":
        damaged = damaged[:at]
    elif how == "flip":
        damaged[at] ^= data.draw(st.integers(1, 255))
    else:
        damaged[at:at + data.draw(st.integers(1, 4096))] = bytes(min(4096, len(original) - at))
    source = bytes_source(bytes(damaged), name)
    read: list[GameRecord] = []
    try:
        read.extend(read_source(source))
    except sources.InputError as error:
        assert str(error).startswith(f"{name}: ") and "Traceback" not in str(error)
    for record in read:
        replay(record)  # whatever the damage made of a game, judging it never crashes
        assert all(error.line >= 1 and error.column == 1 for error in record.errors)
    if how == "cut":  # nothing of a cut file is invented: its games are the first games, the last maybe unfinished
        whole = max(len(read) - 1, 0)
        assert [uncommented(record) for record in read[:whole]] == games[:whole]


@fuzz
@given(st.binary(max_size=20000))
def test_random_bytes_after_an_xg_header_never_crash(tail):
    check_located(b"RGMH" + struct.pack("<II", 1, 24) + bytes(12) + tail, "random.xg")
