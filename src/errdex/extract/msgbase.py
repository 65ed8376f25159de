"""What the message builder's parts share: the ``Scope`` an expression is read in, the
constants of the expression rules, and ``Builder``, the interface each part of
``MessageBuilder`` (``messages.py``: names, text position, bindings; ``msgvalue.py``: value
position; ``msgforms.py``:
f-strings, ``%``, ``.format``, joins; ``msgcalls.py``: calls; ``msgraise.py``: the raised
expression) may call on the others.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from errdex.extract import env as envmod
from errdex.extract import factories
from errdex.extract.guards import Spec
from errdex.extract.ir import (
    Node,
    Ref,
)
from errdex.extract.kepttexts import KeptAttrs
from errdex.extract.source import SourceText

# Expressions that are runtime values by nature: a placeholder is the right answer.
_OPAQUE = (
    ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.BoolOp, ast.Compare, ast.UnaryOp,
    ast.BinOp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Tuple, ast.List,
    ast.Dict, ast.Set, ast.Lambda, ast.Await, ast.NamedExpr, ast.Starred, ast.Slice, ast.Constant,
    ast.IfExp, ast.JoinedStr,
)

_DEDENTS = {"textwrap.dedent": "dedent", "inspect.cleandoc": "cleandoc"}
# gettext-style functions, by name: which positional arguments are message text.
_GETTEXT: dict[str, tuple[int, ...]] = {
    "_": (0,), "N_": (0,), "gettext": (0,), "ugettext": (0,), "gettext_lazy": (0,), "lazy_gettext": (0,),
    "__": (0,),  # Sphinx's console messages (`from sphinx.locale import __`)
    "ugettext_lazy": (0,), "ngettext": (0, 1), "ungettext": (0, 1), "ngettext_lazy": (0, 1),
    "pgettext": (1,), "pgettext_lazy": (1,), "npgettext": (1, 2),
}
_STRIPS = frozenset({"strip", "lstrip", "rstrip"})


def gettext_name(written: str) -> bool:
    """Whether a called name (its last part) is a gettext-style function (``_``, ``gettext``, ...)."""
    return written.rsplit(".", 1)[-1] in _GETTEXT


def translated_text(node: ast.expr) -> bool:
    """``_("text")``: a literal marked for translation (the text is the source language's)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)) and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            and gettext_name(ast.unparse(node.func)))


def translator(b: envmod.Binding, depth: int = 0) -> bool:
    """A local that holds a translation function on every path that binds it (``try: trans = state._``
    ``except AttributeError: trans = _stdtrans``), at least one of them named as one (``_``, ``gettext``):
    the others, plain names of functions (no call), are taken as the same; unbound paths are skipped."""
    leaves: list[ast.expr] = []

    def collect(x: envmod.Binding, d: int) -> bool:
        if d > 8:
            return False
        if x.options:
            return all(o is None or collect(o, d + 1) for o in x.options)
        if x.value is None or not isinstance(x.value, (ast.Name, ast.Attribute)) or x.prev is not None:
            return False
        leaves.append(x.value)
        return True

    return collect(b, depth) and any(gettext_name(ast.unparse(v)) for v in leaves)


def dict_call(node: ast.expr) -> bool:
    """``dict(key=value, ...)``: a mapping display written as a call."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
        and bool(node.keywords)
MESSAGE_TABLE = re.compile(r"messages?$", re.IGNORECASE)  # `default_error_messages = {"invalid": "..."}`
MAX_EVAL_DEPTH = 24
MAX_LIST_DEPTH = 64  # appends followed back through a local list
MAX_LIST_OPTIONS = 8  # combinations of a list's items, like the templates cap
MAX_REPEATED = 1000  # characters of "-" * n spelled out



@dataclass(frozen=True, slots=True)
class Scope:
    """Where an expression is evaluated: the function's parameters and local bindings."""

    params: frozenset[str] = frozenset()
    env: envmod.Env | None = None
    class_qualname: str | None = None  # "Outer.Inner" for self.method(...) targets
    self_attrs: Mapping[str, Node] = field(default_factory=dict)
    outers: tuple[envmod.Env | None, ...] = ()  # enclosing functions' bindings where a nested def was made
    cls_alias: str = ""  # in a @classmethod: its first parameter (``cls``), which names the class
    in_exception: bool = False  # in a method of a class that may be an exception: it builds its own text
    qual: str = ""  # the enclosing function's key in its module ("Cls.meth"), for by-name method targets
    types: factories.Types = ()  # receivers' classes as written (``self._src`` → ``Source``)
    guards: tuple[Spec, ...] = ()  # the conditions the expression sits under (``isinstance(x, C)`` narrows ``x``)
    properties: frozenset[str] = frozenset()  # the class's own ``@property`` methods (``properties.py``)
    closure_params: frozenset[str] = frozenset()  # the enclosing functions' parameters (``closure.py``)

    def at(self, env: envmod.Env | None) -> Scope:
        """The same scope with the bindings seen at another point (where a local was assigned)."""
        return Scope(self.params, env, self.class_qualname, self.self_attrs, self.outers, self.cls_alias,
                     self.in_exception, self.qual, self.types, self.guards, self.properties, self.closure_params)

    def receiver_method(self, written: str, module: str, resolve: Callable[[str], str | None]) -> str | None:
        """``self.attr.meth`` / ``param.meth`` / ``local.meth``: the receiver's class's method when its
        class is known, else the method by name (``factories.py``)."""
        return factories.receiver_method(written, self.params, self.env, module, self.class_qualname, self.qual,
                                         self.types, resolve)

    def own_class(self, written: str) -> bool:
        """Whether ``written`` is a classmethod's ``cls`` (not rebound): the class it is defined in."""
        return bool(self.cls_alias) and written == self.cls_alias and self.class_qualname is not None \
            and envmod.lookup(self.env, written) is None




class Builder(Protocol):
    """The builder as its parts see it (``MessageBuilder`` implements every member)."""

    src: SourceText
    module: str
    imports: dict[str, str]
    top_defs: set[str]
    module_env: dict[str, ast.expr]
    path: str
    _memo: dict[object, Node]
    _depth: int
    kept_classes: dict[str, KeptAttrs]
    built_members: frozenset[str]
    kwargs_name: str | None
    class_texts: dict[str, Node]
    helper_lists: dict[str, dict[str, tuple[Node, ...]]]

    def resolve_name(self, written: str) -> str | None: ...
    def callee(self, written: str, scope: Scope) -> str | None: ...
    def where(self, node: ast.AST) -> str: ...
    def text(self, node: ast.expr, scope: Scope) -> Node: ...
    def value(self, node: ast.expr, scope: Scope, conversion: str | None = None, spec: str | None = None) -> Node: ...
    def display(self, node: ast.expr, scope: Scope) -> Node | None: ...
    def arg(self, node: ast.expr, scope: Scope) -> Node: ...
    def _name(self, node: ast.Name, scope: Scope, text_position: bool) -> Node: ...
    def binding(self, b: envmod.Binding, node: ast.expr, scope: Scope) -> Node: ...
    def _slice(self, node: ast.Subscript, sl: ast.Slice, scope: Scope) -> Node | None: ...
    def _table_item(self, node: ast.Subscript, scope: Scope) -> Ref | None: ...
    def _fstring(self, node: ast.JoinedStr, scope: Scope) -> Node: ...
    def _percent(self, node: ast.BinOp, scope: Scope) -> Node: ...
    def _format(self, node: ast.Call, receiver: ast.expr, scope: Scope, recv_scope: Scope | None = None) -> Node: ...
    def _join(self, node: ast.Call, receiver: ast.expr, scope: Scope) -> Node: ...
    def _bound_format(self, func: ast.expr, scope: Scope) -> tuple[ast.expr, Scope] | None: ...
    def _call(self, node: ast.Call, scope: Scope, text_position: bool) -> Node: ...
    def _fill(self, node: ast.Call, scope: Scope) -> Node | None: ...
    def _gettext(self, node: ast.Call, written: str, scope: Scope) -> Node | None: ...
    def _ref(self, node: ast.Call, target: str, scope: Scope, text_position: bool) -> Ref: ...
    def call_args(self, args: list[ast.expr], scope: Scope) -> tuple[Node, ...]: ...
    def call_kwargs(self, keywords: list[ast.keyword], scope: Scope) -> tuple[tuple[str, Node], ...]: ...
    def _caught(self, handler: ast.ExceptHandler, name: str, scope: Scope | None = None) -> Node: ...
    def _class_variable(self, name: str, scope: Scope) -> list[Ref] | None: ...
    def _held_classes(self, b: envmod.Binding | None, scope: Scope, depth: int,
                      handed: list[bool] | None = None) -> list[Ref] | None: ...
    def exception(self, node: ast.expr, scope: Scope) -> Node: ...
    def factory_call(self, node: ast.Call, scope: Scope) -> Node | None: ...
    def picked_call(self, node: ast.Call, scope: Scope) -> Node | None: ...
    def picked_instances(self, node: ast.expr, scope: Scope) -> Node | None: ...
