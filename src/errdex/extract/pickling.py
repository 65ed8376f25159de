"""Cheap pickling for the frozen dataclasses that cross the process boundary.

A ``slots=True`` dataclass pickles through ``dataclasses._dataclass_getstate``
and ``_dataclass_setstate``: pure Python, calling ``fields()`` for every
object.  Phase 1 ships tens of thousands of small IR nodes per run, and the
parent unpickles them on the critical path, so these classes reduce to
``(cls, field values)`` taken by one C-level ``attrgetter`` instead.
"""

from __future__ import annotations

import copyreg
import dataclasses
from operator import attrgetter
from typing import Any


def fast_pickle[C: type](cls: C) -> C:
    """Class decorator (apply above ``@dataclass``): reduce to ``cls(*fields)``."""
    names = [f.name for f in dataclasses.fields(cls)]
    getter = attrgetter(*names)
    if len(names) == 1:
        def reduce(self: Any) -> tuple[Any, tuple[Any, ...]]:
            return (cls, (getter(self),))
    else:
        def reduce(self: Any) -> tuple[Any, tuple[Any, ...]]:
            return (cls, getter(self))
    setattr(cls, "__reduce__", reduce)  # noqa: B010 (assigning a method on a class object)
    return cls


def register_model_types(*classes: type) -> None:
    """The same reduction for model classes shipped by workers (``Guard``, ``FileFailure``...),
    registered with ``copyreg`` so that model.py itself stays untouched.  Equivalent to the
    default pickling (the object is rebuilt from its fields), only cheaper."""
    for cls in classes:
        copyreg.pickle(cls, _reducer(cls))


def _reducer(cls: type) -> Any:
    names = [f.name for f in dataclasses.fields(cls)]
    getter = attrgetter(*names)
    if len(names) == 1:
        def one(obj: Any) -> tuple[Any, tuple[Any, ...]]:
            return (cls, (getter(obj),))
        return one

    def many(obj: Any) -> tuple[Any, tuple[Any, ...]]:
        return (cls, getter(obj))
    return many
