"""A ``for`` loop's target over the items of a list or tuple display: each item is a value it holds.

``for t in [template]: msg = t.format(*self.args, **self.kwargs)`` (quantiphy 2.22's
``QuantiPhyError.render``, with ``templates = [template]`` on one branch and the caller's list on the
other) reads ``t`` as ``template``; bound as an unknown value, the text it formats was lost.  The
iterable is a display written in the loop, or a local bound to one (on some branches: an option that
is not a display is an unknown value).  A display with a starred item, or of more than ``MAX_ITEMS``
items, is not read.
"""

from __future__ import annotations

import ast

from errdex.extract import env as envmod

MAX_ITEMS = 8


def loop_items(iterable: ast.expr, env: envmod.Env | None) -> tuple[envmod.Binding, ...] | None:
    """The values a loop over ``iterable`` binds its target to, each with the bindings it was written
    under; an unknown value where an option of the local is not a display; None when no display is seen."""
    if isinstance(iterable, (ast.List, ast.Tuple)):
        return _items(iterable, env)
    if not isinstance(iterable, ast.Name):
        return None
    b = envmod.lookup(env, iterable.id)
    if b is None:
        return None
    options = b.options if b.options else (b,)
    out: list[envmod.Binding] = []
    seen = False
    for o in options:
        got = _items(o.value, o.env) if o is not None and not o.options and o.prev is None and not o.grow \
            and isinstance(o.value, (ast.List, ast.Tuple)) else None
        seen = seen or got is not None
        out.extend(got if got is not None else (envmod.Binding(),))
    return tuple(out[:MAX_ITEMS]) if seen and len(out) <= MAX_ITEMS else None


def _items(display: ast.expr | None, env: envmod.Env | None) -> tuple[envmod.Binding, ...] | None:
    if not isinstance(display, (ast.List, ast.Tuple)) or not display.elts or len(display.elts) > MAX_ITEMS \
            or any(isinstance(e, ast.Starred) for e in display.elts):
        return None
    return tuple(envmod.Binding(e, env) for e in display.elts)


def bind_loop_target(env: envmod.Env | None, target: ast.expr, iterable: ast.expr) -> envmod.Env | None:
    """``env`` with a ``Name`` target bound to the display's items (one option each), or None when the
    loop is not over a display (the caller binds the target as an unknown value)."""
    if isinstance(target, ast.Tuple):
        return _bind_constant_fields(env, target, iterable)
    if not isinstance(target, ast.Name):
        return None
    items = loop_items(iterable, env)
    if items is None:
        return None
    return envmod.bind(env, target.id, items[0] if len(items) == 1 else envmod.Binding(options=items))


def _bind_constant_fields(env: envmod.Env | None, target: ast.Tuple, iterable: ast.expr) -> envmod.Env | None:
    """``for key, cls in (('type_errors', TypeError), ('value_errors', ValueError)):`` (hdmf's docval): each
    name whose field is a constant in every row of the display holds one of those constants (a dict key the
    body reads, ``returnedlists``); the other names are unknown values.  None when the display is not a
    table of rows as long as the target."""
    items = loop_items(iterable, env)
    names = target.elts
    if items is None or not all(isinstance(n, ast.Name) for n in names):
        return None
    rows = [i.value for i in items]
    if not all(isinstance(r, (ast.Tuple, ast.List)) and len(r.elts) == len(names) for r in rows):
        return None
    out = env
    for k, n in enumerate(names):
        assert isinstance(n, ast.Name)
        fields = [r.elts[k] for r in rows if isinstance(r, (ast.Tuple, ast.List))]
        if all(isinstance(f, ast.Constant) and isinstance(f.value, (str, int)) for f in fields):
            opts = tuple(envmod.Binding(f, env) for f in fields)
            out = envmod.bind(out, n.id, opts[0] if len(opts) == 1 else envmod.Binding(options=opts))
        else:
            out = envmod.bind(out, n.id, envmod.Binding(loop_target=True))
    return out
