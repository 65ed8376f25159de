"""Exception factories that pick the class from a table: hvac 2.4.0's ``VaultError.from_status(cls, status_code,
*args, **kwargs)`` returns ``_STATUS_EXCEPTION_MAP.get(status_code, UnexpectedError)(*args, **kwargs)`` over a dict
display of classes (``{400: InvalidRequest, 401: Unauthorized, ...}``), and amqp 5.4.2's ``error_for_code(code,
text, method, default)`` returns ``ERROR_MAP[code](text, method, reply_code=code)``.  ``raise
exceptions.VaultError.from_status(status_code, message, errors=errors, method=method, url=url)`` read as the call's
arguments (``({status_code}, {message})``, issue 17's forty-sixth round) while the user sees the picked class's own
``__str__`` (``f"{self.args[0]}, on {self.method} {self.url}"``).

Phase 1 (``walkbind.return_``) reads a returned ``TABLE[key](...)`` / ``TABLE.get(key, Default)(...)``, with
``TABLE`` a local or module-level name bound to a dict display whose values are all classes, as the choice of
those classes (and the default) called with the returned call's arguments (``*args`` / ``**kwargs`` forwarded as
``factories.py`` binds them); phase 2 expands each class's own texts and the site names the classes' common base
(``common_base``), its class as written staying the factory call's (a printed subclass is no contradiction).

Issue 17's forty-eighth round reads two more forms of the same choice: a local bound to such a call on one of its
paths (asyncssh's ``try: exc = _sftp_error_map[code](reason, lang)`` / ``except KeyError: exc = SFTPError(...)``,
``return exc``: ``MessageBuilder.arg``), and a table of prebuilt *instances* (minimalmodbus's ``SLAVE_ERRORS =
{1: IllegalRequestError("Slave reported illegal function"), ...}``, ``error = SLAVE_ERRORS.get(code,
SlaveReportedException("Slave reported error code " + str(code)))``, ``raise error``: ``table_instances``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from errdex.extract.imports import class_like, dotted_source
from errdex.extract.ir import Lit, Node

# ``Ref.item`` of a class picked from a table: phase 2's outcome says so, and the site names the classes' base
PICKED: tuple[Node, ...] = (Lit("<picked from a table>"),)
MAX_CLASSES = 40  # a table's classes read as alternatives, the first ones (hvac's has 12, asyncssh's SFTP map 31)


def _table_and_default(func: ast.expr) -> tuple[ast.expr, ast.expr | None] | None:
    """``TABLE[key]`` → (``TABLE``, None); ``TABLE.get(key, Default)`` → (``TABLE``, ``Default``); ``TABLE`` a
    name, an attribute or a dict display written in place (``{"pre": PreError, "post": PostError}[kind]``)."""
    if isinstance(func, ast.Subscript) and isinstance(func.value, (ast.Name, ast.Attribute, ast.Dict)):
        return func.value, None
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and func.func.attr == "get" \
            and isinstance(func.func.value, (ast.Name, ast.Attribute, ast.Dict)) and 1 <= len(func.args) <= 2 \
            and not func.keywords:
        return func.func.value, (func.args[1] if len(func.args) == 2 else None)
    return None


def is_table_call(node: ast.expr | None) -> bool:
    """By shape alone: ``NAME[key](...)`` / ``NAME.get(key[, default])(...)`` (the test for a summary)."""
    return isinstance(node, ast.Call) and _table_and_default(node.func) is not None


def returns_table_call(body: Iterable[ast.stmt]) -> bool:
    """Statement-level scan: a ``return`` of a call of a table's entry (``is_table_call``)."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            if is_table_call(node.value):
                return True
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody"):
                stack.extend(getattr(node, field, ()))
            for h in getattr(node, "handlers", ()):
                stack.extend(h.body)
    return False


def _bound(table: ast.expr, lookup: Callable[[str], ast.expr | None]) -> ast.expr | None:
    name = dotted_source(table)
    return lookup(name) if name is not None else None


def table_classes(func: ast.expr, lookup: Callable[[str], ast.expr | None]) -> list[str] | None:
    """The classes (as written) a call's callee ``TABLE[key]`` / ``TABLE.get(key, Default)`` may be: every
    value of the dict display ``TABLE`` is bound to (``lookup``: the name's value), and the default; ``None``
    when the table is not such a display, or a value or the default is not a class's name."""
    found = _table_and_default(func)
    if found is None:
        return None
    table, default = found
    value = table if isinstance(table, ast.Dict) else _bound(table, lookup)
    if not isinstance(value, ast.Dict) or not value.values or any(k is None for k in value.keys):
        return None  # not a display of entries (`{**other}` merges entries this cannot see)
    out: list[str] = []
    for v in (*value.values, *((default,) if default is not None else ())):
        written = dotted_source(v)
        if written is None or not class_like(written):
            return None
        if written not in out:
            out.append(written)
    return out[:MAX_CLASSES]


def table_instances(node: ast.expr, lookup: Callable[[str], ast.expr | None]) -> list[ast.expr] | None:
    """The prebuilt exception objects ``TABLE[key]`` / ``TABLE.get(key, default)`` may be: every value of the dict
    display ``TABLE`` is bound to, each a call of a class-like name (``IllegalRequestError("...")``), and the default
    (such a call, or a class's name); ``None`` for any other expression, a table holding anything else (a text, a
    function), entries merged from elsewhere, or a ``get`` without a default (it may be ``None``)."""
    found = _table_and_default(node)
    if found is None or (isinstance(node, ast.Call) and found[1] is None):
        return None  # (`TABLE.get(key)`: `None` when the key is missing)
    table, default = found
    value = table if isinstance(table, ast.Dict) else _bound(table, lookup)
    if not isinstance(value, ast.Dict) or not value.values or any(k is None for k in value.keys):
        return None
    out: list[ast.expr] = []
    for v in (*value.values, *((default,) if default is not None else ())):
        if isinstance(v, ast.Call):
            written = dotted_source(v.func)
        else:
            written = dotted_source(v) if v is default and v is not None else None
        if written is None or not class_like(written):
            return None
        out.append(v)
    return out[:MAX_CLASSES]


def common_base(classes: list[str], bases_chain: Callable[[str], Iterable[str]]) -> str | None:
    """The nearest class every one of ``classes`` is (itself or by inheritance), following the first's chain."""
    if not classes:
        return None
    chains = [{c, *bases_chain(c)} for c in classes[1:]]
    for c in (classes[0], *bases_chain(classes[0])):
        if all(c in ch for ch in chains):
            return c
    return None
