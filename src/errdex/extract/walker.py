"""The one AST walker: handlers per statement type, immutable state, yielded sites.

Bandit-style, the walker pushes the enclosing class/function names onto an
immutable ``State`` (derived for children with ``_replace``, pyupgrade's
way); handlers are generators that ``yield`` ``PendingSite`` values and
*return* the local-bindings chain after the statement, so message variables
flow through ``if``/``try``/loops without mutable globals.

Nested functions are named like ``__qualname__``: ``f.<locals>.g``.

Only statements are walked; expressions are read only at a raise, an assert
with a message or a ``warnings.warn`` call.  A function whose lines hold no
``raise``/``warn``/``assert`` text (a regex scan of the file) is not walked
at all unless its returns look like a message it builds for others.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Generator, Iterable
from dataclasses import replace

from errdex.extract import backports, classtables, factories, narrowing, notedargs, storedlist
from errdex.extract import env as envmod
from errdex.extract import guards as g
from errdex.extract import stmts as st
from errdex.extract.astwalk import walk
from errdex.extract.basekept import Kept
from errdex.extract.edited import edited_bare
from errdex.extract.forwarded import caught_classes
from errdex.extract.handedback import handed_back
from errdex.extract.handedstream import handed_streams
from errdex.extract.helperkw import helper_keywords
from errdex.extract.imports import STAR, class_like, dotted_source, import_bindings, is_package, star_source
from errdex.extract.ir import Node, alt, param_names, reads_param
from errdex.extract.loopitems import bind_loop_target
from errdex.extract.messages import MessageBuilder, Scope
from errdex.extract.msgbase import MESSAGE_TABLE
from errdex.extract.platformcheck import required_platform
from errdex.extract.prebuilt import assigned, collected, just_assigned
from errdex.extract.registered import Registered
from errdex.extract.returnedlists import returns_collected
from errdex.extract.setterargs import handed
from errdex.extract.source import SourceText
from errdex.extract.strict import unclassified
from errdex.extract.summary import CallSite, ClassSummary, FuncSummary, InitSummary, PendingSite
from errdex.extract.tuplefields import class_built
from errdex.extract.walkbind import BindingsMixin
from errdex.extract.walkcalls import CallsMixin
from errdex.extract.walkclasses import ClassesMixin
from errdex.extract.walkstate import (
    _BASE_INIT,
    _BUILDS,
    _KEEPS_MESSAGE,
    _KEYWORDS,
    _WARN_TARGETS,
    Env,
    FuncCollector,
    State,
    Walk,
)
from errdex.model import Guard, GuardKind


class Walker(BindingsMixin, CallsMixin, ClassesMixin):
    """Walks one module; ``run`` yields its sites and fills the summary fields."""

    def __init__(self, tree: ast.Module, src: SourceText, module: str, path: str) -> None:
        self.tree = tree
        self.src = src
        self.module = module
        self.path = path
        self.package = is_package(path)
        self.imports: dict[str, str] = {}
        self.names: list[str] = []
        self.module_env: dict[str, ast.expr] = {}
        self.class_constants: dict[str, ast.expr] = {}  # "Cls.NAME" -> a string-like value
        self.kept_texts: dict[str, Node] = {}  # "Cls.<self>attr" -> the texts a plain class keeps (``kepttexts``)
        self.attr_texts: list[tuple[str, str, Node]] = []  # `rep.problem_msg = "..."` (``walkbind``, ``attrtexts``)
        self.functions: dict[str, FuncSummary] = {}
        self.classes: list[ClassSummary] = []
        self.raise_statements = 0
        self.raise_sites = 0  # of those, how many produced a site
        self.module_calls: list[CallSite] = []  # calls at module top level
        self._has_walrus = ":=" in src.text
        self._breaks: list[list[Env]] = []  # per enclosing loop: the bindings at each `break` (``loop_exit``)
        self._narrowed: dict[int, Guard] = {}  # id(raise) -> what an earlier loop's dispatch lets reach it
        self._top = module.split(".", 1)[0]
        self._pending_init: InitSummary | None = None
        self._pending_str: Node | None = None
        self._properties: dict[str, frozenset[str]] = {}  # a class of this module -> its properties (inherited too)
        self._pending_default: Node | None = None  # ``poppedopts``
        self._pruned: set[int] = set()
        self._init_attrs: dict[str, dict[str, Node]] = {}
        self._init_kept: dict[str, Kept] = {}  # ``basekept``
        self._class_bases: tuple[str, ...] = ()
        self._pending_kept: dict[str, Node] | None = None
        self._joined: dict[str, str] | None = None  # generator methods an exception's __str__ joins (yielded.py)
        self._prop_attrs: dict[str, str] = {}  # the class being walked: properties returning an attribute
        self._stored: dict[int, Node] = {}  # id(Cls(...)) in `self.errors.append(Cls(...))` -> it, read where appended
        self._deferred: list[tuple[PendingSite, list[ast.Call], Scope]] = []  # `raise self.errors[0]` (``storedlist``)
        self._prescan(tree.body)
        self._requires = required_platform(tree, src)  # the platform the module's import checks for
        self._handed = handed_streams(tree, src)  # raw reader/writer classes: how the module hands them out
        self._registered = Registered(tree)  # a function's decorator keys (``registered``)
        self._gated = backports.gated(tree, self._top) if "version" in src.text or "PY" in src.text else {}
        self._kw_lines = src.word_lines(_KEYWORDS)
        self.builder = MessageBuilder(src, module, self.imports, set(self.names), self.module_env, path)
        self.builder.built_members = class_built(tree) if "(" in src.text else frozenset()
    def has_keyword(self, start: int, end: int) -> bool:
        kw = self._kw_lines
        i = bisect.bisect_left(kw, start)
        return i < len(kw) and kw[i] <= end

    def may_build_message(self, node: ast.FunctionDef | ast.AsyncFunctionDef, alias: str = "") -> bool:
        """A function without raise/warn/assert may still build messages for others: look closer
        only when its text has both a ``return`` and a string quote or an exception-like name (or,
        in a classmethod, a call of ``cls``: ``MyError.invalid_value("...")`` factories)."""
        first, last = node.lineno, node.end_lineno or node.lineno
        builds = (*_BUILDS, f"{alias}(") if alias else _BUILDS
        return self.src.mentions(("return",), first, last) and (
            (self.src.mentions(builds, first, last) and st.returns_message(node.body, alias))
            # `return ERROR_MAP[code](text, ...)`: a class picked from a table (``classtables``)
            or (self.src.mentions(("](", ")("), first, last) and classtables.returns_table_call(node.body)))

    # ----------------------------------------------------------------- module names

    def _prescan(self, body: Iterable[ast.stmt]) -> None:
        """Imports and names bound at module top level (also inside if/try/with), before the walk."""
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for local, target in import_bindings(node, self.module, self.package):
                    self.imports[local] = target
                    self.names.append(local)
                if star := star_source(node, self.module, self.package):  # `from .exceptions import *`: phase 2 reads it
                    self.imports[f"{STAR}{len(self.imports)}"] = star
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.names.append(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in st.target_names(t):
                        self.names.append(n)
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    self.module_env[node.targets[0].id] = node.value
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                    # binds the name as `=` does (`_sftp_error_map: Dict[int, Callable[...]] = {...}`,
                    # `HTTP_400: Final[str] = '400 Bad Request'`)
                    self.module_env[node.target.id] = node.value
            elif isinstance(node, (ast.If, ast.Try, ast.TryStar, ast.With, ast.For, ast.While)):
                for sub in st.child_bodies(node):
                    self._prescan(sub)

    # ----------------------------------------------------------------- walking

    def run(self) -> Generator[PendingSite, None, None]:
        yield from self.block(self.tree.body, State(), None)
        for site, calls, elsewhere in self._deferred:  # `raise self.errors[0]`: the instances appended, as built there
            values = [self._stored.get(id(c)) or self.builder.exception(c, elsewhere) for c in calls]
            yield replace(site, value=storedlist.picked(values))
        if self.module_calls:
            self.functions[MODULE_KEY] = FuncSummary((), (), calls=tuple(self.module_calls))

    def block(self, body: list[ast.stmt], state: State, env: Env) -> Walk:
        for node in body:
            t = type(node)
            simple = _BINDERS.get(t)
            if simple is not None:  # assignments, returns, imports: no sites, no generator overhead
                env = simple(self, node, state, env)  # type: ignore[operator]
                continue
            handler = _HANDLERS.get(t)
            if handler is not None:
                env = yield from handler(self, node, state, env)  # type: ignore[operator]
            elif t is ast.Break and self._breaks:  # what this path bound leaves the loop (``loop_exit``)
                self._breaks[-1].append(env)
        return env

    def scope(self, state: State, env: Env) -> Scope:
        return Scope(state.params, env, state.cls, state.self_attrs or {}, state.outers, state.cls_alias,
                     state.exc_named and state.cls is not None, ".".join(state.qual), state.types, state.guards,
                     state.properties, frozenset(p for ps, _ in state.closure for p in ps))

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, state: State, env: Env) -> Walk:
        name = node.name
        nested = state.in_function
        for d in node.decorator_list:  # `@exc.on_http_error(exc.GitlabGetError)`: the class its wrapper raises
            if isinstance(d, ast.Call):
                self.factory_application(d, state, env)
        wanted_kw = self.has_keyword(node.lineno, node.end_lineno or node.lineno)
        method = state.cls is not None and not nested
        special = method and name in ("__init__", "__str__") and (
            state.exc_class  # a mixin's __init__ may build the text that its exception subclasses carry:
            or (name == "__init__" and self.src.mentions(_BASE_INIT, node.lineno, node.end_lineno or node.lineno))
            # an __init__ that keeps a message for its methods (`self.error = error or self.default_message`)
            or (name == "__init__" and self.src.mentions(_KEEPS_MESSAGE, node.lineno, node.end_lineno or node.lineno))
            # an __init__ that builds a text on `self` for its subclasses' messages (``kepttexts.init_texts``)
            or (name == "__init__" and self.src.search(_BUILDS_SELF_TEXT, node.lineno, node.end_lineno or node.lineno)))
        a = node.args
        params = [x.arg for x in (*a.posonlyargs, *a.args)]
        alias = state.cls_alias if nested else ""
        if method and params and not st.is_static(node):
            alias = st.classmethod_alias(node)
            params = params[1:]
        class_params = factories.class_params(node)
        wants_summary = (wanted_kw or special or self.may_build_message(node, alias)
                         or factories.returns_class_call(node, class_params)  # `return cls(message, ...)`
                         or self.src.mentions(("exc_info()[1]",), node.lineno, node.end_lineno or node.lineno)
                         or (method and state.exc_class and self._returns_something(node))  # what __str__ may call
                         # any class's own __str__: what `%s` / `{}` of its `self` prints, before its __repr__
                         # (``shownself``; distlib's `'%s' % (self,)` in Matcher read its __repr__ for want of it)
                         or (method and name == "__str__")
                         or self.src.search(_SETS_MESSAGE, node.lineno, node.end_lineno or node.lineno)
                         or self.passes_message(node, params, state.cls if method else None)
                         # a module function returning the texts it collects (``returnedlists``)
                         or (not state.qual and state.cls is None and self.src.mentions((".append(",), node.lineno,
                                                                                          node.end_lineno or node.lineno)
                             and returns_collected(node)))
        if not wants_summary:
            # nothing here can raise, warn, assert, build a message or pass one on: skip the body
            return envmod.bind(env, name, envmod.Binding()) if nested else env
        qual = (*state.qual, "<locals>", name) if nested else (*state.qual, name)
        summary_key = ".".join(qual)  # nested ones too (f.<locals>.g): calls reach them via a local binding
        # `a, b, c = args[:3]` in `__init__(self, *args)`: the names read like parameters (``unpacked_varargs``)
        unpacked, more = st.unpacked_varargs(node.body, a.vararg.arg) if method and name == "__init__" \
            and a.vararg is not None else ((), False)
        all_params = frozenset([*params, *(x.arg for x in a.kwonlyargs),
                                *(x.arg for x in (a.vararg, a.kwarg) if x is not None), *unpacked])
        collector: FuncCollector | None = None
        if wants_summary:
            collector = FuncCollector(tuple([*params, *(x.arg for x in a.kwonlyargs)]), is_init=name == "__init__",
                                      vararg=a.vararg.arg if a.vararg is not None else None,
                                      varkw=a.kwarg.arg if a.kwarg is not None else None,
                                      self_attrs=dict(state.self_attrs or {}),  # class constants are visible
                                      unpacked=unpacked, unpacked_more=more,
                                      class_params=class_params)
        doc = ast.get_docstring(node, clean=True) or ""
        self_attrs = state.self_attrs if name == "__str__" else (collector.self_attrs if collector else None)
        outers = (env, *state.outers) if nested else ()
        gate = self._gated.get(name) if not state.qual else None  # a backport bound on some Pythons only
        inner = state._replace(qual=qual, guards=(g.Spec("if", gate[0], gate[1]),) if gate else (), docstring=doc or state.docstring, params=all_params,
                               func=collector, in_function=True, self_attrs=self_attrs, outers=outers,
                               cls_alias=alias, types=state.types + factories.param_types(node),
                               closure=((state.params, state.func), *state.closure) if nested else ())
        self._narrowed.update(narrowing.narrowed_guards(node, self.src.lines))
        outer_kwargs, self.builder.kwargs_name = self.builder.kwargs_name, a.kwarg.arg if a.kwarg is not None else None
        yield from self.block(node.body, inner, None)
        self.builder.kwargs_name = outer_kwargs
        if collector is not None:
            self._record(summary_key, name, collector, state, node)
        if nested:  # `def helper(...)` inside a function binds a local name, as an assignment does
            local = f"{self.module}.{summary_key}" if summary_key in self.functions else None
            return envmod.bind(env, name, envmod.Binding(local_def=local))
        return env

    # ----------------------------------------------------------------- sites

    def site(self, node: ast.stmt, state: State, kind: str, value: Node | None, message: Node | None,
             written: str, guards: tuple[g.Spec, ...] = (), cause: str | None = None) -> PendingSite:
        end = node.end_lineno or node.lineno
        if state.params and state.func is not None and not state.func.reads_params and (
                reads_param(value) or reads_param(message)):
            state.func.reads_params = True
        if state.closure and (outer := param_names(value) - state.params):
            for names, collector in state.closure:  # a decorator factory's parameter: its appliers bind it
                if collector is not None and names & outer:
                    collector.reads_params = True
        snippet, start = self.src.snippet(node.lineno, end, node.col_offset, node.end_col_offset)
        qual = tuple(state.qual)
        return PendingSite(
            kind=kind,  # type: ignore[arg-type]
            value=value, message=message, written=written, line=node.lineno, end_line=end,
            qualname=".".join(state.qual) or "<module>", guards=g.build(state.guards + guards, self.src),
            snippet=snippet, snippet_start=start, docstring=state.docstring,
            comments=self.src.comments(node.lineno, end, node.col_offset), cause=cause,
            requires=self._requires[0], requires_line=self._requires[1],
            handed=self._handed.get(state.qual[0]) if self._handed and state.qual else None,
            registered=self._registered.keys(qual),
        )

    def raise_(self, node: ast.Raise, state: State, env: Env) -> Walk:
        edited = edited_bare(state.guards) if node.exc is None else ""
        if node.exc is None and not edited:
            return env  # a bare re-raise is not a site
        self.raise_statements += 1
        # (a bare `raise` after `e.args = (...)`: the caught object, with its handler's text, as `raise e`)
        exc = _imported_class(node.exc) if node.exc is not None else ast.copy_location(ast.Name(edited, ast.Load()), node)
        if (back := handed_back(self.tree, exc, state.qual)) is not None:
            exc = back  # raise self.initerror(kind(message)), the helper returning its argument: kind(message)
        value = self.builder.exception(exc, self.scope(state, env))
        if isinstance(exc, ast.Call) and exc.args and (noted := notedargs.edits(self.tree, state.qual, exc)):
            # `args = list(e.args)`, `args[0] += " -- " + note` or `args.append(note)`, `raise klass(*args)`
            scope = self.scope(state, env)
            texts = {id(e): self.builder.text(e, scope) for e in (*noted.first, *noted.appended)}
            value = notedargs.noted(value, noted, texts)
        if built := (collected(self.tree, state.qual, exc) or just_assigned(self.tree, state.qual, exc)
                     or assigned(self.tree, state.qual, exc)):
            # `raise errors[0]` / `raise self.failure`: the constructor calls that built the object (``prebuilt``)
            elsewhere = _elsewhere(state)
            value = alt([self.builder.exception(c, elsewhere) for c in built])
        elif given := handed(self.tree, state.qual, exc):
            # `raise self._error` kept by a setter: the objects the module's callers hand it, and any other
            elsewhere = _elsewhere(state)
            value = alt([value, *(self.builder.exception(c, elsewhere) for c in given)])
        written = edited or self.src.segment(exc.func if isinstance(exc, ast.Call) else exc)
        cause = self.src.segment(node.cause) if node.cause is not None else None
        site = self.site(node, state, "error", value, None, written, cause=cause)
        if state.cls is not None and (stored := storedlist.appended(self.tree, state.qual, exc)):
            # `raise self.errors[0]`: read once the module is walked, the appending methods' texts known
            elsewhere = _elsewhere(state)
            self._deferred.append((site, stored, elsewhere))
            self.raise_sites += 1
            return env
        if keywords := helper_keywords(self.tree, exc, state.qual):  # raise _format_err(...): the helper's call's
            site = replace(site, keywords=keywords)
        if (narrowed := self._narrowed.get(id(node))) is not None:  # what an earlier loop lets reach it
            site = replace(site, guards=(*site.guards, narrowed))
        self.raise_sites += 1
        fw = caught_classes(exc, env, self.builder.resolve_name, self.tree)  # raise B(str(e)) of a caught e
        yield replace(site, forwards=fw.classes, try_lines=fw.lines, caught=fw.name, caught_via=fw.via,
                           caught_anywhere=fw.anywhere, caught_iterates=fw.iterates) if fw.classes else site
        return env

    def assert_(self, node: ast.Assert, state: State, env: Env) -> Walk:
        if node.msg is None:
            return env
        message = self.builder.text(node.msg, self.scope(state, env))
        guard = g.Spec("assert", node.test, True)
        yield self.site(node, state, "assertion", None, message, "AssertionError", (guard,))
        return env

    def expr(self, node: ast.Expr, state: State, env: Env) -> Walk:
        call = node.value
        if not isinstance(call, ast.Call):
            return env
        written = dotted_source(call.func)
        self._opened_table(call, written, state)
        if state.cls is not None and (stored := storedlist.appended_call(call)) is not None:
            self._stored[id(stored)] = self.builder.exception(stored, self.scope(state, env))
        if written is None:
            if isinstance(call.func, ast.Call):  # `on_http_error(GetError)(get)`: a decorator factory applied
                self.factory_application(call.func, state, env)
            if state.func is not None and state.func.is_init:
                self._super_call(call, state, env)
            return env
        target = self.builder.resolve_name(written)
        if target in _WARN_TARGETS:
            yield from self._warn(node, call, state, env)
        elif state.func is not None and state.func.is_init and written.endswith(".__init__"):
            self._super_call(call, state, env)
        elif target is None and state.in_function and (grown := self._grow(call, env)) is not env:
            env = grown
        else:
            self._call_site(call, written, state, env)
        return env

    def _opened_table(self, call: ast.Call, written: str | None, state: State) -> None:
        """``self.messages.update(messages)`` in a method: the class's message table holds the caller's
        entries too (dynaconf's ``Validator(messages={...})``), any text, recorded as the entry ``[*]``
        (``expand.py`` adds it to every keyed read of the table)."""
        if state.cls is None or not state.in_function or written is None or len(call.args) != 1 or call.keywords:
            return
        head, _, meth = written.rpartition(".")
        obj, _, name = head.partition(".")
        if meth != "update" or obj != "self" or "." in name or not MESSAGE_TABLE.search(name) \
                or not isinstance(call.args[0], ast.Name) or call.args[0].id not in state.params:
            return
        shown = ast.FormattedValue(value=ast.Name(id=call.args[0].id, ctx=ast.Load()), conversion=-1)
        self.class_constants[f"{state.cls}.{name}[*]"] = ast.copy_location(ast.JoinedStr(values=[shown]), call)

    @staticmethod
    def _grow(call: ast.Call, env: Env) -> Env:
        """``lines.append(x)`` / ``lines.extend([...])`` / ``lines.insert(0, x)`` / ``lines.reverse()`` on a local: the list's
        next value (a later ``"\n".join(lines)`` reads the items, one template per combination of branches)."""
        f = call.func
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and not call.keywords
                and not any(isinstance(a, ast.Starred) for a in call.args)):
            return env
        if f.attr in ("append", "extend") and len(call.args) == 1:
            grow, value = f.attr, call.args[0]
        elif f.attr == "reverse" and not call.args:
            grow, value = "reverse", call  # zope.configuration's `lines.append(opening); lines.reverse()`
        elif f.attr == "insert" and len(call.args) == 2 and isinstance(call.args[0], ast.Constant) \
                and call.args[0].value == 0 and not isinstance(call.args[0].value, bool):
            grow, value = "prepend", call.args[1]  # pykwalify's `kwargs.insert(0, '')` before `': '.join(kwargs)`
        else:
            return env
        prev = envmod.lookup(env, f.value.id)
        if prev is None:
            return env
        return envmod.bind(env, f.value.id, envmod.Binding(value, env, prev=prev, grow=grow, line=call.lineno))


    def _warn(self, node: ast.Expr, call: ast.Call, state: State, env: Env) -> Walk:
        scope = self.scope(state, env)
        args = call.args
        kw = {k.arg: k.value for k in call.keywords if k.arg is not None}
        msg_node = args[0] if args else kw.get("message")
        cat_node = args[1] if len(args) > 1 else kw.get("category")
        if msg_node is None:
            unclassified("warnings.warn call without a message", self.builder.where(node))
            return env
        value: Node | None = None
        written = "UserWarning"
        if cat_node is not None:
            value = self.builder.exception(cat_node, scope)
            written = self.src.segment(cat_node)
        if isinstance(msg_node, ast.Call) and (d := dotted_source(msg_node.func)) and class_like(d):
            # warnings.warn(DeprecationWarning("...")): the instance carries category and text
            value = self.builder.exception(msg_node, scope)
            written = d
            message = None
        else:
            message = self.builder.text(msg_node, scope)
        yield self.site(node, state, "warning", value, message, written)
        return env

    # ----------------------------------------------------------------- flow

    def if_(self, node: ast.If, state: State, env: Env) -> Walk:
        return (yield from self._if_chain(node, state, env, ()))

    def _if_chain(self, node: ast.If, state: State, env: Env, prior: tuple[g.Spec, ...]) -> Walk:
        kind: GuardKind = "elif" if prior else "if"
        if self._has_walrus:
            env = self._walrus(node.test, state, env)
        body_state = state._replace(guards=state.guards + prior + (g.Spec(kind, node.test),))
        body_env = yield from self.block(node.body, body_state, env)
        negs = (*prior, g.Spec("elif" if prior else "if", node.test, True))
        orelse = node.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If) and g.is_elif(orelse[0], self.src):
            else_env = yield from self._if_chain(orelse[0], state, env, negs)
        elif orelse:
            else_negs = tuple(x._replace(kind="else") for x in negs)
            else_env = yield from self.block(orelse, state._replace(guards=state.guards + else_negs), env)
        else:
            else_env = env
        joined = st.join(env, [(node.body, body_env), (orelse, else_env)])
        return joined if prior else st.truth_tested(node.test, env, joined)

    def _walrus(self, test: ast.expr, state: State, env: Env) -> Env:
        """``if (m := check(x)): raise E(m)``: an assignment expression in a test binds like an assignment."""
        if not state.in_function or not self.src.mentions(
                (":=",), test.lineno, test.end_lineno or test.lineno):
            return env
        for sub in walk(test):
            if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                env = envmod.bind(env, sub.target.id, envmod.Binding(sub.value, env))
        return env

    def while_(self, node: ast.While, state: State, env: Env) -> Walk:
        if self._has_walrus:
            env = self._walrus(node.test, state, env)
        inner = state._replace(guards=(*state.guards, g.Spec("while", node.test)))
        return (yield from self.loop_exit(node, inner, state, env, env))

    def for_(self, node: ast.For | ast.AsyncFor, state: State, env: Env) -> Walk:
        loop_env = bind_loop_target(env, node.target, node.iter) if state.in_function else None
        if loop_env is None:
            loop_env = st.bind_opaque(env, node.target, loop=True)
        return (yield from self.loop_exit(node, state, state, env, loop_env))

    def loop_exit(self, node: ast.For | ast.AsyncFor | ast.While, inner: State, state: State, env: Env,
                  loop_env: Env) -> Walk:
        """The bindings after a loop: those before it (no turn), at the body's end, each turn's before the loop's
        ``else``; and, past the ``else`` (which a ``break`` skips), those at each ``break`` of the body (beartype's
        ``if not type_tester(obj_item): message_clause_prefix = f'...'; break``; before, ``stmts.join`` dropped
        the branch ending in ``break`` and the name kept its value from before the loop)."""
        self._breaks.append([])
        try:
            body_env = yield from self.block(node.body, inner, loop_env)
        finally:
            breaks = self._breaks.pop()
        after = envmod.merge(env, [env, body_env])
        done = yield from self.block(node.orelse, state, after)
        return envmod.merge(env, [done, *breaks]) if breaks else done

    def with_(self, node: ast.With | ast.AsyncWith, state: State, env: Env) -> Walk:
        for item in node.items:
            if item.optional_vars is not None:
                env = st.bind_opaque(env, item.optional_vars)
        return (yield from self.block(node.body, state, env))

    def try_(self, node: ast.Try | ast.TryStar, state: State, env: Env) -> Walk:
        body_env = yield from self.block(node.body, state, env)
        ends: list[tuple[list[ast.stmt], Env]] = []
        body = (node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno) if node.body else (0, 0)
        for h in node.handlers:
            hstate = state._replace(guards=(*state.guards, g.Spec("except", h, body=body)))
            henv = envmod.bind(env, h.name, envmod.Binding(caught=h)) if h.name else env
            ends.append((h.body, (yield from self.block(h.body, hstate, henv))))
        else_env = yield from self.block(node.orelse, state, body_env)
        joined = st.join(env, [(node.body + node.orelse, else_env), *ends])
        return (yield from self.block(node.finalbody, state, joined))

    def match_(self, node: ast.Match, state: State, env: Env) -> Walk:
        ends: list[tuple[list[ast.stmt], Env]] = []
        for c in node.cases:
            cstate = state._replace(guards=(*state.guards, g.Spec("match", c, False, node.subject)))
            ends.append((c.body, (yield from self.block(c.body, cstate, env))))
        return st.join(env, [*ends, ([], env)])

MODULE_KEY = "<module>"  # the functions-table key of a module's top-level calls
# `rep.problem_msg = ...` on an object other than `self`: a text the object's class raises (``attrtexts.py``)
_BUILDS_SELF_TEXT = re.compile(r"\bself\.\w+\s*=\s*\(?\s*[fF][rR]?['\"]")
_SETS_MESSAGE = re.compile(r"\b(?!self\.)[A-Za-z_]\w*\.\w*(?:msg|message)\s*=(?!=)")


_HANDLERS = {
    ast.FunctionDef: Walker.function,
    ast.AsyncFunctionDef: Walker.function,
    ast.ClassDef: Walker.klass,
    ast.Raise: Walker.raise_,
    ast.Assert: Walker.assert_,
    ast.Expr: Walker.expr,
    ast.If: Walker.if_,
    ast.While: Walker.while_,
    ast.For: Walker.for_,
    ast.AsyncFor: Walker.for_,
    ast.With: Walker.with_,
    ast.AsyncWith: Walker.with_,
    ast.Try: Walker.try_,
    ast.TryStar: Walker.try_,
    ast.Match: Walker.match_,
}

# Statements that only change bindings: plain functions returning the new chain.
_BINDERS = {
    ast.Assign: Walker.assign,
    ast.AnnAssign: Walker.ann_assign,
    ast.AugAssign: Walker.aug_assign,
    ast.Return: Walker.return_,
    ast.Import: Walker.import_,
    ast.ImportFrom: Walker.import_,
}


def _imported_class(exc: ast.expr) -> ast.expr:
    """``__import__("pkg.mod").Error(...)`` (dynaconf's ``nodes.py``, avoiding an import cycle): ``__import__`` of
    a dotted name returns the top package, so the class is ``pkg.Error``, read as if written so."""
    if not (isinstance(exc, ast.Call) and isinstance(exc.func, ast.Attribute)):
        return exc
    mod = exc.func.value
    if not (isinstance(mod, ast.Call) and isinstance(mod.func, ast.Name) and mod.func.id == "__import__"
            and len(mod.args) == 1 and not mod.keywords and isinstance(mod.args[0], ast.Constant)
            and isinstance(mod.args[0].value, str) and mod.args[0].value):
        return exc
    top = ast.copy_location(ast.Name(id=mod.args[0].value.split(".")[0], ctx=ast.Load()), mod)
    func = ast.copy_location(ast.Attribute(value=top, attr=exc.func.attr, ctx=ast.Load()), exc.func)
    return ast.copy_location(ast.Call(func=func, args=exc.args, keywords=exc.keywords), exc)


def _elsewhere(state: State) -> Scope:
    """The scope an object built elsewhere in the class is read in (the constructor calls a raise of a kept or
    collected object stands for, ``prebuilt`` / ``setterargs`` / ``storedlist``): the class, not the function."""
    return Scope(class_qualname=state.cls, self_attrs=state.self_attrs or {}, types=state.types)
