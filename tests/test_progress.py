"""Progress bars: bytes read of the inputs' total on a terminal; never on a pipe or with --quiet."""
import fcntl
import gzip
import io
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest

from nardy_cli.run import progress
from nardy_cli.run.corpus import iter_games

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_games" / "generated" / "long-200.ntn"
NARDY = str(Path(sys.executable).parent / "nardy")


@pytest.mark.slow
def test_reading_counts_the_bytes_read_of_the_total(tmp_path, monkeypatch):
    packed = tmp_path / "long.ntn.gz"
    packed.write_bytes(gzip.compress(SAMPLE.read_bytes()))
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    paths = [str(SAMPLE), str(packed)]
    assert progress.input_size(paths) == SAMPLE.stat().st_size + packed.stat().st_size
    with progress.reading(paths, None, "Reading", show=True) as bar:
        games = sum(1 for _ in iter_games(paths, on_error=print))
        assert bar.bar is not None  # show=True
        assert bar.bar.n == bar.bar.total  # every byte of both files, the compressed one as compressed
    assert games == 400
    assert "Reading" in stderr.getvalue() and "B/s" in stderr.getvalue()


def test_no_bar_means_no_counting():
    with progress.reading([str(SAMPLE)], None, "Reading", show=False) as bar:
        assert bar.bar is None
        bar.game()
        with bar.printing():
            pass


def test_standard_input_has_no_total():
    assert progress.input_size(["-"]) is None


def run_on_terminal(*args: str) -> tuple[str, str]:
    """``nardy ARGS`` with standard error on a terminal (a pseudo-terminal 100 columns wide)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    seen = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end is closed
                return
            if not chunk:
                return
            seen.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    process = subprocess.Popen([NARDY, *args], stdout=subprocess.PIPE, stderr=follower, text=True)
    os.close(follower)
    stdout, _ = process.communicate(timeout=300)
    reader.join(timeout=10)
    os.close(leader)
    return stdout, seen.decode("utf-8", "replace")


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["validate", str(SAMPLE), "-j", "1"],
    ["stats", str(SAMPLE), "-j", "1"],
    ["convert", str(SAMPLE), "--to", "csv", "-j", "1"],   # standard output is a pipe: the bar is on stderr
])
def test_a_bar_with_a_total_on_a_terminal(command):
    stdout, terminal = run_on_terminal(*command)
    assert stdout
    assert "B/s" in terminal and f"/{SAMPLE.stat().st_size / 1024:.0f}k" in terminal.replace(".0k", "k")


@pytest.mark.slow
def test_self_play_counts_games_on_a_terminal(tmp_path):
    _, terminal = run_on_terminal("generate", "--games", "3", "-o", str(tmp_path / "out.ntn"))
    assert "Playing" in terminal and "/3 " in terminal


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["validate", str(SAMPLE), "-j", "1", "-q"],
    ["stats", str(SAMPLE), "-j", "1", "--quiet"],
    ["generate", "--games", "2", "-q", "-o", "{tmp}/out.ntn"],
])
def test_quiet_hides_the_bar(command, tmp_path):
    _, terminal = run_on_terminal(*(part.replace("{tmp}", str(tmp_path)) for part in command))
    assert "%|" not in terminal


@pytest.mark.slow
def test_no_bar_on_a_pipe():
    result = subprocess.run([NARDY, "validate", str(SAMPLE), "-j", "1"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stderr == ""
