"""What the walker's parts share: the immutable ``State`` of the walk, what a function's walk
collects, the source-text tests, and ``WalkerBase``, the interface each part of ``Walker``
(``walker.py``: statements, sites, flow; ``walkbind.py``: assignments, returns, imports;
``walkcalls.py``: calls that pass a message on; ``walkclasses.py``: classes and their
``__init__``/``__str__``) may call on the others.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from errdex.extract import env as envmod
from errdex.extract import guards as g
from errdex.extract.ir import Node
from errdex.extract.messages import MessageBuilder, Scope
from errdex.extract.source import SourceText
from errdex.extract.summary import CallSite, ClassSummary, FuncSummary, InitSummary, PendingSite

Env = envmod.Env | None
Walk = Generator[PendingSite, None, Env]

_KEYWORDS = ("raise", "warn", "assert")
_BUILDS = ('"', "'", "Error", "Exception", "Warning", ".format(")  # text, or an exception instance returned
# text that a call passing a message on has (`check(x, "...")`, `warn(f"...")`, `f(x, msg)`), also as a
# keyword (`_int_or_error(v, error_text="invalid UID")`): a skipped function without any is not looked at
# again (a docstring's quotes do not count)
_CALL_TEXT = ('("', "('", ', "', ", '", '(f"', "(f'", ', f"', ", f'", '="', "='", '=f"', "=f'", "msg", "message")
# the same, wrapped (black's style for a long call): the text on the line after the call's `(` or a `,`,
# or a keyword's (`exception_prefix='Typing attribute ',` on a line of its own)
_WRAPPED_TEXT = re.compile(r"[(,][ \t]*\n[ \t]*(?:\w+[ \t]*=[ \t]*)?f?[\"']")
_BASE_INIT = ("super().__init__(", ".__init__(self")
_KEEPS_MESSAGE = ("self.message =", "self.error =", "self.msg =", "self.error_message =", "self.message:",
                  "self.error:", "self.msg:")
_EXC_NAME = re.compile(r"Error|Exception|Warning|Exit|Interrupt|Fail")
_STRISH = (ast.Constant, ast.JoinedStr, ast.BinOp)
_WARN_TARGETS = frozenset({"warnings.warn", "warnings.warn_explicit"})


@dataclass(slots=True)
class FuncCollector:
    """What a function's walk learns for its summary (returns, the base ``__init__`` call)."""

    params: tuple[str, ...]
    is_init: bool = False
    vararg: str | None = None
    varkw: str | None = None
    returns: list[Node] = field(default_factory=list)
    param_returns: list[Node] = field(default_factory=list)  # `return container`: a parameter unchanged
    call_returns: list[Node] = field(default_factory=list)  # a property's `return describe(self.tag)`: unknown text
    super_args: tuple[Node, ...] | None = None
    super_varargs: bool = False  # `super().__init__(*args)` on some path: the constructor's own arguments
    super_kwargs: tuple[tuple[str, Node], ...] = ()
    none_args: tuple[str, tuple[Node, ...]] | None = None  # `if p is None: super().__init__(...)`: p, its args
    self_attrs: dict[str, Node] = field(default_factory=dict)
    calls: list[CallSite] = field(default_factory=list)
    reads_params: bool = False  # a site's message or class reads a parameter: callers may bind it
    unpacked: tuple[str, ...] = ()  # `a, b, c = args[:3]` in `__init__(self, *args)` (``stmts.unpacked_varargs``)
    unpacked_more: bool = False  # ... of a slice: more arguments may be passed
    vararg_skip: int = 0  # `args = args[1:]` in `__init__(self, msg, *args)`: items dropped (``packitems``)
    pack_names: dict[str, int] = field(default_factory=dict)  # ... `first, *args = args`: `first` -> 0
    kw_params: list[str] = field(default_factory=list)  # `self.x = kwargs.pop("x")` in __init__ (``kwkeys``)
    kw_set: list[tuple[str, Node]] = field(default_factory=list)  # `kwargs["x"] = ...` before super().__init__
    class_params: frozenset[str] = frozenset()  # parameters defaulting to an exception class (``factories``)


class State(NamedTuple):
    qual: tuple[str, ...] = ()
    guards: tuple[g.Spec, ...] = ()
    docstring: str = ""
    params: frozenset[str] = frozenset()
    cls: str | None = None  # qualname of the class whose methods we are in
    func: FuncCollector | None = None
    in_function: bool = False
    self_attrs: dict[str, Node] | None = None
    exc_class: bool = False  # the class may be an exception: its __init__/__str__ matter
    exc_named: bool = False  # ... and it or a base is named like one (`SQLAlchemyError`): its methods build its text
    outers: tuple[envmod.Env | None, ...] = ()  # bindings of the enclosing functions (innermost first)
    cls_alias: str = ""  # in a @classmethod (and functions nested in one): its ``cls`` parameter
    types: tuple[tuple[str, str], ...] = ()  # receivers' classes: ``self._src`` → ``Source`` (factories.py)
    rebound: frozenset[str] = frozenset()  # attributes of ``self`` that a method other than __init__ assigns
    properties: frozenset[str] = frozenset()  # the class's own ``@property`` methods: ``self.message`` calls one
    # the enclosing functions' parameters and collectors (innermost first): a nested wrapper raising a class its
    # decorator factory was handed (``raise error(...)`` in ``on_http_error(error)``'s ``wrapped_f``, ``closure.py``)
    closure: tuple[tuple[frozenset[str], FuncCollector | None], ...] = ()


class WalkerBase(Protocol):
    """The walker as its parts see it (``Walker`` implements every member)."""

    src: SourceText
    tree: ast.Module
    module: str
    package: bool
    imports: dict[str, str]
    class_constants: dict[str, ast.expr]
    module_env: dict[str, ast.expr]
    kept_texts: dict[str, Node]
    attr_texts: list[tuple[str, str, Node]]
    builder: MessageBuilder
    functions: dict[str, FuncSummary]
    classes: list[ClassSummary]
    module_calls: list[CallSite]
    _top: str
    _pending_init: InitSummary | None
    _pending_str: Node | None
    _properties: dict[str, frozenset[str]]
    _joined: dict[str, str] | None

    def block(self, body: list[ast.stmt], state: State, env: Env) -> Walk: ...
    def scope(self, state: State, env: Env) -> Scope: ...
    def passes_message(self, node: ast.FunctionDef | ast.AsyncFunctionDef, params: list[str],
                       cls: str | None = None) -> bool: ...
    def _defaults(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, Node], ...]: ...
    def _internal_callee(self, written: str | None, scope: Scope) -> str | None: ...
    def _call_arg(self, node: ast.expr, scope: Scope) -> Node: ...
    def factory_application(self, call: ast.Call, state: State, env: Env) -> None: ...
    def _call_site(self, call: ast.Call, written: str | None, state: State, env: Env) -> None: ...
    def _super_call(self, call: ast.Call, state: State, env: Env) -> None: ...
