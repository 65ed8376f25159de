"""An exception object built in one place and raised in another (issue 17's thirty-ninth round).

Three Python idioms raise an instance whose constructor call is not the raise's own expression:

- **a list of collected errors**: ``errors.append(ChildNotFound(f"Missing required child {x}"))`` ...
  ``raise errors[0]``; the list is often handed to helpers that append to it (hl7apy's ``validate`` passes
  ``errors`` to nested checks whose parameter ``errs`` collects the instances);
- **an attribute of the class**: ``self.failure = HTTPError(f"HTTP status {status}")`` in one method and
  ``raise self.failure`` in another;
- a local assigned a constructor (``error = X(...)`` in a branch, then ``raise error``), which the local
  bindings already follow (``msgraise.py``), as they follow ``errors.append(...)`` on a local list.

``collected`` and ``assigned`` find the constructor calls in the module's syntax; the walker reads each as a
raised expression and the site's templates are their texts.  A list of caught exceptions (``except X as e:
errors.append(e)``) or an attribute assigned anything but a constructor call gives nothing here: those stay
what they were (the caught exception, the attribute's class).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterable, Iterator

from errdex.extract.imports import class_like, dotted_source

Func = ast.FunctionDef | ast.AsyncFunctionDef
MAX_HOPS = 3  # helpers followed from the raise's function (the list handed on)
MAX_CALLS = 16  # constructor calls kept per raise (more: a table of its own, left as a value)
# builtins a collected list may be handed to without growing it
_READERS = frozenset({"len", "bool", "list", "tuple", "iter", "any", "all", "sorted", "reversed", "enumerate", "print",
                      "isinstance", "repr", "str", "id"})


def enclosing(tree: ast.Module, qual: tuple[str, ...]) -> tuple[Func | None, list[Func]]:
    """The function a raise sits in (found by its qualified name's parts) and the functions enclosing it
    (outermost first, the raise's own last)."""
    body: list[ast.stmt] = tree.body
    chain: list[Func] = []
    node: ast.AST | None = None
    for part in qual:
        node = next((n for n in reversed(body) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and n.name == part), None)
        if node is None:
            return None, []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            chain.append(node)
        body = node.body
    return (chain[-1] if chain and node is chain[-1] else None), chain


def _walk_own(func: Func) -> Iterator[ast.AST]:
    """The nodes of a function's body, nested functions' and classes' bodies left out."""
    todo: list[ast.AST] = list(func.body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def constructor(node: ast.expr) -> ast.Call | None:
    """``Cls(...)``: the call when it names a class (a capitalised dotted name), None for any other value."""
    if isinstance(node, ast.Call) and (d := dotted_source(node.func)) is not None and class_like(d):
        return node
    return None


def owner_class(tree: ast.Module, qual: tuple[str, ...]) -> ast.ClassDef | None:
    """The class whose method ``qual`` names (its last part the method): None when the function is no method, or
    its path is not found (a definition made under a condition is looked up as the last one of its name)."""
    body: list[ast.stmt] = tree.body
    owner: ast.ClassDef | None = None
    for part in qual[:-1]:
        node = next((n for n in reversed(body) if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.name == part), None)
        if node is None:
            return None
        owner = node if isinstance(node, ast.ClassDef) else None
        body = node.body
    return owner


def _params(func: Func) -> list[str]:
    a = func.args
    return [p.arg for p in (*a.posonlyargs, *a.args)]


def _binds(func: Func, name: str) -> bool:
    """Whether a function assigns ``name`` itself (a list of its own, not the one it closes over)."""
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in _walk_own(func))


def _functions(tree: ast.Module, chain: list[Func]) -> dict[str, Func]:
    """The functions a plain name calls from the raise's function: the module's, then those defined in each
    enclosing function (inner ones shadow outer ones)."""
    out: dict[str, Func] = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for f in chain:
        out.update({n.name: n for n in _walk_own(f) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))})
    return out


def collected(tree: ast.Module, qual: tuple[str, ...], exc: ast.expr) -> list[ast.Call]:
    """``raise errors[k]`` of a local list: the constructor calls appended to it in the raise's function, in the
    functions nested in it that close over it, and in the module's functions the list is handed to
    (``_check(el, errors)``, the parameter then appended to, or handed on), up to ``MAX_HOPS`` calls deep.
    Empty for any other raised expression, and when the list may hold anything else: an item appended that
    is no constructor call (a caught exception), items added otherwise (``extend``, ``+=``), or the list
    handed to code the module does not show (a method, an imported function)."""
    if not (isinstance(exc, ast.Subscript) and isinstance(exc.value, ast.Name)):
        return []
    func, chain = enclosing(tree, qual)
    if func is None:
        return []
    name = exc.value.id
    if name in _params(func) or name in {p.arg for p in func.args.kwonlyargs}:
        return []  # the caller's list: its items are not this module's to know
    functions = _functions(tree, chain)
    out: list[ast.Call] = []
    seen: set[tuple[int, str]] = set()
    todo: list[tuple[Func, str, int]] = [(func, name, 0)]
    while todo and len(out) <= MAX_CALLS:
        f, held, hops = todo.pop(0)
        if (id(f), held) in seen:
            continue
        seen.add((id(f), held))
        for node in _walk_own(f):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and held not in _params(node) \
                    and hops < MAX_HOPS and not _binds(node, held):
                todo.append((node, held, hops + 1))  # a nested function appending to the list it closes over
                continue
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == held:
                return []  # `errors += other`: items from elsewhere
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            if isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id == held:
                if fn.attr in ("extend", "__setitem__", "__iadd__"):
                    return []
                if fn.attr in ("append", "insert") and node.args:
                    if (c := constructor(node.args[-1])) is None:
                        return []  # a caught exception or a value collected too: the list holds what it holds
                    if c not in out:
                        out.append(c)
                continue
            handed = [i for i, a in enumerate(node.args) if isinstance(a, ast.Name) and a.id == held]
            named = [k.arg for k in node.keywords if isinstance(k.value, ast.Name) and k.value.id == held]
            if not handed and not named:
                continue
            callee = functions.get(fn.id) if isinstance(fn, ast.Name) else None
            if callee is None:
                if isinstance(fn, ast.Name) and fn.id in _READERS:
                    continue  # `len(errors)`, `print(errors)`: read, not grown
                return []  # handed to code this module does not show (a method, an import): unknown items
            if hops >= MAX_HOPS or None in named:
                return []
            params = _params(callee)
            if any(i >= len(params) for i in handed):
                return []
            todo.extend((callee, p, hops + 1) for p in [*(params[i] for i in handed), *named] if p is not None)
    return out if len(out) <= MAX_CALLS else []


def assigned(tree: ast.Module, qual: tuple[str, ...], exc: ast.expr) -> list[ast.Call] | None:
    """``raise self.attr`` in a method: the constructor calls assigned to ``self.attr`` in the methods of the
    raise's class; ``None`` when there are none, or when a method assigns it anything else than a
    constructor call or ``None`` (a value the class cannot know, such as a caller's argument)."""
    if not (isinstance(exc, ast.Attribute) and isinstance(exc.value, ast.Name) and exc.value.id == "self"):
        return None
    if (owner := owner_class(tree, qual)) is None:
        return None
    out: list[ast.Call] = []
    for method in owner.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for value in self_assigned(_walk_own(method), exc.attr):
            if isinstance(value, ast.Constant) and value.value is None:
                continue
            if (c := constructor(value)) is None:
                return None
            out.append(c)
    return out if 0 < len(out) <= MAX_CALLS else None


def self_assigned(nodes: Iterable[ast.AST], attr: str) -> Iterator[ast.expr]:
    """The values that the statements among ``nodes`` assign to ``self.<attr>`` (``self.x = v``, ``self.x: T =
    v``): what an instance keeps there, read by the raises of it (``assigned``, ``setterargs``)."""
    for node in nodes:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
               and t.attr == attr for t in targets):
            yield value


def _blocks(func: Func) -> Iterator[list[ast.stmt]]:
    """The statement lists of a function's own body (branches, loops, ``try`` parts, ``with`` bodies)."""
    for node in (func, *_walk_own(func)):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block
        if isinstance(node, ast.Try | ast.TryStar):
            for h in node.handlers:
                yield h.body
        if isinstance(node, ast.Match):
            for case in node.cases:
                yield case.body


def just_assigned(tree: ast.Module, qual: tuple[str, ...], exc: ast.expr) -> list[ast.Call]:
    """``self._resolved = InterpreterNotFound(self.interpreter)`` directly followed by ``raise self._resolved``
    (the object kept on the instance, then raised): the constructor call of the statement right before the
    raise, in the same block, whatever else the attribute holds on other paths (a cached result).  Empty for
    any other raise, and when the statement before it is not such an assignment."""
    if not (isinstance(exc, ast.Attribute) and isinstance(exc.value, ast.Name)):
        return []
    func, _ = enclosing(tree, qual)
    if func is None:
        return []
    for block in _blocks(func):
        for before, stmt in itertools.pairwise(block):
            if not (isinstance(stmt, ast.Raise) and stmt.exc is exc):
                continue
            if isinstance(before, ast.Assign) and len(before.targets) == 1:
                target, value = before.targets[0], before.value
            elif isinstance(before, ast.AnnAssign) and before.value is not None:
                target, value = before.target, before.value
            else:
                return []
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and (target.value.id, target.attr) == (exc.value.id, exc.attr) \
                    and (c := constructor(value)) is not None:
                return [c]
            return []
    return []
