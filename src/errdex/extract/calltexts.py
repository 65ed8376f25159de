"""How a raise's call becomes text in phase 2: a known format string's fields, the base's ``__str__`` of
what ``__init__`` passes on, ``repr`` of an argument, and a called function's parameters bound to the call.

Split from ``expand.py`` (the ``Expander`` walks the IR; these are the call-shaped pieces it applies), so
that module stays one responsibility under the size the style asks for.
"""

from __future__ import annotations

import dataclasses
import re
import string

from errdex.extract.binding import Bind, as_text, subst
from errdex.extract.factories import bind_with_rest, spread
from errdex.extract.ir import CLS_PARAM, Alt, Cat, Hole, Lit, Node, Param, Ref, is_marker, literal_text
from errdex.extract.summary import FuncSummary, InitSummary

_BASE_STR = "super().__str__()"
# `super(InvalidCommand, self).__str__()` (the two-argument spelling) and `Exception.__str__(self)` of a
# builtin base (doit's InvalidCommand, ``poppedopts``): the same text of `self.args`
_BASE_STR_FORMS = re.compile(r"super\(\s*[\w.]+\s*,\s*self\s*\)\.__str__\(\)"
                             r"|(?:Base)?Exception\.__str__\(self\)")


def is_base_str(expr: str) -> bool:
    """Whether ``expr`` (a placeholder's source) is the base's ``__str__`` of the instance: ``super().__str__()``,
    ``super(Cls, self).__str__()`` or ``Exception.__str__(self)``."""
    return expr == _BASE_STR or _BASE_STR_FORMS.fullmatch(expr) is not None


def format_template(fmt: str, call: Ref) -> Node:
    """``fmt.format(...)`` of a known format string: its literal text, each replacement field a value."""
    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError:
        return call
    parts: list[Node] = []
    for text, field, _spec, _conv in parsed:
        if text:
            parts.append(Lit(text))
        if field is not None:
            parts.append(Hole(field or "?"))
    return Cat(tuple(parts))


def base_str(node: Node, base_args: list[Node]) -> Node:
    """An exception's ``__str__`` returning ``super().__str__()`` (dnspython's ``DNSException`` when no
    keyword arguments were given): the base's text of ``self.args``, that is of the arguments the
    ``__init__`` passed on: nothing → "", one → its text (several stay a value).  Inside a text too: josepy's
    ``DeserializationError.__str__`` returns ``"Deserialization error: {0}".format(super().__str__())``, each
    raise's own message after that prefix."""
    if isinstance(node, Hole) and is_base_str(node.expr) and len(base_args) <= 1:
        return as_text(base_args[0]) if base_args else Lit("")
    if isinstance(node, Hole) and is_base_str(node.expr) and len(base_args) <= 8 and all(
            literal_text(a) is not None or isinstance(a, (Hole, Param)) for a in base_args):
        # several arguments: the tuple's repr (zope.configuration's `ConfigurationError('Invalid directive',
        # name)` prints `('Invalid directive', 'testing')`), each literal quoted, each value shown by its repr
        parts: list[Node] = [Lit("(")]
        for i, a in enumerate(base_args):
            parts.extend(([Lit(", ")] if i else []) + [repr_shown(a)])
        return Cat((*parts, Lit(")")))
    if isinstance(node, Alt):
        return Alt(tuple(base_str(o, base_args) for o in node.options))
    if isinstance(node, Cat):
        return Cat(tuple(base_str(p, base_args) for p in node.parts))
    if isinstance(node, Ref) and node.is_call and node.src.startswith("self.") and node.args:
        # handed to a method of its own (zope.configuration's `return self._with_details(s, str)` of
        # `s = super().__str__()`): the method reads the base's text in its parameter
        return dataclasses.replace(node, args=tuple(base_str(a, base_args) for a in node.args))
    return node


def call_bind(f: FuncSummary, owner: str | None, call: Ref, bind: Bind) -> dict[str, Node]:
    """A called function's parameters bound to the call's arguments; a method called on a class
    (``NotFound.for_field(...)``) also binds its ``cls`` to that class."""
    args, kwargs = spread(tuple(subst(a, bind) for a in call.args), tuple((k, subst(v, bind)) for k, v in call.kwargs))
    inner = bind_with_rest(f.params, f.vararg, f.varkw, list(args), dict(kwargs))
    for k, v in f.defaults:  # `def error(self, exception=ParseError, *args)` called as `self.error()`
        inner.setdefault(k, v)
    inner.update((k, v) for k, v in bind.items() if is_marker(k))  # `self._message()` in __str__: the same self
    if owner is not None and call.src.startswith(("self.", "super().")):
        # and the same instance: `self.msg` read in the method stands for the __init__ parameter kept there
        inner.update((k, v) for k, v in bind.items() if k not in inner and k not in f.params)
    if owner is not None:
        inner[CLS_PARAM] = Ref(target=owner, src=owner.rsplit(".", 1)[-1], is_call=False)
    return inner


def repr_shown(node: Node) -> Node:
    """How ``repr`` of an argument shows inside the tuple rendering."""
    text = literal_text(node)
    if text is not None:
        return Lit(repr(text))
    if isinstance(node, Hole):
        return Hole(node.expr, "r", node.format_spec)
    if isinstance(node, Param):
        return Param(node.name, "r", node.format_spec, shown=node.shown)
    return Cat((Lit("'"), node, Lit("'")))


def passed_on(init: InitSummary, bind: Bind) -> tuple[Node, ...]:
    """What ``__init__`` passes to its base for a raise binding ``bind``: the arguments of its
    ``if param is None:`` call when the raise leaves that parameter out (construct's
    ``NamedTupleError("subcon is ...")`` prints no "Error in path" prefix), else the other call's."""
    if init.none_args is not None and init.none_args[0] not in bind:
        return init.none_args[1]
    return init.super_args or ()
