"""report.html in a real browser: headless Chromium (Debian's chromium, installed by
.ci/install-browser.sh, which .ci/install-judges.sh runs) loads the page, a script added to a copy of
it measures the page, and a screenshot of the whole page is taken. Skipped only where Chromium
cannot be installed (no apt-get, not root), and then it says so."""
import json
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH = 1280

pytestmark = pytest.mark.skipif(BROWSER is None, reason="chromium is not installed: run .ci/install-browser.sh "
                                                       "(as root, with apt-get)")

MEASURE = """<script>
window.addEventListener("load", () => {
  const page = document.documentElement;
  const images = [...document.images];
  const result = {
    height: page.scrollHeight, width: page.clientWidth, scroll_width: page.scrollWidth,
    images: images.length, loaded: images.filter(image => image.complete && image.naturalWidth > 0).length,
    tables: document.querySelectorAll("table").length,
    overflowing: [...document.querySelectorAll("table")]
      .filter(table => table.getBoundingClientRect().width > document.body.clientWidth).length,
  };
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
});
</script>
"""


def chromium(*args: str) -> subprocess.CompletedProcess:
    assert BROWSER is not None  # pytestmark skips the module without it
    return subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--virtual-time-budget=10000", *args], capture_output=True, text=True, timeout=120,
                          check=False)


def png_size(path: Path) -> tuple[int, int]:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    result = CliRunner().invoke(cli, ["stats", "sample_games/", "-q", "--out", str(folder / "report")])
    assert result.exit_code == 0, result.output
    page = folder / "report" / "report.html"
    measured = folder / "measured.html"
    measured.write_text(page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    return measured


@pytest.mark.slow
def test_report_renders_whole_in_chromium(report, tmp_path):
    dom = chromium(f"--window-size={WIDTH},900", "--dump-dom", report.as_uri())
    assert dom.returncode == 0, dom.stderr
    text = dom.stdout.split('<pre id="measured">', 1)[1].split("</pre>", 1)[0]
    measured = json.loads(text.replace("&quot;", '"'))
    assert measured["images"] == 4 and measured["loaded"] == 4  # every chart image loaded
    assert measured["tables"] >= 7 and measured["overflowing"] == 0  # no table wider than the page's text
    assert measured["scroll_width"] <= measured["width"]  # nothing runs off the page sideways
    assert 3000 < measured["height"] < 40000  # the charts take their room, and the page ends
    shot = tmp_path / "report.png"
    taken = chromium(f"--window-size={WIDTH},{measured['height']}", f"--screenshot={shot}", report.as_uri())
    assert taken.returncode == 0 and shot.exists(), taken.stderr
    assert png_size(shot) == (WIDTH, measured["height"])  # the whole page, at the height the page says
