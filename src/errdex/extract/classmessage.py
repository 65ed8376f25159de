"""An exception class's own message: what ``cls(*args, **kwargs)`` prints, read through the package's
``__init__``/``__str__`` chain (``ClassMessage.class_message``), and ``str()`` of a builtin exception
(``builtin_message``).

Its own module because it is one responsibility of phase 2 with its own helpers (the arguments an
``__init__`` forwards, class-attribute defaults, the raised class's own attributes, ``repr`` quoting);
``Expander`` (``expand.py``) inherits it and supplies ``expand``/``text`` and the tables, which
``Expanding`` declares for it, as ``msgbase.Builder`` does for the parts of ``MessageBuilder``.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Protocol

from errdex.extract import owntexts, packitems, poppedopts
from errdex.extract.adapters.pydanticcore import custom_error_text
from errdex.extract.binding import Bind, as_text, bind_args, subst
from errdex.extract.calltexts import base_str, format_template, passed_on, repr_shown
from errdex.extract.classattrs import attrs_of_raised, methods_of_raised
from errdex.extract.factories import bind_with_rest, spread
from errdex.extract.imports import BUILTIN_EXCEPTIONS
from errdex.extract.inheritedstr import inherited_str, property_binds
from errdex.extract.instancetext import same_instance
from errdex.extract.ir import (
    SHOWN_REPR,
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
from errdex.extract.kwkeys import named_keys
from errdex.extract.messages import CLASS_NAME
from errdex.extract.ownformat import own_method_returns
from errdex.extract.renderedtext import rendered_text
from errdex.extract.stdlib_texts import OS_ERRORS, stdlib_text, unicode_error_text
from errdex.extract.summary import InitSummary
from errdex.extract.tables import Tables
from errdex.extract.variants import MAX_TEMPLATES
from errdex.extract.wrappedattrs import wrapped_attrs
from errdex.model import Segment


class Expanding(Protocol):
    """The expander as this part sees it (``expand.Expander`` implements every member)."""

    t: Tables

    def text(self, node: Node, bind: Bind | None = None, depth: int = 0) -> tuple[Variant, ...]: ...
    def expand(self, node: Node, bind: Bind, depth: int) -> tuple[Variant, ...]: ...


class ClassMessage(Expanding):
    """``Expander``'s part that reads an exception class's message (see the module docstring)."""

    def class_message(self, cls: str, args: list[Node], kwargs: dict[str, Node], depth: int,
                      raised: str | None = None, ran_init: bool = True,
                      raised_args: list[Node] | None = None) -> tuple[Variant, ...]:
        """The message ``cls(*args, **kwargs)`` carries, following ``__init__``/``__str__`` in the package.

        ``raised`` is the class actually instantiated (``cls`` is a base further up the
        chain when an ``__init__`` passes its text on): ``self.__class__.__name__`` is its name;
        ``raised_args`` the positional arguments of that raise (``BaseException.__new__`` keeps them).
        """
        raised = raised or cls
        kwargs = named_keys(kwargs, self.t.constant)  # `**{Keys.X: ...}`
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
                    bind = {**self._class_attr_defaults(init.params, bind, raised, init.defaults), **bind}
                # `self.args`: the constructor's arguments (BaseException.__new__ keeps them), unless an
                # __init__ passes others on with super().__init__(...)
                base_args = args if init is None or init.super_args is None or (init.passes_args and args) else [
                    subst(same_instance(self.t, a, bind, raised), bind) for a in passed_on(init, bind)]
                texts = owntexts.RaisedTexts(self.t, raised)  # the raised class's template (``owntexts``)
                base_args = [self._own_attrs(subst(a, texts), raised) for a in base_args]
                own.update({exc_arg(j): a for j, a in enumerate(base_args[:8])})
                str_node = c.str_message
                if c.str_default is not None and ran_init and self._no_init_below(raised, name) and not poppedopts.passed(
                        c.str_options, len(args), set(kwargs),
                        any(not k.isidentifier() for k in kwargs) or any(poppedopts.is_pack(a) for a in args),
                        poppedopts.set_anywhere(self.t)):
                    str_node = c.str_default  # the options popped from `**kwargs` keep their defaults
                if _repr_self(str_node) and not any(f"{n}.__repr__" in self.t.functions for n in (raised, *chain)):
                    # `return repr(self)` (tlslite's `TLSError`): `BaseException.__repr__`, `Name('text')`
                    return self.exception_repr(raised, base_args)
                shown = self._own_attrs(base_str(rendered_text(self.t, own_method_returns(
                    self.t, methods_of_raised(self.t, str_node, raised)), raised),
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
                bind = {**self._class_attr_defaults(c.init.params, bind, raised, c.init.defaults), **bind}
                passed = packitems.passed_args(c.init, bind)  # `args[0]` read, `args[1:]` passed on
                spread_args, spread_kwargs = spread(tuple(subst(same_instance(self.t, a, bind, raised), bind)
                                                          for a in passed),  # `self.message` (``instancetext``)
                                                    tuple((k, subst(v, bind)) for k, v in c.init.super_kwargs))
                texts = owntexts.RaisedTexts(self.t, raised)  # `self.template.format(...)` of the raised class's
                new_args = [wrapped_attrs(self.t, attrs_of_raised(self.t, subst(a, texts), raised), bind, name)
                            for a in spread_args]  # `self.error.type` of the error object passed (``wrappedattrs``)
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
        if std is None:  # pydantic-core's PydanticCustomError(error_type, message_template, context): the template
            std = next((t for b in chain if (t := custom_error_text(b, args, kwargs)) is not None), None)
        if std is not None:  # configparser.NoOptionError(option, section): its __init__'s text
            return self.expand(std, {}, 0)
        if len(args) > 1 and self._foreign(chain):
            # another package's class errdex cannot read, handed several arguments (SQLObject's `raise
            # validators.Invalid("expected a str ... %r instead" % (...), value, state)`): formencode's
            # `Invalid.__str__` prints the message alone, a plain subclass of Exception the tuple; both
            # readings, the tuple first
            both = (*self.builtin_message(cls, args), *self.text(args[0]))
            return tuple(itertools.islice(dict.fromkeys(both), MAX_TEMPLATES))
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

    def _class_attr_defaults(self, params: tuple[str, ...], bind: Bind, raised: str,
                             defaults: tuple[tuple[str, Node], ...] = ()) -> dict[str, Node]:
        """The ``__init__`` parameters the raise left out that name a text attribute of the raised class
        (or of a base): ``def __init__(self, description=None)`` setting ``self.description`` only when
        given, so the class attribute is what ``__str__`` prints (werkzeug's ``NotFound().description``);
        else their literal text default (``defaults``): confection's ``ConfigValidationError(desc=desc)``
        prints its ``title="Config validation error"`` above the description."""
        out: dict[str, Node] = {}
        own = dict(defaults)
        for p in params:
            if p in bind:
                continue
            const = next((c for k in (raised, *self.t.bases_chain(raised))
                          if (c := self.t.constants.get(f"{k}.{p}")) is not None), None)
            if const is not None and literal_text(const) is not None:
                out[p] = const
            elif p in own:
                out[p] = own[p]
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
                if _own_repr(args[0]):
                    return self.expand(args[0], {}, 0)  # `KeyError((name, 2))` prints the tuple: `('x', 2)`
                if literal_text(args[0]) is not None or isinstance(args[0], (Hole, Param)):
                    return self.expand(repr_shown(args[0]), {}, 0)
                return self._key_repr(args[0])
            return self.text(args[0])
        base = self._builtin_base(cls)  # a package's subclass prints as its builtin base (no `__str__` of its own)
        if base in OS_ERRORS and 2 <= len(args) <= 3:
            # OSError(errno, strerror[, filename]) prints "[Errno 22] text" (": 'name'" after a filename)
            parts: list[Node] = [Lit("[Errno "), args[0], Lit("] "), as_text(args[1])]
            return self.expand(Cat((*parts, Lit(": "), repr_shown(args[2])) if len(args) == 3 else tuple(parts)), {}, 0)
        if (unicode := unicode_error_text(base, args, as_text)) is not None:
            return self.expand(unicode, {}, 0)  # "'utf-8' codec can't decode byte 0xff in position 0: ..."
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

    def exception_repr(self, raised: str, args: list[Node]) -> tuple[Variant, ...]:
        """``repr`` of an exception whose class keeps ``BaseException.__repr__``: the raised class's name, then
        the repr of each argument in parentheses (``TLSInternalError('Public_key must be 64 bytes long')``)."""
        acc: tuple[Variant, ...] = ((Piece(Segment(text=raised.rsplit(".", 1)[-1] + "(")),),)
        for i, a in enumerate(args):
            sep: Variant = (Piece(Segment(text=", ")),) if i else ()
            acc = tuple(itertools.islice((v + sep + r for v in acc for r in self._repr_variants(a)), MAX_TEMPLATES))
        return tuple((*v, Piece(Segment(text=")"))) for v in acc)

    def _foreign(self, chain: list[str]) -> bool:
        """Whether the class of ``chain`` (it, then its bases) comes from outside the package, no builtin
        exception among its known bases: what its ``__str__`` prints is not read."""
        return not self._builtin_base(chain[0]) and any(b not in self.t.classes for b in chain)

    def _builtin_base(self, cls: str) -> str:
        """``cls`` when it is a builtin exception, else the first builtin of its bases (``""`` when none
        is known): ``str()`` of a package's ``class URLDecodeError(UnicodeDecodeError): pass`` is the
        builtin's."""
        if cls in BUILTIN_EXCEPTIONS:
            return cls
        return next((b for b in self.t.bases_chain(cls) if b in BUILTIN_EXCEPTIONS), "")

    def _key_repr(self, node: Node) -> tuple[Variant, ...]:
        """``repr`` of a text only known expanded, as ``KeyError`` prints it: quoted with ``"`` when it holds
        a ``'`` and no ``"``, as when a value shown with ``!r`` inside is a string, a name mostly
        (``'global {} {!r} not found'.format(label, qname)``, xmlschema's ``XMLSchemaKeyError(msg)``)."""
        out: list[Variant] = []
        for v in self.text(node):
            lits = "".join(p.segment.text or "" for p in v if p.segment.is_literal)
            shown = any(not p.segment.is_literal and p.segment.conversion == "r" for p in v)
            q = '"' if ("'" in lits or shown) and '"' not in lits else "'"
            # repr escapes a backslash, a newline, a tab (hdmf's ``KeyError('\\n'.join([...]))`` prints
            # ``"row data keys ...\\nmissing 1 category keys: {'test1'}"``): a literal argument's template is
            # ``repr(text)`` already (``calltexts.repr_shown``), and the match stage keeps them escaped too
            inner = tuple(Piece(dataclasses.replace(p.segment, text=_repr_escaped(p.segment.text or "")))
                          if p.segment.is_literal else p for p in v)
            out.append((Piece(Segment(text=q)), *inner, Piece(Segment(text=q))))
        return tuple(out)

    def _repr_variants(self, node: Node) -> tuple[Variant, ...]:
        """``repr`` of an argument inside the tuple an exception of several arguments prints; text that
        is only known expanded is quoted as Python does: with ``"`` when it holds a ``'`` and no ``"``; a tuple,
        list or dict display is its own repr (udsoncan's ``InvalidResponseException(response, '... (%d)', (dtc.id,
        record_number))`` prints ``('... (%d)', (1193046, 51))``)."""
        if _own_repr(node):
            return self.expand(node, {}, 0)
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


_GROUPS = frozenset({"ExceptionGroup", "BaseExceptionGroup"})
_REPR_ESCAPES = str.maketrans({"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def _repr_escaped(text: str) -> str:
    """``text`` as it shows inside ``repr``'s quotes: backslashes, newlines, tabs escaped (the quote
    itself is left: the match stage reads a printed ``\\'`` as ``'``, ``reading.unrepr``)."""
    return text.translate(_REPR_ESCAPES)


def _repr_self(node: Node) -> bool:
    """``__str__`` returning ``repr(self)`` (or ``self.__repr__()``)."""
    return isinstance(node, Hole) and node.expr in ("repr(self)", "self.__repr__()")


def _own_repr(node: Node) -> bool:
    """A container display passed as an argument (``messages.arg``): its text is already its ``repr``."""
    return isinstance(node, Dedent) and node.how == SHOWN_REPR


_ATTR_FORMAT = re.compile(r"self\.(\w+)\.format\(.*\)")
