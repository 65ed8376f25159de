"""An exception object handed to a setter and raised later by another method (issue 17's ninety-second round).

A class keeps an error a caller hands it and raises it on the next use: grpclib 0.4.9's ``Wrapper``::

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self._error is not None:
            raise self._error                                   # the raise of the text
    def cancel(self, error: Exception) -> None:
        self._error = error                                     # the setter
    ...
    def callback() -> None:                                     # DeadlineWrapper.start, a subclass
        self.cancel(asyncio.TimeoutError('Deadline exceeded'))  # built on the spot, never raised

The object is built where it is handed over and raised only by ``raise self._error``: that raise is where its
traceback starts, so its texts are the constructor calls the module's callers hand the setter (directly, or
through a local assigned one in the caller: ``err = X("..."); self.cancel(err)``).  ``handed`` finds them:
a raise of ``self.<attr>`` in a method of a class whose methods (the class's and its subclasses' in the module)
assign ``self.<attr> = <param>`` from one of their own parameters; the calls are ``self.<setter>(...)`` in those
classes and ``<obj>.<setter>(...)`` anywhere else in the module.  An attribute assigned only from a handler's
bound name (``except Exception as e: self._exc = e``: a raised object, which keeps its traceback) or from
anything but a parameter, a constructor or ``None`` gets nothing here; a setter's argument that is no
constructor call (``reader.set_exception(exc)`` of a caller's own parameter) adds nothing either.  The callers
are read in this module only (a setter called from another module of the package is not seen).
"""

from __future__ import annotations

import ast

from errdex.extract.prebuilt import MAX_CALLS, Func, constructor, owner_class, self_assigned

_NONE = (None, ...)


def _family(tree: ast.Module, owner: ast.ClassDef) -> list[ast.ClassDef]:
    """The class and its subclasses defined in the module (by the bases' last names, transitively)."""
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    names = {owner.name}
    family = [owner]
    grown = True
    while grown:
        grown = False
        for c in classes:
            if c in family:
                continue
            bases = {b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else ""
                     for b in c.bases}
            if bases & names:
                family.append(c)
                names.add(c.name)
                grown = True
    return family


def _methods(cls: ast.ClassDef) -> list[Func]:
    return [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _params(func: Func) -> list[str]:
    a = func.args
    return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]


def setters(family: list[ast.ClassDef], attr: str) -> dict[str, tuple[str, int]] | None:
    """The methods assigning ``self.<attr>`` one of their parameters: name -> the parameter and its position
    among the call's arguments (``self`` left out; -1 when keyword-only).  None when a method assigns the
    attribute anything but a parameter, a constructor call, ``None`` or a handler's bound name (a parameter of
    ``__init__`` is anything: the class's constructions are not read)."""
    out: dict[str, tuple[str, int]] = {}
    for cls in family:
        for method in _methods(cls):
            params = _params(method)
            positional = [p.arg for p in (*method.args.posonlyargs, *method.args.args)]
            for value in self_assigned(ast.walk(method), attr):
                if (isinstance(value, ast.Constant) and value.value in _NONE) or constructor(value) is not None:
                    continue
                if isinstance(value, ast.Name) and value.id in params[1:] and method.name != "__init__":
                    pos = positional.index(value.id) - 1 if value.id in positional else -1
                    out[method.name] = (value.id, pos)
                    continue
                if isinstance(value, ast.Name) and _caught(method, value.id):
                    continue  # `except Exception as e: self._exc = e`: a raised object, its traceback kept
                return None
    return out


def _caught(func: Func, name: str) -> bool:
    return any(isinstance(h, ast.ExceptHandler) and h.name == name for h in ast.walk(func))


def _argument(call: ast.Call, name: str, pos: int) -> ast.expr | None:
    for k in call.keywords:
        if k.arg == name:
            return k.value
    if 0 <= pos < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:pos + 1]):
        return call.args[pos]
    return None


def _local_constructor(func: ast.AST | None, name: str) -> ast.Call | None:
    """``err = X("...")`` in the caller's function: the one constructor call the local is assigned (None when
    the local is assigned anything else, or more than one call)."""
    if func is None:
        return None
    found: list[ast.Call] = []
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            if (c := constructor(node.value)) is None:
                return None
            found.append(c)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and isinstance(node.target, ast.Name) \
                and node.target.id == name:
            return None
    return found[0] if len(found) == 1 else None


def handed(tree: ast.Module, qual: tuple[str, ...], exc: ast.expr) -> list[ast.Call]:
    """``raise self.<attr>`` whose attribute a setter keeps: the constructor calls the module's callers hand
    the setter (empty when there is no such setter, or no caller hands it a constructor call)."""
    if not (isinstance(exc, ast.Attribute) and isinstance(exc.value, ast.Name) and exc.value.id == "self"):
        return []
    if (owner := owner_class(tree, qual)) is None:
        return []
    family = _family(tree, owner)
    found = setters(family, exc.attr)
    if not found:
        return []
    own = {id(n) for cls in family for n in ast.walk(cls)}
    out: list[ast.Call] = []
    funcs: list[ast.AST | None] = [None]

    def visit(node: ast.AST) -> None:
        is_func = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        if is_func:
            funcs.append(node)
        if isinstance(node, ast.Call) and isinstance(f := node.func, ast.Attribute) and f.attr in found:
            via_self = isinstance(f.value, ast.Name) and f.value.id == "self"
            if not via_self or id(node) in own:
                arg = _argument(node, *found[f.attr])
                if arg is not None:
                    c = constructor(arg)
                    if c is None and isinstance(arg, ast.Name):
                        c = _local_constructor(funcs[-1], arg.id)
                    if c is not None and c not in out:
                        out.append(c)
        for child in ast.iter_child_nodes(node):
            visit(child)
        if is_func:
            funcs.pop()

    visit(tree)
    return out if len(out) <= MAX_CALLS else []
