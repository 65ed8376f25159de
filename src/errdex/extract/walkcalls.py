"""Calls that pass a message on (``check(x > 0, "the size must be positive")``): recorded with
their arguments so that phase 2 binds the callee's message parameter (part of ``Walker``,
see ``walker.py`` and docs/extract.md, "Messages from the callers")."""

from __future__ import annotations

import ast

from errdex.extract import env as envmod
from errdex.extract import stmts as st
from errdex.extract.factories import is_by_name
from errdex.extract.forwarded import caught_arg, caught_name
from errdex.extract.imports import BUILTIN_NAMES, class_like, dotted_source
from errdex.extract.ir import Node, Ref, alt
from errdex.extract.messages import Scope
from errdex.extract.summary import CallSite
from errdex.extract.walkstate import _CALL_TEXT, _WRAPPED_TEXT, Env, State, WalkerBase


class CallsMixin(WalkerBase):
    """Records the package's own calls that pass message text to a package function."""

    def passes_message(self, node: ast.FunctionDef | ast.AsyncFunctionDef, params: list[str],
                       cls: str | None = None) -> bool:
        """Whether a function the walk would skip calls a package function with literal text, an
        f-string or a local/parameter named like a message (``check(x, "x must be positive")``):
        then it is walked, so that the call is recorded with its arguments (in a method of class
        ``cls``, ``self.fail(...)`` too).  Statement level only
        (calls that are a statement of their own, the value returned or assigned), and only when its text has
        a quote or names a message."""
        last = node.end_lineno or node.lineno
        if not (self.src.mentions(_CALL_TEXT, node.lineno, last) or self.src.search(_WRAPPED_TEXT, node.lineno, last)):
            return False
        stack = list(node.body)
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, (ast.Expr, ast.Return, ast.Assign)):  # `return helper("...")`, `m = helper("...")`
                call = stmt.value
                if isinstance(call, ast.Call) and (call.args or call.keywords) and st.passes_message(call) \
                        and self._internal_callee(dotted_source(call.func), Scope(frozenset(params), class_qualname=cls)) is not None:
                    return True
            elif not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for sub in st.child_bodies(stmt):
                    stack.extend(sub)
                for c in getattr(stmt, "cases", ()):
                    stack.extend(c.body)
        return False

    def _defaults(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, Node], ...]:
        """Default values of the parameters, as IR (``error_class=ValueError`` is a class ``Ref``)."""
        pairs = st.param_defaults(node)
        out: list[tuple[str, Node]] = []
        for x, d in pairs:
            if isinstance(d, (ast.Name, ast.Attribute)) and (written := dotted_source(d)) is not None:
                target = self.builder.resolve_name(written)
                if target is not None and target not in ("None", "True", "False"):
                    out.append((x.arg, Ref(target=target, src=written, is_call=False)))
            elif isinstance(d, (ast.Constant, ast.JoinedStr)) and not (isinstance(d, ast.Constant) and d.value is None):
                out.append((x.arg, self.builder.arg(d, Scope())))
        return tuple(out)

    def factory_application(self, call: ast.Call, state: State, env: Env) -> None:
        """``@on_http_error(exc.GitlabGetError)`` on a function, or ``on_http_error(GetError)(f)``: a package function
        handed a class as it is, recorded as a call of it, so that phase 2 binds the class its wrapper raises
        (``closure.py``).  Only a call with a class-like name among its arguments (a decorator's other options, a
        runtime value, say nothing here)."""
        written = dotted_source(call.func)
        if written is None or class_like(written) or not (call.args or call.keywords):
            return
        scope = self.scope(state, env)
        star = next((i for i, x in enumerate(call.args) if isinstance(x, ast.Starred)), len(call.args))
        args = tuple(self._call_arg(x, scope) for x in call.args[:star])
        kwargs = tuple((k.arg, self._call_arg(k.value, scope)) for k in call.keywords if k.arg is not None)
        if not any(isinstance(a, Ref) and not a.is_call and class_like(a.src) for a in (*args, *(v for _, v in kwargs))):
            return
        target = self._internal_callee(written, scope)
        if target is not None:
            (state.func.calls if state.func is not None else self.module_calls).append(CallSite(target, args, kwargs))

    def _call_site(self, call: ast.Call, written: str | None, state: State, env: Env) -> None:
        """Record a call of a package function that passes something message-like."""
        if isinstance(call.func, ast.Call):  # `get = on_http_error(GetError)(_get)`: a decorator factory applied
            self.factory_application(call.func, state, env)
        args = call.args
        if written is None or not (args or call.keywords) or class_like(written):
            return
        star = next((i for i, x in enumerate(args) if isinstance(x, ast.Starred)), len(args))
        caught = self._caught_args(call, star, env)
        says = st.passes_message(call) or _passes_instance(call, env)
        if not (caught or says):
            return
        scope = self.scope(state, env)
        target = self._internal_callee(written, scope)
        if target is None or (not says and is_by_name(target)):
            return  # `logger.debug("...", exc_info=ex)`: a caught text handed to a method of some object
        site = CallSite(target, tuple(self._call_arg(x, scope) for x in args[:star]),
                        tuple((k.arg, self._call_arg(k.value, scope)) for k in call.keywords if k.arg is not None),
                        caught)
        (state.func.calls if state.func is not None else self.module_calls).append(site)

    def _caught_args(self, call: ast.Call, star: int, env: Env
                     ) -> tuple[tuple[str, tuple[str, ...], tuple[int, int]], ...]:
        """The arguments that are a caught exception's text (``self.error(str(ex), ex)`` in ``except (TypeError,
        KeyError) as ex``, jsonargparse's parsers): by position or keyword, the caught classes and the ``try``
        body's lines, for phase 2 to give the helper's raise the texts that body may raise (``forwardcalls.py``).
        Only the text of a name a handler bound (``caught_name``), not the exception object itself."""
        if env is None:
            return ()
        out: list[tuple[str, tuple[str, ...], tuple[int, int]]] = []
        for key, x in [*((str(i), a) for i, a in enumerate(call.args[:star])),
                       *((k.arg, k.value) for k in call.keywords if k.arg is not None)]:
            # the caught text (`str(ex)`, f"{ex}", `ex.args[0]`), not the exception itself: a helper handed `ex`
            # wraps or collects it (xmlschema's `self.parse_error(err)` builds its own error around it)
            if not isinstance(x, ast.Name) and (name := caught_name(x)) is not None \
                    and envmod.lookup(env, name) is not None:
                fw = caught_arg(x, env, self.builder.resolve_name, self.tree)
                if fw.classes:
                    out.append((key, fw.classes, fw.lines))
        return tuple(out)

    def _internal_callee(self, written: str | None, scope: Scope) -> str | None:
        """The dotted name of a called function of this package (not a class: an exception's text
        reaches its class through ``__init__``), else None."""
        if written is None or class_like(written):
            return None
        target = self.builder.callee(written, scope)
        if target is None:  # tokens.syntax_error("..."): a method of another object, by name
            return scope.receiver_method(written, self.module, self.builder.resolve_name)
        if target.split(".", 1)[0] != self._top or target in BUILTIN_NAMES:
            return None
        return target

    def _call_arg(self, node: ast.expr, scope: Scope) -> Node:
        """An argument of a recorded call: a class name (``error_class=TypeError``) as a class reference; a
        local holding the exception instance it was assigned (``ex = exception_type(f"{message}")`` then
        ``_raise(ex, cause)``), as the raise would read it."""
        if isinstance(node, ast.Name) and (built := _built_instance(envmod.lookup(scope.env, node.id))):
            return alt([self.builder.exception(value, scope.at(at)) for value, at in built])
        if isinstance(node, (ast.Name, ast.Attribute)) and (written := dotted_source(node)) is not None \
                and class_like(written) and envmod.lookup(scope.env, written.split(".", 1)[0]) is None:
            target = self.builder.resolve_name(written)
            if target is not None:
                return Ref(target=target, src=written, is_call=False)
        return self.builder.arg(node, scope)


def _built_instance(b: envmod.Binding | None) -> list[tuple[ast.Call, envmod.Env | None]]:
    """The calls a local was assigned on every path, when each builds an exception with a message
    (``exception_type(f"{message}")``, ``ConfigError(msg)``: a class-like or exception-like name called with
    arguments); else empty.  omegaconf's ``format_and_raise`` builds the instance and hands it to
    ``_raise(ex, cause)``, which raises its parameter: the instance is the message of that raise."""
    if b is None or b.prev is not None or b.local_def is not None or b.caught is not None:
        return []
    if b.options:
        found = [x for o in b.options for x in _built_instance(o)] if all(o is not None for o in b.options) else []
        return found if len(found) == len(b.options) else []
    v = b.value
    if isinstance(v, ast.Call) and (v.args or v.keywords) and (written := dotted_source(v.func)) is not None:
        last = written.rsplit(".", 1)[-1]
        if class_like(written) or st.MSG_NAME.search(last) is not None:
            return [(v, b.env)]
    return []


def _passes_instance(call: ast.Call, env: Env) -> bool:
    """Whether a call passes a local holding an exception instance it built (``_built_instance``)."""
    return any(isinstance(x, ast.Name) and _built_instance(envmod.lookup(env, x.id))
               for x in (*call.args, *(k.value for k in call.keywords)))
