"""Phase 1 template reconstruction: an AST expression → message IR.

Two positions matter.  In *text position* the expression is message text
(the argument of ``ValueError(...)``, an operand of ``+``, a ``.format``
receiver): an unknown there is an unresolved hole.  In *value position* it is
a runtime value interpolated into known text (an f-string field, a ``%`` or
``.format`` argument): an ordinary placeholder.  Calls and imported names
become ``Ref`` nodes that phase 2 resolves against every module's summary.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from errdex.extract import env as envmod
from errdex.extract.formats import Field, Part, parse_brace_run, parse_percent_format
from errdex.extract.imports import BUILTIN_EXCEPTIONS, BUILTIN_NAMES, class_like, dotted_source
from errdex.extract.ir import (
    CLS_PARAM,
    EMPTY,
    Alt,
    Cat,
    Hole,
    Lit,
    Node,
    Param,
    Ref,
    alt,
    cat,
    exc_arg,
    literal_text,
)
from errdex.extract.ir import Dedent as DedentNode
from errdex.extract.source import SourceText
from errdex.extract.strict import unclassified

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

    def at(self, env: envmod.Env | None) -> Scope:
        """The same scope with the bindings seen at another point (where a local was assigned)."""
        return Scope(self.params, env, self.class_qualname, self.self_attrs, self.outers, self.cls_alias,
                     self.in_exception)

    def own_class(self, written: str) -> bool:
        """Whether ``written`` is a classmethod's ``cls`` (not rebound): the class it is defined in."""
        return bool(self.cls_alias) and written == self.cls_alias and self.class_qualname is not None \
            and envmod.lookup(self.env, written) is None


@dataclass(slots=True)
class MessageBuilder:
    """Builds IR for one module; holds the module's names for resolution."""

    src: SourceText
    module: str
    imports: dict[str, str]
    top_defs: set[str]
    module_env: dict[str, ast.expr]
    path: str
    _memo: dict[object, Node] = field(default_factory=dict)  # keyed by Binding identity / ("module", name)
    _depth: int = 0

    # ----------------------------------------------------------------- names

    def resolve_name(self, written: str) -> str | None:
        """Dotted target of a name/attribute chain, or None for a local value."""
        head, _, rest = written.partition(".")
        if head in self.imports:
            target = self.imports[head]
            return f"{target}.{rest}" if rest else target
        if head in self.top_defs:
            return f"{self.module}.{written}" if self.module else written
        if head in BUILTIN_NAMES and not rest:
            return head
        return None

    def callee(self, written: str, scope: Scope) -> str | None:
        """What a call's function names: a nested ``def`` of this function, a method of this
        class (``self._error``), or a module-level / imported / builtin name."""
        if scope.own_class(written):  # `return cls(message, code=...)` in a factory classmethod
            return f"{self.module}.{scope.class_qualname}" if self.module else str(scope.class_qualname)
        if "." not in written:
            b = envmod.lookup(scope.env, written)
            if b is not None:
                return b.local_def  # a local variable (None) or a nested helper
            if written not in scope.params:
                for outer in scope.outers:  # a helper of the enclosing function, called from a nested one
                    b = envmod.lookup(outer, written)
                    if b is not None:
                        return b.local_def
        elif (written.startswith("self.") and written.count(".") == 1 and scope.class_qualname
              and self.resolve_name(written) is None):
            return f"{self.module}.{scope.class_qualname}.{written[5:]}"
        return self.resolve_name(written)

    def where(self, node: ast.AST) -> str:
        return f"{self.path}:{getattr(node, 'lineno', 0)}"

    # ----------------------------------------------------------------- text position

    def text(self, node: ast.expr, scope: Scope) -> Node:
        """``node`` as message text."""
        if self._depth > MAX_EVAL_DEPTH:
            return Hole(self.src.segment(node), unresolved=True)
        self._depth += 1
        try:
            return self._text(node, scope)
        finally:
            self._depth -= 1

    def _text(self, node: ast.expr, scope: Scope) -> Node:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return Lit(node.value)
            if node.value is None:
                return EMPTY
            return Lit(str(node.value))
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node, scope)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):  # a + b + c nests to the left: flatten without recursing
                operands: list[ast.expr] = []
                cur: ast.expr = node
                while isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Add):
                    operands.append(cur.right)
                    cur = cur.left
                operands.append(cur)
                return cat(*(self.text(o, scope) for o in reversed(operands)))
            if isinstance(node.op, ast.Mod):
                return self._percent(node, scope)
            repeated = _repeated(node)
            if repeated is not None:
                return repeated
            return Hole(self.src.segment(node), unresolved=True)
        if isinstance(node, ast.Call):
            return self._call(node, scope, text_position=True)
        if isinstance(node, ast.Name):
            return self._name(node, scope, text_position=True)
        if isinstance(node, ast.IfExp):
            return alt([self.text(node.body, scope), self.text(node.orelse, scope)])
        if isinstance(node, ast.Attribute):
            const = self._constant_ref(node, scope, text_position=True)
            if const is not None:
                return const
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            sliced = self._slice(node, node.slice, scope)
            if sliced is not None:
                return sliced
        own = _own_arg(node, scope)
        if own is not None:
            return Param(own, text_position=True, shown=self.src.segment(node))
        if isinstance(node, _OPAQUE):
            return Hole(self.src.segment(node), unresolved=True)
        unclassified(f"message expression {type(node).__name__}", self.where(node))
        return Hole(self.src.segment(node), unresolved=True)

    def _slice(self, node: ast.Subscript, sl: ast.Slice, scope: Scope) -> Node | None:
        """``text[:-2]`` / ``text[2:]``: cut known literal text at the ends (``"".join(lines)[:-2]``)."""
        head = _int_constant(sl.lower) if sl.lower is not None else 0
        tail = _int_constant(sl.upper) if sl.upper is not None else 0
        if sl.step is not None or head is None or tail is None or head < 0 or tail > 0 or (
                sl.upper is not None and tail == 0):
            return None
        inner = self.text(node.value, scope)
        out: list[Node] = []
        for option in inner.options if isinstance(inner, Alt) else (inner,):
            cut = _cut_ends(option, head, -tail)
            if cut is None:
                return None
            out.append(cut)
        return alt(out)

    def value(self, node: ast.expr, scope: Scope, conversion: str | None = None, spec: str | None = None) -> Node:
        """``node`` interpolated into known text: a placeholder, or a parameter to bind later."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and conversion is None and spec is None:
            return Lit(node.value)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and conversion is None and spec is None:
            return Lit(str(node.value))
        if isinstance(node, ast.JoinedStr) and conversion is None and spec is None:
            return self._fstring(node, scope)  # "{}".format(f"was {x}") is f"was {x}"
        if isinstance(node, ast.BinOp) and conversion is None and spec is None and (rep := _repeated(node)) is not None:
            return rep  # f"{'-' * 30}"
        if isinstance(node, ast.Name):
            b = envmod.lookup(scope.env, node.id)
            if b is None and node.id in scope.params:
                return Param(node.id, conversion, spec)
            if b is not None:  # a local holding a literal or a parameter: follow it
                ir = self.binding(b, node, scope)
                if isinstance(ir, Param):
                    return Param(ir.name, conversion, spec, shown=self.src.segment(node))
                if conversion is None and spec is None and literal_text(ir) is not None:
                    return ir
                if conversion is None and spec is None and self._own_call(ir):
                    return ir  # message = self._message(); "%s" % message: the text it returns
                return Hole(self.src.segment(node), conversion, spec)
        own = _own_arg(node, scope)
        if own is not None:
            return Param(own, conversion, spec, shown=self.src.segment(node))
        if (scope.in_exception and isinstance(node, ast.Call) and conversion is None and spec is None
                and (d := dotted_source(node.func)) is not None and d.startswith("self.")
                and self.callee(d, scope) is not None):
            call = self._call(node, scope, text_position=False)
            if self._own_call(call):  # an exception's f"... {self._code_str()}": the text that method returns
                return call
        if isinstance(node, ast.Attribute):
            if scope.class_qualname is not None and node.attr == "__name__" and _is_own_class(node.value):
                return Param(CLASS_NAME, conversion, spec, shown=self.src.segment(node))
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                bound = scope.self_attrs.get(node.attr)
                if isinstance(bound, Param):
                    return Param(bound.name, conversion, spec)
        if conversion is None and spec is None:
            if isinstance(node, ast.Attribute):
                const = self._constant_ref(node, scope, text_position=False)
                if const is not None:
                    return const
            elif (isinstance(node, ast.Name) and node.id in self.module_env and node.id not in scope.params
                  and envmod.lookup(scope.env, node.id) is None
                  and isinstance(self.module_env[node.id], (ast.Constant, ast.JoinedStr))):
                return self._name(node, scope, text_position=False)
        return Hole(self.src.segment(node), conversion, spec)

    def _own_call(self, ir: Node) -> bool:
        """A call of a function of this package (not a class): interpolated, it is the text it
        returns (phase 2 expands it, or leaves the call's placeholder when it returns no text)."""
        return (isinstance(ir, Ref) and ir.is_call and not ir.param and not class_like(ir.target)
                and ir.target.split(".", 1)[0] == self.module.split(".", 1)[0] and ir.target not in BUILTIN_NAMES)

    def _constant_ref(self, node: ast.Attribute, scope: Scope, text_position: bool) -> Node | None:
        """``self.attr`` bound in ``__init__`` or a class constant, or ``Cls.CONST`` / ``mod.CONST``."""
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            bound = scope.self_attrs.get(node.attr)
            if bound is not None:
                return bound
            return None
        d = dotted_source(node)
        if d is None:
            return None
        head = d.split(".", 1)[0]
        if head in scope.params or envmod.lookup(scope.env, head) is not None:
            return None
        target = self.resolve_name(d)
        if target is None or target == d:
            return None
        return Ref(target=target, src=d, is_call=False, text_position=text_position)

    def arg(self, node: ast.expr, scope: Scope) -> Node:
        """A call argument: text when it looks like text, else a value to bind later."""
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            sliced = self._slice(node, node.slice, scope)
            if sliced is not None:
                return sliced
        if isinstance(node, (ast.Constant, ast.JoinedStr, ast.IfExp)) or (
            isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod))
        ):
            return self.text(node, scope)
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("format", "join", *_STRIPS):
                return self.text(node, scope)
            d = dotted_source(f)
            if (d is not None and d.rsplit(".", 1)[-1] in _GETTEXT) or self._bound_format(f, scope) is not None:
                return self.text(node, scope)
            if d is not None and self.callee(d, scope) is not None:
                return self._call(node, scope, text_position=False)
        if isinstance(node, ast.Name):
            if envmod.lookup(scope.env, node.id) is not None:
                return self._name(node, scope, text_position=False)
            if node.id in scope.params:
                return Param(node.id)
            if node.id in self.module_env or node.id in self.imports:
                return self._name(node, scope, text_position=False)
        return self.value(node, scope)

    # ----------------------------------------------------------------- shapes

    def _fstring(self, node: ast.JoinedStr, scope: Scope) -> Node:
        parts: list[Node] = []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                parts.append(Lit(v.value))
            elif isinstance(v, ast.FormattedValue):
                conv = chr(v.conversion) if v.conversion and v.conversion > 0 else None
                spec = self._spec_text(v.format_spec) if v.format_spec is not None else None
                parts.append(self.value(v.value, scope, conv, spec))
            else:  # pragma: no cover - JoinedStr holds only these two
                unclassified(f"f-string part {type(v).__name__}", self.where(v))
        return cat(*parts)

    def _spec_text(self, spec: ast.expr) -> str:
        """A format spec as text; nested fields keep their source (``{width}``)."""
        if isinstance(spec, ast.JoinedStr):
            out: list[str] = []
            for v in spec.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    out.append(v.value)
                elif isinstance(v, ast.FormattedValue):
                    out.append("{" + self.src.segment(v.value) + "}")
            return "".join(out)
        return self.src.segment(spec)

    def _fields(self, parts: list[Part], pick: dict[int | str, ast.expr], scope: Scope, what: str) -> Node | None:
        out: list[Node] = []
        for p in parts:
            if isinstance(p, str):
                out.append(Lit(p))
                continue
            arg = pick.get(p.key)
            if arg is None:
                return None
            out.append(self._field_value(p, arg, scope))
        return cat(*out)

    def _field_value(self, f: Field, arg: ast.expr, scope: Scope) -> Node:
        if f.rest:
            return Hole(self.src.segment(arg) + f.rest, f.conversion, f.format_spec)
        return self.value(arg, scope, f.conversion, f.format_spec)

    def _percent(self, node: ast.BinOp, scope: Scope) -> Node:
        fmt = literal_text(self.text(node.left, scope))
        parts = parse_percent_format(fmt) if fmt is not None else None
        if parts is None:
            return Hole(self.src.segment(node), unresolved=True)
        right = node.right
        pick: dict[int | str, ast.expr] = {}
        if isinstance(right, ast.Tuple):
            pick = {i: e for i, e in enumerate(right.elts)}
        elif isinstance(right, ast.Dict):
            for k, v in zip(right.keys, right.values, strict=True):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    pick[k.value] = v
        else:
            keys = [p.key for p in parts if isinstance(p, Field)]
            if all(isinstance(k, int) for k in keys):
                pick = {0: right}
            else:  # %(name)s with a mapping we cannot see: name the lookups
                out: list[Node] = []
                base = self.src.segment(right)
                for p in parts:
                    if isinstance(p, str):
                        out.append(Lit(p))
                    else:
                        out.append(Hole(f"{base}[{p.key!r}]", p.conversion, p.format_spec))
                return cat(*out)
        result = self._fields(parts, pick, scope, "%")
        return result if result is not None else Hole(self.src.segment(node), unresolved=True)

    def _format(self, node: ast.Call, receiver: ast.expr, scope: Scope, recv_scope: Scope | None = None) -> Node:
        """``fmt.format(...)``; ``recv_scope`` is where the receiver was written when it differs from the
        arguments' scope (a bound ``msg = "...".format`` called later)."""
        recv = self.text(receiver, recv_scope or scope)
        options = recv.options if isinstance(recv, Alt) else (recv,)  # msg chosen by a branch, ngettext's forms
        return alt([self._format_ir(node, o, scope) for o in options])

    def _format_ir(self, node: ast.Call, fmt: Node, scope: Scope) -> Node:
        """Format fields are parsed in the literal runs of the receiver; placeholders it already holds
        (``f"{op} must be unique, got {{}}"``) are values interpolated before ``.format`` ran."""
        runs = _format_runs(fmt)
        if runs is None or any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        ):
            return Hole(self.src.segment(node), unresolved=True)
        pick: dict[int | str, ast.expr] = {i: a for i, a in enumerate(node.args)}
        for k in node.keywords:
            if k.arg is not None:
                pick[k.arg] = k.value
        out: list[Node] = []
        auto = 0
        for run in runs:
            if not isinstance(run, str):
                out.append(run)
                continue
            parsed = parse_brace_run(run, auto)
            if parsed is None:
                return Hole(self.src.segment(node), unresolved=True)
            parts, auto = parsed
            result = self._fields(parts, pick, scope, "format")
            if result is None:
                return Hole(self.src.segment(node), unresolved=True)
            out.append(result)
        return cat(*out)

    def _join(self, node: ast.Call, receiver: ast.expr, scope: Scope) -> Node:
        """``sep.join(items)`` over a list literal, a local list grown by ``append``/``extend``/``+=``,
        or a sum of those; a separator we cannot read is a placeholder between known items."""
        if len(node.args) != 1 or node.keywords:
            return Hole(self.src.segment(node))
        seq = node.args[0]
        options = self._list_items(seq, scope, 0)
        if options is not None and not isinstance(seq, (ast.List, ast.Tuple)):
            # A list built up before the join: an option with no items says nothing, and an item of
            # unknown text makes the whole join a guess; then keep it one placeholder, as for a list
            # we cannot see at all.
            options = [o for o in options if o]
            if not options or any(isinstance(i, Hole) and i.unresolved for o in options for i in o) or (
                    isinstance(seq, ast.Name) and not self._only_grown(seq, node, scope)):
                options = None
        if options is None:
            return Hole(self.src.segment(node))
        sep = literal_text(self.text(receiver, scope))
        sep_node: Node = Lit(sep) if sep is not None else Hole(self.src.segment(receiver))
        out: list[Node] = []
        for items in options:
            parts: list[Node] = []
            for i, item in enumerate(items):
                if i:
                    parts.append(sep_node)
                parts.append(item)
            out.append(cat(*parts))
        return alt(out)

    def _list_items(self, node: ast.expr, scope: Scope, depth: int) -> list[tuple[Node, ...]] | None:
        """The items a list expression can hold, as text, one tuple per combination (capped)."""
        if depth > MAX_LIST_DEPTH:
            return None
        if isinstance(node, (ast.List, ast.Tuple)):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return None
            return [tuple(self.text(e, scope) for e in node.elts)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left = self._list_items(node.left, scope, depth + 1)
            right = self._list_items(node.right, scope, depth + 1) if left is not None else None
            if left is None or right is None:
                return None
            return _capped(a + b for a in left for b in right)
        if isinstance(node, ast.Name):
            b = envmod.lookup(scope.env, node.id)
            return self._binding_items(b, scope, depth + 1) if b is not None else None
        return None

    def _only_grown(self, name: ast.Name, join: ast.Call, scope: Scope) -> bool:
        """Whether, between the list's creation and the join, its name appears only where the walk
        saw it built (assignments, ``append``/``extend``/``+=``): a list that a nested function or a
        callee fills, or that the code reads (``if len(lines) == 1: ...``), is not trusted."""
        b = envmod.lookup(scope.env, name.id)
        allowed: set[int] = set()
        stack: list[envmod.Binding | None] = [b]
        while stack and len(allowed) < 4 * MAX_LIST_DEPTH:
            cur = stack.pop()
            if cur is None:
                continue
            if cur.grow:
                allowed.add(cur.line)
            elif cur.value is not None:
                allowed.add(cur.value.lineno)
            stack.append(cur.prev)
            stack.extend(cur.options)
        if not allowed:
            return False
        first, last = min(allowed), join.end_lineno or join.lineno
        allowed.update(range(join.lineno, last + 1))
        lines = self.src.lines[first - 1 : last]
        word = re.compile(rf"\b{re.escape(name.id)}\b")
        return all(first + i in allowed for i, text in enumerate(lines) if word.search(text))

    def _binding_items(self, b: envmod.Binding, scope: Scope, depth: int) -> list[tuple[Node, ...]] | None:
        if depth > MAX_LIST_DEPTH:
            return None
        if b.options:
            found: list[tuple[Node, ...]] = []
            for o in b.options:
                if o is None:
                    continue  # unbound on that path: the join would fail there
                items = self._binding_items(o, scope, depth + 1)
                if items is None:
                    return None
                found.extend(items)
            return _capped(found)
        if b.value is None:
            return None
        here = scope.at(b.env)
        if b.prev is None:
            return self._list_items(b.value, here, depth + 1)
        before = self._binding_items(b.prev, scope, depth + 1)
        if before is None:
            return None
        if b.grow == "append":
            item = self.text(b.value, here)
            return _capped((*p, item) for p in before)
        more = self._list_items(b.value, here, depth + 1)  # extend, or `+=` of a list
        if more is None:
            return None
        return _capped(p + m for p in before for m in more)

    def _bound_format(self, func: ast.expr, scope: Scope) -> tuple[ast.expr, Scope] | None:
        """``msg = "... {} ...".format`` (local or module-level), later called as ``msg(x)``: the receiver
        and the scope it was written in."""
        if not isinstance(func, ast.Name):
            return None
        b = envmod.lookup(scope.env, func.id)
        if b is not None:
            v = b.value
            if isinstance(v, ast.Attribute) and v.attr == "format":
                return v.value, scope.at(b.env)
            return None
        if func.id not in scope.params:
            v = self.module_env.get(func.id)
            if isinstance(v, ast.Attribute) and v.attr == "format":
                return v.value, Scope()
        return None

    def _call(self, node: ast.Call, scope: Scope, text_position: bool) -> Node:
        f = node.func
        bound = self._bound_format(f, scope)
        if bound is not None:
            return self._format(node, bound[0], scope, bound[1])
        if isinstance(f, ast.Attribute):
            if f.attr == "format":
                return self._format(node, f.value, scope)
            if f.attr == "join":
                return self._join(node, f.value, scope)
            if f.attr in _STRIPS and (not node.args or _blank_chars(node)) and isinstance(
                f.value, (ast.Constant, ast.JoinedStr, ast.Name, ast.BinOp, ast.Call)
            ):
                return DedentNode(self.text(f.value, scope), f.attr)
        written = dotted_source(f)
        if written is not None:
            translated = self._gettext(node, written, scope)
            if translated is not None:
                return translated
            target = self.callee(written, scope)
            if target in _DEDENTS and len(node.args) == 1:
                return DedentNode(self.text(node.args[0], scope), _DEDENTS[target])
            if target == "textwrap.fill":
                filled = self._fill(node, scope)
                if filled is not None:
                    return filled
            if target == "str" and len(node.args) == 1 and not node.keywords:
                inner = node.args[0]
                if isinstance(inner, (ast.Constant, ast.JoinedStr)):
                    return self.text(inner, scope)
                if isinstance(inner, ast.Name) and (inner.id in scope.params or envmod.lookup(scope.env, inner.id)):
                    # `message = str(message)` in an __init__: the text the caller passed
                    return self.text(inner, scope) if text_position else self.arg(inner, scope)
                return Hole(self.src.segment(inner), unresolved=text_position)
            if target is not None and (target not in BUILTIN_NAMES or target in BUILTIN_EXCEPTIONS):
                return self._ref(node, target, scope, text_position)
            if target in BUILTIN_NAMES:  # repr(x), type(x), len(x): a value, not lost text
                return Hole(self.src.segment(node))
        return Hole(self.src.segment(node), unresolved=text_position)

    def _fill(self, node: ast.Call, scope: Scope) -> Node | None:
        """``textwrap.fill(text, width=N)`` of literal text: the wrapped text.  When the lines cannot
        be broken as Python will (placeholders in the text, a width or options we cannot see:
        SymPy's ``filldedent(s, w=70, **kwargs)``), the text as it is: only its line breaks differ,
        which matching ignores (it compares with every run of whitespace as one space)."""
        if len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
            return None
        width: int | None = 70
        for k in node.keywords:
            given = k.value.value if k.arg == "width" and isinstance(k.value, ast.Constant) else None
            width = given if isinstance(given, int) else None
        inner = self.text(node.args[0], scope)
        text = literal_text(inner)
        if text is not None and width is not None and width > 0:
            return Lit(textwrap.fill(text, width=width))
        return inner

    def _gettext(self, node: ast.Call, written: str, scope: Scope) -> Node | None:
        """``_("text")``, ``gettext``, ``ngettext(singular, plural, n)``...: translation is the identity
        for the source language, so the message is the argument (both forms for plurals)."""
        name = written.rsplit(".", 1)[-1]
        picks = _GETTEXT.get(name)
        if picks is None or len(node.args) <= max(picks) or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        return alt([self.text(node.args[i], scope) for i in picks])

    def _ref(self, node: ast.Call, target: str, scope: Scope, text_position: bool) -> Ref:
        args = self.call_args(node.args, scope)
        kwargs = tuple((k.arg, self.arg(k.value, scope)) for k in node.keywords if k.arg is not None)
        callee = self.src.segment(node.func)
        param = ""
        if scope.own_class(callee):  # named as the class, as the raise site will show it
            callee, param = str(scope.class_qualname).rsplit(".", 1)[-1], CLS_PARAM
        return Ref(target=target, src=self.src.segment(node), callee=callee, args=args, kwargs=kwargs,
                   text_position=text_position, param=param)

    def _caught(self, handler: ast.ExceptHandler, name: str) -> Node:
        """``except (A, B) as e: ... raise e``: one of the caught classes, with an unknown message."""
        if handler.type is None:
            types: list[ast.expr] = []
        elif isinstance(handler.type, ast.Tuple):
            types = list(handler.type.elts)
        else:
            types = [handler.type]
        refs: list[Node] = []
        for t in types:
            d = dotted_source(t)
            if d is not None:
                refs.append(Ref(target=self.resolve_name(d) or d, src=d, callee=d, is_call=False, reraised=name))
        if not refs:
            refs.append(Ref(target="BaseException", src="BaseException", is_call=False, reraised=name))
        return alt(refs)

    def call_args(self, args: list[ast.expr], scope: Scope) -> tuple[Node, ...]:
        """Positional arguments; a ``*xs`` keeps its slot as an unresolved placeholder."""
        return tuple(Hole(self.src.segment(a), unresolved=True) if isinstance(a, ast.Starred) else self.arg(a, scope)
                     for a in args)

    def _name(self, node: ast.Name, scope: Scope, text_position: bool) -> Node:
        b = envmod.lookup(scope.env, node.id)
        if b is not None:
            return self.binding(b, node, scope)
        if node.id in scope.params:
            return Param(node.id, text_position=text_position)
        if node.id in self.module_env:
            key: object = ("module", node.id)
            hit = self._memo.get(key)
            if hit is None:
                self._memo[key] = Hole(node.id, unresolved=text_position)  # guards self-reference
                hit = self.arg(self.module_env[node.id], Scope())
                self._memo[key] = hit
            return hit
        target = self.resolve_name(node.id)
        if target is not None and target != node.id:
            return Ref(target=target, src=node.id, is_call=False, text_position=text_position)
        return Hole(node.id, unresolved=text_position)

    def binding(self, b: envmod.Binding, node: ast.expr, scope: Scope) -> Node:
        """The IR for a local binding (memoized: the same binding read twice costs once)."""
        hit = self._memo.get(b)
        if hit is not None:
            return hit
        self._memo[b] = Hole(self.src.segment(node), unresolved=True)  # cycles read as unknown
        result: Node
        if b.options:
            opts: list[Node] = []
            for o in b.options:
                opts.append(self.binding(o, node, scope) if o is not None else Hole(self.src.segment(node), unresolved=True))
            result = alt(opts)
        elif b.value is None or b.grow or (isinstance(b.value, ast.Constant) and not isinstance(b.value.value, str)):
            result = Hole(self.src.segment(node), unresolved=True)  # unknown, or a number that may change
        else:
            inner = scope.at(b.env)
            if b.prev is not None:
                first = self.binding(b.prev, node, scope)
                if isinstance(first, Param):  # `msg += "..."` on a parameter: its value is text
                    first = dataclasses.replace(first, text_position=True)
                result = cat(first, self.text(b.value, inner))
            else:
                result = self.arg(b.value, inner)
        # An opaque value reached through a local shows the name the raise used, not the bound expression.
        if isinstance(result, Hole):
            result = Hole(self.src.segment(node), result.conversion, result.format_spec, result.unresolved)
        elif isinstance(result, Param):
            result = dataclasses.replace(result, shown=self.src.segment(node))
        elif isinstance(result, Ref) and not class_like(result.target):
            result = dataclasses.replace(result, src=self.src.segment(node))
        self._memo[b] = result
        return result

    def _class_variable(self, name: str, scope: Scope) -> list[Ref] | None:
        """The classes a local holds when it is assigned only class names (``A if c else B``)."""
        b = envmod.lookup(scope.env, name)
        if b is None or b.value is None or b.prev is not None or b.local_def is not None or b.caught is not None:
            return None
        ir = self.exception(b.value, scope.at(b.env))
        refs = ir.options if isinstance(ir, Alt) else (ir,)
        if all(isinstance(r, Ref) and not r.is_call and not r.reraised and class_like(r.target)
               for r in refs):
            return [r for r in refs if isinstance(r, Ref)]
        return None

    # ----------------------------------------------------------------- exception position

    def exception(self, node: ast.expr, scope: Scope) -> Node:
        """The raised expression: a class, a constructor call, a variable holding an instance."""
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "with_traceback":
                return self.exception(f.value, scope)  # raise X(...).with_traceback(tb)
            written = dotted_source(node.func)
            if written is not None:
                target = self.callee(written, scope)
                if target is not None:
                    return self._ref(node, target, scope, text_position=False)
                args = self.call_args(node.args, scope)
                kwargs = tuple((k.arg, self.arg(k.value, scope)) for k in node.keywords if k.arg is not None)
                param = ""
                if isinstance(f, ast.Name):
                    classes = self._class_variable(f.id, scope)
                    if classes is not None:  # err_type = ValueError if c else TypeError; raise err_type("...")
                        return alt([dataclasses.replace(r, is_call=True, src=self.src.segment(node), callee=r.src,
                                                        args=args, kwargs=kwargs) for r in classes])
                    if f.id in scope.params and envmod.lookup(scope.env, f.id) is None:
                        param = f.id  # raise exc_type(message): the class is the caller's
                return Ref(target=written, src=self.src.segment(node), callee=written, args=args, kwargs=kwargs,
                           param=param)
            return Hole(self.src.segment(node.func))
        if isinstance(node, ast.Name):
            b = envmod.lookup(scope.env, node.id)
            caught = _caught_by(b, 0) if b is not None else None
            if caught is not None:  # `except E as e: err = e` ... `raise err` too
                return self._caught(caught, node.id)
            if b is not None:
                return self.binding(b, node, scope)
            if node.id in scope.params:
                return Param(node.id)
            instance = self.module_env.get(node.id)
            key = ("module-exc", node.id)
            if isinstance(instance, ast.Call) and key not in self._memo and class_like(
                    dotted_source(instance.func) or "_"):  # err = ValueError("...") at top level: an instance
                self._memo[key] = EMPTY  # guards `err = err(...)`
                try:
                    return self.exception(instance, Scope())
                finally:
                    del self._memo[key]
            target = self.resolve_name(node.id)
            return Ref(target=target or node.id, src=node.id, is_call=False)
        if isinstance(node, ast.Attribute):
            written = dotted_source(node)
            if written is not None:
                target = self.resolve_name(written)
                return Ref(target=target or written, src=written, is_call=False)
            return Hole(self.src.segment(node))
        if isinstance(node, ast.IfExp):
            return alt([self.exception(node.body, scope), self.exception(node.orelse, scope)])
        if isinstance(node, _OPAQUE):  # raise errors[k], raise a or b, even raise "text": values
            return Hole(self.src.segment(node))
        unclassified(f"raised expression {type(node).__name__}", self.where(node))
        return Hole(self.src.segment(node))


def _caught_by(b: envmod.Binding, depth: int) -> ast.ExceptHandler | None:
    """The handler whose caught exception a local holds: ``except E as e``, or a name assigned
    ``e`` (on some path; the paths where it is ``None`` do not raise it)."""
    if b.caught is not None:
        return b.caught
    if depth > 4:
        return None
    if isinstance(b.value, ast.Name):
        inner = envmod.lookup(b.env, b.value.id)
        return _caught_by(inner, depth + 1) if inner is not None else None
    found: ast.ExceptHandler | None = None
    for o in b.options:
        if o is None or (isinstance(o.value, ast.Constant) and o.value.value is None):
            continue
        h = _caught_by(o, depth + 1)
        if h is None:
            return None  # another path holds something else
        found = found or h
    return found


def _repeated(node: ast.BinOp) -> Lit | None:
    """``"-" * 30`` (or ``30 * "-"``): the repeated literal text, when short."""
    if not isinstance(node.op, ast.Mult):
        return None
    a, b = node.left, node.right
    if isinstance(b, ast.Constant) and isinstance(b.value, str):
        a, b = b, a
    if isinstance(a, ast.Constant) and isinstance(a.value, str) and isinstance(b, ast.Constant) \
            and type(b.value) is int and 0 <= len(a.value) * b.value <= MAX_REPEATED:
        return Lit(a.value * b.value)
    return None


def _int_constant(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_constant(node.operand)
        return -inner if inner is not None else None
    return None


def _cut_ends(node: Node, head: int, tail: int) -> Node | None:
    """``node`` without ``head`` characters at the start and ``tail`` at the end, when those are
    literal text; None otherwise."""
    parts: list[Node] = []
    for p in node.parts if isinstance(node, Cat) else (node,):
        if isinstance(p, Lit) and parts and isinstance(parts[-1], Lit):
            parts[-1] = Lit(parts[-1].text + p.text)
        else:
            parts.append(p)
    if head:
        first = parts[0]
        if not isinstance(first, Lit) or len(first.text) < head:
            return None
        parts[0] = Lit(first.text[head:])
    if tail:
        last = parts[-1]
        if not isinstance(last, Lit) or len(last.text) < tail:
            return None
        parts[-1] = Lit(last.text[:-tail])
    return cat(*parts)


def _capped(options: Iterable[tuple[Node, ...]]) -> list[tuple[Node, ...]]:
    """Distinct item tuples in order, at most ``MAX_LIST_OPTIONS``."""
    out: list[tuple[Node, ...]] = []
    for o in options:
        if o not in out:
            out.append(o)
            if len(out) >= MAX_LIST_OPTIONS:
                break
    return out


def _format_runs(fmt: Node) -> list[str | Node] | None:
    """The receiver of ``.format`` as literal runs (adjacent literals merged) and interpolated values;
    None when a part is text we do not know (its own braces would be fields too)."""
    parts = fmt.parts if isinstance(fmt, Cat) else (fmt,)
    out: list[str | Node] = []
    for p in parts:
        if isinstance(p, Lit):
            if out and isinstance(out[-1], str):
                out[-1] += p.text
            else:
                out.append(p.text)
        elif (isinstance(p, Hole) and not p.unresolved) or (isinstance(p, Param) and not p.text_position):
            out.append(p)
        else:
            return None
    return out


CLASS_NAME = "__class__.__name__"  # the parameter phase 2 binds to the raised class's name


def _blank_chars(call: ast.Call) -> bool:
    """``.strip("\\n")`` and the like: only whitespace stripped, as ``.strip()`` (to whitespace-blind
    matching, the same)."""
    return (len(call.args) == 1 and isinstance(a := call.args[0], ast.Constant) and isinstance(a.value, str)
            and a.value.isspace())


def _own_arg(node: ast.expr, scope: Scope) -> str | None:
    """``self.args[i]`` in a method of a class: the marker parameter of that argument."""
    if (scope.class_qualname is not None and isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute) and node.value.attr == "args"
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "self"):
        i = _int_constant(node.slice)
        if i is not None and 0 <= i < 8:
            return exc_arg(i)
    return None


def _is_own_class(node: ast.expr) -> bool:
    """``self.__class__`` or ``type(self)``."""
    if isinstance(node, ast.Attribute) and node.attr == "__class__":
        return isinstance(node.value, ast.Name) and node.value.id == "self"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id == "self")
