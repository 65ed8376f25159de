"""The JSON shape of errdex's value objects: a frozen dataclass tree to plain JSON data and back.

Kept apart from ``model`` (which re-exports both functions) because it knows nothing of any one class: it
reads each dataclass's fields and annotations, so every stage's value objects, ``model``'s and those of
``match.model``, round-trip the same way, and a field added with a default still loads older documents.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any


def to_json(value: Any) -> Any:
    """A dataclass (tree) as plain JSON data; tuples become lists."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    names = _field_names(type(value))
    if names is not None:
        return {name: to_json(getattr(value, name)) for name in names}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def from_json[T](cls: type[T], data: Any) -> T:
    """Inverse of ``to_json`` for the classes of this module; unknown keys are ignored."""
    kwargs: dict[str, Any] = {}
    for name, tp in _field_types(cls):
        if name not in data:
            continue
        kwargs[name] = _decode(tp, data[name])
    return cls(**kwargs)


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}
_FIELD_TYPES: dict[type, tuple[tuple[str, Any], ...]] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names (None for other types), once per class: ``to_json`` runs
    for every site written to the catalog and ``dataclasses.fields`` is slow."""
    try:
        return _FIELD_NAMES[cls]
    except KeyError:
        pass
    names = tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None
    _FIELD_NAMES[cls] = names
    return names


def _field_types(cls: type) -> tuple[tuple[str, Any], ...]:
    """(field name, resolved type) of a dataclass, computed once per class.

    ``typing.get_type_hints`` evaluates every annotation string each time it
    is called; uncached it made loading a catalog of 5,000 sites take seconds.
    """
    cached = _FIELD_TYPES.get(cls)
    if cached is None:
        hints = typing.get_type_hints(cls)
        cached = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))
        _FIELD_TYPES[cls] = cached
    return cached


def _decode(tp: Any, value: Any) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if value is None:
        return None
    if dataclasses.is_dataclass(tp):
        return from_json(tp, value)  # type: ignore[arg-type]
    if origin is tuple:
        inner = args[0] if args else Any
        return tuple(_decode(inner, v) for v in value)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        for a in args:
            if a is type(None):
                continue
            return _decode(a, value)
    if origin in (Mapping, dict) or tp is Mapping:
        vt = args[1] if len(args) == 2 else Any
        return {k: _decode(vt, v) for k, v in value.items()}
    return value
