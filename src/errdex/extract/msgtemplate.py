"""``string.Template(text).substitute(NAME=value)``: the standard library's ``$NAME`` templates as message text.

omegaconf 2.4.0's ``format_and_raise`` frames every error it re-raises so::

    template = dedent('''\\
        $MSG
            full_key: $FULL_KEY
            object_type=$OBJECT_TYPE''')
    s = string.Template(template=template)
    message = s.substitute(OBJECT_TYPE=object_type_str, MSG=msg, FULL_KEY=full_key)

and first fills the caller's text the same way (``string.Template(msg).safe_substitute(KEY=key, ...)``).
Read as an opaque call, the message was one placeholder.  Here the template's text (literal, or
``dedent``/``cleandoc``/``strip`` of literal text, on each branch) is split at ``$name`` / ``${name}``
(``$$`` is a dollar), each field taking the keyword's value as an f-string field would, a field with
no keyword left as written (``safe_substitute``).  A template whose text is known only in phase 2 (a
parameter: the caller's text) gets one ``.replace`` per keyword (``${name}`` and ``$name``, the
longest names first so that ``$KEY`` does not eat ``$KEY_TYPE``), as ``text.replace(old, new)`` does
(``msgcalls.replacement``).  A mapping passed positionally other than a literal ``dict``, or
``**kwargs``: not modelled (None: the caller falls back to an opaque value).
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap

from errdex.extract import env as envmod
from errdex.extract.ir import REPLACE_SEP, REPLACED, Alt, Dedent, Lit, Node, alt, cat, literal_text
from errdex.extract.msgbase import Builder, Scope

SUBSTITUTE = frozenset(("substitute", "safe_substitute"))
TEMPLATE_CLASS = "string.Template"
# string.Template's default pattern: `$$`, `$identifier`, `${identifier}` (ASCII letters, digits, `_`)
_FIELD = re.compile(r"\$(?:(\$)|([_a-zA-Z][_a-zA-Z0-9]*)|\{([_a-zA-Z][_a-zA-Z0-9]*)\})")
_TRANSFORMS = {"dedent": textwrap.dedent, "cleandoc": inspect.cleandoc, "strip": str.strip,
               "lstrip": str.lstrip, "rstrip": str.rstrip}
_MAX_DEPTH = 3  # bindings followed from the receiver to the ``string.Template(...)`` call


def substituted(b: Builder, call: ast.Call, scope: Scope) -> Node | None:
    """The text of ``<template>.substitute(...)`` / ``.safe_substitute(...)``, or None when the receiver
    is not a ``string.Template`` this function can see or the values are not given by name."""
    f = call.func
    if not isinstance(f, ast.Attribute) or f.attr not in SUBSTITUTE:
        return None
    found = _template_arg(b, f.value, scope, 0)
    if found is None:
        return None
    source, at = found
    values: dict[str, ast.expr] = {}
    if len(call.args) > 1:
        return None
    if call.args:
        mapping = call.args[0]
        if not isinstance(mapping, ast.Dict) or not all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in mapping.keys):
            return None
        values.update({str(k.value): v for k, v in zip(mapping.keys, mapping.values, strict=True)
                       if isinstance(k, ast.Constant)})
    for k in call.keywords:
        if k.arg is None:
            return None
        values[k.arg] = k.value
    filled = {name: b.value(v, scope) for name, v in values.items()}
    text = b.text(source, at)
    return _fill(text, filled, {name: b.src.segment(v) for name, v in values.items()}, 0)


def _template_arg(b: Builder, recv: ast.expr, scope: Scope, depth: int) -> tuple[ast.expr, Scope] | None:
    """``string.Template(text)`` (or ``template=text``) as the receiver, or a local bound to it once."""
    if isinstance(recv, ast.Name) and depth < _MAX_DEPTH:
        binding = envmod.lookup(scope.env, recv.id)
        if binding is None or binding.options or binding.value is None:
            return None
        return _template_arg(b, binding.value, scope.at(binding.env), depth + 1)
    if not isinstance(recv, ast.Call):
        return None
    written = b.src.segment(recv.func)
    if b.callee(written, scope) != TEMPLATE_CLASS:
        return None
    if len(recv.args) == 1 and not recv.keywords and not isinstance(recv.args[0], ast.Starred):
        return recv.args[0], scope
    if not recv.args and len(recv.keywords) == 1 and recv.keywords[0].arg == "template":
        return recv.keywords[0].value, scope
    return None


def _fill(text: Node, values: dict[str, Node], sources: dict[str, str], depth: int) -> Node:
    """``text`` with its ``$name`` fields replaced by ``values`` (see the module docstring)."""
    if isinstance(text, Alt) and depth < 8:
        return alt([_fill(o, values, sources, depth + 1) for o in text.options])
    known = _literal(text)
    if known is not None:
        parts: list[Node] = []
        pos = 0
        for m in _FIELD.finditer(known):
            parts.append(Lit(known[pos:m.start()]))
            name = m[2] or m[3]
            if m[1]:
                parts.append(Lit("$"))
            elif name in values:
                parts.append(values[name])
            else:
                parts.append(Lit(m[0]))  # safe_substitute leaves it (substitute would raise KeyError)
            pos = m.end()
        parts.append(Lit(known[pos:]))
        return cat(*parts)
    out = text
    for name in sorted(values, key=len, reverse=True):
        new = literal_text(values[name])
        spec = f"={new}" if new is not None else "{" + sources[name]
        for old in ("${" + name + "}", "$" + name):
            out = Dedent(out, f"{REPLACED}{old}{REPLACE_SEP}{spec}")
    return out


def _literal(node: Node) -> str | None:
    """The text of literal text, or of ``dedent``/``cleandoc``/``strip`` of it, else None."""
    if isinstance(node, Dedent) and node.how in _TRANSFORMS:
        inner = _literal(node.inner)
        return _TRANSFORMS[node.how](inner) if inner is not None else None
    return literal_text(node)
