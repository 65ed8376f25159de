"""Value position: an expression interpolated into known text (an f-string field, a ``%`` or
``.format`` argument) as a placeholder, a parameter to bind later, or the text it is known to be
(a constant, a local bound to literal text on a few branches, the operating system's error text,
a class constant or ``self`` attribute); part of ``MessageBuilder``, see ``messages.py``."""

from __future__ import annotations

import ast
import dataclasses

from errdex.extract import env as envmod
from errdex.extract import factories
from errdex.extract.calltexts import is_base_str
from errdex.extract.constlists import literal_repr
from errdex.extract.imports import BUILTIN_NAMES, class_like, dotted_source
from errdex.extract.ir import (
    DEFAULTED,
    Alt,
    Cat,
    Dedent,
    Hole,
    Lit,
    Node,
    Param,
    Ref,
    alt,
    cat,
    exc_arg,
    literal_text,
    reads_param,
)
from errdex.extract.kepttexts import constant_ref, init_ref, kept_ref
from errdex.extract.loopclause import loop_clauses
from errdex.extract.msgbase import Builder, Scope
from errdex.extract.msgforms import _int_constant, _repeated
from errdex.extract.msgtemplate import SUBSTITUTE
from errdex.extract.owntexts import own_text_param
from errdex.extract.properties import property_read
from errdex.extract.raisedattrs import carries, raised_attr
from errdex.extract.selfalias import self_reads
from errdex.extract.shownself import SHOWN_SELF, annotated, param_ref, self_ref
from errdex.extract.stdlib_texts import CODEC_ERRORS, OS_ERRORS, os_error_value
from errdex.extract.tuplefields import field_ref, member_of, member_ref


class ValuesMixin(Builder):
    """Values interpolated into text, and the names, constants and ``self`` attributes they read."""

    __slots__ = ()

    def display(self, node: ast.expr, scope: Scope) -> Node | None:
        """A tuple, list or dict display shown as text: its ``repr``, each item's ``repr`` between the brackets
        (oauthlib's ``description=('... found in %s', ', '.join(types))``, a ``%`` never applied, formatted
        into ``'({}) {}'.format(self.error, self.description)``); None for any other node, or one unpacking
        (``(*xs, y)``, ``{**d}``: how many items is not known)."""
        if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
            items: list[Node] = []
            for i, e in enumerate(node.elts):
                items.extend([Lit(", ")] * bool(i) + [_repr_item(self.value(e, scope), e)])
            if isinstance(node, ast.List):
                return cat(Lit("["), *items, Lit("]"))
            return cat(Lit("("), *items, Lit(",)" if len(node.elts) == 1 else ")"))
        if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
            entries: list[Node] = []
            for i, (k, v) in enumerate(zip(node.keys, node.values, strict=True)):
                assert k is not None  # checked above: no `**d`
                entries.extend([Lit(", ")] * bool(i) + [_repr_item(self.value(k, scope), k), Lit(": "),
                                                        _repr_item(self.value(v, scope), v)])
            return cat(Lit("{"), *entries, Lit("}"))
        return None

    def value(self, node: ast.expr, scope: Scope, conversion: str | None = None, spec: str | None = None) -> Node:
        """``node`` interpolated into known text: a placeholder, or a parameter to bind later."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and conversion in (None, "s", "r") \
                and spec in (None, "", "s"):
            # `"{:s}".format("-2^31 <= x < 2^31")`, f"{'x'!r}": a constant shown as itself (or its repr)
            return Lit(repr(node.value) if conversion == "r" else node.value)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and conversion is None and spec is None:
            return Lit(str(node.value))
        if conversion is None and spec is None and (os_text := self._os_error_value(node, scope)) is not None:
            return Lit(os_text)  # f"[Errno {errno.EISDIR}] {os.strerror(errno.EISDIR)}"
        if isinstance(node, ast.JoinedStr) and conversion is None and spec is None:
            return self._fstring(node, scope)  # "{}".format(f"was {x}") is f"was {x}"
        if isinstance(node, ast.BinOp) and conversion is None and spec is None and (rep := _repeated(node)) is not None:
            return rep  # f"{'-' * 30}"
        if conversion in (None, "s", "r") and spec is None and (shown := self.display(node, scope)) is not None:
            return shown
        if conversion in (None, "s") and spec is None and _formats_param(node, scope):
            # f"{cls.__name__} {fmt.format(*args, **kwargs)}", "%s: %s" % (name, fmt % args): a helper's
            # parameter formatted is text, its caller's (``msgforms._format_ir``, ``_percent``)
            got = self.text(node, scope)
            if not (isinstance(got, Hole) and got.unresolved):
                return got
        if isinstance(node, ast.IfExp) and conversion is None and spec is None:
            # f"must be {'>=' if inclusive else '>'} {x}": both branches literal text, so the text is one of them
            # (or an f-string: textx's `f" => '{self.context}'" if self.context else ""` adds a suffix or not)
            branches = [self.value(node.body, scope), self.value(node.orelse, scope)]
            if all(literal_text(b) is not None or isinstance(o, ast.JoinedStr)
                   for b, o in zip(branches, (node.body, node.orelse), strict=True)):
                return alt(branches)
        if isinstance(node, ast.Call) and conversion is None and spec is None and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "join" and not isinstance(joined := self._join(node, node.func.value, scope), Hole):
            return joined  # "<{0}{1}>".format(name, ': '.join(parts)): the parts' text, as `sep.join` in text
        if isinstance(node, ast.Name) and node.id == "self" and conversion in (None, "s") and spec is None \
                and scope.class_qualname is not None and not scope.in_exception and not scope.cls_alias \
                and envmod.lookup(scope.env, "self") is None:
            return self_ref(self.module, scope.class_qualname, "self", False)  # its __str__/__repr__ (``shownself``)
        if isinstance(node, ast.Name) and conversion in (None, "s") and spec is None and node.id in scope.params \
                and envmod.lookup(scope.env, node.id) is None and (shown := self._annotated(node.id, scope, conversion)):
            return shown  # `def f(attr: Argument)`: `{attr}` is that class's __str__/__repr__ (``shownself``)
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
                if conversion in (None, "s") and spec is None and isinstance(ir, Hole) and is_base_str(ir.expr):
                    # `base = super().__str__(); return f"{base} (at stream offset 0x{self.offset:x})"`: the
                    # text `__init__` handed the base, read with the raise's arguments (``calltexts.base_str``)
                    return ir
                enumerated = _enumerated(ir, conversion, spec) or _defaulted(ir, conversion, spec)
                if enumerated is not None:  # `kind = "filter"` / `kind = "test"` on two branches: each word
                    return enumerated
                if conversion is None and spec is None and (clauses := loop_clauses(b, ir)) is not None:
                    return clauses  # `clause = ''` or, in a loop, `clause = f'item {i} '`: each (``loopclause``)
                if conversion is None and spec is None and carries(ir):
                    return ir  # `base_message = getattr(self, "_BASE_MESSAGE", ...)`: the raised class's (``raisedattrs``)
                if conversion is None and spec is None and self._own_call(ir):
                    return ir  # message = self._message(); "%s" % message: the text it returns
                if conversion is None and spec is None and _template_filled(b) and not isinstance(ir, Hole):
                    return ir  # message = string.Template(t).substitute(...); f"{message}": the filled text
                if conversion is None and spec is None and _built_from_param(ir) and not _sum(b):
                    # msg = msg.replace("%r", repr(c)), r = "%s: %s" % (r, ref) on a branch: fmt % (msg, ...)
                    # puts the caller's text there, changed (jsonmerge's `'%s' merge strategy: %s`)
                    return ir
                if conversion is None and spec is None and isinstance(ir, Alt) and _sections(b):
                    return ir  # `instead_section = f"\nInstead got: {content}"` / `... = ""` on branches: each
                return Hole(self.src.segment(node), conversion, spec)
        own = _own_arg(node, scope)
        if own is not None:
            return Param(own, conversion, spec, shown=self.src.segment(node))
        if conversion is None and spec is None and (read := property_read(self, node, scope)) is not None \
                and self._own_call(got := self._call(read, scope, text_position=False)):
            return got  # f"{self.message} -> ...": the text the class's `message` property returns
        if (scope.in_exception and isinstance(node, ast.Call) and conversion is None and spec is None
                and (d := dotted_source(node.func)) is not None and d.startswith("self.")
                and self.callee(d, scope) is not None):
            call = self._call(node, scope, text_position=False)
            if self._own_call(call):  # an exception's f"... {self._code_str()}": the text that method returns
                return call
        if isinstance(node, ast.Attribute) and (reads := self_reads(node, scope.class_qualname is not None, scope.env)) is not None:
            # `err = self; f"=====> {err.error_msg}"`: the instance's attribute where the local holds `self`
            return alt([self.value(r, scope, conversion, spec) if r is not None
                        else Hole(self.src.segment(node), conversion, spec) for r in reads])
        if isinstance(node, ast.Attribute):
            if scope.class_qualname is not None and node.attr == "__name__" and _is_own_class(node.value):
                return Param(CLASS_NAME, conversion, spec, shown=self.src.segment(node))
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                bound = scope.self_attrs.get(node.attr)
                if isinstance(bound, Param) and conversion is None and spec is None \
                        and (kept := self._defaulted_kept(node, scope)) is not None:
                    return kept
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
        if (isinstance(node, ast.Name) and conversion in (None, "r", "s") and spec is None
                and node.id in self.module_env and node.id not in scope.params
                and envmod.lookup(scope.env, node.id) is None
                and (listed := literal_repr(node.id, self.module_env[node.id], self.src.text)) is not None):
            return Lit(listed)  # f"... methods are {entrance_rounded_methods}" of a module-level list (``constlists``)
        if (own_attr := raised_attr(self.module, node, scope, self.src.segment(node), conversion, spec)) is not None:
            return own_attr  # `getattr(self, "_BASE_MESSAGE", "...")` each subclass sets (``raisedattrs``)
        return Hole(self.src.segment(node), conversion, spec)

    def _annotated(self, name: str, scope: Scope, conversion: str | None) -> Ref | None:
        """Parameter ``name`` annotated with a class of this package, to show as that class's text."""
        written = annotated(scope.types, name)
        cls = self.resolve_name(written) if written is not None else None
        if cls is None or "." not in cls or cls.split(".", 1)[0] != self.module.split(".", 1)[0]:
            return None
        return param_ref(cls, name, conversion, None)

    def _own_call(self, ir: Node) -> bool:
        """A call of a function of this package (not a class): interpolated, it is the text it
        returns (phase 2 expands it, or leaves the call's placeholder when it returns no text)."""
        return (isinstance(ir, Ref) and ir.is_call and not ir.param and not class_like(ir.target)
                and ir.target.split(".", 1)[0] == self.module.split(".", 1)[0] and ir.target not in BUILTIN_NAMES)

    def _caught_os_error(self, handler: ast.ExceptHandler) -> bool:
        """Whether ``except X as e`` catches only the operating system's errors (``OSError`` or a subclass)."""
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        names = [dotted_source(t) for t in types if t is not None]
        return bool(names) and all(n is not None and self.resolve_name(n) in OS_ERRORS for n in names)

    def _caught_codec_error(self, handler: ast.ExceptHandler) -> str:
        """The one ``UnicodeDecodeError``/``UnicodeEncodeError``/``UnicodeTranslateError`` that ``except X as
        e`` catches (by its builtin name, not rebound in the module); "" for any other handler."""
        if handler.type is None or isinstance(handler.type, ast.Tuple):
            return ""
        d = dotted_source(handler.type)
        resolved = self.resolve_name(d) if d is not None else None
        return resolved if resolved in CODEC_ERRORS else ""

    def _os_error_value(self, node: ast.expr, scope: Scope) -> str | None:
        """``errno.X`` or ``os.strerror(errno.X)`` (``stdlib_texts.os_error_value``), by the modules imported.
        Called on every argument and interpolated value: the resolved name is tested before any local."""
        if isinstance(node, ast.Call) and node.keywords:
            return None
        d = dotted_source(node.func if isinstance(node, ast.Call) else node)
        target = self.resolve_name(d) if d is not None else None
        if d is None or target is None or not (target.startswith("errno.") or target == "os.strerror"):
            return None
        head = d.split(".", 1)[0]
        if head in scope.params or envmod.lookup(scope.env, head):
            return None  # a local or parameter named like the module
        args = [dotted_source(a) for a in node.args] if isinstance(node, ast.Call) else []
        resolved = [self.resolve_name(a) if a is not None else None for a in args]
        if None in resolved:
            return None
        return os_error_value(target, [r for r in resolved if r is not None])

    def _defaulted_kept(self, node: ast.Attribute, scope: Scope, text_position: bool = False) -> Node | None:
        """``self.error`` in a method of a plain class whose ``__init__`` keeps ``self.error = error`` of
        ``error=DEFAULT_ERROR`` (``kepttexts._defaulted``): that text, or one a caller passed."""
        if scope.class_qualname is None or scope.in_exception or scope.qual.rpartition(".")[2] == "__init__":
            return None
        known = self.kept_classes.get(scope.class_qualname)
        if known is None or node.attr not in known.defaulted:
            return None
        return kept_ref(self.module, scope.class_qualname, node.attr, self.src.segment(node), text_position, known)

    def _constant_ref(self, node: ast.Attribute, scope: Scope, text_position: bool) -> Node | None:
        """``self.attr`` bound in ``__init__`` or a class constant, or ``Cls.CONST`` / ``mod.CONST``."""
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            bound = scope.self_attrs.get(node.attr)
            if scope.in_exception and (own := own_text_param(self.module, scope.class_qualname, scope.qual, node.attr,
                                                             bound, self.class_texts, text_position)) is not None:
                return own  # `msg or self.default_message`: the raised class's own template (``owntexts``)
            if isinstance(bound, Lit) and not text_position and scope.class_qualname is not None \
                    and not scope.in_exception and scope.qual.rpartition(".")[2] not in _BUILDS_TEXT:
                # a class constant of a plain class shown as a value (not a format the text is made from,
                # which phase 1 fills; not in a mixin's __init__ that writes an exception's text): a
                # subclass may set its own (``kepttexts.constant_ref``)
                return constant_ref(self.module, scope.class_qualname, node.attr, self.src.segment(node),
                                    text_position, bound)
            if isinstance(bound, (Param, Hole)) and (kept := self._defaulted_kept(node, scope, text_position)) is not None:
                return kept
            if bound is not None:
                return bound
            if scope.class_qualname is not None and (f"self.{node.attr}", factories.PROPERTY) in scope.types:
                # `self._undefined_message` with `@property def _undefined_message(self)`: the text it returns
                prop = f"{self.module}.{scope.class_qualname}.{node.attr}" if self.module \
                    else f"{scope.class_qualname}.{node.attr}"
                return Ref(target=prop, src=self.src.segment(node), callee=f"self.{node.attr}",
                           text_position=text_position)
            if scope.class_qualname is not None and not scope.in_exception:
                # `self.errmsg_floatord % value` in a plain class: the text it or a subclass keeps (``kepttexts``)
                known = self.kept_classes.get(scope.class_qualname)
                kept = kept_ref(self.module, scope.class_qualname, node.attr, self.src.segment(node), text_position,
                                known)
                if kept is None and known is not None and known.inherits and node.attr not in known.body_names:
                    # `self._getitem_exception_prefix` that a base's `__init__` in another module builds (``kepttexts``)
                    return init_ref(self.module, scope.class_qualname, node.attr, self.src.segment(node),
                                    text_position)
                return kept
            return None
        d = dotted_source(node)
        if d is None:
            return None
        head = d.split(".", 1)[0]
        if (member := member_of(d, scope.class_qualname, self.built_members)) is not None \
                and envmod.lookup(scope.env, head) is None:
            # `cls.LIMIT.rangeerrorstring`, `LIMIT = Limit(..., "Second must be ...")` in the class (``tuplefields``)
            owner = f"{self.module}.{scope.class_qualname}" if self.module else str(scope.class_qualname)
            return member_ref(owner, *member, self.src.segment(node), text_position)
        if head in scope.params and envmod.lookup(scope.env, head) is None:
            # `limit.rangeerrorstring`: the texts built into that field of the package's named tuples
            return field_ref(d, scope.params, self.module, text_position)
        if head in scope.params or envmod.lookup(scope.env, head) is not None:
            return None
        target = self.resolve_name(d)
        if target is None or target == d:
            return None
        return Ref(target=target, src=d, is_call=False, text_position=text_position)


_BUILDS_TEXT = frozenset({"__init__", "__new__", "__str__", "__repr__"})
CLASS_NAME = "__class__.__name__"  # the parameter phase 2 binds to the raised class's name


def _built_from_param(ir: Node) -> bool:
    """A local's value made from a parameter's text: edited (``Dedent``), extended (``Cat``) or either on
    several branches (``Alt``, each one so), with a parameter among its parts as it was passed (not a lone
    parameter: that one is followed as it is; not ``{value!r}``: a value shown, as typedload's enum list
    ``lst`` holds)."""
    if isinstance(ir, Dedent):
        return reads_param(ir.inner)
    if isinstance(ir, Alt):
        # every branch holds the caller's text: a branch of other text (`dim = ""` against `dim = f" ({dim})"`)
        # is a value's decoration, whose combinations would crowd out the raise's own variants
        return all(_as_passed(o) or _built_from_param(o) for o in ir.options)
    return isinstance(ir, Cat) and any(_as_passed(p) for p in ir.parts)


def _sum(b: envmod.Binding | None, depth: int = 0) -> bool:
    """A binding (or a branch of one) that adds without any string literal: ``position = offset +
    match.start() + 1`` is arithmetic (idna), though the IR reads ``+`` as concatenation."""
    if b is None or depth > 8:
        return False
    if b.options:
        return any(_sum(o, depth + 1) for o in b.options)
    v = b.value
    if not (isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add)):
        return False
    operands: list[ast.expr] = []
    while isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add):
        operands.append(v.right)
        v = v.left
    operands.append(v)
    return not any(isinstance(o, ast.JoinedStr) or (isinstance(o, ast.Constant) and isinstance(o.value, str))
                   for o in operands)


def _repr_item(ir: Node, node: ast.expr) -> Node:
    """An item of a tuple shown as text: literal text as ``repr`` writes it (a number, ``None`` or ``True`` as
    written: ``(dtc.id, 51)``), anything else a ``!r`` value."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, str):
        return Lit(repr(node.value))
    text = literal_text(ir)
    if text is not None:
        return Lit(repr(text))
    if isinstance(ir, Param):
        return dataclasses.replace(ir, conversion="r")
    if isinstance(ir, Hole):
        return Hole(ir.expr, "r", ir.format_spec, ir.unresolved)
    return ir


def _template_filled(b: envmod.Binding) -> bool:
    """A local assigned ``<template>.substitute(...)`` / ``.safe_substitute(...)`` (``msgtemplate.py``)."""
    v = b.value
    return b.prev is None and not b.options and isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) \
        and v.func.attr in SUBSTITUTE


MAX_SECTIONS = 4  # a local set on at most this many branches, each to a section of text (``_sections``)


def _sections(b: envmod.Binding) -> bool:
    """A local set on each branch to an optional section of the message: an f-string or a string, at least one
    with words of its own, one the empty string (the section left out), at most ``MAX_SECTIONS`` (mockito's `error_message_for_unmatched_invocation`: `instead_section =
    f"\nInstead got:\n\n    {content}\n"`, `f"\nStubbed are:\n\n    {content}\n"` or `""`, then `return
    "%s%s\n" % (wanted_section, instead_section)`), the statement form of `f" => '{x}'" if x else ""`."""
    values: list[ast.expr] = []
    todo: list[envmod.Binding | None] = [b]
    while todo:
        cur = todo.pop()
        if cur is None or cur.prev is not None or cur.grow or len(values) > MAX_SECTIONS:
            return False
        if cur.options:
            todo.extend(cur.options)
        elif isinstance(cur.value, ast.JoinedStr) or (
                isinstance(cur.value, ast.Constant) and isinstance(cur.value.value, str)):
            values.append(cur.value)
        else:
            return False
    worded = [v for v in values if isinstance(v, ast.JoinedStr) and any(
        isinstance(p, ast.Constant) and isinstance(p.value, str) and any(c.isalpha() for c in p.value)
        for p in v.values)]
    empty = any(isinstance(v, ast.Constant) and v.value == "" for v in values)  # an optional section: or none
    return 1 < len(values) <= MAX_SECTIONS and bool(worded) and empty


def _as_passed(ir: Node) -> bool:
    """A parameter's text as passed: ``{invocation}``, or a parameter annotated with a class of the package
    shown by that class's ``__str__`` (mockito's `def error_message_for_unmatched_invocation(invocation:
    MatchingInvocation)` building `wanted_section = f"...{invocation}..."`, ``shownself.param_ref``)."""
    if isinstance(ir, Ref) and ir.callee == SHOWN_SELF and len(ir.args) == 1:
        ir = ir.args[0]
    return isinstance(ir, Param) and ir.conversion is None and ir.format_spec is None


def _own_arg(node: ast.expr, scope: Scope) -> str | None:
    """``self.args[i]`` in a method of a class: the marker parameter of that argument."""
    if (scope.class_qualname is not None and isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute) and node.value.attr == "args"
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "self"):
        i = _int_constant(node.slice)
        if i is not None and 0 <= i < 8:
            return exc_arg(i)
    return None


_ENUMERATED = 4  # at most this many literal values of one local are spelled out as alternatives


def _enumerated(ir: Node, conversion: str | None, spec: str | None) -> Node | None:
    """A local bound to one of a few literal strings on different branches, interpolated plainly
    or with ``!r``: the alternatives of its text (``repr`` of each for ``!r``)."""
    if not isinstance(ir, Alt) or len(ir.options) > _ENUMERATED or spec is not None or conversion not in (None, "r"):
        return None
    texts = [literal_text(o) for o in ir.options]
    if any(t is None for t in texts):
        return None
    return alt([Lit(repr(t) if conversion == "r" else t) for t in texts if t is not None])


def _defaulted(ir: Node, conversion: str | None, spec: str | None) -> Node | None:
    """A parameter given a literal default on some branches (``if message is None: message = "..."``),
    interpolated: the caller's value (a placeholder to bind) or the literal text."""
    if not isinstance(ir, Alt) or len(ir.options) > _ENUMERATED or spec is not None or conversion not in (None, "r") \
            or not any(isinstance(o, Param) for o in ir.options):
        return None
    params = [o for o in ir.options if isinstance(o, Param)]
    lits = [literal_text(o) for o in ir.options if not isinstance(o, Param)]
    if len(params) == 1 and len(lits) == 1 and lits[0] is not None and params[0].conversion is None \
            and params[0].format_spec is None:
        p, d = params[0], lits[0]
        return Ref(target=DEFAULTED, src=p.shown or p.name, callee=DEFAULTED, is_call=False,
                   args=(Param(p.name, conversion, spec, shown=p.shown), Lit(repr(d) if conversion == "r" else d)))
    out: list[Node] = []
    for o in ir.options:
        t = literal_text(o)
        if isinstance(o, Param) and o.conversion is None and o.format_spec is None:
            out.append(Param(o.name, conversion, spec, shown=o.shown))
        elif t is not None:
            out.append(Lit(repr(t) if conversion == "r" else t))
        else:
            return None
    return alt(out)


def _formats_param(node: ast.expr, scope: Scope) -> bool:
    """``param.format(...)`` or ``param % values``: a parameter of the function used as a format."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        fmt = node.left
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        fmt = node.func.value
    else:
        return False
    return isinstance(fmt, ast.Name) and fmt.id in scope.params


def _is_own_class(node: ast.expr) -> bool:
    """``self.__class__`` or ``type(self)``."""
    if isinstance(node, ast.Attribute) and node.attr == "__class__":
        return isinstance(node.value, ast.Name) and node.value.id == "self"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id == "self")
