"""Texts a plain class keeps on ``self`` for its methods' messages, set by the class or a subclass.

num2words 0.5.14's ``Num2Word_Base.__init__`` sets ``self.errmsg_floatord = "Cannot treat float %s as
ordinal."``, a language's subclass sets its own wording in ``setup()`` (``lang_DE``) or as a class attribute
(``lang_AR``'s ``errmsg_toobig = "..."``), and ``verify_ordinal`` raises ``TypeError(self.errmsg_floatord %
value)``: read as ``{self.errmsg_floatord % value}`` until phase 1 knew no class's text (issue 17's
twenty-seventh round, 23 events).  The raise runs on an instance of the class or any subclass, so its text
is the one the class (or its nearest base) sets and each subclass's own:

- phase 1 (``kept_texts``) records, per class, each attribute of ``self`` named like a message (``err``,
  ``msg``, ``message``...) that its methods assign: its literal texts, or ``OPAQUE`` when some assignment is
  not a literal (a parameter, a call: the instance's own value then);
- a read ``self.<attr>`` in a method of a class that is no exception (``kept_ref``) is a ``Ref`` with
  ``callee == KEPT``, resolved in phase 2 (``kept_node``) over the class's bases and subclasses; an attribute
  no class sets, or one set to something else than literals somewhere, stays the placeholder it was.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from errdex.extract.imports import const_str
from errdex.extract.ir import Alt, Cat, Hole, Lit, Node, Param, Ref, alt
from errdex.extract.stmts import param_defaults

if TYPE_CHECKING:
    from errdex.extract.tables import Tables

INIT_KEPT = "<init>"  # ``Ref.callee`` of a text a base's ``__init__`` keeps on ``self`` (``init_ref``), and its key's infix
KEPT = "<self>"  # ``Ref.callee`` of a kept text, and the infix of its key among a module's constants
OPAQUE = Hole("<kept>", unresolved=True)  # an attribute some method sets to a value that is not a literal
MSG_NAME = re.compile(r"err|msg|message", re.I)  # an attribute named like a message (``errmsg_toobig``)
SITE_TEXTS = 8  # the texts a site keeps (``expand.MAX_TEMPLATES``)
_MAX_TEXTS = 24  # more distinct texts than this over a class's family: a placeholder (expand keeps the first 8)
_PER_CLASS = 4  # more literal texts than this in one class: a value chosen at run time, left a placeholder


def kept_key(cls: str, attr: str) -> str:
    """The key of a class's kept text among its module's constants (``Cls.<self>attr``)."""
    return f"{cls}.{KEPT}{attr}"


def message_assignments(node: ast.ClassDef) -> Iterator[tuple[str, ast.expr | None]]:
    """Each assignment to a ``self.<attr>`` named like a message in the class's own methods: the attribute and
    the value (None for ``+=``, an edited text, and for an annotated assignment, kept as not literal)."""
    return ((attr, value) for attr, value in self_assignments(node) if MSG_NAME.search(attr))


def self_assignments(node: ast.ClassDef) -> Iterator[tuple[str, ast.expr | None]]:
    """Each assignment to a ``self.<attr>`` in the class's own methods, as ``message_assignments``."""
    for fn in node.body:
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _assignments_in(fn)


def _assignments_in(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[str, ast.expr | None]]:
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            targets, value = list(n.targets), n.value
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            targets, value = [n.target], None
        else:
            continue
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                yield t.attr, value


def kept_texts(node: ast.ClassDef, cls: str,
               resolve: Callable[[str], str | None] | None = None) -> dict[str, Node]:
    """``Cls.<self>attr`` → the literal text(s) the class's methods assign to ``self.<attr>`` (an ``Alt`` of
    several), or ``OPAQUE``; only attributes named like a message.  An ``__init__`` parameter kept as it is
    whose default is text (``_defaulted``) counts as that default and a placeholder for a text passed."""
    found: dict[str, list[Node]] = {}
    defaulted = _defaulted(node, resolve)
    for attr, value in message_assignments(node):
        text = const_str(value)  # a literal, or literals joined with +
        if text is None and isinstance(value, ast.Name) and (d := defaulted.get(value.id)) is not None:
            found.setdefault(attr, []).extend(d)
            continue
        found.setdefault(attr, []).append(Lit(text) if text is not None else OPAQUE)
    out: dict[str, Node] = {}
    for attr, texts in found.items():
        texts = list(dict.fromkeys(texts))
        out[kept_key(cls, attr)] = OPAQUE if OPAQUE in texts or len(texts) > _PER_CLASS else alt(texts)
    return out


def _defaulted(node: ast.ClassDef, resolve: Callable[[str], str | None] | None) -> dict[str, list[Node]]:
    """The ``__init__`` parameters whose default is text: a literal, or a module constant (confection 1.3.4's
    ``SimpleFrozenDict.__init__(self, *args, error: str = DEFAULT_FROZEN_DICT_ERROR, **kwargs)`` keeping
    ``self.error = error`` for its methods' ``raise NotImplementedError(self.error)``) -> that text, then the
    parameter as a placeholder (a caller may pass another)."""
    init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    if init is None:
        return {}
    pairs = param_defaults(init)
    out: dict[str, list[Node]] = {}
    for arg, d in pairs:
        text = const_str(d)
        default: Node | None = Lit(text) if text else None
        if default is None and isinstance(d, ast.Name) and resolve is not None \
                and (target := resolve(d.id)) is not None:
            default = Ref(target=target, src=d.id, is_call=False)
        if default is not None:
            out[arg.arg] = [default, Hole(arg.arg)]
    return out


@dataclass(frozen=True, slots=True)
class KeptAttrs:
    """What phase 1 knows of a plain class's ``self`` attributes: those its methods assign (``kept_texts``),
    whether it has bases that may assign others, and the names its body binds (``msg = attrib(...)``:
    an attrs field, no kept text)."""

    own: frozenset[str]
    inherits: bool
    body_names: frozenset[str]
    # attributes kept from an `__init__` parameter whose default is text (``_defaulted``): read as kept texts
    # though the instance's binding of them is the parameter
    defaulted: frozenset[str] = frozenset()

    @classmethod
    def of(cls, node: ast.ClassDef, kept: dict[str, Node]) -> KeptAttrs:
        body = frozenset(t.id for s in node.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                         for t in (s.targets if isinstance(s, ast.Assign) else [s.target]) if isinstance(t, ast.Name))
        inherits = any(not (isinstance(b, ast.Name) and b.id == "object") for b in node.bases)
        defaulted = frozenset(k.rpartition(KEPT)[2] for k, v in kept.items() if isinstance(v, Alt)
                              and any(isinstance(o, Hole) and o != OPAQUE for o in v.options))
        return cls(frozenset(k.rpartition(KEPT)[2] for k in kept), inherits, body, defaulted)

    def may_keep(self, attr: str) -> bool:
        return attr in self.own or (self.inherits and attr not in self.body_names)


def kept_ref(module: str, cls: str, attr: str, src: str, text_position: bool,
             known: KeptAttrs | None = None) -> Ref | None:
    """``self.<attr>`` read in a method of ``cls`` (a class of no exception): a kept text to look up in
    phase 2, for an attribute named like a message that the class or a base may set (``known``)."""
    if not MSG_NAME.search(attr) or known is None or not known.may_keep(attr):
        return None
    owner = f"{module}.{cls}" if module else cls
    return Ref(target=f"{owner}.{KEPT}{attr}", src=src, callee=KEPT, is_call=False, text_position=text_position)


def constant_ref(module: str, cls: str, attr: str, src: str, text_position: bool, own: Lit) -> Ref:
    """``self.<attr>`` read in a method of ``cls`` (a class of no exception) whose body sets ``<attr>`` to
    the literal ``own``: a kept text as well, since a subclass may set its own (xmlschema 4.3.2's
    ``GlobalMaps.__getitem__`` raises ``XMLSchemaKeyError(msg)`` with ``msg = _('global {} {!r} not
    found').format(self.label, qname)``, and each subclass sets its ``label``: ``'attribute'``,
    ``'element'``...).  ``own`` is the text when the family's cannot be known (``kept_node`` None)."""
    owner = f"{module}.{cls}" if module else cls
    return Ref(target=f"{owner}.{KEPT}{attr}", src=src, callee=KEPT, args=(own,), is_call=False,
               text_position=text_position)


def kept_node(tables: Tables, target: str) -> Node | None:
    """The texts ``self.<attr>`` may hold in a method of the class: the one the class or its nearest base
    sets, and each subclass's own; None when no class sets it, when some class sets it to a value that is
    not a literal, or when the family holds too many texts."""
    owner, _, attr = target.partition(f".{KEPT}")
    if not attr or owner not in tables.classes:
        return None

    def own(cls: str) -> Node | None:
        return tables.constants.get(kept_key(cls, attr)) or tables.constants.get(f"{cls}.{attr}")

    inherited = tables.nearest(owner, own)
    texts = [n for n in (inherited, *(own(s) for s in tables.subclasses(owner))) if n is not None]
    if not texts or OPAQUE in texts:
        return None
    joined = alt(texts)
    if isinstance(joined, Alt) and len(joined.options) > _MAX_TEXTS:
        return None
    return first_options(joined)


def first_options(node: Node, most: int = SITE_TEXTS) -> Node:
    """An ``Alt`` cut to its first options: a site keeps eight texts, and expanding more would keep the
    first and the last few (``variants.capped``) where the first ones are the nearest (the class's own)."""
    return Alt(node.options[:most]) if isinstance(node, Alt) and len(node.options) > most else node


def init_key(cls: str, attr: str) -> str:
    """The key of a text a plain class's ``__init__`` keeps on ``self`` among its module's constants."""
    return f"{cls}.{INIT_KEPT}{attr}"


def once_assigned(kept: dict[str, Node], init: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, Node]:
    """What a plain class's ``__init__`` keeps on ``self`` (its last assignment to each attribute), but the attributes
    it assigns more than once: pydicom 3.0.2's ``Collection`` keeps ``self._name = name`` or ``f"CID{name[3:]}"`` by
    branch, and the last alone is a text the class does not always hold (its methods' ``self._name`` read as
    ``CID{name[3:]}``). An exception class keeps its last assignment: its texts were measured so."""
    counts = Counter(attr for attr, _ in _assignments_in(init))
    return {attr: value for attr, value in kept.items() if counts[attr] <= 1}


def init_texts(cls: str, kept: dict[str, Node], node: ast.ClassDef) -> dict[str, Node]:
    """``Cls.<init>attr`` → each text a plain class's ``__init__`` builds on ``self`` from literal text and values
    (beartype 0.23.1's ``_BeartypeValidatorFactoryABC.__init__``: ``self._getitem_exception_prefix = f'Beartype
    validator factory "{self._basename}" subscripted by '``), for its subclasses' methods in other modules
    (``init_ref``); the ``__init__``'s parameters as the values they are there. Only an attribute the class's
    methods assign once: ``kept`` holds an attribute's last assignment, and pydicom 3.0.2's ``Collection``
    keeps ``self._name = name`` or ``f"CID{name[3:]}"`` by branch (its ``self.name`` read as the second alone)."""
    counts = Counter(attr for attr, _ in self_assignments(node))
    out: dict[str, Node] = {}
    for attr, value in kept.items():
        if counts[attr] == 1 and isinstance(value, Cat) \
                and all(isinstance(p, (Lit, Param, Hole)) for p in value.parts) \
                and any(isinstance(p, Lit) and p.text.strip() for p in value.parts):
            out[init_key(cls, attr)] = Cat(tuple(
                Hole(p.shown or p.name, p.conversion, p.format_spec) if isinstance(p, Param) else p
                for p in value.parts))
    return out


def init_ref(module: str, cls: str, attr: str, src: str, text_position: bool) -> Ref:
    """``self.<attr>`` read in a method of ``cls`` (a plain class with bases) that neither the class's body nor its
    module's bases set: the text the nearest base's ``__init__`` keeps there, looked up in phase 2 (``init_node``),
    else the value it was."""
    owner = f"{module}.{cls}" if module else cls
    return Ref(target=f"{owner}.{INIT_KEPT}{attr}", src=src, callee=INIT_KEPT, is_call=False,
               text_position=text_position)


def init_node(tables: Tables, target: str) -> Node | None:
    """The text the nearest class of ``self``'s that keeps ``<attr>`` in its ``__init__`` builds (``init_texts``)."""
    owner, _, attr = target.partition(f".{INIT_KEPT}")
    if not attr or owner not in tables.classes:
        return None
    return tables.nearest(owner, lambda c: tables.constants.get(init_key(c, attr)))
