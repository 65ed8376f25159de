"""Phase 2: message IR → template variants, with every module's summary at hand.

``Expander`` resolves what phase 1 left open: a helper function's returned
message with the call's arguments substituted for its parameters, an
exception class's ``__init__``/``__str__`` message, a constant from another
module, and name aliases (``jax.errors.X`` → ``jax._src.errors.X``, ``tables.py``).  The
number of variants is capped (``MAX_TEMPLATES``) and recursion is bounded, so
a pathological helper costs little.  Substituting a call's arguments for the parameters is
``binding.py``'s; reading an exception class's own message (its ``__init__``/``__str__``) and a builtin
exception's ``str()`` is ``classmessage.py``'s, a part ``Expander`` inherits.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass

from errdex.extract import classdocs, owntexts
from errdex.extract.binding import Bind, as_text, subst, substitute_param
from errdex.extract.calltexts import call_bind
from errdex.extract.classattrs import attrs_of_caller
from errdex.extract.classmessage import ClassMessage
from errdex.extract.classtables import PICKED, common_base
from errdex.extract.enummembers import ENUM_MEMBER
from errdex.extract.factories import is_by_name, spread
from errdex.extract.formatted import formatted
from errdex.extract.imports import class_like
from errdex.extract.ir import (
    CLS_PARAM,
    DEFAULTED,
    FORMATTED,
    KEYED,
    PERCENT_FIELDS,
    TABLE_ITEM,
    Alt,
    Cat,
    Dedent,
    Hole,
    Lit,
    Node,
    Param,
    Piece,
    Ref,
    Variant,
    literal_text,
)
from errdex.extract.itemtypes import ITEM_OF
from errdex.extract.kepttexts import INIT_KEPT, KEPT, init_node, kept_node
from errdex.extract.keyedtables import ANY_KEY
from errdex.extract.metaclass import constructed_class
from errdex.extract.msgvalue import CLASS_NAME
from errdex.extract.returnedclass import RETURNED
from errdex.extract.shownself import SHOWN_SELF, self_texts, shown_names
from errdex.extract.tables import Tables
from errdex.extract.textops import fields_of, transform
from errdex.extract.tuplefields import FIELD, MEMBER, FieldIndex, member_texts, member_values
from errdex.extract.variants import (
    MAX_DEPTH,
    MAX_TEMPLATES,
    capped,
    flat_options,
    merged,
    opaque,
    percent_variants,
)
from errdex.model import Segment


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a raised expression turned out to be: a class and its message variants."""

    written: str
    resolved: str
    variants: tuple[Variant, ...]
    picked: bool = False  # one of the classes a table holds, picked by a key (``classtables``)


class Expander(ClassMessage):
    """Phase 2's resolver; an exception class's own message is ``ClassMessage``'s (``classmessage.py``)."""

    def __init__(self, tables: Tables) -> None:
        self.t = tables
        self._lits: dict[str, tuple[Variant, ...]] = {}  # one expansion per literal text: they are immutable
        self._fields: FieldIndex | None = None  # named tuples' field texts, built on first use
        self._shown_many = 0  # objects shown with more than one text so far (``shownself``)
        self._shown_cut = False  # re-reading a cut `Cat`: such objects are placeholders
        # the functions whose returns are being read: a call of one of them inside its own returns (dishka's
        # `get_name`, `f"{type(hint).__name__}({get_name(hint.value)})"`) is its value, not read again
        self._reading: set[str] = set()

    # ----------------------------------------------------------------- messages

    def text(self, node: Node, bind: Bind | None = None, depth: int = 0) -> tuple[Variant, ...]:
        """``node`` as message text: a lone unknown value is unresolved text."""
        return self.expand(as_text(node), bind or {}, depth)

    def expand(self, node: Node, bind: Bind, depth: int) -> tuple[Variant, ...]:
        if depth > MAX_DEPTH:
            return ((Piece(Segment(expr="..."), True),),)
        if isinstance(node, Lit):
            hit = self._lits.get(node.text)
            if hit is None:
                hit = self._lits[node.text] = ((Piece(Segment(text=node.text)),),) if node.text else ((),)
            return hit
        if isinstance(node, Hole):
            return ((Piece(Segment(expr=node.expr, conversion=node.conversion, format_spec=node.format_spec),
                           node.unresolved),),)
        if isinstance(node, Param):
            if node.name in bind:
                return self.expand(substitute_param(node, bind[node.name]), {}, depth + 1)
            if (own := owntexts.fallback(self.t, node.name)) is not None:  # the defining class's own text
                return self.expand(substitute_param(node, own), {}, depth + 1)
            return ((Piece(Segment(expr=node.shown or node.name, conversion=node.conversion,
                                   format_spec=node.format_spec), node.text_position or node.name[:1] == "*"),),)
        if isinstance(node, Cat):
            return self._cat(node, bind, depth)
        if isinstance(node, Alt):
            return capped([self.expand(o, bind, depth) for o in node.options])
        if isinstance(node, Dedent):
            if node.how.startswith(PERCENT_FIELDS):  # `self.errmsg % value`: a text with no `%` field raises
                return percent_variants(self.expand(node.inner, bind, depth), node.how)
            return tuple(transform(v, node.how) for v in self.expand(node.inner, bind, depth))
        if isinstance(node, Ref):
            return self._ref_text(node, bind, depth)
        raise TypeError(f"not a message node: {node!r}")  # pragma: no cover - the union is closed

    def _cat(self, node: Cat, bind: Bind, depth: int) -> tuple[Variant, ...]:
        """The product of the parts' variants, the first ``MAX_TEMPLATES``.  When that cuts it and a part shows an
        object with several texts (``shownself``), the parts are read again with such objects as placeholders:
        elementpath's ``'{2} at line {3}, column {4}: [{1}] {0}'.format(self.message, self.code, self.token,
        ...)`` of seven token texts times the message's would keep the first token text only, and one
        placeholder fits them all.  A product that fits is as before (the site's id hashes its first text)."""
        before = self._shown_many
        parts = [self.expand(p, bind, depth) for p in node.parts]
        if self._shown_many != before and not self._shown_cut and math.prod(len(pv) for pv in parts) > MAX_TEMPLATES:
            self._shown_cut = True
            try:
                parts = [self.expand(p, bind, depth) for p in node.parts]
            finally:
                self._shown_cut = False
        acc: tuple[Variant, ...] = ((),)
        for pv in parts:
            acc = tuple(itertools.islice((a + b for a in acc for b in pv), MAX_TEMPLATES))
        return acc

    def _ref_text(self, node: Ref, bind: Bind, depth: int) -> tuple[Variant, ...]:
        if node.callee == KEYED and not node.is_call:
            found = self._keyed(node, bind, depth)
            if found:
                return found
            return ((Piece(Segment(expr=node.src), node.text_position),),)
        if node.callee == TABLE_ITEM and not node.is_call and len(node.item) == 2:
            found = self._table_item(node, bind, depth)
            if found:
                return found
            return ((Piece(Segment(expr=node.src), node.text_position),),)
        if node.callee == FORMATTED and not node.is_call and node.args:
            return formatted(self.expand, node, bind, depth)  # `self.template.format(a, b)` (``formatted``)
        if node.callee == DEFAULTED and len(node.args) == 2:
            given, default = (subst(a, bind) for a in node.args)
            if literal_text(given) == "":  # None passed: the default
                return self.expand(default, {}, depth + 1)
            if isinstance(given, (Param, Hole)):  # not known here: either
                return self.expand(Alt((given, default)), {}, depth + 1)
            return self.expand(given, {}, depth + 1)  # text passed: that text
        if node.callee == KEPT and not node.is_call:
            kept = kept_node(self.t, node.target)  # `self.errmsg_x` of a plain class (``kepttexts``)
            if kept is not None:
                return self.expand(kept, {}, depth + 1)
            if node.args:  # a class constant whose family's texts are not known: the class's own
                return self.expand(node.args[0], {}, depth + 1)
            return ((Piece(Segment(expr=node.src), node.text_position),),)
        if node.callee == INIT_KEPT and not node.is_call:
            built = init_node(self.t, node.target)  # what a base's `__init__` builds on `self` (``kepttexts``)
            if built is not None:
                return self.expand(built, {}, depth + 1)
            return ((Piece(Segment(expr=node.src), node.text_position),),)
        if node.callee == FIELD and not node.is_call:
            if self._fields is None:
                self._fields = FieldIndex(self.t.constants, self.t.canonical)
            texts = self._fields.texts(node.target)  # `limit.rangeerrorstring` (``tuplefields``)
            if texts is not None:
                return self.expand(texts, {}, depth + 1)
            return ((Piece(Segment(expr=node.src), node.text_position),),)
        if node.callee == MEMBER and not node.is_call:
            texts = member_texts(self.t, node.target)  # `cls.LIMIT.rangeerrorstring` (``tuplefields``)
            if texts is not None:
                return self.expand(texts, {}, depth + 1)
            return ((Piece(Segment(expr=node.src), node.text_position),),)
        if node.callee == SHOWN_SELF and not node.is_call:
            passed = subst(node.args[0], bind) if node.args else None
            if passed is not None and not isinstance(passed, Param):
                return self.expand(passed, {}, depth + 1)  # an annotated parameter the caller passed: what it passed
            if (shown := self_texts(self.t, node)) is not None:
                read = self._shown(shown, node, depth)  # `self` of a plain class shown as text (``shownself``)
                if len(read) > 1:
                    if self._shown_cut:  # too many beside the rest (``_cat``): a placeholder
                        return self.expand(passed if passed is not None else Hole(node.src), {}, depth + 1)
                    self._shown_many += 1
                return read
            if passed is not None:
                return self.expand(passed, {}, depth + 1)  # ... its class's text unknown: the parameter
        canon = self.t.canonical(node.target)
        if not node.is_call:
            const = self.t.constants.get(canon)
            if isinstance(const, Ref) and const.callee == ENUM_MEMBER:  # `str(Reason.X)`: its class's __str__
                if self._prints(const.target):
                    return self.class_message(self.t.canonical(const.target), list(const.args), {}, depth + 1)
            elif const is not None:
                return self.expand(const, {}, depth + 1)
        else:
            f, owner = self.t.function(canon)
            if f is not None and f.returns and canon not in self._reading:
                inner = call_bind(f, owner, node, bind)
                out: list[Variant] = []
                self._reading.add(canon)
                try:
                    for r in f.returns:
                        # in text position, what it returns is the text: an unknown value there is unresolved
                        for v in self.expand(as_text(r) if node.text_position else r, inner, depth + 1):
                            if v not in out:
                                out.append(v)
                finally:
                    self._reading.discard(canon)
                return tuple(out[:MAX_TEMPLATES])
        return ((Piece(Segment(expr=node.src), node.text_position),),)

    def _shown(self, shown: Node, node: Ref, depth: int) -> tuple[Variant, ...]:
        """The texts ``str(self)`` may be: each class's name bound to ``self.__class__.__name__`` in turn (its
        package subclasses' too), then the placeholder as written (a subclass outside the package)."""
        out: list[Variant] = []
        for bind in [*({CLASS_NAME: Lit(n)} for n in shown_names(self.t, node)), {}]:
            for v in self.expand(shown, bind, depth + 1):
                if v not in out:
                    out.append(v)
        return tuple(out[:MAX_TEMPLATES])

    def _prints(self, cls: str) -> bool:
        """Whether a class of the package (or a package base) has a ``__str__`` (``enummembers``)."""
        canon = self.t.canonical(cls)
        return any((e := self.t.classes.get(n)) is not None and e[0].str_message is not None
                   for n in (canon, *self.t.bases_chain(canon)))

    def _table_item(self, node: Ref, bind: Bind, depth: int) -> tuple[Variant, ...]:
        """``TABLE[key][i]`` of a module-level table of tuples (``keyedtables``): the entry's item for each
        literal key that reaches it (the caller's code), else the table's first texts at that position."""
        out: list[Variant] = []
        for e in self._table_entries(node, bind):
            for v in self.expand(e, {}, depth + 1):
                if v not in out:
                    out.append(v)
        return tuple(out[:MAX_TEMPLATES])

    def _table_entries(self, node: Ref, bind: Bind) -> list[Node]:
        """The entries ``node`` (``TABLE[key][i]``) reads: one per literal key reaching it, else ``TABLE[*][i]``."""
        pos = literal_text(node.item[1])
        keys = [k for o in flat_options(node.item[0], bind) if (k := literal_text(o)) is not None]
        canon = self.t.canonical(node.target)
        if not keys:
            anykey = self.t.constants.get(f"{canon}[{ANY_KEY}][{pos}]")
            return [anykey] if anykey is not None else []
        return [e for k in dict.fromkeys(keys) if (e := self.t.constants.get(f"{canon}[{k}][{pos}]")) is not None]

    def _keyed(self, node: Ref, bind: Bind, depth: int) -> tuple[Variant, ...]:
        """``self.error_messages[key]``: the entry for ``key`` of each class the method may run on
        (the class it was called on, or its own, and their subclasses), each looked up through that
        class's bases as Python's attribute lookup does (a subclass's table overrides its base's).
        The tables are ``name`` or ``default_name`` (marshmallow and Django merge
        ``default_error_messages`` into ``self.error_messages``), and ``name`` for a private ``_name``."""
        key = literal_text(subst(node.args[0], bind)) if node.args else None
        if key is None:
            return ()
        where, _, table = node.target.rpartition(".")
        owner_node = subst(node.args[1], bind) if len(node.args) > 1 else None
        owner = self.t.canonical(owner_node.target) if isinstance(owner_node, Ref) else self.t.canonical(where)
        # `_messages`, a private copy a metaclass merges from each class's `messages` (formencode's), is read too
        names = dict.fromkeys((table, table.removeprefix("default_"), f"default_{table.removeprefix('default_')}",
                               table.lstrip("_")))
        fmt = dict(node.kwargs).get("format")
        formatted = literal_text(fmt) if fmt is not None else None  # `.format(**kwargs)`: the mapping's name
        out: list[Variant] = []
        for cls in (owner, *self.t.subclasses(owner)):
            for k in (cls, *self.t.bases_chain(cls)):
                entry = next((c for n in names if (c := self.t.constants.get(f"{k}.{n}[{key}]")) is not None), None)
                if entry is not None:
                    for v in self.expand(entry, {}, depth + 1):
                        v = fields_of(v, formatted) if formatted is not None else v
                        if v not in out:
                            out.append(v)
                    break
        if out and any(self.t.constants.get(f"{k}.{n}[*]") is not None
                       for k in (owner, *self.t.bases_chain(owner)) for n in names):
            # `self.messages.update(messages)`: an entry may be the caller's text (walker._opened_table)
            out.append((Piece(Segment(expr=node.src), True),))
        return tuple(out[:MAX_TEMPLATES])

    # ----------------------------------------------------------------- exceptions

    def exception(self, node: Node, bind: Bind | None = None, depth: int = 0) -> list[Outcome]:
        bind = bind or {}
        if depth > MAX_DEPTH:
            return [Outcome("?", "?", ((),))]
        if isinstance(node, Alt):
            return [o for opt in node.options for o in self.exception(opt, bind, depth)]
        if isinstance(node, Param):
            if node.name in bind:
                return self.exception(bind[node.name], {}, depth + 1)
            return [Outcome(node.name, node.name, ((Piece(Segment(expr=node.name), True),),))]
        if isinstance(node, Ref) and node.param:
            return self._param_class(node, bind, depth)
        if isinstance(node, Ref) and node.callee == TABLE_ITEM and node.is_call and len(node.item) == 2:
            # `error_class(message, pcode, token)` after `error_class, _ = TABLE[code]`: each class the
            # caller's key picks (``keyedtables``), called with these arguments
            classes = [e for e in self._table_entries(node, bind) for e in (e.options if isinstance(e, Alt) else (e,))
                       if isinstance(e, Ref) and not e.is_call]
            if classes:
                return [o for c in classes for o in self.exception(
                    dataclasses.replace(c, is_call=True, src=node.src, args=node.args, kwargs=node.kwargs), bind, depth + 1)]
            return [Outcome(node.src, node.src, ((Piece(Segment(expr=node.src), True),),))]
        if isinstance(node, Ref) and node.callee == classdocs.SIBLINGS and node.is_call:
            # `exc = errmap[code]` (the caller's class) beside `exc = RarUserBreak`, the text `exc.__doc__`:
            # each other subclass of the named classes' common base, by its docstring (``classdocs``)
            known = [self.t.canonical(k.target) for k in node.item if isinstance(k, Ref)]
            kin = classdocs.siblings(known, self.t.subclasses,
                                     lambda cs: b if (b := common_base(cs, self.t.bases_chain)) in self.t.classes else None)
            return [o for c in kin for o in self.exception(
                dataclasses.replace(node, target=c, callee=c.rpartition(".")[2], item=PICKED), bind, depth + 1)]
        if isinstance(node, Ref) and node.callee == MEMBER and node.is_call:
            # `raise cls.LIMIT.rangeexception(...)`: each class the named tuple's field holds (``tuplefields``),
            # else a class this code cannot name, whose text follows the builtin rule
            held = [c for c in member_values(self.t, node.target) if isinstance(c, Ref)]
            if held:
                return [o for c in held for o in self.exception(
                    dataclasses.replace(node, target=c.target, callee=c.src), bind, depth + 1)]
            return [Outcome(node.src, node.src, self.builtin_message(node.src, [subst(a, bind) for a in node.args]))]
        if isinstance(node, Ref) and node.callee == RETURNED:
            # `raise engine.getCompilerError()(msg)`: a class this code cannot name (``returnedclass``), filed
            # under the inner call as written; its text follows the builtin rule
            return [Outcome(node.target, node.target, self.builtin_message(node.target, [subst(a, bind) for a in node.args]))]
        if isinstance(node, Ref) and node.callee == ITEM_OF:
            # `raise error_handler.schema_errors[0]`: the one class the package annotates that attribute's items
            # with (``itemtypes``), its text the item's own; else a class this code cannot name
            annotated = self.t.item_types.get(node.target[len(ITEM_OF):], set())
            cls = self.t.canonical(next(iter(annotated))) if len(annotated) == 1 else node.src
            return [Outcome(cls, cls, ((Piece(Segment(expr=node.src), True),),))]
        if isinstance(node, Ref):
            canon = self.t.canonical(node.target)
            if node.is_call and canon in self.t.modules:  # `github.GithubException(...)`: the class the package binds
                canon = self.t.rebound(canon)
            written = node.callee or node.src
            if is_by_name(canon):  # self._src.parse_error(...): the one method of that name, else as written
                if node.is_call and written.split(".", 1)[0] not in ("self", "cls") \
                        and not self.t.names_a_function(canon):
                    # `raise tokens.error(msg)` / `raise limit.rangeexception(msg)`, no function of that name:
                    # a class the value holds, the caller's; its text follows the builtin rule (not
                    # `self.exception_class(...)`: the instance's own, `ANY_CLASS` rewraps and the like)
                    return [Outcome(written, written, self.builtin_message(written, [subst(a, bind) for a in node.args]))]
                canon = self.t.by_name(canon) or self.t.canonical(written)
            if not node.is_call:
                if node.reraised and node.edited is not None:  # the text its handler gave it (``edited.py``)
                    return [Outcome(written, canon, self.text(node.edited, bind, depth + 1))]
                if node.reraised:
                    return [Outcome(written, canon, ((Piece(Segment(expr=node.reraised), True),),))]
                if canon in self.t.classes:  # `raise FrozenError` is `raise FrozenError()`: its __init__ speaks
                    return [Outcome(written, canon, self.class_message(canon, [], {}, depth + 1))]
                return [Outcome(written, canon, ((),))]
            f, owner = self.t.function(canon)
            if f is not None and canon not in self.t.classes and f.returns:
                inner = call_bind(f, owner, node, bind)
                returns = [attrs_of_caller(self.t, r, owner) for r in f.returns] if owner is not None else f.returns
                return [o for r in returns for o in self.exception(r, inner, depth + 1)]
            if node.is_call and (built := constructed_class(self.t, canon)) is not None:
                canon = built  # `Cancelled._create(...)`: its metaclass's method builds the class (``metaclass.py``)
            owner = canon.rpartition(".")[0]
            root = written.split(".", 1)[0]
            if f is None and owner in self.t.classes and canon not in self.t.classes \
                    and root[:1].islower() and root not in ("self", "cls"):  # an instance, not the class
                # `raise tokens.error(msg)`, `tokens: Tokens` with no method `error`: a class the instance
                # holds (`self.error = error`), the caller's; its text follows the builtin rule (not
                # `GlomError.wrap(e)`, a class's own method the summaries skipped)
                return [Outcome(written, written, self.builtin_message(written, [subst(a, bind) for a in node.args]))]
            if f is None and owner in self.t.classes and canon not in self.t.classes and root in ("self", "cls") \
                    and written.count(".") == 1 and class_like(written.rpartition(".")[2].lstrip("_")):
                # `raise self._Error("no appropriate stream found")`, each subclass setting `_Error = ...HeaderError`
                # (mutagen's `OggFileType`): a class held in a class attribute, whose text follows the builtin rule
                return [Outcome(written, written, self.builtin_message(written, [subst(a, bind) for a in node.args]))]
            if canon not in self.t.classes and not class_like(canon):
                # err = make_error(...) / pickle.loads(...): some exception we cannot name
                return [Outcome(node.src, node.src, ((Piece(Segment(expr=node.src), True),),))]
            spread_args, spread_kw = spread(tuple(subst(a, bind) for a in node.args),  # forwarded `*args` too
                                            tuple((k, subst(v, bind)) for k, v in node.kwargs))
            if (var := classdocs.called_local(node.src)) and var != written \
                    and (doc := self._docstring(canon)):  # `raise exc(msg)`, msg reading `exc.__doc__`
                spread_args = tuple(classdocs.with_doc(a, var, doc) for a in spread_args)
                spread_kw = tuple((k, classdocs.with_doc(v, var, doc)) for k, v in spread_kw)
            args, kwargs = list(spread_args), dict(spread_kw)
            variants = self.class_message(canon, args, kwargs, depth + 1)
            if args and self._init_built(canon) and all(opaque(v) for v in variants):
                variants = merged(variants, self.text(args[0], {}, depth + 1))
            return [Outcome(written, canon, variants, picked=node.item == PICKED)]
        if isinstance(node, Hole):
            return [Outcome(node.expr, node.expr, ((Piece(Segment(expr=node.expr), True),),))]
        return [Outcome("?", "?", self.text(node, bind, depth + 1))]

    def _docstring(self, cls: str) -> str:
        """The package's class's own docstring ("" when none or not the package's)."""
        entry = self.t.classes.get(cls)
        return entry[0].docstring if entry is not None else ""

    def _param_class(self, node: Ref, bind: Bind, depth: int) -> list[Outcome]:
        """``raise exc_type(msg)`` with ``exc_type`` a parameter: the class the caller passes (or the
        default); unknown, the message follows the builtin rule (the first argument is the text)."""
        args, kwargs = spread(tuple(subst(a, bind) for a in node.args), tuple((k, subst(v, bind)) for k, v in node.kwargs))
        bound = bind.get(node.param)
        if bound is None and node.item:  # `kind = kind or SchemaError`, the caller passing none: the default
            bound = node.item[0]
        options = bound.options if isinstance(bound, Alt) else (bound,)
        if bound is not None and all(isinstance(o, Ref) and not o.is_call and not o.reraised for o in options):
            return [o for r in options if isinstance(r, Ref)
                    for o in self.exception(dataclasses.replace(r, is_call=True, src=node.src, callee=r.src,
                                                                args=args, kwargs=kwargs), {}, depth + 1)]
        if node.param == CLS_PARAM:  # a classmethod's `cls(...)` read on its own: the class defining it
            return self.exception(dataclasses.replace(node, param=""), bind, depth + 1)
        return [Outcome(node.param, node.param, self.builtin_message(node.param, list(args)))]
