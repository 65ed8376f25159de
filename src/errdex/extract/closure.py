"""A class handed to a decorator factory and raised by the wrapper it builds (docs/matching.md, issue 17's
eightieth round).

python-gitlab's ``exceptions.on_http_error``::

    def on_http_error(error: type[Exception]) -> Callable[[__F], __F]:
        def wrap(f):
            @functools.wraps(f)
            def wrapped_f(*args, **kwargs):
                try:
                    return f(*args, **kwargs)
                except GitlabHttpError as e:
                    raise error(e.error_message, e.response_code, e.response_body) from e
            return cast(__F, wrapped_f)
        return wrap

    class ProjectHookManager(...):
        @exc.on_http_error(exc.GitlabHookTestError)
        def test(self, ...): ...

The raised class is a parameter of an enclosing function (a closure's free variable), bound where the factory is
applied.  Phase 1 reads such a raise as a call of that parameter (``Ref.param``, ``msgraise``; the factory keeps a
summary, ``walker.site``) and records each application of a package function to a class (a decorator
``@factory(Cls)``, or ``factory(Cls)(f)``) as a call of it (``walkcalls.CallsMixin.factory_application``).  Phase 2
(``Resolver._via_closure``) finds the enclosing function holding the parameter (``enclosing``) and binds it to each
class its appliers pass, as the callers of a helper raising its own parameter are bound (``Resolver._binds``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping

from errdex.extract.classtables import common_base
from errdex.extract.ir import Alt, Node, Ref
from errdex.extract.summary import FuncSummary

_LOCALS = ".<locals>."


def enclosing(functions: Mapping[str, FuncSummary], key: str, names: set[str]
              ) -> tuple[str, FuncSummary, set[str]] | None:
    """The nearest function enclosing ``key`` (``f.<locals>.wrap.<locals>.wrapped_f``) whose parameters hold some of
    ``names``: its key, its summary and those names; None when none does (a module-level function, or names that
    are no enclosing function's parameters)."""
    parts = key.split(_LOCALS)
    for i in range(len(parts) - 1, 0, -1):
        outer = _LOCALS.join(parts[:i])
        f = functions.get(outer)
        if f is not None and (held := names & set(f.params)):
            return outer, f, held
    return None


def class_refs(bind: Mapping[str, Node]) -> bool:
    """Whether every bound value is a class as named (``exc.GitlabGetError``), on every path: not an instance, not
    a runtime value."""
    def is_class(node: Node) -> bool:
        if isinstance(node, Alt):
            return all(is_class(o) for o in node.options)
        return isinstance(node, Ref) and not node.is_call and not node.reraised
    return bool(bind) and all(is_class(v) for v in bind.values())


def named_class(classes: list[str], package: Container[str], bases_chain: Callable[[str], Iterable[str]]) -> str | None:
    """The one class a site raising any of ``classes`` names: the class itself, or for several their nearest common
    base of the package (``GitlabOperationError`` for ``GitlabGetError``, ``GitlabCreateError``, ...); else None."""
    if len(classes) == 1:
        return classes[0]
    base = common_base(classes, bases_chain)
    return base if base is not None and base in package else None
