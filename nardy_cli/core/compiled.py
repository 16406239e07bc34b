"""What the compiled build (mypyc; README, "Compiled build") needs of the classes it compiles.

A compiled frozen dataclass cannot be unpickled field by field (its fields cannot be assigned),
and the results of worker processes are pickled: such classes are rebuilt by their constructor.
"""
from __future__ import annotations

import copyreg
from dataclasses import fields
from typing import Any


def _by_constructor(instance: Any) -> tuple[type, tuple[Any, ...]]:
    return type(instance), tuple(getattr(instance, field.name) for field in fields(instance))


def picklable(*classes: type) -> None:
    """Have pickle (and copy) rebuild instances of these frozen dataclasses by their constructor."""
    for cls in classes:
        copyreg.pickle(cls, _by_constructor)
