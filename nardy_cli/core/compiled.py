"""What the compiled build (mypyc; README, "Compiled build") needs of the classes it compiles.

A compiled frozen dataclass cannot be unpickled field by field (its fields cannot be assigned),
and the results of worker processes are pickled: such classes are rebuilt by their constructor.
What is made every turn is a plain read-only class instead (a frozen dataclass is filled by
generic attribute calls): :class:`Value` gives it a dataclass's equality, hash and pickling.
"""
from __future__ import annotations

import copyreg
from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any, ClassVar, cast

_FIELDS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}  # a class's fields' values, in one call


def _by_constructor(instance: Any) -> tuple[type, tuple[Any, ...]]:
    cls = type(instance)
    return cls, _FIELDS[cls](instance)


def picklable(*classes: type) -> None:
    """Have pickle (and copy) rebuild instances of these frozen dataclasses (of two fields or more)
    by their constructor."""
    for cls in classes:
        _FIELDS[cls] = attrgetter(*(field.name for field in fields(cls)))  # two fields or more: a tuple
        copyreg.pickle(cls, _by_constructor)


class Value:
    """A read-only value: equal to another of its class with equal fields, hashed by them, shown
    by them (``Result(winner='w', points=2)``) and pickled (and copied) by its constructor. A subclass
    keeps its fields in slots, behind read-only properties where they are public API (a record only
    shipped between processes may leave them plain), names them in ``__match_args__`` (as a
    dataclass does: ``case Result(winner, points)`` matches) and gives their values, in its
    constructor's order, by :meth:`_fields`."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _fields(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(type(self).__match_args__, self._fields()))
        return f"{type(self).__name__}({shown})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._fields() == cast(Value, other)._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return type(self), self._fields()
