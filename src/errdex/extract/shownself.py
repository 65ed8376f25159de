"""``self`` shown as text in a method of a plain class: what the instance's ``__str__`` (else ``__repr__``) says.

hl7apy 1.3.5 raises ``ChildNotValid(name, self)`` in methods of ``Element`` and its subclasses; the
exception prints ``'{0} is not a valid child for {1}'.format(self.child, self.parent)``, and ``str()`` of the
parent is its class's ``__repr__``: ``Element``'s ``"<{0} {1}>".format(self.classname, self.name or '')``
(``<Segment QPD>``), ``SupportComplexDataType``'s ``'<{0} {1} ({2}) of type {3}>'`` (``<Field PID_3
(PATIENT_IDENTIFIER_LIST) of type CX>``).  Read as a bare ``{self}``, thirteen raises printed the same text
(a tie of 13).  ``self_ref`` marks ``self`` interpolated or passed in a method of a class that is not an
exception (``is_call=False``, callee ``SHOWN_SELF``; an exception's own ``self`` is its message, read
elsewhere); ``self_texts`` gives, in phase 2, the text of each class the method may run on (the class and
its subclasses), each by Python's lookup: ``__str__`` on the class's chain, else ``__repr__``.  A class
with a base outside the package before either (``str``, ``int``: rdflib's ``URIRef(str)`` prints itself), or
whose chain defines neither (``object``'s ``<pkg.C object at 0x...>``) or whose method returns no known
text stays a placeholder among the options; none known at all: None (the placeholder ``{self}``, as before).

A parameter annotated with a class of the package (xmlschema 4.3.2's ``def validate_choice(attr: Argument[T],
value, choices)``, ``msg.format(value, attr, tuple(choices))``) is shown the same way (``param_ref``): its class's
``__str__`` (``optional argument {self._name[1:]}``), not a bare ``{attr}`` that takes any text.  The parameter
rides along in ``args``: a caller that binds it shows what it passes, and a class whose text is not known leaves
the parameter as it was.
"""

from __future__ import annotations

from errdex.extract.ir import Hole, Node, Param, Ref, alt
from errdex.extract.tables import Tables

SHOWN_SELF = "<shown self>"
MAX_CLASSES = 8  # classes read (the class, then its subclasses)
NEUTRAL_BASES = frozenset({"object", "Generic", "ABC", "Protocol"})  # bases that define neither method


def self_ref(module: str, cls: str, src: str, text_position: bool) -> Ref:
    """``self`` in a method of ``cls``, shown as text."""
    owner = f"{module}.{cls}" if module else cls
    return Ref(target=owner, src=src, callee=SHOWN_SELF, is_call=False, text_position=text_position)


def _shown_method(t: Tables, cls: str) -> str | None:
    """The method ``str()`` of an instance of ``cls`` runs: ``__str__`` on the class's chain, else ``__repr__``;
    None when a base outside the package comes first that may define either (rdflib's ``URIRef(str)``: the
    text itself, not its class's ``__repr__``), or none is defined."""
    chain = (cls, *t.bases_chain(cls))
    for name in ("__str__", "__repr__"):
        for c in chain:
            if f"{c}.{name}" in t.functions:
                return f"{c}.{name}"
            if c not in t.classes and c.rsplit(".", 1)[-1] not in NEUTRAL_BASES:
                return None
    return None


def param_ref(cls: str, name: str, conversion: str | None, spec: str | None) -> Ref:
    """Parameter ``name`` annotated with class ``cls`` (resolved, dotted), shown as text."""
    return Ref(target=cls, src=name, callee=SHOWN_SELF, is_call=False, args=(Param(name, conversion, spec),))


def annotated(types: tuple[tuple[str, str], ...], name: str) -> str | None:
    """The class parameter ``name`` is annotated with, as written (the innermost function's: the last)."""
    return next((t for r, t in reversed(types) if r == name and t[:1] != "<"), None)


def self_texts(t: Tables, node: Ref) -> Node | None:
    """The texts ``str(self)`` may be in a method of ``node.target``: one call per distinct method found."""
    owner = t.canonical(node.target)
    if owner not in t.classes:
        return None
    options: list[Node] = []
    seen: set[str] = set()
    unknown = False
    for cls in (owner, *t.subclasses(owner))[:MAX_CLASSES]:
        key = _shown_method(t, cls)
        f = t.functions.get(key) if key is not None else None
        if key is None or f is None or not f.returns:
            unknown = True
            continue
        if key not in seen:
            seen.add(key)
            options.append(Ref(target=key, src=node.src, callee=key.rpartition(".")[2], text_position=node.text_position))
    if not options:
        return None
    if unknown:
        options.append(Hole(node.src))
    return alt(options)


def shown_names(t: Tables, node: Ref) -> list[str]:
    """The names ``self.__class__.__name__`` prints in a method of ``node.target``: the class's and its package
    subclasses' (abnf's ``Rule.__str__``, ``f"{self.__class__.__name__}('{self.name}')"``, shows ``Rule('x')`` or
    ``ABNFGrammarRule('x')``); a subclass outside the package prints another name (the placeholder stays too)."""
    owner = t.canonical(node.target)
    if owner not in t.classes:
        return []
    return list(dict.fromkeys(c.rsplit(".", 1)[-1] for c in (owner, *t.subclasses(owner))[:MAX_CLASSES]))
