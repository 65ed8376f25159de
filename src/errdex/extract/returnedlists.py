"""Texts a helper collects in a list and returns, joined by its caller into the text it raises.

hdmf 6.2.0's docval parses a call's arguments in a module function that appends each problem it finds to a
list (``type_errors.append("incorrect type for '%s' (got '%s', expected '%s')" % fmt_val)``,
``syntax_errors.append(msg)``) and returns the lists in a dict (``return {'args': ret, 'type_errors':
type_errors, ...}``); the decorated function's wrapper reads them back and raises their join::

    parsed = __parse_args(loc_val, args, kwargs, ...)
    for error_type, ExceptionType in (('type_errors', TypeError), ('value_errors', ValueError), ...):
        parse_err = parsed.get(error_type)
        if parse_err:
            raise ExceptionType('%s: %s' % (func.__qualname__, ', '.join(parse_err)))

Without the helper's texts the raise's template was ``{}: {}``.  The walk records, at each ``return`` of a
module-level function, the distinct texts appended to each list it returns (the list itself, or a dict display's
values under literal keys: ``HelperLists``); a join in a caller of the same module over that call's result
(``helper(...)``, ``helper(...)[key]``, ``helper(...).get(key)``, directly or through locals) reads one item
per text: the key's texts when it is a literal, every list's when it is not (a loop over the keys).  The helper
must have been walked before the caller (defined above it, as helpers mostly are); a list that also receives
an item of unknown text keeps one unknown item among them (``{}: {}`` stays a template).
"""

from __future__ import annotations

import ast
import dataclasses
import itertools

from errdex.extract import env as envmod
from errdex.extract.helperkw import returns_of
from errdex.extract.ir import Hole, Node, Param, Ref, with_parts
from errdex.extract.joinedparts import has_literal
from errdex.extract.msgbase import MAX_LIST_DEPTH, Builder, Scope
from errdex.extract.variants import MAX_TEMPLATES

# function name -> list key ("" for a list returned itself) -> the distinct texts appended to it
HelperLists = dict[str, dict[str, tuple[Node, ...]]]
UNKNOWN_ITEM = Hole("item")  # an item of unknown text (a placeholder, as the whole join was)


def returned_lists(builder: Builder, value: ast.expr | None, scope: Scope) -> dict[str, tuple[Node, ...]]:
    """The lists a ``return`` hands back, by key: ``return errors`` (key ``""``) or ``return {'errors':
    errors, ...}`` (each literal key whose value is a local list grown by appends)."""
    if isinstance(value, ast.Name):
        items = _collected(builder, value.id, scope)
        return {"": items} if items else {}
    out: dict[str, tuple[Node, ...]] = {}
    if isinstance(value, ast.Dict):
        for k, v in zip(value.keys, value.values, strict=True):
            if isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Name) and (
                    items := _collected(builder, v.id, scope)):
                out[k.value] = items
    return out


def returns_collected(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A function that returns a list it appends to (or a dict display holding one): walked for its texts even
    when it raises nothing itself (``validate``'s helper `_problems`, which only collects them)."""
    appended = {n.func.value.id for n in ast.walk(node) if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute) and n.func.attr == "append" and isinstance(n.func.value, ast.Name)}
    if not appended:
        return False
    for r in returns_of(node.body):
        v = r.value
        names = [v] if isinstance(v, ast.Name) else list(v.values) if isinstance(v, ast.Dict) else []
        if any(isinstance(n, ast.Name) and n.id in appended for n in names):
            return True
    return False


def merged(old: dict[str, tuple[Node, ...]], new: dict[str, tuple[Node, ...]]) -> dict[str, tuple[Node, ...]]:
    """Two returns' lists together (each key's texts, distinct, capped)."""
    out = dict(old)
    for k, items in new.items():
        out[k] = _distinct((*out.get(k, ()), *items))
    return out


def _collected(builder: Builder, name: str, scope: Scope) -> tuple[Node, ...]:
    """The texts appended to the local list ``name`` on any path to here; none when it is no list grown by
    appends (a list whose creation is not seen, an item with no literal text of its own is one unknown item)."""
    b = envmod.lookup(scope.env, name)
    found: list[tuple[int, Node]] = []  # (line, text): in the order of the source
    grown = created = False
    stack: list[envmod.Binding | None] = [b]
    seen: set[int] = set()
    while stack and len(seen) < 4 * MAX_LIST_DEPTH:
        cur = stack.pop()
        if cur is None or id(cur) in seen:
            continue
        seen.add(id(cur))
        stack.extend(reversed(cur.options))
        if cur.grow in ("append", "prepend") and cur.value is not None:
            grown = True
            found.append((cur.line, builder.text(cur.value, scope.at(cur.env))))
            stack.append(cur.prev)
        elif cur.grow:  # an extend: a list literal's items, else items of unknown text
            grown = True
            elts = cur.value.elts if isinstance(cur.value, (ast.List, ast.Tuple)) else None
            found.extend((cur.line, builder.text(e, scope.at(cur.env))) for e in elts) if elts is not None \
                else found.append((cur.line, UNKNOWN_ITEM))
            stack.append(cur.prev)
        elif cur.value is not None and cur.prev is None:
            created = created or _new_list(cur.value)
            if isinstance(cur.value, (ast.List, ast.Tuple)):
                found.extend((cur.value.lineno, builder.text(e, scope.at(cur.env))) for e in cur.value.elts)
        elif cur.options:
            continue
        else:
            return ()  # a rebinding we cannot follow (`errors += other`, a loop target...)
    if not (grown and created):
        return ()
    return _distinct([t for _, t in sorted(found, key=lambda f: f[0])])


def _new_list(value: ast.expr) -> bool:
    """``[]``, ``[...]``, ``list()``: a fresh list made here."""
    if isinstance(value, ast.List):
        return not any(isinstance(e, ast.Starred) for e in value.elts)
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "list" \
        and not value.args and not value.keywords


def _distinct(items: tuple[Node, ...] | list[Node]) -> tuple[Node, ...]:
    """Each text once, detached from the helper (its parameters are unknown values in the caller), those of no
    literal text of their own one unknown item, capped."""
    out: list[Node] = []
    for i in items:
        # a module function's returned text (hdmf's `__shape_error_message(...)`) is read in phase 2
        d = _detached(i) if has_literal(i) or (isinstance(i, Ref) and i.is_call and not i.param) else UNKNOWN_ITEM
        if d not in out:
            out.append(d)
    return tuple(out[:MAX_TEMPLATES])


def _detached(node: Node) -> Node:
    """The text with the helper's parameters as plain placeholders: the caller binds none of them."""
    if isinstance(node, Param):
        return Hole(node.shown or node.name, node.conversion, node.format_spec)
    if isinstance(node, Ref):
        if node.param or node.reraised or node.edited is not None:
            return Hole(node.src)
        if node.item:
            node = dataclasses.replace(node, item=tuple(_detached(i) for i in node.item))
    return with_parts(node, _detached)


def helper_items(builder: Builder, node: ast.expr, scope: Scope, depth: int = 0) -> list[tuple[Node, ...]] | None:
    """The items a list expression can hold when it is a module helper's returned list (``helper(...)``,
    ``helper(...)[key]``, ``helper(...).get(key)``, or a local bound to one of those): one single-item option
    per text the helper collected (``returned_lists``); None for any other expression."""
    if depth > 4:
        return None
    keys: tuple[str, ...] | None = ("",)
    target = node
    if isinstance(node, ast.Name):
        b = envmod.lookup(scope.env, node.id)
        if b is None or b.value is None or b.prev is not None or b.options or b.grow:
            return None
        return helper_items(builder, b.value, scope.at(b.env), depth + 1)
    if isinstance(node, ast.Subscript):
        target, keys = node.value, _keys(node.slice, scope)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and len(node.args) == 1 and not node.keywords:
        target, keys = node.func.value, _keys(node.args[0], scope)
    lists = _helper_lists(builder, target, scope, depth)
    if lists is None:
        return None
    # a key only known at run time (a loop over them): any of the lists
    read = [lists[k] for k in lists if (k in keys if keys is not None else k)]
    # in turns, one text of each list (a site keeps ``MAX_TEMPLATES``: each list has its first texts there),
    # an item of unknown text last (`{}: {}` is the least of them)
    turns = [t for row in itertools.zip_longest(*read) for t in row if t is not None]
    texts = _distinct([t for t in turns if t != UNKNOWN_ITEM] + [t for t in turns if t == UNKNOWN_ITEM])
    if not texts:
        return None
    return [(t,) for t in texts]


def _keys(node: ast.expr, scope: Scope) -> tuple[str, ...] | None:
    """The literal keys a subscript reads: a constant, or a local holding one of a few (a loop over a table of
    rows, ``loopitems``); None when unknown."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    b = envmod.lookup(scope.env, node.id) if isinstance(node, ast.Name) else None
    options = (b.options or (b,)) if b is not None else ()
    values = [o.value.value if o is not None and isinstance(o.value, ast.Constant) else None for o in options]
    if values and all(isinstance(v, str) for v in values):
        return tuple(str(v) for v in values)
    return None


def _helper_lists(builder: Builder, node: ast.expr, scope: Scope, depth: int) -> dict[str, tuple[Node, ...]] | None:
    """The lists the module function a call names returned (``builder.helper_lists``), the call written
    there or bound to a local."""
    if isinstance(node, ast.Name):
        b = envmod.lookup(scope.env, node.id)
        if b is None or b.value is None or b.prev is not None or b.options or b.grow or depth > 4:
            return None
        return _helper_lists(builder, b.value, scope.at(b.env), depth + 1)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    name = node.func.id
    if envmod.lookup(scope.env, name) is not None or any(envmod.lookup(o, name) is not None for o in scope.outers):
        return None  # a local of that name, not the module's function
    return builder.helper_lists.get(name)

