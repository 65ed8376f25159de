"""Calls in a message: package helpers and bound ``.format`` methods (``Ref`` nodes that phase 2
expands), gettext, ``textwrap``, ``str()``, ``.strip()`` (part of ``MessageBuilder``, see
``messages.py``)."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable

from errdex.extract import env as envmod
from errdex.extract import foreignlist
from errdex.extract.factories import STAR_KW, starred
from errdex.extract.imports import BUILTIN_EXCEPTIONS, BUILTIN_NAMES, class_like, const_str, dotted_source
from errdex.extract.ir import (
    CLS_PARAM,
    REPLACED,
    Alt,
    Cat,
    Hole,
    Lit,
    Node,
    Param,
    Ref,
    alt,
    cat,
    literal_text,
)
from errdex.extract.ir import REPLACE_SEP as _SEP
from errdex.extract.ir import Dedent as DedentNode
from errdex.extract.kwkeys import key_ref
from errdex.extract.msgbase import (
    _DEDENTS,
    _GETTEXT,
    _STRIPS,
    Builder,
    Scope,
    translator,
)
from errdex.extract.msgtemplate import SUBSTITUTE, substituted
from errdex.extract.textwrappers import TEXT_WRAPPERS


class CallsMixin(Builder):
    """Calls that build or return message text."""

    __slots__ = ()

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
            if f.attr in SUBSTITUTE and (filled := substituted(self, node, scope)) is not None:
                return filled  # string.Template(text).substitute(NAME=value)
            if f.attr in _STRIPS and (not node.args or _blank_chars(node)) and isinstance(
                f.value, (ast.Constant, ast.JoinedStr, ast.Name, ast.BinOp, ast.Call)
            ):
                return DedentNode(self.text(f.value, scope), f.attr)
            if f.attr == "replace" and (how := replacement(node, self.src.segment)) is not None and isinstance(
                f.value, (ast.Constant, ast.JoinedStr, ast.Name, ast.BinOp, ast.Call)
            ):
                # `msg = msg.replace('%r', repr(doc[pos:pos + 1]))` in a helper that formats the text a
                # caller passed: the caller's text, with the marker a value (known in phase 2)
                return DedentNode(self.text(f.value, scope), how)
        written = dotted_source(f)
        if written is not None:
            translated = self._gettext(node, written, scope)
            if translated is not None:
                return translated
            target = self.callee(written, scope)
            if target in _DEDENTS and len(node.args) == 1:
                return DedentNode(self.text(node.args[0], scope), _DEDENTS[target])
            if target in TEXT_WRAPPERS and len(node.args) > TEXT_WRAPPERS[target] \
                    and not isinstance(node.args[TEXT_WRAPPERS[target]], ast.Starred):
                inner = node.args[TEXT_WRAPPERS[target]]  # `Text(self.msg)`: prints the text it holds
                return self.text(inner, scope) if text_position else self.arg(inner, scope)
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
                if (isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self"
                        and inner.attr in scope.self_attrs):
                    # `return str(self.msg)` in an exception's __str__: what __init__ kept there
                    return self.text(inner, scope) if text_position else self.arg(inner, scope)
                if (scope.class_qualname is not None and isinstance(inner, ast.Subscript)
                        and isinstance(inner.value, ast.Attribute) and inner.value.attr == "args"
                        and isinstance(inner.value.value, ast.Name) and inner.value.value.id == "self"):
                    # `" of ".join(self._path) + " " + str(self.args[0])` in an exception's __str__: the
                    # argument the raise passed (typeguard's TypeCheckError)
                    return self.text(inner, scope) if text_position else self.arg(inner, scope)
                return Hole(self.src.segment(inner), unresolved=text_position)
            if target is not None and (target not in BUILTIN_NAMES or target in BUILTIN_EXCEPTIONS):
                return self._ref(node, target, scope, text_position)
            if target == "repr" and len(node.args) == 1 and not node.keywords and scope.in_exception \
                    and _own_attr(node.args[0], scope):
                # `return repr(self.value)` in an exception's __str__ (transitions' MachineError): the text
                # __init__ kept there, in the quotes ``repr`` of a string puts around it (not in another class:
                # jwcrypto's `repr(self.decryptlog)` is a list's repr, whatever __init__ first set it to)
                return quoted(self.text(node.args[0], scope))
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
        if "." not in written and (b := envmod.lookup(scope.env, written)) is not None and translator(b):
            name = "_"  # `trans = state._` / `trans = gettext.gettext`: a translation function chosen at run time
        picks = _GETTEXT.get(name)
        if picks is None or len(node.args) <= max(picks) or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        return alt([self.text(node.args[i], scope) for i in picks])

    def _ref(self, node: ast.Call, target: str, scope: Scope, text_position: bool) -> Ref:
        args = self.call_args(node.args, scope)
        if not class_like(target) and len(args) == len(node.args):  # a factory's class argument: self.error(UnexpectedChar, char)
            args = tuple(self._class_arg(a, scope) or ir for a, ir in zip(node.args, args, strict=True))
        elif args and node.args and (item := foreignlist.one_text_item(node.args[0])) is not None \
                and class_like(target) and foreignlist.foreign_class(target, self.module):
            # `ValidationError(["null name"], ...)` of another package: the item may print alone (``foreignlist``)
            args = (foreignlist.item_alternative(args[0], self.value(item, scope)), *args[1:])
        kwargs = self.call_kwargs(node.keywords, scope)
        callee = self.src.segment(node.func)
        param = ""
        if scope.own_class(callee):  # named as the class, as the raise site will show it
            callee, param = str(scope.class_qualname).rsplit(".", 1)[-1], CLS_PARAM
        return Ref(target=target, src=self.src.segment(node), callee=callee, args=args, kwargs=kwargs,
                   text_position=text_position, param=param)

    def _class_arg(self, node: ast.expr, scope: Scope) -> Ref | None:
        """A class named as an argument (not a local): a class reference."""
        written = dotted_source(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
        if written is None or not class_like(written) or envmod.lookup(scope.env, written.split(".", 1)[0]) is not None \
                or written.split(".", 1)[0] in scope.params:
            return None
        target = self.resolve_name(written)
        return Ref(target=target, src=written, is_call=False) if target is not None else None

    def call_args(self, args: list[ast.expr], scope: Scope) -> tuple[Node, ...]:
        """Positional arguments; a ``*xs`` keeps its slot as an unresolved placeholder (``*args`` of the
        function's own parameters as ``Param("*args")``, which phase 2 spreads once bound), unless ``xs`` is
        a local assigned a tuple or list display once (``args = (sectname, optname, fpname, lineno)``
        then ``raise DuplicateOptionError(*args)``): its items, each read where it was assigned."""
        out: list[Node] = []
        for a in args:
            if not isinstance(a, ast.Starred):
                out.append(self.arg(a, scope))
            elif (p := starred(a.value, scope.params, scope.env, "*")) is not None:
                out.append(p)
            elif (items := _local_display(a.value, scope)) is not None:
                out.extend(self.arg(x, at) for x, at in items)
            else:
                out.append(Hole(self.src.segment(a), unresolved=True))
        return tuple(out)

    def call_kwargs(self, keywords: list[ast.keyword], scope: Scope) -> tuple[tuple[str, Node], ...]:
        """Keyword arguments; ``**kwargs`` of the function's own parameters under the key ``"**"``."""
        out: list[tuple[str, Node]] = []
        for k in keywords:
            if k.arg is not None:
                out.append((k.arg, self.arg(k.value, scope)))
            elif (p := starred(k.value, scope.params, scope.env, "**")) is not None:
                out.append((STAR_KW, p))
            elif (entries := _local_dict(k.value, scope)) is not None:
                # `**err_kwargs` of a local `err_kwargs = {Keys.REASON: Reason.X, ...}`: each entry a keyword
                for key, v, at in entries:
                    name = const_str(key)
                    if name is None and (d := dotted_source(key)) is not None:
                        name = key_ref(self.resolve_name(d) or d)  # a constant's text, read in phase 2
                    if name is not None:
                        out.append((name, self.arg(v, at)))
        return tuple(out)


def _local_display(node: ast.expr, scope: Scope) -> list[tuple[ast.expr, Scope]] | None:
    """The items of a local bound once (on every path) to a tuple or list display without ``*``."""
    if not isinstance(node, ast.Name):
        return None
    b = envmod.lookup(scope.env, node.id)
    if b is None or b.options or b.prev is not None or b.grow or not isinstance(b.value, (ast.Tuple, ast.List)) \
            or any(isinstance(x, ast.Starred) for x in b.value.elts):
        return None
    at = scope.at(b.env)
    return [(x, at) for x in b.value.elts]


def _local_dict(node: ast.expr, scope: Scope) -> list[tuple[ast.expr, ast.expr, Scope]] | None:
    """The entries of a local bound once (on every path) to a dict display without ``**``."""
    if not isinstance(node, ast.Name):
        return None
    b = envmod.lookup(scope.env, node.id)
    if b is None or b.options or b.prev is not None or b.grow or not isinstance(b.value, ast.Dict) \
            or any(k is None for k in b.value.keys):
        return None
    at = scope.at(b.env)
    return [(k, v, at) for k, v in zip(b.value.keys, b.value.values, strict=True) if k is not None]


def _blank_chars(call: ast.Call) -> bool:
    """``.strip("\\n")`` and the like: only whitespace stripped, as ``.strip()`` (to whitespace-blind
    matching, the same)."""
    return (len(call.args) == 1 and isinstance(a := call.args[0], ast.Constant) and isinstance(a.value, str)
            and a.value.isspace())


def replacement(call: ast.Call, segment: Callable[[ast.AST], str]) -> str | None:
    """``text.replace(old, new)`` with ``old`` literal text: the ``Dedent.how`` that replaces it in phase 2
    (``new`` a literal: that text; else a placeholder of ``new``'s source).  A count argument or an empty
    ``old`` (which would insert ``new`` between every character): None."""
    if len(call.args) != 2 or call.keywords:
        return None
    old, new = call.args
    if not (isinstance(old, ast.Constant) and isinstance(old.value, str) and old.value and _SEP not in old.value):
        return None
    if isinstance(new, ast.Constant) and isinstance(new.value, str):
        return f"{REPLACED}{old.value}{_SEP}={new.value}"
    if isinstance(new, ast.Starred):
        return None
    return f"{REPLACED}{old.value}{_SEP}{{{segment(new)}"


def _own_attr(inner: ast.expr, scope: Scope) -> bool:
    """``self.<attr>`` that the class's ``__init__`` set, read in one of the class's methods."""
    return (scope.class_qualname is not None and isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name)
            and inner.value.id == "self" and inner.attr in scope.self_attrs)


def quoted(text: Node) -> Node:
    """``repr()`` of a string whose text is ``text``: in single quotes, or in double quotes when its
    literal text holds a single quote and no double one (as Python chooses); both, when the text is
    a parameter that each raise binds to its own text."""
    if isinstance(text, Alt):
        return alt([quoted(o) for o in text.options])
    parts = text.parts if isinstance(text, Cat) else (text,)
    if any(isinstance(p, Param) for p in parts):
        return alt([cat(Lit(q), text, Lit(q)) for q in ("'", '"')])
    lits = "".join(p.text for p in parts if isinstance(p, Lit))
    q = '"' if "'" in lits and '"' not in lits else "'"
    return cat(Lit(q), text, Lit(q))
