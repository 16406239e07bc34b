"""The build: the pure-Python package, with its hot modules compiled by mypyc where this machine
can (README, "Compiled build"). Everything else is in pyproject.toml.

The compiled modules are the same source files; the pure-Python ones stay in the package. Set
NARDY_PURE_PYTHON=1 to build without compiling. A build that cannot compile (no C compiler)
installs the pure-Python package, which behaves the same, only slower.
"""
from __future__ import annotations

import os
import sys

from setuptools import setup

COMPILED = [
    "nardy_cli/core/compiled.py",
    "nardy_cli/core/sides.py",
    "nardy_cli/core/variants.py",
    "nardy_cli/core/moves.py",
    "nardy_cli/core/rules.py",
    "nardy_cli/core/position.py",
    "nardy_cli/core/fast_check.py",
    "nardy_cli/core/engine.py",
    "nardy_cli/core/scores.py",
    "nardy_cli/record/actions.py",
    "nardy_cli/notations/ntn.py",
    "nardy_cli/notations/mat.py",
    "nardy_cli/notations/sgf.py",
    "nardy_cli/replay.py",
    "nardy_cli/matches.py",
    "nardy_cli/analysis/bearoff.py",
    "nardy_cli/analysis/luck.py",
    "nardy_cli/analysis/groups.py",
    "nardy_cli/analysis/aggregates.py",
    "nardy_cli/analysis/positions.py",
    "nardy_cli/reporting/plain.py",
    "nardy_cli/reporting/stats.py",
]
"""The modules of the hot path: reading NTN, MAT and SGF text, checking plays, replaying, checking matches,
the statistics of a game, the statistics tables and their printed rows."""


def compiled_extensions() -> list:
    if os.environ.get("NARDY_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
        # the build's own environment has no pandas or numpy, which the tables' modules name only in
        # annotations: compiled, those are plain objects either way
        extensions = mypycify(["--ignore-missing-imports", *COMPILED], opt_level="3", group_name="nardy_cli")
    except (Exception, SystemExit) as error:  # any failure to compile (mypyc exits on one) leaves the pure-Python build
        print(f"nardy: building without compiled modules ({type(error).__name__}: {error})", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # no C compiler: the pure-Python modules serve
    return extensions


setup(ext_modules=compiled_extensions())
