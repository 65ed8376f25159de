"""A before that asks the call to do nothing is no example (parse only).

Rating 12 (5931): the search's before was ``jax.lax.rev(operand=jax.numpy.zeros((8,)), dimensions=[])`` inside a
SparseCore kernel: a reversal over no axes, which returns its input unchanged.  It raises the error, but no one
writes it, and the "after" that reverses along axis 0 is then no fix of anything the user asked for.  A call whose
result equals its input is not an example: a before that passes an empty tuple or list to a parameter that selects
what the call works on (the library adapter's ``selectors``, ``search_adapters.py``: jax's axes and dimensions) is
rejected where the search confirms it and where a stored proof is carried over.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from errdex.prove.search_adapters import search_adapter


def no_op(before: str, selectors: Sequence[str]) -> str:
    """"`dimensions=[]`": the first keyword argument of ``before`` that passes an empty tuple or list to one of
    ``selectors`` (the call selects nothing: it returns its input), else ""."""
    if not selectors:
        return ""
    try:
        tree = ast.parse(before)
    except SyntaxError:
        return ""
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            for k in n.keywords:
                if k.arg in selectors and isinstance(k.value, (ast.Tuple, ast.List)) and not k.value.elts:
                    return f"`{k.arg}={ast.unparse(k.value)}`"
    return ""


def selectors_of(package: str) -> tuple[str, ...]:
    """The library adapter's selector parameters (``()`` for a library without an adapter)."""
    adapter = search_adapter(package)
    return adapter.selectors if adapter is not None else ()


def no_op_before(before: str, snapshot: str) -> str:
    """``no_op`` with the selectors of the library of ``snapshot`` (``jax-ml/jax@jax-v0.10.2``: jax's)."""
    return no_op(before, selectors_of(snapshot.split("@", 1)[0].rsplit("/", 1)[-1]))
