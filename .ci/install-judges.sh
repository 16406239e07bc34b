#!/usr/bin/env bash
# Installs the judges that tests check nardy against (see tests/gnubg_judge.py), and the
# browser the report is rendered in (.ci/install-browser.sh):
#   - GNU Backgammon's program, Debian package gnubg (installs /usr/games/gnubg);
#   - its Python module, PyPI package gnubg, pinned: the judge relies on how this
#     build reports plays.
# Idempotent: what is already installed is left alone, and the package lists are
# refreshed only when apt does not know gnubg or the install fails with old lists.
# Runs as root (as CI and the development machines do). PYTHON picks the interpreter.
set -euo pipefail

GNUBG_PYPI_VERSION="1.1.0a16"
PYTHON="${PYTHON:-python3}"

source "$(dirname "$0")/debian.sh"
debian_install install-judges gnubg

installed="$("$PYTHON" -c 'import importlib.metadata as m; print(m.version("gnubg"))' 2>/dev/null || true)"
if [ "$installed" = "$GNUBG_PYPI_VERSION" ]; then
    echo "install-judges: PyPI gnubg $installed already installed"
else
    "$PYTHON" -m pip install "gnubg==$GNUBG_PYPI_VERSION"
fi

# Both judges must answer, or the tests that need them would fail later, less clearly.
gnubg_bin="$(command -v gnubg || echo /usr/games/gnubg)"
"$gnubg_bin" --version | sed -n 1p
"$PYTHON" -c 'import gnubg; print("gnubg module", gnubg.__version__)'

# The browser that report.html is rendered in by the tests (a sibling script, idempotent too).
bash "$(dirname "$0")/install-browser.sh"
