"""Where the tests find their files: the repository's own samples and data, and the real corpora.

The real corpora (``shared/corpora``, see its README) are not in the repository: they are looked for
beside it (as CI lays them out), else where the workplace keeps them. This module is the only place
that knows; tests take the ``corpora`` fixture (it skips when they are absent) or, to parametrize at
collection time, ``corpus_files`` with the ``needs_corpus`` mark.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"
DATA = ROOT / "tests" / "data"

_CORPORA_PLACES = tuple(dict.fromkeys((ROOT.parent / "shared" / "corpora", Path("/work/shared/corpora"))))
CORPORA: Path | None = next((place for place in _CORPORA_PLACES if place.is_dir()), None)
CORPORA_MISSING = "the real corpora are not here (looked for " + " and ".join(map(str, _CORPORA_PLACES)) + ")"

needs_corpus = pytest.mark.skipif(CORPORA is None, reason=CORPORA_MISSING)


def corpus_files(*patterns: str) -> list[Path]:
    """The corpus files matching any of the glob patterns (relative to the corpora), sorted; none
    when the corpora are absent."""
    if CORPORA is None:
        return []
    return sorted({path for pattern in patterns for path in CORPORA.glob(pattern)})
