"""A raise whose message is the text of an exception it caught, and the texts that gives it.

```python
try:
    result = super().unsign(signed_value)
except BadSignature as e:
    sig_error = e
...
raise BadTimeSignature(str(sig_error), payload=value)     # prints BadSignature's own text
```

The message is the caught exception's ``str()``: ``str(e)``, ``e``, ``f"{e}"``, ``e.args[0]`` or
``*e.args`` as the raise's first argument, ``e`` the ``except ... as`` name or a local assigned it.
What the user reads is then the text of a site that raised the caught class, so phase 1 records the
caught classes and the ``try`` body's lines (``caught_classes``), and phase 2 gives the site the
templates of the sites raising one of those classes (or a subclass) that the ``try`` body reaches:
its own lines and the package functions its calls lead to, through the call graph of
``extract/calls.py`` (``attach``).  From the message alone the two sites are then a tie, while a
traceback's frames still say which one raised.  Text the interpreter or another library raises
inside the ``try`` body is not known; the site keeps its own template for it.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from errdex.extract import env as envmod
from errdex.extract.astwalk import statements
from errdex.extract.imports import dotted_source
from errdex.extract.msgraise import caught_by
from errdex.model import CallEdge, ErrorSite, Segment, Template

# the exception being handled, as ``sys.exc_info()[1]`` spells it: what a package helper returns for it
# (Mako's ``compat.exception_as()``), so that ``raise X(str(helper()))`` in an ``except`` forwards the caught text
CURRENT = "sys.exc_info()[1]"
MAX_FORWARDED = 32  # more templates than this from the caught classes: the site keeps its own only
# the same for the caught texts a helper's callers pass it (``forwardcalls.py``), per caller and in all: as
# many as a helper may keep of its callers' own texts (``resolve.MAX_CALLER_TEMPLATES``)
MAX_PASSED = 64
MAX_UNTYPED = 4  # ``obj.name(...)`` on an untyped object: at most this many package functions of that name
MAX_REACHED = 2000  # functions followed from one ``try`` body
# what calling a class runs: ``__new__``, ``__init__``, and the hook a generated ``__init__`` calls after it
# (``@dataclass``'s ``__post_init__``, attrs' ``__attrs_post_init__``): a validation raised there (greenery's
# ``Bound.__post_init__``: ``raise ValueError(f"Invalid bound: {self.v!r}")``) is raised by the call
_CONSTRUCTORS = ("__init__", "__new__", "__post_init__", "__attrs_post_init__")


def caught_name(arg: ast.expr) -> str | None:
    """The name whose own text ``arg`` is: ``e``, ``str(e)``, ``f"{e}"``, ``e.args[0]``, ``*e.args``,
    or a list that extends one of its attributes (``[None] + e.autos``)."""
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add):
        # `[None] + e.autos`, `[message] + e.errors`: a list the raised class prints, extending the caught
        # exception's own (schema 0.7.8's `SchemaError` re-raised with its caught errors)
        own = [s.value.id for s in (arg.left, arg.right) if isinstance(s, ast.Attribute) and isinstance(s.value, ast.Name)]
        return own[0] if len(own) == 1 and any(isinstance(s, ast.List) for s in (arg.left, arg.right)) else None
    if isinstance(arg, ast.Starred):
        v = arg.value
        return v.value.id if isinstance(v, ast.Attribute) and v.attr == "args" and isinstance(
            v.value, ast.Name) else None
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "str" and len(
            arg.args) == 1 and not arg.keywords:
        arg = arg.args[0]
    elif isinstance(arg, ast.JoinedStr) and len(arg.values) == 1 and isinstance(arg.values[0], ast.FormattedValue):
        fv = arg.values[0]
        if fv.conversion in (-1, ord("s")) and fv.format_spec is None:
            arg = fv.value
    elif isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Attribute) and arg.value.attr == "args" and (
            isinstance(arg.slice, ast.Constant) and arg.slice.value == 0):
        arg = arg.value.value
    elif isinstance(arg, ast.Attribute) and _MESSAGE_ATTR.fullmatch(arg.attr):
        # `e.failure_message` / `e.message`: the attribute its class keeps its text in (pyhanko's
        # `ValueErrorWithMessage.__init__`: `self.failure_message = str(failure_message)`)
        arg = arg.value
    return arg.id if isinstance(arg, ast.Name) else None


# an exception's attribute that holds its own text by its name (``message``, ``msg``, ``failure_message``...)
_MESSAGE_ATTR = re.compile(r"(?:\w+_)?(?:message|msg)")


class Caught(NamedTuple):
    """What a raise forwards: the caught classes, the lines of the ``try`` body, the caught name."""

    classes: tuple[str, ...] = ()
    lines: tuple[int, int] = (0, 0)
    name: str = ""
    via: str = ""  # ``str(helper())``: the helper (resolved), which must return ``CURRENT`` (``attach``)
    # a list of caught exceptions joined (``_joined_caught``): when the ``try`` body reaches no site of the
    # class (its calls are on objects of unknown type), every site of the package raising it may have
    anywhere: bool = False
    # the ``try`` body loops over an object (``for token in src``): its class's ``__iter__`` runs there, which
    # no call in the body names (imapclient's ``gen_parsed_response`` iterating a ``TokenSource``)
    iterates: bool = False


def caught_classes(exc: ast.expr, env: envmod.Env | None, resolve: Callable[[str], str | None],
                   tree: ast.AST) -> Caught:
    """The classes (resolved as far as the module's imports go) of the exception whose own text is
    the first argument of the raised call ``exc``, the lines of the ``try`` body that caught it and
    the argument's name; no classes when the argument is anything else."""
    if not isinstance(exc, ast.Call) or not exc.args:
        return Caught()
    current = _handled(exc.args[0], tree, resolve)
    if current is not None:
        return current
    whole = caught_arg(exc.args[0], env, resolve, tree, joined=True)
    if whole.classes:
        return whole
    # the caught text among a thin frame of the raise's own (`"%s: %r" % (str(err), token)`): the caught
    # templates are spliced where the site's template holds it, as for a class that formats it.  A frame with
    # text of its own (`f"while loading: {exc}"`) is matching's to read: it wraps the caught site's text
    # (``match/wrap.py``, which asks ``WRAP_MIN`` characters of a wrapper)
    if _own_chars(exc.args[0]) >= WRAP_MIN:
        return Caught()
    inside = [c for x in _pieces(exc.args[0]) if (c := caught_arg(x, env, resolve, tree)).classes]
    return inside[0] if len({c.name for c in inside}) == 1 else Caught()


WRAP_MIN = 8  # ``match.wrap.MIN_LITERAL``: literal text a template needs to wrap another
_FIELDS = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]|\{[^{}]*\}")


def _own_chars(arg: ast.expr) -> int:
    """The characters of literal text a message built in place writes itself (its format fields left out)."""
    texts = [n.value for n in ast.walk(arg) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return sum(len(_FIELDS.sub("", t).strip()) for t in texts)


def _pieces(arg: ast.expr) -> list[ast.expr]:
    """The values a message built in place interpolates: an f-string's, a ``%`` operand's (its tuple's
    items), ``.format(...)``'s positional arguments, the operands of a ``+`` of texts."""
    if isinstance(arg, ast.JoinedStr):
        return [v.value for v in arg.values if isinstance(v, ast.FormattedValue)
                and v.conversion in (-1, ord("s")) and v.format_spec is None]
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Mod) and isinstance(arg.left, (ast.Constant, ast.JoinedStr)):
        return list(arg.right.elts) if isinstance(arg.right, ast.Tuple) else [arg.right]
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add):
        out: list[ast.expr] = []
        todo: list[ast.expr] = [arg]  # a long `a + b + ...` is nested deep on the left: no recursion
        while todo:
            x = todo.pop()
            if isinstance(x, ast.BinOp) and isinstance(x.op, ast.Add):
                todo += (x.right, x.left)
            elif isinstance(x, ast.List):
                return []
            else:
                out += [v.value for v in x.values if isinstance(v, ast.FormattedValue)] if isinstance(
                    x, ast.JoinedStr) else [x]
        return out
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format" \
            and isinstance(arg.func.value, ast.Constant):
        return [x for x in arg.args if not isinstance(x, ast.Starred)]
    return [arg]


def exc_info_target(target: ast.expr, value: ast.expr) -> str | None:
    """The name an assignment binds to the exception being handled: ``err = sys.exc_info()[1]``, or
    ``_, err, _ = sys.exc_info()`` (what ``except ... as err`` names)."""
    if isinstance(target, ast.Name) and current_exception(value):
        return target.id
    if isinstance(target, ast.Tuple) and len(target.elts) == 3 and isinstance(target.elts[1], ast.Name) \
            and isinstance(value, ast.Call) and not value.args and dotted_source(value.func) == "sys.exc_info":
        return target.elts[1].id
    return None


def caught_arg(arg: ast.expr, env: envmod.Env | None, resolve: Callable[[str], str | None], tree: ast.AST,
               joined: bool = False) -> Caught:
    """``arg`` as the text of a caught exception (``caught_name``: ``str(ex)``, ``ex``...; with ``joined``,
    ``"; ".join(str(e) for e in errors)`` too): the handler's classes, its ``try`` body and the name; no
    classes for anything else.  A raise's first argument, or an argument of a call of a package helper
    that raises it (``self.error(str(ex), ex)``, ``forwardcalls.py``)."""
    name = caught_name(arg)
    b = envmod.lookup(env, name) if name is not None else None
    handler = caught_by(b) if b is not None else None
    many = _joined_caught(arg, tree) if name is None and joined else None
    if many is not None:
        name, handler = ast.unparse(arg), many
    if name is None or handler is None or handler.type is None:
        return Caught()
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    out = []
    for t in types:
        d = dotted_source(t)
        if d is not None:
            out.append(resolve(d) or d)
    for node in statements(tree):  # a try is a statement: no need to enter expressions
        if isinstance(node, ast.Try | ast.TryStar) and handler in node.handlers:
            return Caught(tuple(out), (node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno), name,
                          anywhere=many is not None, iterates=_iterates(node.body))
    return Caught()




def _joined_caught(arg: ast.expr, tree: ast.AST) -> ast.ExceptHandler | None:
    """``"; ".join(str(e) for e in errors)`` over a local list that ``except E as e: errors.append(e)`` grows
    in the same function, in a loop (dynaconf's ``ValidatorList.validate_all``): the text is the caught texts
    one after the other, one of them when one was caught.  The handler whose exceptions the list holds, when
    every append to the list in the function is of that handler's exception."""
    if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "join"
            and len(arg.args) == 1 and not arg.keywords):
        return None
    seq = arg.args[0]
    if not (isinstance(seq, (ast.GeneratorExp, ast.ListComp)) and len(seq.generators) == 1):
        return None
    gen = seq.generators[0]
    if gen.ifs or not isinstance(gen.target, ast.Name) or not isinstance(gen.iter, ast.Name) \
            or caught_name(seq.elt) != gen.target.id:
        return None
    func = min((f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                and f.lineno <= arg.lineno <= (f.end_lineno or f.lineno)),
               key=lambda f: (f.end_lineno or f.lineno) - f.lineno, default=None)
    if func is None:
        return None
    lst = gen.iter.id
    appends = [c for c in ast.walk(func) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
               and isinstance(c.func.value, ast.Name) and c.func.value.id == lst]
    by: set[ast.ExceptHandler] = set()
    for h in (h for h in ast.walk(func) if isinstance(h, ast.ExceptHandler) and h.name):
        by.update(h for c in appends for stmt in h.body for n in ast.walk(stmt)
                  if n is c and dotted_source(c.func) == f"{lst}.append" and len(c.args) == 1
                  and isinstance(c.args[0], ast.Name) and c.args[0].id == h.name)
    held = [c for c in appends if any(c is n for h in by for stmt in h.body for n in ast.walk(stmt))]
    return by.pop() if len(by) == 1 and len(held) == len(appends) else None


def _iterates(body: list[ast.stmt]) -> bool:
    """Whether a ``try`` body loops over a name or an attribute (an iterator object, not a call's result)."""
    return any(isinstance(n, ast.For | ast.AsyncFor) and isinstance(n.iter, ast.Name | ast.Attribute)
               for stmt in body for n in statements(stmt))


def current_exception(expr: ast.expr) -> bool:
    """``sys.exc_info()[1]``: the exception being handled (what ``except ... as e`` names)."""
    return (isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and expr.slice.value == 1
            and isinstance(expr.value, ast.Call) and not expr.value.args
            and dotted_source(expr.value.func) == "sys.exc_info")


def _handled(arg: ast.expr, tree: ast.AST, resolve: Callable[[str], str | None]) -> Caught | None:
    """``str(sys.exc_info()[1])`` or ``str(helper())`` (a package function called with no argument) in an
    ``except`` clause: the clause's classes, its ``try`` body, the expression as written and the helper."""
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "str" and len(arg.args) == 1:
        arg = arg.args[0]
    helper = dotted_source(arg.func) if isinstance(arg, ast.Call) and not arg.args and not arg.keywords else None
    if not current_exception(arg) and helper is None:
        return None
    line = arg.lineno
    for node in statements(tree):
        if isinstance(node, ast.Try | ast.TryStar):
            for h in node.handlers:
                if h.type is not None and h.body and h.body[0].lineno <= line <= (h.end_lineno or line):
                    types = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
                    out = tuple(resolve(d) or d for t in types if (d := dotted_source(t)) is not None)
                    last = node.body[-1].end_lineno or node.body[-1].lineno
                    via = (resolve(helper) or helper) if helper is not None else ""
                    return Caught(out, (node.body[0].lineno, last), ast.unparse(arg), via) if out else None
    return None


def attach(sites: Sequence[tuple[str, ErrorSite, Caught]], edges: Iterable[CallEdge],
           canonical: Callable[[str], str], bases: Callable[[str], Sequence[str]],
           current: frozenset[str] = frozenset(),
           passed: Mapping[int, Sequence[tuple[str, Caught]]] | None = None) -> list[tuple[str, ErrorSite]]:
    """The sites, each that forwards a caught exception's text (its third item) with, after its own
    templates, the templates with literal text of the sites that raise a caught class (or a subclass)
    and that the ``try`` body reaches (its own lines, and the package functions its calls lead to:
    ``_Graph.reach``), put where its templates hold the caught text (``splice``).  Its own templates
    stay first (the id hashes the first).  ``passed`` (by the site's index) adds the caught texts that
    callers of the site's function pass it (``forwardcalls.py``): each the calling function and what
    its ``try`` body catches, the name the parameter that receives the text."""
    graph = _Graph(edges, (f"{s.module}.{s.qualname}" for _, s, _ in sites), bases, canonical)
    by_func: dict[str, list[ErrorSite]] = {}
    for _, s, fw in sites:
        if not fw.classes:
            by_func.setdefault(f"{s.module}.{s.qualname}", []).append(s)
    nested = _with_nested(by_func)

    def texts(me: str, fw: Caught, opening: bool = False) -> dict[Template, None]:
        """The templates with text of the sites raising a caught class that ``me``'s ``try`` body reaches
        (with ``opening``, only those that begin with their text)."""
        classes = {canonical(c) for c in fw.classes}
        first, last = fw.lines
        found = [s for s in by_func.get(me, ()) if first <= s.line <= last]
        found += [s for f in sorted(graph.reach(me, first, last)) for s in nested.get(f, ())]  # not set
        if fw.iterates:  # `for token in src:`, the package's `__iter__` methods (at most MAX_UNTYPED) and what they call
            for it in graph.targets("?.__iter__", me):
                found += [s for f in (it, *sorted(graph.reach(it, 0, 1 << 30))) for s in nested.get(f, ())]
        # order: that changes with each process's string hashing, and with it the order of the templates
        caught = dict.fromkeys(t for s in found if _raises(s, classes) for t in s.templates
                               if _has_text(t) and (not opening or t.segments[0].is_literal))
        if not caught and fw.anywhere:
            caught = dict.fromkeys(t for _, s, f in sites if not f.classes and _raises(s, classes)
                                   for t in s.templates if _has_text(t))
        return caught

    out: list[tuple[str, ErrorSite]] = []
    for i, (path, site, fw) in enumerate(sites):
        extra: dict[Template, None] = {}
        if fw.classes and (not fw.via or canonical(fw.via) in current):  # a helper returning CURRENT
            extra = dict.fromkeys(splice(site.templates, fw.name, list(texts(f"{site.module}.{site.qualname}", fw))))
            extra = _beyond(extra, site.templates, MAX_FORWARDED)
        handed: dict[Template, None] = {}
        for me, o in (passed or {}).get(i, ()):
            # each caller's `try` body on its own: a catch-all (`except Exception`) reaching most of the
            # package says nothing of which text it was, and is left out rather than crowding out the others
            # and only texts that begin with words of their own: an exception class's frame around a message
            # it holds (xmlschema's `{self.message}:\n\nSchema component: ...`, raised at many sites alike) says
            # nothing of which text was passed, and its copies crowd out the sites that do raise it
            handed.update(_beyond(dict.fromkeys(splice(site.templates, o.name, list(texts(me, o, opening=True)))),
                                  site.templates, MAX_PASSED))
        extra.update(_beyond(handed, (*site.templates, *extra), MAX_PASSED))
        if extra:
            site = dataclasses.replace(site, templates=(*site.templates, *extra))
        out.append((path, site))
    return out


def _beyond(extra: dict[Template, None], own: Sequence[Template], most: int) -> dict[Template, None]:
    """The templates of ``extra`` that are not among ``own``; none when more than ``most``."""
    out = {t: None for t in extra if t not in own}
    return out if len(out) <= most else {}


def _with_nested(by_func: dict[str, list[ErrorSite]]) -> dict[str, list[ErrorSite]]:
    """Each function's sites and those of the functions nested in it (``f.<locals>.get_arg``): a function
    that returns a closure runs it when its result is called (``arggetter(func)(name, args)``), and the
    call graph counts a nested function's calls as the outer's, so its raises are reached the same way."""
    out = {k: list(v) for k, v in by_func.items()}
    for k in sorted(by_func):
        outer = k
        while ".<locals>." in outer:
            outer = outer.rsplit(".<locals>.", 1)[0]
            out.setdefault(outer, []).extend(by_func[k])
    return out


def splice(own: Sequence[Template], name: str, caught: Sequence[Template]) -> list[Template]:
    """The caught templates put where the site's templates hold the caught text (``{e} in {key}`` and
    ``Invalid specifier: {spec}`` give ``Invalid specifier: {spec} in {key}``; ``{e}``, the class's text
    when given no context, gives it as is).  With no template holding it at all (the class keeps the
    text under another name), a first template that is one value is the text as is."""
    holding = [t for t in own if any(_holds(seg, name) for seg in t.segments)]
    out: list[Template] = []
    for t in holding or ([own[0]] if own and _bare(own[0]) else []):
        for c in caught:
            segs: list[Segment] = []
            for seg in t.segments:
                segs.extend(c.segments if _holds(seg, name) or _bare(t) else (seg,))
            out.append(Template.of(segs))
    return out


def _holds(seg: Segment, name: str) -> bool:
    return (seg.expr in (name, f"str({name})", f"{name}.args[0]", f"*{name}.args") or (
        seg.expr is not None and seg.expr.startswith(f"{name}.") and _MESSAGE_ATTR.fullmatch(seg.expr[len(name) + 1:])
        is not None)) and seg.conversion in (None, "s")


def _raises(s: ErrorSite, classes: set[str]) -> bool:
    """Whether the site raises one of ``classes`` or a subclass (through the package's bases, then
    Python's own hierarchy: ``except Exception`` catches a ``ValueError``)."""
    chain = (s.exception_resolved, *s.exception_bases)
    return not classes.isdisjoint(chain) or any(_builtin_subclass(c, k) for c in chain[-1:] for k in classes)


def _builtin_subclass(cls: str, base: str) -> bool:
    a, b = getattr(builtins, cls, None), getattr(builtins, base, None)
    return isinstance(a, type) and isinstance(b, type) and issubclass(a, BaseException) and issubclass(a, b)


class _Graph:
    """The package's call edges, by caller; ``?.name`` (an untyped receiver) is the package's
    functions of that name when there are at most ``MAX_UNTYPED`` (all of them for a call in the
    ``try`` body of a method of that very name: a composite delegating to its parts, schema's
    ``sub_schema.validate(data)`` inside ``Or.validate``), a class its ``__init__``, and
    ``self.m()`` of a method the class inherits (``Sub.m``) its base's, and a name the module imported
    (``from .lib import *``, re-exported by ``lib/__init__.py`` from ``lib/binary.py``) where it is
    defined (``canonical``)."""

    def __init__(self, edges: Iterable[CallEdge], functions: Iterable[str], bases: Callable[[str], Sequence[str]],
                 canonical: Callable[[str], str] = str) -> None:
        self.bases = bases
        self.canonical = canonical
        self.out: dict[str, list[tuple[str, int]]] = {}
        known: set[str] = set(functions)
        for e in edges:
            if e.kind == "call":
                self.out.setdefault(e.caller, []).append((e.callee, e.line))
                known.add(e.caller)
        self.known = known
        self.by_last: dict[str, list[str]] = {}
        for f in sorted(known):  # the same candidates in the same order in every process (``reach`` stops at
            self.by_last.setdefault(f.rsplit(".", 1)[-1], []).append(f)  # ``MAX_REACHED``)

    def targets(self, callee: str, caller: str, same_protocol: bool = False) -> list[str]:
        if callee.startswith("?."):
            cands = [f for f in self.by_last.get(callee[2:], ()) if f != caller]
            if same_protocol and callee[2:] == caller.rsplit(".", 1)[-1]:
                # `sub.validate(data)` inside a `validate`: the same method of any part, this very one too,
                # unless it overrides a base's (then the call is `super().validate(...)`)
                return cands if self.overrides(caller) else [*cands, caller]
            return cands if len(cands) <= MAX_UNTYPED else []
        if callee not in self.known and "." in callee:
            owner, name = callee.rsplit(".", 1)
            inherited = next((f"{b}.{name}" for b in self.bases(owner) if f"{b}.{name}" in self.known), None)
            if inherited is not None:
                return [inherited]
            real = self.canonical(callee)
            if real != callee and real in self.known:
                return [real]
        return [callee, *(self._constructor(callee, m) for m in _CONSTRUCTORS)]

    def _constructor(self, cls: str, method: str) -> str:
        """``cls.method``, or the base's that the class inherits (a dataclass's generated ``__init__`` calls the
        ``__post_init__`` its class defines or inherits)."""
        own = f"{cls}.{method}"
        if own in self.known:
            return own
        return next((f"{b}.{method}" for b in self.bases(cls) if f"{b}.{method}" in self.known), own)

    def overrides(self, func: str) -> bool:
        """Whether a method overrides one of a package base of its class."""
        owner, _, name = func.rpartition(".")
        return bool(owner) and any(f"{b}.{name}" in self.known for b in self.bases(owner))

    def reach(self, start: str, first: int, last: int) -> set[str]:
        """The functions that the calls on lines ``first..last`` of ``start`` lead to (``start`` not
        included: its other lines are not in the ``try`` body, unless it calls itself on a part)."""
        todo = [t for c, line in self.out.get(start, ()) if first <= line <= last
                for t in self.targets(c, start, same_protocol=True)]
        seen: set[str] = {start} if start in todo else set()  # a part of the same kind: all of `start`
        while todo and len(seen) < MAX_REACHED:
            f = todo.pop()
            if f in seen or f == start:
                continue
            seen.add(f)
            # (a method delegating to its parts' method of its own name, deeper in: `BackendSelector.render`
            # running `backend.render(request)` for each backend it holds, reached from `_SELECTOR.render(...)`)
            todo.extend(t for c, _ in self.out.get(f, ()) for t in self.targets(c, f, same_protocol=True))
        return seen


def _bare(t: Template) -> bool:
    """A message that is one value and nothing else: the caught exception's text, as it is."""
    return len(t.segments) == 1 and not t.segments[0].is_literal


def _has_text(t: Template) -> bool:
    return any(seg.is_literal and seg.text.strip() for seg in t.segments)
