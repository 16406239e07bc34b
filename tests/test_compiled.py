"""The compiled build and the pure-Python one are the same program (setup.py; README, "Compiled
build"): the hot modules are compiled wherever a C compiler is, and the pure-Python modules give the
same outputs byte for byte and pass the quick suite themselves. (A compiled module built before its
source last changed runs the old code: tests/conftest.py warns of it.)"""
from __future__ import annotations

import copyreg
import importlib
import os
import shutil
import subprocess
import sys

import pytest

from locations import ROOT, SAMPLES
from nardy_cli.analysis.aggregates import GameStats
from nardy_cli.analysis.luck import LuckSums
from nardy_cli.core.compiled import Value
from nardy_cli.core.engine import Finding, FindingStep, Outcome, Verdict
from nardy_cli.core.moves import Move
from nardy_cli.core.position import Position
from nardy_cli.core.scores import Result, Score
from nardy_cli.core.sides import BLACK, WHITE
from nardy_cli.matches import MatchGame
from nardy_cli.record.actions import Evaluation
from support.compiled import compiled_sources, is_compiled, module_name

PURE = bool(os.environ.get("NARDY_PURE_PYTHON"))


@pytest.mark.skipif(PURE or shutil.which("cc") is None, reason="pure Python, by choice or for want of a C compiler")
def test_the_hot_modules_are_compiled_where_a_compiler_is():
    plain = [module_name(source) for source in compiled_sources() if not is_compiled(module_name(source))]
    assert not plain, f"{plain} run as pure Python: build again (pip install -e .), or set NARDY_PURE_PYTHON=1"


@pytest.fixture(scope="module")
def pure_python(tmp_path_factory) -> dict[str, str]:
    """The environment of a process that imports the package's pure-Python modules only."""
    if PURE or not is_compiled("nardy_cli.core.engine"):
        pytest.skip("this run is itself pure Python")
    if sys.version_info < (3, 11):
        pytest.skip("PYTHONSAFEPATH (3.11) is needed to keep the compiled checkout off the module path")
    tree = tmp_path_factory.mktemp("pure")
    shutil.copytree(ROOT / "nardy_cli", tree / "nardy_cli", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    # PYTHONSAFEPATH: no current directory on the path, whose nardy_cli (the checkout) is compiled
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONSAFEPATH": "1", "NARDY_PURE_PYTHON": "1"}
    check = subprocess.run([sys.executable, "-c", "import nardy_cli.core.engine as engine; print(engine.__file__)"],
                           capture_output=True, text=True, env=env, cwd=ROOT)
    assert check.stdout.strip() == str(tree / "nardy_cli" / "core" / "engine.py"), check.stdout + check.stderr
    return env


def nardy(arguments: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", "from nardy_cli.cli import cli; cli()", *arguments],
                          capture_output=True, env=env, cwd=ROOT)


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["validate", "--format", "json", "--jobs", "1"],
    ["stats", "--format", "json", "--jobs", "1"],
    ["convert", "--to", "ntn"],
], ids=["validate", "stats", "convert"])
def test_pure_python_gives_the_same_output(pure_python, corpora, command):
    inputs = [str(SAMPLES), str(corpora)] if command[0] != "convert" else [str(corpora / "bglab-sample")]
    compiled, pure = nardy([*command, *inputs]), nardy([*command, *inputs], pure_python)
    rebuilt = "(a compiled module changed since it was built? pip install -e . builds it again)"
    assert (pure.returncode, pure.stderr) == (compiled.returncode, compiled.stderr), rebuilt
    assert pure.stdout == compiled.stdout and compiled.stdout, rebuilt


@pytest.mark.slow
def test_the_quick_suite_passes_in_pure_python(pure_python):
    run = subprocess.run([sys.executable, "-m", "pytest", "-m", "not slow", "-p", "no:cacheprovider", "-x"],
                         capture_output=True, text=True, env=pure_python, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_every_frozen_dataclass_of_a_compiled_module_can_be_pickled():
    """Workers send these to the parent: compiled, a frozen dataclass unpickles only by its
    constructor (nardy_cli.core.compiled.picklable)."""
    unregistered = []
    for source in compiled_sources():
        module = importlib.import_module(module_name(source))
        for value in vars(module).values():
            params = getattr(value, "__dataclass_params__", None)
            if (isinstance(value, type) and value.__module__ == module.__name__ and params is not None
                    and params.frozen and value not in copyreg.dispatch_table):
                unregistered.append(f"{module.__name__}.{value.__name__}")
    assert not unregistered, f"{unregistered}: add them to a picklable(...) call of their module"


def _values() -> list[Value]:
    """One of each Value class of a compiled module."""
    start = Position.start("long")
    return [
        Move((24, 18, 15), (False, True), 2),
        start,
        Score(3, 1),
        Result(WHITE, 2),
        FindingStep(24, 18, 6, 0),
        Verdict(None, Finding("head", "two checkers left the head"), start, (6, 6)),
        Outcome(BLACK, "mars", 2),
        Evaluation("checker", "2-ply", -0.25, -0.1, 0.05),
        MatchGame("a.ntn", 1, "game 1", ("A", "B"), ("a.ntn", "", "", "", "A", "B", "5"), 5, "1", Score(0, 0),
                  None, None, WHITE, 1, 3, (40, 5), None, "short"),
        GameStats({"winner": WHITE, "turns": 40}, {WHITE: (1,) * 21, BLACK: (0,) * 21}, luck={WHITE: LuckSums(1, 8)}),
    ]


def test_every_value_class_names_its_fields_and_shows_them():
    """A Value is shown by the fields ``__match_args__`` names, as ``_fields`` gives them: both must
    list the same fields in the same order."""
    values = _values()
    classes = {type(value) for value in values}
    for source in compiled_sources():
        module = importlib.import_module(module_name(source))
        for value in vars(module).values():
            if isinstance(value, type) and value is not Value and issubclass(value, Value):
                assert value in classes, f"{value.__name__}: add one to _values()"
    for value in values:
        names = type(value).__match_args__
        assert tuple(getattr(value, name) for name in names) == value._fields(), type(value).__name__
        assert repr(value) == f"{type(value).__name__}(" + ", ".join(
            f"{name}={field!r}" for name, field in zip(names, value._fields())) + ")"
    assert repr(Result(WHITE, 2)) == "Result(winner='w', points=2)"
    assert repr(Move((24, 18, 15), (False, True), 2)) == "Move(path=(24, 18, 15), hits=(False, True), count=2)"
    match Outcome(BLACK, "mars", 2):
        case Outcome(winner, category, points):
            assert (winner, category, points) == (BLACK, "mars", 2)
