"""Methods reached by attribute look-up rather than by name (part of phase 1's class summaries,
read by ``tables.py`` in phase 2).

```python
class _ErrorHandler:
    def __getattr__(self, name):
        calls = ('debug', 'info', 'warn', 'error', 'critical', 'fatal')
        if name in calls:
            return self.__handle            # log.error(msg, token, error=SyntaxErr) calls this
    def __handle(self, msg='', token=None, error=xml.dom.SyntaxErr, ...):
        ...
        raise error(msg)

class Base:
    _log = errorhandler.ErrorHandler()      # every subclass's self._log.error(...) reaches __handle
```

``getattr_forward``: the method a class's ``__getattr__`` returns bound (``return self.X``, X a method
of the class) and the names it does so for (from ``name in (...)`` / ``name == "..."`` tests on the
way, a local tuple of literals included; none: any name).  ``attr_instances``: the class
attributes bound to an instance of a class (``_log = ErrorHandler()`` in the class body), so that a
subclass's ``self._log.error(...)`` names its receiver's class in phase 2 (cssutils 2.15.0: 142 calls
of ``self._log.error`` with the message and the class the helper raises)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract.imports import dotted_source


def getattr_forward(node: ast.ClassDef) -> tuple[str, tuple[str, ...]] | None:
    """The method ``__getattr__`` returns bound, and the attribute names it does so for."""
    methods = {s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    fn = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__getattr__"), None)
    if fn is None or len(fn.args.args) != 2:
        return None
    param = fn.args.args[1].arg
    tuples: dict[str, tuple[str, ...]] = {}
    found: list[tuple[str, tuple[str, ...] | None]] = []

    def walk(body: list[ast.stmt], names: tuple[str, ...] | None) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and (lits := _literals(stmt.value)) is not None:
                tuples[stmt.targets[0].id] = lits
            elif isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Attribute) \
                    and isinstance(stmt.value.value, ast.Name) and stmt.value.value.id == "self" \
                    and stmt.value.attr in methods:
                found.append((stmt.value.attr, names))
            elif isinstance(stmt, ast.If):
                walk(stmt.body, _tested(stmt.test, param, tuples) or names)
                walk(stmt.orelse, names)
            elif isinstance(stmt, (ast.With, ast.Try)):
                walk(stmt.body, names)

    walk(fn.body, None)
    if len({m for m, _ in found}) != 1:
        return None  # no method returned bound, or several: not one helper
    names = [n for _, n in found]
    return found[0][0], () if None in names else tuple(dict.fromkeys(x for n in names if n for x in n))


def attr_instances(node: ast.ClassDef, resolve: Callable[[str], str | None]) -> tuple[tuple[str, str], ...]:
    """Class attributes assigned an instance of a named class in the class body (``_log = ErrorHandler()``)."""
    out: list[tuple[str, str]] = []
    for stmt in node.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, ast.Call) and (written := dotted_source(stmt.value.func)) is not None \
                and written.rsplit(".", 1)[-1][:1].isupper():
            out.append((stmt.targets[0].id, resolve(written) or written))
    return tuple(out)


def _literals(node: ast.expr) -> tuple[str, ...] | None:
    if not isinstance(node, (ast.Tuple, ast.List, ast.Set)) or not node.elts:
        return None
    out = tuple(e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return out if len(out) == len(node.elts) else None


def _tested(test: ast.expr, param: str, tuples: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """The names ``name in (...)`` / ``name in calls`` / ``name == "x"`` lets through."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
            and test.left.id == param):
        return None
    op, right = test.ops[0], test.comparators[0]
    if isinstance(op, ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
        return (right.value,)
    if isinstance(op, ast.In):
        return _literals(right) or (tuples.get(right.id) if isinstance(right, ast.Name) else None)
    return None
