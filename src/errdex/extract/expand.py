"""Phase 2: message IR → template variants, with every module's summary at hand.

``Expander`` resolves what phase 1 left open: a helper function's returned
message with the call's arguments substituted for its parameters, an
exception class's ``__init__``/``__str__`` message, a constant from another
module, and name aliases (``jax.errors.X`` → ``jax._src.errors.X``, ``tables.py``).  The
number of variants is capped (``MAX_TEMPLATES``) and recursion is bounded, so
a pathological helper costs little.  Substituting a call's arguments for the parameters is
``binding.py``'s.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass

from errdex.extract import owntexts, poppedopts
from errdex.extract.binding import Bind, as_text, bind_args, subst, substitute_param
from errdex.extract.calltexts import base_str, call_bind, format_template, passed_on, repr_shown
from errdex.extract.classattrs import attrs_of_caller, attrs_of_raised, methods_of_raised
from errdex.extract.classtables import PICKED
from errdex.extract.enummembers import ENUM_MEMBER
from errdex.extract.factories import bind_with_rest, is_by_name, spread
from errdex.extract.imports import BUILTIN_EXCEPTIONS, class_like
from errdex.extract.inheritedstr import inherited_str, property_binds
from errdex.extract.ir import (
    CLS_PARAM,
    DEFAULTED,
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
    exc_arg,
    literal_text,
)
from errdex.extract.kepttexts import KEPT, kept_node
from errdex.extract.keyedtables import ANY_KEY
from errdex.extract.kwkeys import named_keys
from errdex.extract.messages import CLASS_NAME
from errdex.extract.metaclass import constructed_class
from errdex.extract.ownformat import own_method_returns
from errdex.extract.shownself import SHOWN_SELF, self_texts
from errdex.extract.stdlib_texts import stdlib_text
from errdex.extract.summary import InitSummary
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


class Expander:
    def __init__(self, tables: Tables) -> None:
        self.t = tables
        self._lits: dict[str, tuple[Variant, ...]] = {}  # one expansion per literal text: they are immutable
        self._fields: FieldIndex | None = None  # named tuples' field texts, built on first use

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
            acc: tuple[Variant, ...] = ((),)
            for p in node.parts:
                pv = self.expand(p, bind, depth)
                acc = tuple(itertools.islice((a + b for a in acc for b in pv), MAX_TEMPLATES))
            return acc
        if isinstance(node, Alt):
            return capped([self.expand(o, bind, depth) for o in node.options])
        if isinstance(node, Dedent):
            if node.how.startswith(PERCENT_FIELDS):  # `self.errmsg % value`: a text with no `%` field raises
                return percent_variants(self.expand(node.inner, bind, depth), node.how)
            return tuple(transform(v, node.how) for v in self.expand(node.inner, bind, depth))
        if isinstance(node, Ref):
            return self._ref_text(node, bind, depth)
        raise TypeError(f"not a message node: {node!r}")  # pragma: no cover - the union is closed

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
                return self.expand(shown, {}, depth + 1)  # `self` of a plain class shown as text (``shownself``)
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
            if f is not None and f.returns:
                inner = call_bind(f, owner, node, bind)
                out: list[Variant] = []
                for r in f.returns:
                    # in text position, what it returns is the text: an unknown value there is unresolved
                    for v in self.expand(as_text(r) if node.text_position else r, inner, depth + 1):
                        if v not in out:
                            out.append(v)
                return tuple(out[:MAX_TEMPLATES])
        return ((Piece(Segment(expr=node.src), node.text_position),),)

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
        if isinstance(node, Ref) and node.callee == MEMBER and node.is_call:
            # `raise cls.LIMIT.rangeexception(...)`: each class the named tuple's field holds (``tuplefields``),
            # else a class this code cannot name, whose text follows the builtin rule
            held = [c for c in member_values(self.t, node.target) if isinstance(c, Ref)]
            if held:
                return [o for c in held for o in self.exception(
                    dataclasses.replace(node, target=c.target, callee=c.src), bind, depth + 1)]
            return [Outcome(node.src, node.src, self.builtin_message(node.src, [subst(a, bind) for a in node.args]))]
        if isinstance(node, Ref):
            canon = self.t.canonical(node.target)
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
            args, kwargs = list(spread_args), dict(spread_kw)
            variants = self.class_message(canon, args, kwargs, depth + 1)
            if args and self._init_built(canon) and all(opaque(v) for v in variants):
                variants = merged(variants, self.text(args[0], {}, depth + 1))
            return [Outcome(written, canon, variants, picked=node.item == PICKED)]
        if isinstance(node, Hole):
            return [Outcome(node.expr, node.expr, ((Piece(Segment(expr=node.expr), True),),))]
        return [Outcome("?", "?", self.text(node, bind, depth + 1))]

    def _param_class(self, node: Ref, bind: Bind, depth: int) -> list[Outcome]:
        """``raise exc_type(msg)`` with ``exc_type`` a parameter: the class the caller passes (or the
        default); unknown, the message follows the builtin rule (the first argument is the text)."""
        args, kwargs = spread(tuple(subst(a, bind) for a in node.args), tuple((k, subst(v, bind)) for k, v in node.kwargs))
        bound = bind.get(node.param)
        options = bound.options if isinstance(bound, Alt) else (bound,)
        if bound is not None and all(isinstance(o, Ref) and not o.is_call and not o.reraised for o in options):
            return [o for r in options if isinstance(r, Ref)
                    for o in self.exception(dataclasses.replace(r, is_call=True, src=node.src, callee=r.src,
                                                                args=args, kwargs=kwargs), {}, depth + 1)]
        if node.param == CLS_PARAM:  # a classmethod's `cls(...)` read on its own: the class defining it
            return self.exception(dataclasses.replace(node, param=""), bind, depth + 1)
        return [Outcome(node.param, node.param, self.builtin_message(node.param, list(args)))]

    def class_message(self, cls: str, args: list[Node], kwargs: dict[str, Node], depth: int,
                      raised: str | None = None, ran_init: bool = True,
                      raised_args: list[Node] | None = None) -> tuple[Variant, ...]:
        """The message ``cls(*args, **kwargs)`` carries, following ``__init__``/``__str__`` in the package.

        ``raised`` is the class actually instantiated (``cls`` is a base further up the
        chain when an ``__init__`` passes its text on): ``self.__class__.__name__`` is its name;
        ``raised_args`` the positional arguments of that raise (``BaseException.__new__`` keeps them).
        """
        raised = raised or cls
        kwargs = named_keys(kwargs, lambda d: self.t.constants.get(self.t.canonical(d)))  # `**{Keys.X: ...}`
        own: dict[str, Node] = {CLASS_NAME: Lit(raised.rsplit(".", 1)[-1])}
        chain = [cls, *self.t.bases_chain(cls)]
        for i, name in enumerate(chain):
            entry = self.t.classes.get(name)
            if entry is None:
                continue
            c = entry[0]
            if c.str_message is not None:
                init = next((self.t.classes[n][0].init for n in chain[i:] if n in self.t.classes
                             and self.t.classes[n][0].init is not None), None)
                bind = bind_args(init.params, args, kwargs, init.positional) if init is not None and ran_init else {}
                if init is not None and ran_init and init.passes_args and init.vararg:  # `super().__init__(*args)`:
                    bind = {**self._forwarded_binds(chain[i:], init, args, kwargs), **bind}  # the base's (``poppedopts``)
                if init is not None:  # `self.message` kept from a parameter the raised class overrides as a property
                    bind = {**property_binds(self.t, raised, init.params, set(bind)), **bind}
                if init is not None and init.generated:  # a decorated subclass's own fields: the same instance's
                    bind = {**{k: v for k, v in kwargs.items() if k.isidentifier()}, **bind}
                if init is not None:
                    bind = {**self._class_attr_defaults(init.params, bind, raised), **bind}
                # `self.args`: the constructor's arguments (BaseException.__new__ keeps them), unless an
                # __init__ passes others on with super().__init__(...)
                base_args = args if init is None or init.super_args is None or (init.passes_args and args) else [
                    subst(a, bind) for a in passed_on(init, bind)]
                texts = owntexts.RaisedTexts(self.t, raised)  # the raised class's template (``owntexts``)
                base_args = [self._own_attrs(subst(a, texts), raised) for a in base_args]
                own.update({exc_arg(j): a for j, a in enumerate(base_args[:8])})
                str_node = c.str_message
                if c.str_default is not None and ran_init and self._no_init_below(raised, name) and not poppedopts.passed(
                        c.str_options, len(args), set(kwargs),
                        any(not k.isidentifier() for k in kwargs) or any(poppedopts.is_pack(a) for a in args),
                        poppedopts.set_anywhere(self.t)):
                    str_node = c.str_default  # the options popped from `**kwargs` keep their defaults
                shown = self._own_attrs(base_str(own_method_returns(self.t, methods_of_raised(self.t, str_node, raised)),
                                                  base_args), raised)
                shown = subst(shown, texts)
                return self.text(shown, {**own, **bind}, depth)
            if c.init is not None and (base := inherited_str(self.t, chain, i)) is not None:
                # an `__init__` that never calls the base's: a base's `__str__` still prints (``inheritedstr``)
                return self.class_message(base, args, kwargs, depth + 1, raised, ran_init=False)
            if c.init is not None:
                rest = [b for b in chain[i + 1 :] if b in self.t.classes]
                base_init = self.t.classes[rest[0]][0].init if rest else None
                if c.init.generated and base_init is not None and base_init.generated \
                        and any(self.t.classes[b][0].str_message is not None for b in rest):
                    # a decorated subclass of a decorated base: one generated __init__ of every field (the
                    # base's first), all the instance's attributes; the base's __str__ prints them
                    return self.class_message(rest[0], args, kwargs, depth + 1, raised)
                if c.init.passes_args and c.init.vararg and any(self.t.classes[b][0].str_message is not None
                                                                for b in rest):
                    # `super().__init__(*args, **kwargs)` on to a base whose `__str__` prints: the surplus
                    # arguments go there (werkzeug's `BadRequestKeyError(key)` prints `HTTPException`'s text)
                    packs = bind_with_rest(c.init.params, c.init.vararg, c.init.varkw, args, kwargs,
                                           c.init.positional)
                    pack, kw = packs.get("*" + c.init.vararg), packs.get("**" + c.init.varkw)
                    return self.class_message(rest[0], list(pack.args) if isinstance(pack, Ref) else [],
                                              dict(kw.kwargs) if isinstance(kw, Ref) else {}, depth + 1, raised)
                # `a, b, c = args[:3]` then `super().__init__(f"...{b}...")`: that path, when the raise passes that many
                n = len(c.init.unpacked)
                unpacked = n > 0 and (len(args) == n or (c.init.unpacked_more and len(args) > n))
                if c.init.super_args is None and raised_args is not None:
                    # a base's `__init__(self, message)` keeping `self.message = message` and never calling
                    # BaseException.__init__: the instance's args, what it prints, are still the raise's own
                    # (rule-engine's `SymbolResolutionError(name)` handing "unknown symbol: ..." to `EngineError`)
                    return self.builtin_message(raised, raised_args)
                if c.init.super_args is None or (c.init.passes_args and args and not unpacked):
                    return self.builtin_message(name, args)
                # `super().__init__(message, *args)`: the surplus arguments, none when the raise passes none
                bind = {**own, **bind_with_rest(c.init.params, c.init.vararg, c.init.varkw, args, kwargs,
                                                c.init.positional)}
                if unpacked:
                    bind.update(zip(c.init.unpacked, args, strict=False))
                bind = {**self._class_attr_defaults(c.init.params, bind, raised), **bind}
                spread_args, spread_kwargs = spread(tuple(subst(a, bind) for a in passed_on(c.init, bind)),
                                                    tuple((k, subst(v, bind)) for k, v in c.init.super_kwargs))
                texts = owntexts.RaisedTexts(self.t, raised)  # `self.template.format(...)` of the raised class's
                new_args = [attrs_of_raised(self.t, subst(a, texts), raised) for a in spread_args]
                new_kwargs = dict(spread_kwargs)
                if rest:
                    return self.class_message(rest[0], new_args, new_kwargs, depth + 1, raised,
                                              raised_args=args if raised_args is None else raised_args)
                return self.builtin_message(name, new_args)
        group = next((b for b in chain if b.rsplit(".", 1)[-1] in _GROUPS), None)
        if group is not None and len(args) >= 2:
            # a subclass of ExceptionGroup prints as the group does, whatever else its __new__ takes
            # (cattrs' `IterableValidationError(msg, errors, cl)`: "msg (1 sub-exception)")
            return self.builtin_message(group, args[:2])
        std = next((t for b in chain if (t := stdlib_text(b, args, kwargs, as_text, repr_shown)) is not None), None)
        if std is not None:  # configparser.NoOptionError(option, section): its __init__'s text
            return self.expand(std, {}, 0)
        return self.builtin_message(cls, args)

    def _no_init_below(self, raised: str, cls: str) -> bool:
        """No class from ``raised`` up to (not including) ``cls`` has an ``__init__`` of its own (one could set
        an option ``cls.__init__`` pops, after it ran)."""
        for n in (raised, *self.t.bases_chain(raised)):
            if n == cls:
                return True
            e = self.t.classes.get(n)
            if e is not None and e[0].init is not None:
                return False
        return False

    def _forwarded_binds(self, chain: list[str], init: InitSummary, args: list[Node],
                         kwargs: dict[str, Node]) -> dict[str, Node]:
        """The parameters of the next base ``__init__`` after ``init`` (which hands its ``*args`` on whole) bound
        to the raise's arguments: what that base keeps on ``self`` (``self.message = message``) is theirs."""
        inits = [e[0].init for n in chain if (e := self.t.classes.get(n)) is not None and e[0].init is not None]
        at = next((j for j, x in enumerate(inits) if x is init), None)
        if at is None or at + 1 >= len(inits):
            return {}
        base = inits[at + 1]
        return bind_args(base.params, args, kwargs, base.positional)

    def _init_built(self, cls: str) -> bool:
        """Whether a package class's text is what its ``__init__`` hands its base (no ``__str__`` in the
        chain prints something else): ``Exception.__init__(self, self.code)`` of a value built from the
        arguments (schema's ``SchemaError``), not glom's ``__str__`` returning a text finalized later."""
        chain = [c for n in (cls, *self.t.bases_chain(cls)) if (e := self.t.classes.get(n)) is not None
                 for c in e[:1]]
        return bool(chain) and all(c.str_message is None for c in chain) and any(
            c.init is not None and c.init.super_args is not None and not c.init.passes_args for c in chain)

    def _class_attr_defaults(self, params: tuple[str, ...], bind: Bind, raised: str) -> dict[str, Node]:
        """The ``__init__`` parameters the raise left out that name a text attribute of the raised class
        (or of a base): ``def __init__(self, description=None)`` setting ``self.description`` only when
        given, so the class attribute is what ``__str__`` prints (werkzeug's ``NotFound().description``)."""
        out: dict[str, Node] = {}
        for p in params:
            if p in bind:
                continue
            const = next((c for k in (raised, *self.t.bases_chain(raised))
                          if (c := self.t.constants.get(f"{k}.{p}")) is not None), None)
            if const is not None and literal_text(const) is not None:
                out[p] = const
        return out

    def _own_attrs(self, node: Node, raised: str) -> Node:
        """What the raised class's own attributes make of ``self.__doc__`` (its docstring: dnspython's
        ``DNSException`` prints it when raised with no arguments) and of
        ``self.fmt.format(**kwargs)`` (a format string a class attribute holds, each field a value)."""
        if isinstance(node, Alt):
            return Alt(tuple(self._own_attrs(o, raised) for o in node.options))
        if isinstance(node, Ref) and node.is_call and (m := _ATTR_FORMAT.fullmatch(node.src)) is not None:
            for name in (raised, *self.t.bases_chain(raised)):
                fmt = literal_text(self.t.constants.get(f"{name}.{m[1]}") or Lit("\x00"))
                if fmt is not None and fmt != "\x00":
                    return format_template(fmt, node)
            return node
        if not isinstance(node, Hole):
            return node
        if node.expr == "self.__doc__":
            entry = self.t.classes.get(raised)
            doc = entry[0].docstring if entry is not None else ""
            return Lit(doc) if doc else node  # (indented below its first line before Python 3.13: the
            # matcher reads every run of whitespace as one space)
        return node

    def builtin_message(self, cls: str, args: list[Node]) -> tuple[Variant, ...]:
        """``str()`` of a builtin exception: no args → "", one → the text, several → the tuple."""
        if not args:
            return ((),)
        if len(args) == 1:
            if (cls == "KeyError" and cls in BUILTIN_EXCEPTIONS) or (
                    cls not in BUILTIN_EXCEPTIONS and "KeyError" in self.t.bases_chain(cls)):
                # KeyError.__str__ (a subclass's too, unless it prints otherwise) is the repr of the one key
                if literal_text(args[0]) is not None or isinstance(args[0], (Hole, Param)):
                    return self.expand(repr_shown(args[0]), {}, 0)
                return self._key_repr(args[0])
            return self.text(args[0])
        if cls in _OS_ERRORS and 2 <= len(args) <= 3:
            # OSError(errno, strerror[, filename]) prints "[Errno 22] text" (": 'name'" after a filename)
            parts: list[Node] = [Lit("[Errno "), args[0], Lit("] "), as_text(args[1])]
            return self.expand(Cat((*parts, Lit(": "), repr_shown(args[2])) if len(args) == 3 else tuple(parts)), {}, 0)
        if cls.rsplit(".", 1)[-1] in _GROUPS and len(args) == 2:
            # ExceptionGroup(msg, excs) prints "msg (2 sub-exceptions)", or "(1 sub-exception)"
            excs = args[1]
            shown = excs.expr if isinstance(excs, Hole) else (excs.shown or excs.name) if isinstance(excs, Param) \
                else "exceptions"
            count = Hole(f"len({shown})")
            return self.expand(Cat((as_text(args[0]), Lit(" ("), count, Lit(" sub-exception"),
                                    Alt((Lit(")"), Lit("s)"))))), {}, 0)
        acc: tuple[Variant, ...] = ((Piece(Segment(text="(")),),)
        for i, a in enumerate(args):
            sep: Variant = (Piece(Segment(text=", ")),) if i else ()
            acc = tuple(itertools.islice((v + sep + r for v in acc for r in self._repr_variants(a)), MAX_TEMPLATES))
        return tuple((*v, Piece(Segment(text=")"))) for v in acc)

    def _key_repr(self, node: Node) -> tuple[Variant, ...]:
        """``repr`` of a text only known expanded, as ``KeyError`` prints it: quoted with ``"`` when it holds
        a ``'`` and no ``"``, as when a value shown with ``!r`` inside is a string, a name mostly
        (``'global {} {!r} not found'.format(label, qname)``, xmlschema's ``XMLSchemaKeyError(msg)``)."""
        out: list[Variant] = []
        for v in self.text(node):
            lits = "".join(p.segment.text or "" for p in v if p.segment.is_literal)
            shown = any(not p.segment.is_literal and p.segment.conversion == "r" for p in v)
            q = '"' if ("'" in lits or shown) and '"' not in lits else "'"
            out.append((Piece(Segment(text=q)), *v, Piece(Segment(text=q))))
        return tuple(out)

    def _repr_variants(self, node: Node) -> tuple[Variant, ...]:
        """``repr`` of an argument inside the tuple an exception of several arguments prints; text that
        is only known expanded is quoted as Python does: with ``"`` when it holds a ``'`` and no ``"``."""
        if literal_text(node) is not None or isinstance(node, (Hole, Param)):
            return self.expand(repr_shown(node), {}, 0)
        out: list[Variant] = []
        for v in self.text(node):
            if len(v) == 1 and not v[0].segment.is_literal:
                # a value alone (`ValueError("month must be in 1..12", month)`, `month = operator.index(month)`):
                # its repr, quoted only if it is a string (persiantools prints `('...', 13)`, round 22)
                out.append((Piece(dataclasses.replace(v[0].segment, conversion="r")),))
                continue
            lits = "".join(p.segment.text or "" for p in v if p.segment.is_literal)
            q = '"' if "'" in lits and '"' not in lits else "'"
            out.append((Piece(Segment(text=q)), *v, Piece(Segment(text=q))))
        return tuple(out)


# --------------------------------------------------------------------------- substitution


_GROUPS = frozenset({"ExceptionGroup", "BaseExceptionGroup"})
_OS_ERRORS = frozenset({  # builtin OSError and its subclasses: their str() of (errno, strerror[, filename])
    "OSError", "IOError", "EnvironmentError", "BlockingIOError", "ChildProcessError", "ConnectionError",
    "BrokenPipeError", "ConnectionAbortedError", "ConnectionRefusedError", "ConnectionResetError",
    "FileExistsError", "FileNotFoundError", "InterruptedError", "IsADirectoryError", "NotADirectoryError",
    "PermissionError", "ProcessLookupError", "TimeoutError"})


_ATTR_FORMAT = re.compile(r"self\.(\w+)\.format\(.*\)")
