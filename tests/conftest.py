"""Test-wide settings, marks and session fixtures.

Under CI, hypothesis draws the same examples every run, so a red build always points at a
reproducible case (locally, each run explores new ones).

Marks (registered in pyproject.toml): ``slow`` (over about a second), ``gnubg`` (needs GNU
Backgammon), ``dask`` (starts or uses a Dask cluster). ``pytest -m "not slow"`` runs the fast tests
alone. A test that takes the ``gnubg`` fixture is marked ``gnubg``; one that takes ``dask_cluster``
is marked ``dask`` and ``slow`` (starting the cluster alone takes seconds): see
``pytest_collection_modifyitems``. The other tests carry their marks themselves.

The places of files (the repository, sample_games/, tests/data/, the real corpora) are constants of
``tests/locations.py``: parametrized tests need them when they are collected, before any fixture.
"""
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

import gnubg_judge
import locations

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

MARKS_OF_FIXTURES = {"gnubg": ("gnubg",), "dask_cluster": ("dask", "slow")}


def pytest_configure(config: pytest.Config) -> None:
    """A warning when compiled modules are older than their sources: the tests would run old code."""
    from support.compiled import compiled_sources, is_compiled, module_name
    sources = [source for source in compiled_sources() if is_compiled(module_name(source))]
    built = max((library.stat().st_mtime for library in locations.ROOT.glob("nardy_cli__mypyc.*.so")), default=None)
    changed = [source.name for source in sources if built is not None and source.stat().st_mtime > built]
    if changed:
        config.issue_config_time_warning(pytest.PytestWarning(
            f"{', '.join(changed)} changed since the compiled build and may run old code: pip install -e . "
            "builds again"), stacklevel=2)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture in getattr(item, "fixturenames", ()):
            for mark in MARKS_OF_FIXTURES.get(fixture, ()):
                item.add_marker(mark)


@pytest.fixture(scope="session")
def corpora() -> Path:
    """The real corpora (shared/corpora, see its README); the test is skipped without them."""
    if locations.CORPORA is None:
        pytest.skip(locations.CORPORA_MISSING)
    return locations.CORPORA


@pytest.fixture(scope="session")
def tournament_mat(corpora: Path) -> str:
    """The first match of the corpora's tournament/ (HSBT Paris 2023, Unger-Job, 7 points), as the
    command line takes it."""
    matches = sorted(corpora.glob("tournament/*.mat"))
    if not matches:
        pytest.skip(f"no tournament/*.mat in {corpora}")
    return str(matches[0])


@pytest.fixture(scope="session")
def gnubg() -> str:
    """The GNU Backgammon program (``gnubg -t``); skips without it, fails under CI (see gnubg_judge)."""
    gnubg_judge.require_gnubg_cli()
    assert gnubg_judge.GNUBG_CLI is not None
    return gnubg_judge.GNUBG_CLI


@pytest.fixture(scope="session")
def dask_cluster():
    """A client of a real local Dask cluster of two single-threaded worker processes, one for the session."""
    distributed = pytest.importorskip("dask.distributed", reason="dask is not installed: pip install -e '.[dask]'")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="session")
def runner() -> CliRunner:
    """A Click test runner for ``nardy``'s commands (``runner.invoke(cli, [...])``)."""
    return CliRunner()
