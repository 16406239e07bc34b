"""pandas, imported for the DataFrames the library gives and for ``nardy plot race``; in the
``nardy`` command's own process without the pyarrow that pandas 3 loads whenever it is installed:
no table here has an Arrow column, and loading it costs 0.15 s and 36 MiB.
A library caller's pandas is left as it is (it may want pyarrow later: pandas decides once), and
so is a pandas or a pyarrow already loaded (``--parquet`` writes with pyarrow).

    from nardy_cli.reporting.frames import pd
"""
from __future__ import annotations

import sys

from nardy_cli import reporting

if reporting.COMMAND_PROCESS and "pandas" not in sys.modules and "pyarrow" not in sys.modules:
    sys.modules["pyarrow"] = None  # type: ignore[assignment]  # import pyarrow now raises ImportError
    try:
        import pandas as pd
    finally:
        del sys.modules["pyarrow"]  # a later import of pyarrow finds it installed
else:
    import pandas as pd

__all__ = ["pd"]
