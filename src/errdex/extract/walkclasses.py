"""Classes: their bases, constants, and the ``__init__``/``__str__`` that build an exception's
text (part of ``Walker``, see ``walker.py``)."""

from __future__ import annotations

import ast

from errdex.extract import (
    enummembers,
    factories,
    heldclasses,
    metaclass,
    packitems,
    poppedopts,
    stralias,
    yielded,
)
from errdex.extract.basekept import Kept, handed_attrs, handed_base
from errdex.extract.classtemplate import formatted_texts
from errdex.extract.coerced import coercions
from errdex.extract.generated_init import generated_init
from errdex.extract.generatedrepr import generated_repr_str
from errdex.extract.getattrs import attr_instances, getattr_forward
from errdex.extract.imports import dotted_source
from errdex.extract.ir import EMPTY, Hole, Lit, Node, alt
from errdex.extract.kepttexts import KeptAttrs, init_texts, kept_texts, once_assigned
from errdex.extract.messages import Scope
from errdex.extract.properties import properties_of, property_attrs
from errdex.extract.stmts import param_defaults
from errdex.extract.summary import ClassSummary, FuncSummary, InitSummary
from errdex.extract.walkstate import _EXC_NAME, Env, FuncCollector, State, Walk, WalkerBase

_STR_RETURNS = 4  # returns of an exception's __str__ kept as its possible messages


class ClassesMixin(WalkerBase):
    """Walks a class body and summarises what builds its instances' message."""

    _pending_init: InitSummary | None  # the __init__/__str__ of the class being walked
    _pending_str: Node | None
    _pending_default: Node | None  # ``poppedopts``: what the pruned copy of ``__str__`` returns
    _pruned: set[int]  # the ids of those copies (walked before the ``__str__`` they stand for)
    _init_attrs: dict[str, dict[str, Node]]  # an exception class of the module -> what its `__init__` keeps
    _properties: dict[str, frozenset[str]]  # a class of this module (dotted) -> its own and inherited properties
    _joined: dict[str, str] | None  # the generator methods an exception's __str__ joins (``yielded.py``)
    _prop_attrs: dict[str, str]  # the class being walked: its properties returning an attribute (``properties.py``)
    _init_kept: dict[str, Kept]  # an exception class of the module -> what its (or an inherited) `__init__` keeps
    _class_bases: tuple[str, ...]  # the class being walked: its bases, resolved (``basekept``)
    _pending_kept: dict[str, Node] | None  # ... and what its own `__init__` keeps, a base's handed attributes too

    def klass(self, node: ast.ClassDef, state: State, env: Env) -> Walk:
        qual = (*state.qual, "<locals>", node.name) if state.in_function else (*state.qual, node.name)
        doc = ast.get_docstring(node, clean=True) or ""
        bases = []
        for b in node.bases:
            d = dotted_source(b.value if isinstance(b, ast.Subscript) else b)  # `ParamType[t.Any]` is a ParamType
            if d is not None:
                bases.append(self.builder.resolve_name(d) or d)
        self_attrs: dict[str, Node] = {}
        # `NULL_NAME = (code, name, description)` of an enum with an __init__: its __init__/__str__ make its text
        members = enummembers.members(node, ".".join(qual), self.module, bases,
                                      lambda e: self.builder.arg(e, Scope())) if not state.in_function else {}
        self.kept_texts.update(members)
        top = self.module.split(".", 1)[0] + "."
        exc_named = bool(_EXC_NAME.search(node.name)) or any(_EXC_NAME.search(b.rsplit(".", 1)[-1]) for b in bases)
        exc_class = exc_named or any(b.startswith(top) for b in bases) or bool(members)
        props = properties_of(node).union(*(self._properties.get(b, frozenset()) for b in bases))
        self._properties[f"{self.module}.{'.'.join(qual)}"] = props
        inner = State(qual=qual, docstring=doc, cls=".".join(qual), self_attrs=self_attrs, exc_class=exc_class,
                      exc_named=exc_named, types=factories.class_attr_types(node), rebound=_rebound(node),
                      properties=props if exc_named else frozenset())
        # `def __init__(self, *args, **kwargs): ...; super().__init__(*args, **kwargs)` (or no `__init__`): what
        # a base of the module keeps (`self.message = message`) is the forwarded arguments' (``poppedopts``)
        if exc_class and poppedopts.forwards_all(node):
            for base in reversed(bases):
                self_attrs.update(self._init_attrs.get(base, {}))
        saved = self._pending_init, self._pending_str, self._prop_attrs, self._pending_default
        saved_kept = self._class_bases, self._pending_kept
        self._pending_init, self._pending_str, self._prop_attrs = None, None, property_attrs(node)
        self._pending_default, self._class_bases, self._pending_kept = None, tuple(bases), None
        made = generated_init(node, self.builder.resolve_name) if exc_class else None
        if made is not None:  # `@define` / `@dataclass`: the __init__ the decorator writes from the fields
            self._pending_init = made[0]
            self_attrs.update(made[1])
        body = node.body
        pruned: ast.FunctionDef | None = None
        opts: tuple[poppedopts.Option, ...] = ()
        if exc_class:
            if self._joined is None:
                self._joined = yielded.joined_methods(self.tree)
            body = yielded.rewrite_class(node, self._joined)
            pruned, opts = poppedopts.pruned_str(node, self.tree)
            if pruned is not None:  # the `__str__` a raise without the popped options prints, walked first
                self._pruned.add(id(pruned))
                at = next(i for i, s in enumerate(body) if isinstance(s, ast.FunctionDef) and s.name == "__str__")
                body = [*body[:at], pruned, *body[at:]]
        if (aliased := stralias.aliased_str(node)) is None and exc_class:
            # `return self.__repr__()` of an `@attr.s` / `@dataclass` class: the generated repr (``generatedrepr``)
            aliased = generated_repr_str(node, ".".join(qual), self.builder.resolve_name)
        if aliased is not None:  # `__str__ = __repr__`: read as a `__str__` there
            at = next((i + 1 for i, s in enumerate(body) if s is aliased[0]), len(body))
            body = [*body[:at], aliased[1], *body[at:]]
        # `metaclass=NoPublicConstructor`, whose `_create` builds the class (``metaclass.py``)
        self.kept_texts.update(metaclass.class_constants(node, ".".join(qual), self.builder.resolve_name))
        # `metadata_Error = errors.SchemaError`: the class a subclass names for its base's methods (``heldclasses``)
        self.kept_texts.update(heldclasses.held_constants(node, ".".join(qual), self.builder.resolve_name))
        # `self.message = self.template.format(...)`: the constant an instance's text renders (``classtemplate``)
        self.kept_texts.update(formatted_texts(node, ".".join(qual)))
        if exc_class:  # `error if isinstance(error, C) else C(note=error)` in `__init__` (``coerced``)
            self.kept_texts.update(coercions(node, ".".join(qual), self.builder.resolve_name))
        if not exc_named:  # `self.errmsg_x = "..."` in a method: the text the class keeps (``kepttexts``)
            kept = kept_texts(node, ".".join(qual), self.builder.resolve_name)
            self.kept_texts.update(kept)
            self.builder.kept_classes[".".join(qual)] = KeptAttrs.of(node, kept)
        yield from self.block(body, inner, None)
        for attr, func in _callable_defaults(node):
            key = f"{'.'.join(qual)}.{attr}"
            if func in self.functions and key not in self.functions:
                # `self.msg_builder = msg_builder` of `msg_builder=build_msg`: `self.msg_builder(...)` calls
                # the module's function unless the caller passes another (everett's ConfigManager)
                self.functions[key] = self.functions[func]
        if not exc_class and not state.in_function and self._pending_kept:
            # what a plain class's `__init__` builds on `self`, for subclasses' methods in other modules
            self.kept_texts.update(init_texts(".".join(qual), self._pending_kept, node))
        if exc_class and not state.in_function:
            self._init_attrs[f"{self.module}.{'.'.join(qual)}"] = dict(self_attrs)
            self._keep_init(f"{self.module}.{'.'.join(qual)}", bases)
        self.classes.append(ClassSummary(".".join(qual), node.lineno, tuple(bases), doc,
                                         self._pending_init, self._pending_str, getattr_forward(node),
                                         attr_instances(node, self.builder.resolve_name),
                                         self._pending_default if self._pending_str is not None else None,
                                         tuple((o.attr, o.key, o.position) for o in opts)))
        self._pending_init, self._pending_str, self._prop_attrs, self._pending_default = saved
        self._class_bases, self._pending_kept = saved_kept
        return env

    def _keep_init(self, key: str, bases: list[str]) -> None:
        """What the class's ``__init__`` keeps, for a subclass handing it arguments (``basekept``): its own
        ``__init__``'s, else the first base's of the module that has one."""
        init = self._pending_init
        if init is not None and self._pending_kept is not None and not init.generated:
            self._init_kept[key] = Kept(init.params, init.positional, self._pending_kept)
        elif init is None and (base := next((self._init_kept[b] for b in bases if b in self._init_kept), None)):
            self._init_kept[key] = base

    def _base_handed(self, node: ast.FunctionDef | ast.AsyncFunctionDef, c: FuncCollector, state: State) -> dict[str, Node]:
        """What the base's ``__init__`` this ``__init__`` calls with its own arguments keeps (``basekept``)."""
        if c.super_args is None or c.super_varargs or c.none_args is not None or state.cls is None:
            return {}
        base = handed_base(node, state.cls, self._class_bases, self.builder.resolve_name)
        kept = self._init_kept.get(base) if base is not None else None
        return handed_attrs(kept, c.super_args, c.super_kwargs) if kept is not None else {}

    def _returns_something(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """A method of an exception class with a ``return``: its ``__str__`` may build the text from
        it (``self._message()``), whatever the returned expression is called; or a generator ``yielded.py``
        made a function of."""
        return self.src.mentions(("return", "yield"), node.lineno, node.end_lineno or node.lineno)

    def _record(self, key: str, name: str, c: FuncCollector, state: State,
                node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if id(node) in self._pruned:  # ``poppedopts``: only its returns, the real `__str__` follows
            self._pruned.discard(id(node))
            self._pending_default = alt(list(c.returns[:_STR_RETURNS])) if c.returns else None
            return
        if name == "__init__" and state.self_attrs is not None:
            # `super().__init__(message, location=location)` of a base keeping `self.message = message` first
            kept = c.self_attrs if state.exc_class else once_assigned(c.self_attrs, node)
            self._pending_kept = {**self._base_handed(node, c, state), **kept}
            state.self_attrs.update(self._pending_kept)
            for prop, attr in self._prop_attrs.items():  # `return self.__reason`: what __init__ kept there
                if attr in kept and prop not in state.self_attrs and prop not in state.rebound:
                    state.self_attrs[prop] = kept[attr]
        # a `__str__` is kept even when it returns nothing read as text (`return self._string`): that it exists
        # decides what `str(self)` is (``shownself``: its own text, unknown here, not the class's `__repr__`)
        if c.returns or name in ("__init__", "__str__") or c.calls or c.reads_params:
            defaults = self._defaults(node) if c.reads_params or c.returns else ()
            returns = (*c.returns, *c.param_returns) if c.returns and name != "__str__" else tuple(c.returns)
            if c.returns and c.call_returns and any(_names(d, "property") for d in node.decorator_list):
                returns = (*returns, *c.call_returns)  # a property: each path's value is the attribute's text
            elif c.returns and name != "__str__":
                # `return "end of input"` beside `return repr(version[index])` (parver's `_format_found`): the
                # value's repr or str is the other text the helper returns
                returns = (*returns, *(r for r in c.call_returns if isinstance(r, Hole) and r.expr.startswith(
                    ("repr(", "str("))))
            if yielded.was_generator(node):
                # a path yielding nothing first: a subclass's pieces after it are the text (the base's
                # optional preamble left out), the commonest form, kept first when the variants are capped
                returns = (*(r for r in returns if r == EMPTY), *(r for r in returns if r != EMPTY))
            self.functions[key] = FuncSummary(c.params, returns, defaults, tuple(c.calls),
                                              c.vararg or "", c.varkw or "")
        if name == "__init__":
            none_args = c.none_args if c.none_args is not None and _defaults_to_none(node, c.none_args[0]) else None
            positional = len(c.params) - len(node.args.kwonlyargs) if node.args.kwonlyargs else -1
            if c.kw_params and positional < 0:  # `kwargs.pop("reason")`: a keyword-only parameter (``kwkeys``)
                positional = len(c.params)
            super_args = c.super_args
            if c.vararg and super_args is not None:  # `msg += " " + str(args[0])`: the raise's item (``packitems``)
                super_args = tuple(packitems.item_params(a, c.vararg, c.pack_names) for a in super_args)
            self._pending_init = InitSummary((*c.params, *c.kw_params), super_args, c.super_kwargs, c.vararg or "",
                                             c.varkw or "", c.super_varargs, none_args, positional,
                                             c.unpacked, c.unpacked_more, vararg_skip=c.vararg_skip,
                                             defaults=_text_defaults(node))
        elif name == "__str__" and c.returns:
            # `if self.context: return f"{self.message} in {self.context!r}"` / `return self.message`:
            # each return is a message the class may print
            self._pending_str = alt(list(c.returns[:_STR_RETURNS]))

    def _super_call(self, call: ast.Call, state: State, env: Env) -> None:
        f = call.func
        if not (isinstance(f, ast.Attribute) and f.attr == "__init__") or state.func is None:
            return
        args = list(call.args)
        if isinstance(f.value, ast.Call) and isinstance(f.value.func, ast.Name) and f.value.func.id == "super":
            pass
        elif args and isinstance(args[0], ast.Name) and args[0].id == "self":
            args = args[1:]  # Base.__init__(self, ...)
        else:
            return
        scope = self.scope(state, env)
        if len(args) == 1 and isinstance(args[0], ast.Starred) and isinstance(args[0].value, ast.Name) \
                and args[0].value.id == state.func.vararg:
            state.func.super_varargs = True
            return  # super().__init__(*args): the constructor's own arguments are the message
        passed = self.builder.call_args(args, scope)
        when_none = _none_tested(state, state.func.params)
        if when_none is not None:
            # the call runs only when a parameter is None: the text a raise that leaves it out prints
            state.func.none_args = (when_none, passed)
            if state.func.super_args is None:
                state.func.super_args = passed
        else:
            state.func.super_args = passed
        state.func.super_kwargs = tuple(
            (k.arg, self.builder.arg(k.value, scope)) for k in call.keywords if k.arg is not None
        )
        if state.func.kw_set and any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == state.func.varkw
                                     for k in call.keywords):
            # `kwargs[Keys.REASON] = Reason.X; super().__init__(args, **kwargs)`: the caller's surplus keywords
            # and the entries set here, passed on (``kwkeys``)
            state.func.super_kwargs = (*state.func.super_kwargs, *self.builder.call_kwargs(
                [k for k in call.keywords if k.arg is None], scope), *state.func.kw_set)


def _callable_defaults(node: ast.ClassDef) -> list[tuple[str, str]]:
    """``(attr, function)`` for each ``self.<attr> = <param>`` of the class's ``__init__`` whose parameter
    defaults to a plain name (a function of the module, as its callers' ``self.<attr>(...)`` call it)."""
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return []
    pairs = param_defaults(init)
    defaults = {arg.arg: d.id for arg, d in pairs if isinstance(d, ast.Name)}
    out: list[tuple[str, str]] = []
    for stmt in init.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Name) \
                and stmt.value.id in defaults:
            t = stmt.targets[0]
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                out.append((t.attr, defaults[stmt.value.id]))
    return out


def _rebound(node: ast.ClassDef) -> frozenset[str]:
    """The attributes of ``self`` that a method of the class other than ``__init__`` assigns."""
    out: set[str] = set()
    for fn in node.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name == "__init__":
            continue
        for n in ast.walk(fn):
            targets: list[ast.expr] = []
            if isinstance(n, ast.Assign):
                targets = list(n.targets)
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign)) and (not isinstance(n, ast.AnnAssign) or n.value):
                targets = [n.target]
            while targets:
                t = targets.pop()
                if isinstance(t, (ast.Tuple, ast.List)):
                    targets.extend(t.elts)
                elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                    out.add(t.attr)
    return frozenset(out)


def _none_tested(state: State, params: tuple[str, ...]) -> str | None:
    """The parameter whose being None the innermost branch around a call requires (``if path is None:``,
    the ``else`` of ``if path is not None:``), if any."""
    for spec in reversed(state.guards):
        if spec.kind not in ("if", "elif", "else"):
            return None
        test = spec.node
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
                and test.left.id in params and isinstance(test.comparators[0], ast.Constant)
                and test.comparators[0].value is None):
            return None
        is_none = isinstance(test.ops[0], ast.Is)
        if not is_none and not isinstance(test.ops[0], ast.IsNot):
            return None
        return test.left.id if is_none != spec.negated else None
    return None


def _text_defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, Node], ...]:
    """The parameters of ``fn`` whose default is a non-empty string literal, with that text."""
    pairs = param_defaults(fn)
    return tuple((arg.arg, Lit(d.value)) for arg, d in pairs
                 if isinstance(d, ast.Constant) and isinstance(d.value, str) and d.value)


def _defaults_to_none(fn: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> bool:
    """Whether ``param`` of ``fn`` has ``None`` as its default (a raise that leaves it out passes None)."""
    pairs = param_defaults(fn)
    return any(arg.arg == param and isinstance(d, ast.Constant) and d.value is None for arg, d in pairs)


def _names(node: ast.expr, name: str) -> bool:
    """``@property`` (or ``@functools.cached_property``-style ``@x.property``): the decorator names ``name``."""
    return (isinstance(node, ast.Name) and node.id == name) or (isinstance(node, ast.Attribute) and node.attr == name)

