"""``self.<name>`` / ``cls.<name>`` in the text of a raise or of an exception factory: a class attribute.

An instance that never set ``<name>`` reads the class's attribute, so when the class is known the text is
that attribute's literal text:

- oauthlib's ``OAuth2Error.__init__`` builds ``'({}) {}'.format(self.error, self.description)``; each
  subclass only sets ``error = 'invalid_request'`` / ``description = 'Missing redirect URI.'``: the raised
  class decides (``attrs_of_raised``);
- elementpath's ``AnyAtomicType._invalid_type(cls, obj)`` returns ``TypeError('invalid type {!r} for
  xs:{}'.format(type(obj), cls.name))`` and twenty ``validate`` classmethods ``raise
  cls._invalid_type(value)``, each class setting ``name = 'integer'``, ``'double'``...: the class the
  factory is called on, or one of its subclasses (which inherit ``validate``), decides
  (``attrs_of_caller``).  The owner's text comes first, then the placeholder (for a subclass past the
  expansion's variant cap, or a class set at run time), then the subclasses' texts.

The class's own name is read the same way: ndeflib's ``Record._decode_error(cls, fmt, *args, **kwargs)`` returns
``DecodeError(cls.__module__ + "." + cls.__name__ + " " + fmt.format(*args, **kwargs))``, called as ``raise
cls._decode_error("TNF field value must be between 0 and 6")``: ``cls.__module__`` / ``cls.__name__`` /
``cls.__qualname__`` (and ``self.__class__.<that>``, ``type(self).<that>``) are the owner's module and name,
then the placeholder (a subclass outside the package, a test's), then its package subclasses' (``_class_names``);
a base of more than a few classes (ndeflib's ``Record``, thirty) stays the placeholder.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from errdex.extract.imports import BUILTIN_EXCEPTIONS
from errdex.extract.ir import Alt, Cat, Hole, Lit, Node, Param, Ref, alt, literal_text
from errdex.extract.msgvalue import CLASS_NAME
from errdex.extract.shownself import NEUTRAL_BASES
from errdex.extract.tables import Tables

_SELF_ATTR = re.compile(r"self\.(\w+)")
_OWN_ATTR = re.compile(r"(?:self|cls)\.(\w+)")
MAX_DEPTH = 32
MAX_LISTED = 16  # forms listed: the owner's text, the placeholder, then the subclasses' texts
# classes named (the owner and its subclasses): more leave the placeholder, so that a module's and a name's options
# (a product in `cls.__module__ + "." + cls.__name__`) stay within the expansion's variant cap
MAX_NAMED = 3
# `cls.__name__`, `self.__class__.__module__`, `type(self).__qualname__`: the class's own names
_OWN_NAME = re.compile(r"(?:cls|self\.__class__|type\(self\))\.(__name__|__qualname__|__module__)")


def _each_part(node: Node, fn: Callable[[Node], Node]) -> Node | None:
    """``fn`` over the options of an ``Alt`` or the parts of a ``Cat``; ``None`` for any other node."""
    if isinstance(node, Alt):
        return Alt(tuple(fn(o) for o in node.options))
    if isinstance(node, Cat):
        return Cat(tuple(fn(p) for p in node.parts))
    return None


def attrs_of_raised(t: Tables, node: Node, raised: str, depth: int = 0) -> Node:
    """``self.<name>`` holes of ``node`` as the raised class's (or a base's) literal class attribute."""
    if depth > MAX_DEPTH:
        return node
    if (inner := _each_part(node, lambda n: attrs_of_raised(t, n, raised, depth + 1))) is not None:
        return inner
    if isinstance(node, Hole) and (m := _SELF_ATTR.fullmatch(node.expr)) is not None:
        const = _constant(t, raised, m[1])
        return const if const is not None else node
    return node


def attrs_of_caller(t: Tables, node: Node, owner: str, depth: int = 0) -> Node:
    """In what a factory method returns, ``cls.<name>`` / ``self.<name>`` holes as the literal class attribute
    of ``owner`` (the class the method was called on), then of its subclasses, then the placeholder."""
    if depth > MAX_DEPTH:
        return node
    if (inner := _each_part(node, lambda n: attrs_of_caller(t, n, owner, depth + 1))) is not None:
        return inner
    if isinstance(node, Ref) and node.is_call:
        return dataclasses.replace(node, args=tuple(attrs_of_caller(t, a, owner, depth + 1) for a in node.args),
                                   kwargs=tuple((k, attrs_of_caller(t, v, owner, depth + 1)) for k, v in node.kwargs))
    if isinstance(node, Hole) and node.conversion is None and node.format_spec is None \
            and (n := _OWN_NAME.fullmatch(node.expr)) is not None:
        return _class_names(t, owner, n[1], node)
    if isinstance(node, Param) and node.name == CLASS_NAME and node.conversion is None and node.format_spec is None \
            and not _exception_class(t, owner):
        # `self.__class__.__name__` / `type(self).__name__` in a factory method of a class that is no exception
        # (an exception's own is the raised class's, bound where its text is read)
        return _class_names(t, owner, "__name__", node)
    if isinstance(node, Hole) and node.conversion is None and node.format_spec is None \
            and (m := _OWN_ATTR.fullmatch(node.expr)) is not None:
        own = _constant(t, owner, m[1])
        if own is None:
            return node
        seen = {literal_text(own)}
        options: list[Node] = [own, node]
        for sub in t.subclasses(owner):
            c = _constant(t, sub, m[1])
            if c is not None and literal_text(c) not in seen and len(options) < MAX_LISTED:
                seen.add(literal_text(c))
                options.append(c)
        return alt(options)
    return node


def _class_names(t: Tables, owner: str, which: str, node: Hole | Param) -> Node:
    """``cls.__name__`` / ``__qualname__`` / ``__module__`` of a factory method called on ``owner``: the owner's,
    the placeholder, then each package subclass's (which inherit the calling method), distinct; a class with
    more subclasses than ``MAX_NAMED`` allows stays the placeholder."""
    classes = (owner, *t.subclasses(owner))
    if owner not in t.classes or len(classes) > MAX_NAMED:
        return node  # a base of many classes (ndeflib's `Record`): any of them, the placeholder as before
    texts: list[str] = []
    for c in classes:
        module = _module_of(t, c)
        if module is None:
            continue
        qual = c[len(module) + 1:]
        text = module if which == "__module__" else qual if which == "__qualname__" else qual.rpartition(".")[2]
        if text not in texts:
            texts.append(text)
    if not texts:
        return node
    return alt([Lit(texts[0]), node, *(Lit(x) for x in texts[1:])])


def _exception_class(t: Tables, cls: str) -> bool:
    """Whether ``cls`` derives from a builtin exception (or its chain leaves the package unseen)."""
    chain = t.bases_chain(cls)
    return any(b in BUILTIN_EXCEPTIONS or (b not in t.classes and b not in NEUTRAL_BASES) for b in chain)


def _module_of(t: Tables, cls: str) -> str | None:
    """The package module that defines ``cls`` (a dotted class name): its longest prefix that is a module."""
    parts = cls.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if ".".join(parts[:i]) in t.modules:
            return ".".join(parts[:i])
    return None


def _constant(t: Tables, cls: str, name: str) -> Node | None:
    """The literal text of class attribute ``name`` of ``cls`` or its nearest base that sets it."""
    for k in (cls, *t.bases_chain(cls)):
        const = t.constants.get(f"{k}.{name}")
        if const is not None:
            return const if literal_text(const) is not None else None
    return None


def methods_of_raised(t: Tables, node: Node, raised: str, depth: int = 0) -> Node:
    """``self.<m>()`` calls of a base's ``__str__`` as the raised class's own ``m`` (or its nearest base's):
    Python looks a method up on the instance's class first (cyclopts' ``CycloptsError.__str__`` joins what
    ``self._segments()`` yields, which each subclass overrides)."""
    if depth > MAX_DEPTH:
        return node
    if (inner := _each_part(node, lambda n: methods_of_raised(t, n, raised, depth + 1))) is not None:
        return inner
    if isinstance(node, Ref) and node.is_call and not node.args and not node.kwargs:
        owner, _, name = node.target.rpartition(".")
        if owner != raised and owner in t.bases_chain(raised):  # a method of the instance's own class chain
            found = t.method(raised, name)
            if found is not None:
                return dataclasses.replace(node, target=found)
    return node
