"""Message forms: f-strings, ``%`` and ``.format``,
``"-" * n``, slices of known text (part of ``MessageBuilder``, see ``messages.py``)."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable

from errdex.extract import env as envmod
from errdex.extract.formats import Field, Part, parse_brace_run, parse_percent_format
from errdex.extract.ir import (
    FORMAT_FIELDS,
    FORMATTED,
    KEYED,
    PERCENT_FIELDS,
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
    literal_text,
)
from errdex.extract.msgbase import (
    MAX_REPEATED,
    Builder,
    Scope,
)
from errdex.extract.owntexts import self_mapping
from errdex.extract.selfalias import self_attr_of
from errdex.extract.strict import unclassified
from errdex.extract.textops import FAILS_ALWAYS, UNCONVERTED, percent_fails


class FormsMixin(Builder):
    """The text of f-strings, ``%``/``.format`` formatting and slices (joins: ``msgjoin.JoinMixin``)."""

    __slots__ = ()

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

    def _fields(self, parts: list[Part], pick: dict[int | str, ast.expr], scope: Scope, what: str,
                rest: str = "", star: tuple[int, str] | None = None) -> Node | None:
        out: list[Node] = []
        for p in parts:
            if isinstance(p, str):
                out.append(Lit(p))
                continue
            arg = pick.get(p.key)
            if arg is None and rest and isinstance(p.key, str):
                out.append(Hole(f"{rest}[{p.key!r}]", p.conversion, p.format_spec))  # from `**kwargs`
                continue
            if arg is None and star is not None and isinstance(p.key, int) and p.key >= star[0]:
                # `.format(uri, *cpc)`: a field past the known arguments is an item of the unpacked value
                out.append(Hole(f"{star[1]}[{p.key - star[0]}]", p.conversion, p.format_spec))
                continue
            if arg is None:
                return None
            out.append(self._field_value(p, arg, scope))
        return cat(*out)

    def _field_value(self, f: Field, arg: ast.expr, scope: Scope) -> Node:
        if f.rest:
            return Hole(self.src.segment(arg) + f.rest, f.conversion, f.format_spec)
        return self.value(arg, scope, f.conversion, f.format_spec)

    def _percent(self, node: ast.BinOp, scope: Scope) -> Node:
        left = spelled_out(self.text(node.left, scope))
        if isinstance(left, Alt):
            # `if msg is None: msg = "... %(name)s ..."`, then `msg % {...}`: each literal format the
            # local can hold (the caller's own text, when it passes one, is not known here)
            # (a caller's text dedented first, asn1crypto's `unwrap`, is formatted in phase 2; a bare one is not known)
            fails = percent_fails(node.right, scope.params, self.kwargs_name)
            done = [Dedent(o, PERCENT_FIELDS + fails + self.src.segment(node.right)) if isinstance(o, Dedent)
                    and _deferred_format(o) else self._percent_of(literal_text(o), node, scope) for o in left.options]
            known = [d for d in done if not (isinstance(d, Hole) and d.unresolved)]
            if any(_fails(d) for d in known):  # Python's TypeError of a text with no field: after the texts
                known = [o for d in known for o in (d.options if isinstance(d, Alt) else (d,)) if not _fails(o)] \
                    + [Lit(UNCONVERTED)]
            return alt(known) if known else Hole(self.src.segment(node), unresolved=True)
        fmt = literal_text(left)
        if fmt is None and _deferred_format(left):
            # `self.args[0] % self.args[1:]` in an exception's __str__: the format is the raise's first
            # argument, known in phase 2, where its `%s` fields become placeholders (`textops.transform`)
            fails = percent_fails(node.right, scope.params, self.kwargs_name)
            return Dedent(left, PERCENT_FIELDS + fails + self.src.segment(node.right))
        return self._percent_of(fmt, node, scope)

    def _percent_of(self, fmt: str | None, node: ast.BinOp, scope: Scope) -> Node:
        parts = parse_percent_format(fmt) if fmt is not None else None
        if parts is None:
            return Hole(self.src.segment(node), unresolved=True)
        right = node.right
        if not any(isinstance(p, Field) for p in parts) \
                and (fails := percent_fails(right, scope.params, self.kwargs_name)):
            # `"Cannot treat float number as ordinal" % value`: Python's TypeError, not the text (``textops``)
            text = Lit("".join(p for p in parts if isinstance(p, str)))
            return Lit(UNCONVERTED) if fails == FAILS_ALWAYS else alt([text, Lit(UNCONVERTED)])
        pick: dict[int | str, ast.expr] = {}
        if isinstance(right, ast.Tuple):
            pick = {i: e for i, e in enumerate(right.elts)}
        elif isinstance(right, ast.Dict):
            for k, v in zip(right.keys, right.values, strict=True):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    pick[k.value] = v
        else:
            keys = [p.key for p in parts if isinstance(p, Field)]
            if len(keys) >= 2 and all(isinstance(k, int) for k in keys):
                # `"Class already registered for %s and %s" % key` (pyvisa 1.16.2's `register_subclass`, `key =
                # cls.interface_type, cls.resource_class`): two fields or more take a tuple's items, else `%` fails
                result = self._fields(parts, {}, scope, "%", star=(0, self.src.segment(right)))
                return result if result is not None else Hole(self.src.segment(node), unresolved=True)
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
        if scope.in_exception and isinstance(receiver, ast.Name) and recv_scope is None \
                and (attrs := self_attr_of(receiver, scope.env)) is not None:
            # `t.format(*self.args)` with `t` holding `self._template` (through a loop's item, a name): as if
            # written `self._template.format(...)`, the raised class's own attribute formatted (``expand``)
            return alt([self._own_format(node, a, scope) for a in attrs])
        recv = self.text(receiver, recv_scope or scope)
        options = recv.options if isinstance(recv, Alt) else (recv,)  # msg chosen by a branch, ngettext's forms
        return alt([self._format_ir(node, o, scope) for o in options])

    def _own_format(self, node: ast.Call, attr: ast.Attribute | None, scope: Scope) -> Node:
        """``self.attr.format(...)`` for the call ``node`` on a local holding it (``attr``; None: another value)."""
        if attr is None:
            return Hole(self.src.segment(node), unresolved=True)
        func = ast.copy_location(ast.Attribute(value=attr, attr="format", ctx=ast.Load()), node.func)
        call = ast.copy_location(ast.Call(func=func, args=node.args, keywords=node.keywords), node)
        made = self.factory_call(call, scope)
        if isinstance(made, Ref):  # read in phase 2 by what it says (``classmessage._own_attrs``): say it as written there
            return dataclasses.replace(made, src=ast.unparse(call), callee=ast.unparse(func))
        return self._format(call, attr, scope)

    def _format_arg(self, node: ast.expr, scope: Scope) -> Node:
        """A ``.format`` argument's value for ``expand._formatted``.  A value read elsewhere (an attribute, a
        name) that reads as literal text may have been set to a value too: mimesis 19.1.0's ``self.items`` is
        ``", ".join(map(str, enum_obj))`` or ``""``, and only the empty text reads; so it keeps a placeholder
        beside its text.  A literal written in the call is certain."""
        value = self.value(node, scope)
        if isinstance(value, Lit) and not isinstance(node, ast.Constant):
            return Alt((value, Hole(self.src.segment(node))))
        return value

    def _format_ir(self, node: ast.Call, fmt: Node, scope: Scope) -> Node:
        """Format fields are parsed in the literal runs of the receiver; placeholders it already holds
        (``f"{op} must be unique, got {{}}"``) are values interpolated before ``.format`` ran."""
        runs = _format_runs(fmt)
        spread = [k for k in node.keywords if k.arg is None]  # `.format(**kwargs)`: named fields from a mapping
        rest = self.src.segment(spread[0].value) if len(spread) == 1 else ""
        if runs is None and isinstance(fmt, Ref) and fmt.callee == KEYED and not node.args:
            # a message table's entry, formatted: its fields are known in phase 2 (``expand._keyed``)
            return dataclasses.replace(fmt, kwargs=(("format", Lit(rest)),))
        if _deferred(fmt) and len(node.keywords) == 1 and spread and not node.args and self_mapping(spread[0].value):
            # `self._msg.format(**self.__dict__)`: a text known in phase 2 (the caller's, the raised class's
            # template), its `{name}` fields the instance's attributes, placeholders (``owntexts``)
            return Dedent(fmt, FORMAT_FIELDS)
        if runs is None and _deferred(fmt) and not spread and (node.args or node.keywords) \
                and not any(isinstance(a, ast.Starred) for a in node.args):
            # `self.template.format(line + 1, column + 1, error_msg, source)` (eql's `EqlParseError`): the
            # arguments go into the fields of the text phase 2 knows (``expand._formatted``)
            return Ref(target=FORMATTED, src=self.src.segment(node), callee=FORMATTED, is_call=False,
                       args=(fmt, *(self._format_arg(a, scope) for a in node.args)),
                       kwargs=tuple((k.arg, self._format_arg(k.value, scope))
                                    for k in node.keywords if k.arg is not None))
        if runs is None and _deferred(fmt) and not spread:
            # `message.format(min=self.min)` with `message` a parameter (or a call's result): its text is
            # known in phase 2, where its `{name}` fields become placeholders (`expand._dedent`); so do the
            # fields of `msg.format(*format_args)`, values passed on (h11's `validate`)
            return Dedent(fmt, FORMAT_FIELDS)
        if runs is None and _deferred(fmt) and len(spread) == 1 \
                and all(isinstance(a, ast.Starred) for a in node.args):
            # `message = message.format(**params)` of a caller's text (eql's `_error`), or a helper's
            # `fmt.format(*args, **kwargs)` of what its caller passes on (ndeflib's `_decode_error`): its
            # fields are values, placeholders in phase 2, the rest of the caller's text literal
            return Dedent(fmt, FORMAT_FIELDS)
        if runs is None or len(spread) > 1:
            return Hole(self.src.segment(node), unresolved=True)
        pick, star = _positional(node.args, self.src.segment)
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
            result = self._fields(parts, pick, scope, "format", rest, star)
            if result is None:
                return Hole(self.src.segment(node), unresolved=True)
            out.append(result)
        return cat(*out)


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
    if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value and not a.value.strip():
        # `"  " * indent`: an indentation, blank whatever the count; matching reads runs of blanks as one
        return Lit("")
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


def _deferred(fmt: Node) -> bool:
    """Text only phase 2 knows: a parameter, a call of the package, a constant (or a choice of them)."""
    if isinstance(fmt, Alt):
        return all(isinstance(o, Lit) or _deferred(o) for o in fmt.options)
    return isinstance(fmt, (Param, Ref))


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


def _deferred_format(node: Node) -> bool:
    """A ``%`` format whose text is known only in phase 2: a parameter, a call's result, or one of them
    dedented or stripped first (asn1crypto's ``unwrap(string, *params)``: ``output = textwrap.dedent(string)``
    ... ``output % params``)."""
    while isinstance(node, Dedent) and not node.how.startswith((PERCENT_FIELDS, FORMAT_FIELDS)):
        node = node.inner
    return isinstance(node, (Param, Ref))


def _fails(node: Node) -> bool:
    """Python's ``TypeError`` text of ``"text" % value`` (``_percent_of``), or an ``Alt`` holding it."""
    return node == Lit(UNCONVERTED) or (isinstance(node, Alt) and Lit(UNCONVERTED) in node.options)


def _positional(args: list[ast.expr], segment: Callable[[ast.AST], str]) -> tuple[dict[int | str, ast.expr],
                                                                                   tuple[int, str] | None]:
    """The positional arguments of a ``.format(...)`` call by index, a ``*(a, b)`` of a tuple or list display
    spread into its items; and, at the first ``*value`` of unknown length, ``(its index, its source)``: the
    fields from there on are its items, placeholders (``'... "{1}" of "{0}" ...'.format(*cpc)``)."""
    pick: dict[int | str, ast.expr] = {}
    for a in args:
        if not isinstance(a, ast.Starred):
            pick[len(pick)] = a
        elif isinstance(a.value, ast.Tuple | ast.List) and not any(isinstance(e, ast.Starred) for e in a.value.elts):
            for e in a.value.elts:
                pick[len(pick)] = e
        else:
            return pick, (len(pick), segment(a.value))
    return pick, None


_SPELLED = 8  # the most whole texts a concatenation of literals and literal alternatives is spelled out into


def spelled_out(node: Node) -> Node:
    """A concatenation of literals and alternatives of literals as the alternatives of its whole texts; else
    ``node``.  pyramid 2.1's ``viewresult_to_response`` appends a hint picked by an ``if``/``elif``/``else`` to
    its format before filling it, ``msg = ('... callable %s into a response object. The value returned was %r.'
    + append)`` then ``msg % (view_description(view), result)``: each whole format is filled as any literal one
    (issue 17's sixty-eighth round).  A part of unknown text (a caller's) leaves the node as it is: its ``%``
    fields are not known."""
    if not isinstance(node, Cat) or not any(isinstance(p, Alt) for p in node.parts):
        return node
    texts = [""]
    for part in node.parts:
        options = part.options if isinstance(part, Alt) else (part,)
        known = [literal_text(o) for o in options]
        if any(k is None for k in known) or len(texts) * len(known) > _SPELLED:
            return node
        texts = [t + (k or "") for t in texts for k in known]
    return alt([Lit(t) for t in texts])

