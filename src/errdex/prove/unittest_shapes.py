"""Tests that reach the library through their class instance or a helper of their file (parsing only).

``test_instance``: ``self`` for a unittest-style test (``self.check_x(...)``); ``through_helper``: a
helper that expects the raise itself (``check(self, TypeError, f)``) replaced by its raising statement.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Sequence

from errdex.prove.slicing import _expect_call, slice_body


def _test_frames(chain: Sequence[str], test_file: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for frame in chain:
        func, _, where = frame.rpartition(" (")
        path, _, line = where.rstrip(")").rpartition(":")
        if (path.endswith(test_file) or test_file.endswith(path)) and line.isdigit():
            out.append((func.rsplit(".", 1)[-1], int(line)))
    return out


def through_helper(tree: ast.Module, chain: Sequence[str], test_file: str, raising: ast.stmt) -> ast.stmt | None:
    """A test calling a module-level helper of its file that expects the raise itself
    (``check(self, TypeError, f)`` -> ``test.assertRaises(etype, f)``): the helper's raising
    statement with the helper's parameters replaced by the test's arguments (``f()``), so the
    error escapes as it would for a user.  None when the chain does not go through such a helper
    or an argument cannot be bound."""
    frames = _test_frames(chain, test_file)
    if len(frames) < 2:
        return None
    name, line = frames[1]
    helper = next((h for h in tree.body if isinstance(h, ast.FunctionDef) and h.name == name), None)
    call = next((n for n in ast.walk(raising) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == name), None)
    if helper is None or call is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    inner = slice_body(helper.body, line)
    if inner is None:
        return None
    stmt = _expect_call(inner[1])
    params = [a.arg for a in helper.args.args]
    bound: dict[str, ast.expr] = dict(zip(params, call.args, strict=False))
    defaults = helper.args.defaults
    bound.update({p: d for p, d in zip(params[len(params) - len(defaults):], defaults, strict=True) if p not in bound})
    bound.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)) or set(params) - set(bound):
        return None
    out = _Subst(bound).visit(copy.deepcopy(stmt))
    return ast.copy_location(out, raising) if isinstance(out, ast.stmt) else None


class _Subst(ast.NodeTransformer):
    def __init__(self, bound: dict[str, ast.expr]) -> None:
        self.bound = bound

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return copy.deepcopy(self.bound[node.id]) if node.id in self.bound and isinstance(node.ctx, ast.Load) else node


def _replace(stmts: list[ast.stmt], old: ast.stmt, new: ast.stmt) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for st in stmts:
        if st is old:
            out.append(new)
        elif isinstance(st, (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.If)) \
                and any(n is old for n in ast.walk(st)):
            c = copy.copy(st)
            c.body = _replace(st.body, old, new)
            out.append(c)
        else:
            out.append(st)
    return out


_ABSL_PARAMS = {"parameters", "named_parameters", "product"}


def module_bases(tree: ast.Module, cls: ast.ClassDef) -> list[ast.ClassDef]:
    """The classes of ``tree`` that ``cls`` inherits from, by name, nearest first (depth first, each once):
    where a test method a subclass only inherits is defined, and whose decorators configure it too."""
    classes = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}
    out: list[ast.ClassDef] = []
    todo = list(cls.bases)
    while todo:
        b = todo.pop(0)
        found = classes.get(b.id) if isinstance(b, ast.Name) else None
        if found is not None and found is not cls and found not in out:
            out.append(found)
            todo = [*found.bases, *todo]
    return out


def test_instance(cls: ast.ClassDef) -> list[ast.stmt]:
    """``self`` for a test that uses its instance (``self.check_x(...)``, ``self.assert*``): the test's
    class without its test methods (helpers, ``setUp`` and base classes stay; absl's parameter
    decorators go, they have nothing left to expand), instantiated under its default method name
    and, when it has a base class (a ``TestCase``), set up as unittest would."""
    c = copy.copy(cls)
    c.body = [s for s in cls.body if not (isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                                          and s.name.startswith("test"))] or [ast.Pass()]
    c.decorator_list = [d for d in cls.decorator_list
                        if not (isinstance(d, ast.Call) and isinstance(d.func, (ast.Attribute, ast.Name))
                                and (d.func.attr if isinstance(d.func, ast.Attribute) else d.func.id) in _ABSL_PARAMS)]
    setup = "\nself.setUp()" if cls.bases or any(isinstance(s, ast.FunctionDef) and s.name == "setUp" for s in cls.body) \
        else ""
    return [c, *ast.parse(f"self = {cls.name}(){setup}").body]

