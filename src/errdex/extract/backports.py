"""Functions bound only on some Python versions: a package's backport of a standard-library function.

```python
def _batched(iterable, n, *, strict=False):         # more-itertools 11.2.1
    if n < 1:
        raise ValueError('n must be at least one')
    ...

if hexversion >= 0x30D00A2:
    from itertools import batched as itertools_batched

    def batched(iterable, n, *, strict=False):
        return itertools_batched(iterable, n, strict=strict)
else:
    batched = _batched
```

On the Pythons where the test holds, the standard library (compiled code) does the work and raises
its own errors, with the very text the backport copied; the backport's sites raise it only on the
others.  ``gated`` finds, at a module's top level, an ``if`` on the Python version whose one branch
binds a name to a package function (``batched = _batched``) while the other binds the same name
otherwise and imports from a module outside the package: that function's sites get the branch's
condition as their first guard (``not (hexversion >= 0x30D00A2)``), which says when they raise and
tells matching that their text alone is no confident answer (docs/matching.md).
"""

from __future__ import annotations

import ast
import re

VERSION_TEST = re.compile(r"version_info|hexversion|python_version|\bPY\d*\b|\bPYTHON\d+\b|\bPY_?3\d*\b")


def gated(tree: ast.Module, top: str) -> dict[str, tuple[ast.expr, bool]]:
    """Top-level function name -> (the version test, whether the binding is in its ``else``)."""
    out: dict[str, tuple[ast.expr, bool]] = {}
    for node in tree.body:
        if not isinstance(node, ast.If) or not node.orelse or not VERSION_TEST.search(ast.unparse(node.test)):
            continue
        for branch, other, negated in ((node.body, node.orelse, False), (node.orelse, node.body, True)):
            if not _imports_foreign(other, top):
                continue
            bound = _bound(other)
            for stmt in branch:
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                        and isinstance(stmt.value, ast.Name) and stmt.targets[0].id in bound):
                    out[stmt.value.id] = (node.test, negated)
    return out


def _imports_foreign(body: list[ast.stmt], top: str) -> bool:
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom) and not stmt.level and (stmt.module or "").split(".")[0] != top:
            return True
        if isinstance(stmt, ast.Import) and any(a.name.split(".")[0] != top for a in stmt.names):
            return True
    return False


def _bound(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(stmt.name)
        elif isinstance(stmt, ast.ImportFrom | ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
        elif isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return names
