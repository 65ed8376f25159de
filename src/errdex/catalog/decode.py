"""Fast JSON → model decoding for catalog reads (same result as ``model.from_json``).

``model.from_json`` inspects type annotations on every call; reading the jax
catalog's 5,700 sites spent most of its time there.  Here each dataclass gets
a decoder built once from its annotations (a closure per field), so a read is
plain dict look-ups and constructor calls: the web server and the match
index load a catalog several times faster.  ``tests/catalog/test_decode.py``
checks it agrees with ``model.from_json``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

Decoder = Callable[[Any], Any]

_CACHE: dict[Any, Decoder] = {}


def _identity(value: Any) -> Any:
    return value


def _compile(tp: Any) -> Decoder:
    cached = _CACHE.get(tp)
    if cached is not None:
        return cached
    dec = _build(tp)
    _CACHE[tp] = dec
    return dec


def _build(tp: Any) -> Decoder:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_decoder(tp)
    if origin is tuple:
        inner = _compile(args[0]) if args else _identity
        if inner is _identity:
            return lambda v: None if v is None else tuple(v)
        return lambda v: None if v is None else tuple(inner(x) for x in v)
    if origin in (typing.Union, types.UnionType):
        arms = [a for a in args if a is not type(None)]
        return _compile(arms[0]) if arms else _identity
    if origin in (Mapping, dict) or tp is Mapping:
        vt = _compile(args[1]) if len(args) == 2 else _identity
        return lambda v: None if v is None else {k: vt(x) for k, x in v.items()}
    return _identity


def _dataclass_decoder(cls: type) -> Decoder:
    # Filled in after creation so that recursive types find themselves in the cache.
    fields: list[tuple[str, Decoder]] = []

    def decode(value: Any) -> Any:
        if value is None:
            return None
        return cls(**{name: dec(value[name]) for name, dec in fields if name in value})

    _CACHE[cls] = decode
    hints = typing.get_type_hints(cls)
    fields.extend((f.name, _compile(hints[f.name])) for f in dataclasses.fields(cls))
    return decode


def decode[T](cls: type[T], data: Any) -> T:
    """``model.from_json(cls, data)``, faster."""
    result: T = _compile(cls)(data)
    return result
