"""Test-wide settings and fixtures: under CI, hypothesis draws the same examples every run, so a
red build always points at a reproducible case (locally, each run explores new ones)."""
import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="module")
def dask_cluster():
    """A client of a real local Dask cluster of two single-threaded worker processes."""
    distributed = pytest.importorskip("dask.distributed", reason="dask is not installed: pip install -e '.[dask]'")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client
