"""A message template the exception class holds, each subclass overriding it: the raised class's own.

fs 2.4.16's ``FSError`` sets ``default_message = "Unspecified error"``; its ``__init__(self, msg=None)``
keeps ``self._msg = msg or self.default_message`` and its ``__str__`` returns
``self._msg.format(**self.__dict__)``.  Each subclass only overrides the class attribute
(``ResourceNotFound.default_message = "resource '{path}' not found"``) and, in an ``__init__`` of its
own, keeps the fields (``self.path = path``).  ``raise errors.ResourceNotFound(path)`` prints the
subclass's template, its fields filled from the instance's attributes.

Phase 1 reads ``self.<name>`` of such a class constant, in an exception class's ``__init__`` or
``__str__``, as a marker parameter (``own_text_param``) naming the constant of the class that defines
the method; phase 2 (``classmessage.class_message``) binds it to the raised class's constant (its override,
else the nearest base's: ``RaisedTexts``).  Read anywhere else (the class's text not printed through a
raise of a known class), the marker is the defining class's own text (``fallback``), as before.
``.format(**self.__dict__)`` / ``.format(**vars(self))`` of such a text has its ``{field}`` names as
placeholders (``self_mapping``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from errdex.extract.ir import Lit, Node, Param
from errdex.extract.tables import Tables

_PREFIX = "<own "
_METHODS = frozenset({"__init__", "__str__"})


def own_text_key(constant: str) -> str:
    """The marker parameter standing for ``constant`` (``pkg.errors.FSError.default_message``) read
    through ``self``: not an identifier, so it cannot clash with a real parameter."""
    return f"{_PREFIX}{constant}>"


def constant_of(name: str) -> str | None:
    """The dotted constant a marker parameter names, else None."""
    if name.startswith(_PREFIX) and name.endswith(">"):
        return name[len(_PREFIX):-1]
    return None


def own_text_param(module: str, class_qualname: str | None, method_qual: str, attr: str, bound: Node | None,
                   class_texts: Mapping[str, Node], text_position: bool) -> Param | None:
    """``self.<attr>`` in ``__init__``/``__str__`` of an exception class that defines ``<attr>`` as a text
    constant in its body (``bound`` is that very node, not a value ``__init__`` assigned): the marker."""
    if class_qualname is None or not isinstance(bound, Lit) or method_qual.rpartition(".")[2] not in _METHODS:
        return None
    if class_texts.get(f"{class_qualname}.{attr}") is not bound:
        return None
    dotted = f"{module}.{class_qualname}.{attr}" if module else f"{class_qualname}.{attr}"
    return Param(own_text_key(dotted), text_position=text_position, shown=f"self.{attr}")


def fallback(t: Tables, name: str) -> Node | None:
    """An unbound marker: the text of the constant it names (the class defining the method)."""
    constant = constant_of(name)
    return t.constants.get(constant) if constant is not None else None


def self_mapping(node: ast.expr) -> bool:
    """``self.__dict__`` or ``vars(self)``: the instance's attributes as a format's keyword fields."""
    if isinstance(node, ast.Attribute):
        return node.attr == "__dict__" and isinstance(node.value, ast.Name) and node.value.id == "self"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars"
            and len(node.args) == 1 and not node.keywords
            and isinstance(node.args[0], ast.Name) and node.args[0].id == "self")


class RaisedTexts(Mapping[str, Node]):
    """The bindings of every marker parameter for a raise of ``raised``: the constant of the same name
    the raised class sets, else its nearest base (the attribute lookup ``self.<name>`` does)."""

    def __init__(self, t: Tables, raised: str) -> None:
        self._t = t
        self._chain = (raised, *t.bases_chain(raised))

    def _lookup(self, key: str) -> Node | None:
        constant = constant_of(key)
        if constant is None:
            return None
        owner, _, attr = constant.rpartition(".")
        if owner not in self._chain:  # a method of a class the raised one does not inherit from
            return self._t.constants.get(constant)
        found = self._t.nearest(self._chain[0], lambda cls: self._t.constants.get(f"{cls}.{attr}"), upto=owner)
        return found if found is not None else self._t.constants.get(constant)

    def __getitem__(self, key: str) -> Node:
        found = self._lookup(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._lookup(key) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 1  # (never empty: ``binding.subst`` skips an empty binding)
