"""Phase 2 assembly: pending sites → ``ErrorSite``, classes → ``ClassInfo``, symbols.

Runs once in the parent over every file's ``FileResult``.  It is a linear
pass over the sites plus dictionary look-ups into the summaries; nothing
here re-reads or re-parses source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from errdex.extract.binding import Bind
from errdex.extract.bounds import bounded_templates
from errdex.extract.classtables import common_base
from errdex.extract.closure import class_refs, enclosing
from errdex.extract.closure import named_class as closure_class
from errdex.extract.clsattrs import with_class_attrs
from errdex.extract.expand import Expander, Outcome
from errdex.extract.factories import bind_with_rest, is_by_name
from errdex.extract.handedback import param_default
from errdex.extract.heldclasses import holds_any, with_held
from errdex.extract.imports import BUILTIN_EXCEPTIONS, class_like
from errdex.extract.ir import (
    Alt,
    Cat,
    Dedent,
    Hole,
    Lit,
    Node,
    Param,
    Ref,
    Variant,
    default_key,
    literal_text,
)
from errdex.extract.kwvalues import keyword_values
from errdex.extract.stmts import MSG_NAME
from errdex.extract.storedlist import all_picked
from errdex.extract.summary import CallSite, FileResult, FuncSummary, ModuleSummary, PendingSite
from errdex.extract.tables import Tables
from errdex.extract.variants import MAX_TEMPLATES
from errdex.model import ClassInfo, ErrorSite, Segment, Template, error_id

_DOTTED = re.compile(r"[\w.]+")
_FIELD = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]")


def clean_text(text: str) -> str:
    """Text that encodes to UTF-8: a literal like ``"\\udcff"`` holds a lone surrogate, which
    neither hashing nor SQLite accepts; it is kept as its backslash escape."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _clean(seg: Segment) -> Segment:
    return seg if seg.expr is not None else Segment(text=clean_text(seg.text))


def _templates(variants: Iterable[Variant], limit: int = MAX_TEMPLATES) -> tuple[tuple[Template, ...], tuple[str, ...]]:
    templates: list[Template] = []
    unresolved: list[str] = []
    for v in variants:
        t = _template(v)
        if t not in templates:
            templates.append(t)
        for p in v:
            if p.unresolved and p.segment.expr is not None and p.segment.expr not in unresolved:
                unresolved.append(p.segment.expr)
        if len(templates) >= limit:
            break
    # A template with no literal text (one placeholder, or placeholders with only spaces between them:
    # `{text} ` of a bytes branch) says least, and one holding text we could not resolve is less sure
    # than one without: keep them, but not as the first (the one the id hashes) when a variant with
    # all its text known exists.
    unsure = set(unresolved)
    templates.sort(key=lambda t: (not any(s.text.strip() for s in t.segments if s.is_literal),
                                  any(s.expr in unsure for s in t.segments if not s.is_literal)))
    return tuple(templates) or (Template(),), tuple(unresolved)


def _template(v: Variant) -> Template:
    """A variant's template as ``_templates`` keeps it."""
    return Template.of(_clean(p.segment) for p in v)


def _names_class(resolved: str) -> bool:
    return resolved in BUILTIN_EXCEPTIONS or "." in resolved or resolved[:1].isupper()


def _pick(outcomes: list[Outcome]) -> Outcome:
    """The outcome that names a class (not an unknown value), else the first."""
    for o in outcomes:
        if _names_class(o.resolved):
            return o
    return outcomes[0]


def _says_something(node: Node) -> bool:
    """An argument worth binding: text with literal parts, a helper call or a constant (expanded in
    phase 2), a class reference (``error_class=TypeError``); not a runtime value (a name, an object)."""
    if isinstance(node, Lit):
        return bool(node.text)
    if isinstance(node, (Cat, Alt)):
        return any(_says_something(p) for p in (node.parts if isinstance(node, Cat) else node.options))
    if isinstance(node, Dedent):
        return _says_something(node.inner)
    return isinstance(node, Ref) and not node.reraised and (
        not node.is_call or not class_like(node.target))  # an instance of a class is a value


def _instance(node: Node) -> bool:
    """An exception instance a caller builds (``ConfigurationError(msg, key=k)``), on every path."""
    if isinstance(node, Alt):
        return all(_instance(o) for o in node.options)
    return isinstance(node, Ref) and node.is_call and not node.reraised and not node.param and class_like(node.target)


def raised_params(node: Node | None) -> frozenset[str]:
    """Parameters raised as they are: ``raise error`` with ``error`` a parameter (on some path)."""
    if isinstance(node, Param):
        return frozenset((node.name,))
    if isinstance(node, Alt):
        return frozenset(p for o in node.options for p in raised_params(o))
    return frozenset()


def called_params(node: Node | None, depth: int = 0) -> set[str]:
    """Parameters called as the raised class (``raise exc_type(msg)``)."""
    if node is None or depth > 32:
        return set()
    if isinstance(node, Ref):
        return {node.param} if node.param else set()
    if isinstance(node, Alt):
        return {p for o in node.options for p in called_params(o, depth + 1)}
    return set()


MAX_CALLER_BINDINGS = 64  # distinct argument bindings examined for one site
# distinct caller messages a helper that forwards one keeps (click's ``fail`` has ~20 callers,
# each message its own text, a parser's ``_parse_error(msg, coord)`` 37; more than this and the site
# stays one unresolved placeholder); at most the bindings examined
MAX_CALLER_TEMPLATES = 64
# the same for a helper that raises the class its callers pass with the message (cssutils' error handler
# ``raise error(msg)``: 140 callers, each text with and without its position suffix): a logging-style
# handler for the whole package, whose callers each name their own error
MAX_CLASS_CALLER_BINDINGS = 256
MAX_CLASS_CALLER_TEMPLATES = 2 * MAX_CLASS_CALLER_BINDINGS
MAX_FORWARDS = 3  # a message parameter passed on unchanged to a function that passes it on...
PICKED_TEMPLATES = 16  # the texts kept for a raise of one of a table's classes or prebuilt objects
_RECEIVERS = ("self", "cls")
_PROBE = "\x00"  # marks the placeholder a parameter becomes while probing which ones are text


class Resolver:
    def __init__(self, results: list[FileResult], repo: str = "", template_chars: int = 0) -> None:
        self.repo = repo
        self.template_chars = template_chars  # cut templates longer than this (0: no cut)
        self.cut: dict[str, int] = {}  # path -> how many sites had a template cut
        self.summaries: list[ModuleSummary] = [r.summary for r in results if r.summary is not None]
        self.tables = Tables(self.summaries)
        self.x = Expander(self.tables)
        self._callers: dict[str, list[tuple[CallSite, str]]] | None = None

    def site(self, s: PendingSite, path: str, module: str) -> ErrorSite:
        written, resolved, variants, picked = self._message(s, self._own_defaults(s, module), module)
        own, by_callers = resolved, False
        # a table's objects or classes (``classtables``): one text each, all kept up to a table's size
        # (or the instances an error-collecting parser stored in a list attribute, ``storedlist``)
        templates, unresolved = _templates(variants, PICKED_TEMPLATES if picked or all_picked(s.value) else MAX_TEMPLATES)
        if s.kind == "error" and len(templates) > 1 and isinstance(s.value, Ref) \
                and self.tables.canonical(s.value.target) in self.tables.classes:
            templates = _showing_passed(templates, s.value)  # a package class's own __init__/__str__
        if s.kind == "error" and (closed := self._via_closure(s, module, templates)) is not None:
            written, resolved, templates, picked = closed  # a decorator factory's class, bound where it is applied
            own, unresolved = resolved, ()
        elif unresolved:
            via = self._via_callers(s, module)
            if via is not None:
                written, resolved, templates, unresolved = via
                by_callers = True
        elif s.kind == "error" and _message_placeholder(templates):
            # `{message}` is a value, not lost text (SyntaxFailure's __str__): the callers' texts first,
            # the site's own template kept for a caller outside the package
            via = self._via_callers(s, module)
            if via is not None:
                templates = (*via[2], *(t for t in templates if t not in via[2]))[:len(via[2]) + 1]
        elif s.kind == "error" and (texts := self._interpolated_callers(s, module, templates)):
            # `"%s: %s" % (error_text, repr(value))` with the callers' literal `error_text`: their texts first,
            # the site's own templates all kept for a caller outside the package (or one passing a value: beartype's
            # `import_module_attr` has four, and a runtime `exception_prefix` reads any of them)
            templates = (*texts, *(t for t in templates if t not in texts))
        if not by_callers and (d := param_default(s.value)) is not None and resolved == d.target:
            # `kind = kind or SchemaError` read on its own: a caller passing only a class is not recorded, so the
            # default is not known to be the one class (``_via_callers`` names it when the callers' are its own)
            written = resolved = s.written
        if self.template_chars:
            # Before the id hashes it: a megabyte message costs its normalisation once per site.
            templates, was_cut = bounded_templates(templates, self.template_chars)
            if was_cut:
                self.cut[path] = self.cut.get(path, 0) + 1
        return ErrorSite(
            error_id=error_id(self.repo, s.kind, resolved, templates[0].normalized(), s.qualname),
            kind=s.kind, exception=written, exception_resolved=resolved, templates=templates,
            path=path, line=s.line, end_line=s.end_line, qualname=s.qualname, module=module,
            exception_bases=self.tables.bases_chain(resolved), guards=s.guards,
            snippet=s.snippet, snippet_start=s.snippet_start, docstring=clean_text(s.docstring),
            comments=s.comments, unresolved=unresolved, cause=s.cause, requires=s.requires,
            requires_line=s.requires_line, handed=s.handed, keywords=s.keywords,
            picked=picked if resolved == own else (),  # (callers' classes replace the table's)
            registered=s.registered,
            keyword_values=keyword_values(s.value, self.templates_of, self.tables.constant) if s.kind == "error" else (),
        )

    def _own_defaults(self, s: PendingSite, module: str) -> dict[str, Node]:
        """The enclosing function's literal parameter defaults, each under its ``keyedtables.default_key``
        marker: read only as a table's key that reaches it through an unbound parameter."""
        f = self.tables.functions.get(f"{module}.{s.qualname}" if module else s.qualname)
        if f is None:
            return {}
        return {default_key(p): d for p, d in f.defaults if literal_text(d) is not None}

    def _common_base(self, outcomes: list[Outcome]) -> str | None:
        """Two or more of the package's classes picked from a table (``classtables``), all subclasses of one of the
        package's: that class."""
        if not any(o.picked for o in outcomes):
            return None
        classes: list[str] = []
        for o in outcomes:
            if o.resolved not in self.tables.classes:
                return None
            if o.resolved not in classes:
                classes.append(o.resolved)
        base = common_base(classes, self.tables.bases_chain) if len(classes) > 1 else None
        return base if base in self.tables.classes else None

    def templates_of(self, node: Node) -> tuple[Template, ...]:
        """The templates of a text on its own (``attrtexts.py``)."""
        return _templates(self.x.text(node, {}))[0]

    def _message(self, s: PendingSite, bind: Bind, module: str = "") -> tuple[str, str, list[Variant], tuple[str, ...]]:
        """The exception as written and resolved, the message variants, with the enclosing function's parameters
        bound by ``bind`` (empty: left as placeholders), and the other classes it may raise when it names the
        common base of classes picked from a table (``classtables``)."""
        written = s.written
        picked: tuple[str, ...] = ()
        if s.kind == "error":
            assert s.value is not None
            value = s.value
            if module and s.qualname.count(".") == 1:  # a method: `cls.<name>` is its class's attribute, or a subclass's
                value = with_class_attrs(self.tables, value, f"{module}.{s.qualname.rpartition('.')[0]}")
            if holds_any(value):  # `Error = cls.metadata_Error or ...`: each class the family names (``heldclasses``)
                value = with_held(self.tables, value)
            outcomes = self.x.exception(value, bind)
            main = _pick(outcomes)
            variants = [v for o in outcomes for v in o.variants]
            resolved = main.resolved
            if main.written not in ("?", "") and main.written != written and (
                    not class_like(written) or not _DOTTED.fullmatch(written)):
                written = main.written  # raised through a helper (`E.factory(...)`), a variable or an expression: name the class
            if not class_like(s.written) and (base := self._common_base(outcomes)) is not None:
                # `VaultError.from_status(...)` picking one of a table's classes (``classtables``): their common
                # base, the factory call as written (a printed subclass does not contradict it); so for `raise
                # error` of a local that a table's call or prebuilt instance was bound to: each class is kept
                written, resolved = s.written, base
                picked = tuple(dict.fromkeys(o.resolved for o in outcomes if o.resolved != base))
            elif not class_like(s.written) and _instantiations(s.value) and len(
                    {o.resolved for o in outcomes if o.resolved not in ("?", "")}) > 1:
                # `cls = GraphQLError if isinstance(error, GraphQLError) else TypeError; raise cls(msg)`: one
                # of several classes, as for `raise error` of several callers' instances (``callers``)
                written = resolved = s.written
        elif s.kind == "warning":
            if s.value is None:
                resolved = "UserWarning"
                variants = list(self.x.text(s.message, bind)) if s.message is not None else [()]
            else:
                outcomes = self.x.exception(s.value, bind)
                main = _pick(outcomes)
                resolved = main.resolved
                if s.message is not None:
                    variants = list(self.x.text(s.message, bind))
                else:
                    variants = [v for o in outcomes for v in o.variants]
        else:
            resolved = "AssertionError"
            variants = list(self.x.text(s.message, bind)) if s.message is not None else [()]
        return written, resolved, variants, picked

    # ----------------------------------------------------------------- messages from the callers

    def callers(self) -> dict[str, list[tuple[CallSite, str]]]:
        """Canonical callee → the calls passing it something message-like, with the calling
        function's key (built once, from the calls the walks recorded)."""
        if self._callers is None:
            index: dict[str, list[tuple[CallSite, str]]] = {}
            for summary in self.summaries:
                prefix = f"{summary.module}." if summary.module else ""
                for key, f in summary.functions.items():
                    for c in f.calls:
                        target = self.tables.canonical(c.target)
                        if is_by_name(target):  # tokens.syntax_error("..."): the one method of that name
                            target = self.tables.by_name(target) or target
                        index.setdefault(self._defining(target), []).append((c, prefix + key))
            self._callers = index
        return self._callers

    def _defining(self, target: str) -> str:
        """``pkg.Sub.fail`` called as ``self.fail(...)`` in a subclass: the base class method that
        defines it (click's ``ParamType.fail(message, param, ctx)``, whose callers are every type)."""
        if target in self.tables.functions:
            return target
        owner, _, name = target.rpartition(".")
        return self.tables.method(owner, name) or target  # a base's, or what `__getattr__` hands out

    def _via_callers(self, s: PendingSite, module: str
                     ) -> tuple[str, str, tuple[Template, ...], tuple[str, ...]] | None:
        """A message (or class) held in a parameter of the enclosing function: one template per
        distinct message the package's callers pass; None when no caller binds it, or when the
        callers give more than ``MAX_TEMPLATES`` templates (the site then stays unresolved)."""
        key = f"{module}.{s.qualname}" if module else s.qualname
        f = self.tables.functions.get(key)
        if f is None or not f.params:
            return None
        wanted = self._text_params(s, f)
        if not wanted:
            return None
        raised = raised_params(s.value) if s.kind == "error" else frozenset()
        classed = bool(wanted & called_params(s.value))  # `raise error(msg)`, the class from the callers
        limit = MAX_CLASS_CALLER_TEMPLATES if classed else MAX_CALLER_TEMPLATES
        binds = self._binds(key, f, wanted, 0, raised, MAX_CLASS_CALLER_BINDINGS if classed else MAX_CALLER_BINDINGS)
        if not binds:
            return None
        own = self._own_defaults(s, module)  # a parameter a caller leaves out: its default (table keys)
        results = [self._message(s, {**own, **b}, module) for b in binds]
        templates, unresolved = _templates((v for r in results for v in r[2]), limit + 1)
        if len(templates) > limit:
            # a class that adds context to the text under conditions (ZConfig's `_ParseError.__str__`: ` (line N)`,
            # `\n(line N, column C in URL)`, ...) times many callers: each caller's text as the class prints it
            # alone first, then the other forms in turn while room is left; none printed alone: too many
            templates, unresolved = self._plain_first(results, binds, wanted, limit)
            if not templates:
                return None
        written, resolved, _, _ = next((r for r in results if _names_class(r[1])), results[0])
        # a class parameter with no default that the callers bind to several classes (prance's `raise_from(klass,
        # ...)`): no one class either; with a default (`error_class=ValueError`), that class is the site's
        passed = classed and not (wanted & called_params(s.value) & dict(f.defaults).keys())
        if (raised or passed) and len({r[1] for r in results if _names_class(r[1])}) > 1:
            # `raise error` of instances of several classes: the parameter as written (and as resolved: no
            # one class), so that a matcher cannot tell the printed class from it
            written = resolved = s.written
            if (d := param_default(s.value)) is not None and all(
                    r[1] == d.target or d.target in self.tables.bases_chain(r[1]) for r in results if _names_class(r[1])):
                # `kind = kind or SchemaError`, the callers passing that class's subclasses or none: the default
                written, resolved = next((r[0] for r in results if r[1] == d.target), d.src), d.target
        return written, resolved, templates, unresolved

    def _via_closure(self, s: PendingSite, module: str, own: tuple[Template, ...]
                     ) -> tuple[str, str, tuple[Template, ...], tuple[str, ...]] | None:
        """``raise error(...)`` of a parameter of an enclosing decorator factory (``closure.py``): the texts and
        classes of each class the factory's appliers pass, the site's own templates (a class from outside the
        package) after them; the class is the one passed, or the classes' common base with the others picked."""
        key = f"{module}.{s.qualname}" if module else s.qualname
        inner = self.tables.functions.get(key)
        names = called_params(s.value) - set(inner.params if inner is not None else ())
        found = enclosing(self.tables.functions, key, names) if names else None
        if found is None:
            return None
        outer, f, wanted = found
        binds = [b for b in self._binds(outer, f, wanted, 0, most=MAX_CLASS_CALLER_BINDINGS) or ()
                 if wanted <= b.keys() and class_refs(b)]
        if not binds:
            return None
        results = [self._message(s, b, module) for b in binds]
        templates, _ = _templates((v for r in results for v in r[2]), MAX_CLASS_CALLER_TEMPLATES + 1)
        if len(templates) > MAX_CLASS_CALLER_TEMPLATES:
            return None
        classes = list(dict.fromkeys(r[1] for r in results if _names_class(r[1])))
        named = closure_class(classes, self.tables.classes, self.tables.bases_chain)
        if named is None:
            return s.written, s.written, (*templates, *(t for t in own if t not in templates)), tuple(classes)
        written = next(r[0] for r in results if r[1] == named) if len(classes) == 1 else s.written
        return written, named, (*templates, *(t for t in own if t not in templates)), \
            tuple(c for c in classes if c != named)

    def _plain_first(self, results: list[tuple[str, str, list[Variant], tuple[str, ...]]],
                     binds: list[dict[str, Node]], wanted: set[str], limit: int
                     ) -> tuple[tuple[Template, ...], tuple[str, ...]]:
        """At most ``limit`` of the callers' templates: every binding's variants that read as the text it
        passes alone (the class's conditions all false), then the others, one of each binding in turn.
        Empty when no binding's variants hold its text alone."""
        plain: list[Variant] = []
        rest: list[list[Variant]] = []
        for r, b in zip(results, binds, strict=True):
            alone = {_template(v) for p in wanted if p in b for v in self.x.text(b[p], {})}
            plain.extend(v for v in r[2] if _template(v) in alone)
            rest.append([v for v in r[2] if _template(v) not in alone])
        if not plain:
            return (), ()
        turns = [x[i] for i in range(max((len(x) for x in rest), default=0)) for x in rest if i < len(x)]
        return _templates([*plain, *turns], limit)

    def _interpolated_callers(self, s: PendingSite, module: str, templates: tuple[Template, ...]
                              ) -> tuple[Template, ...]:
        """A parameter interpolated as it is among the raise's own text, which the package's callers give
        literal text (imapclient's `_int_or_error(value, error_text)` raising `ProtocolError("%s: %s" %
        (error_text, repr(value)))`, called with "invalid message ID" and "invalid UID"): the templates of
        the callers' texts; empty when no caller passes one (a runtime value says nothing more)."""
        key = f"{module}.{s.qualname}" if module else s.qualname
        f = self.tables.functions.get(key)
        shown = {seg.expr for t in templates for seg in t.segments if seg.expr is not None}
        if f is None or not (candidates := [p for p in f.params if p in shown and p not in _RECEIVERS]):
            return ()
        probe: dict[str, Node] = {p: Hole(_PROBE + p) for p in candidates}
        wanted = {p.segment.expr[1:] for v in self._message(s, probe)[2] for p in v
                  if p.segment.expr is not None and p.segment.expr.startswith(_PROBE)
                  and p.segment.conversion is None and p.segment.format_spec is None}
        # only words passed as text (a space in them): a caller's number or name says what the package passes,
        # not what a user's call does (minimalmodbus' `_check_string(..., minlength=1)` beside `_check_bytes(...,
        # minlength=4)`: a user's `Given: 3 and 4` then read the other helper's `{maxlength} and 4` better)
        binds = []
        for b in self._binds(key, f, wanted, 0) or () if wanted else ():
            texts = {p: a for p, a in b.items() if " " in (literal_text(a) or "").strip()}
            if texts and texts not in binds:
                binds.append(texts)
        if not binds:
            return ()
        own = self._own_defaults(s, module)
        found, _ = _templates((v for b in binds for v in self._message(s, {**own, **b}, module)[2]),
                              MAX_CALLER_TEMPLATES + 1)
        return found if len(found) <= MAX_CALLER_TEMPLATES else ()

    def _text_params(self, s: PendingSite, f: FuncSummary) -> set[str]:
        """The parameters that stand where message text (or the raised class) is expected: bound to
        marked placeholders, those that come out unresolved."""
        probe: dict[str, Node] = {p: Hole(_PROBE + p) for p in f.params}
        # a parameter named as a message (`message`, `msg`) is text wherever it stands: SyntaxFailure's
        # __str__ returns f"{self.message}\n    {self.source}"
        variants = self._message(s, probe)[2]
        wanted = {p.segment.expr[1:] for v in variants for p in v
                  if p.segment.expr is not None and p.segment.expr.startswith(_PROBE)
                  and (p.unresolved or MSG_NAME.fullmatch(p.segment.expr[1:]) is not None)}
        called = called_params(s.value)
        wanted.update(called)
        if f.vararg and wanted & called and any(p.segment.expr == "*" + f.vararg for v in variants for p in v):
            # `raise exception(*args)` (more-itertools' `raise_`): the callers' class and arguments
            return (wanted & set(f.params)) | {"*" + f.vararg}
        return wanted & set(f.params)

    def _binds(self, key: str, f: FuncSummary, wanted: set[str], depth: int,
               raised: frozenset[str] = frozenset(), most: int = MAX_CALLER_BINDINGS) -> list[dict[str, Node]] | None:
        """What the callers of ``key`` pass for the ``wanted`` parameters (or their defaults),
        distinct, in source order; a caller passing on a parameter of its own is followed to its
        own callers.  None when nobody in the package calls it or there are too many.  A parameter
        in ``raised`` is raised as it is (``def error(self, error): raise error``): an exception
        instance a caller builds is then what it raises, not a runtime value."""
        calls = self.callers().get(key)
        if not calls:
            return None
        defaults = dict(f.defaults)
        out: list[dict[str, Node]] = []
        for c, caller in calls:
            bound = bind_with_rest(f.params, f.vararg, f.varkw, list(c.args), dict(c.kwargs))
            b: dict[str, Node] = {}
            for p in wanted:
                a = bound.get(p, defaults.get(p))
                if a is not None and (_says_something(a) or isinstance(a, Param) or (p in raised and _instance(a))):
                    b[p] = a  # a runtime value passed on (`check(x, other)`) says no more than the parameter
            options: list[dict[str, Node]] = [{k: v for k, v in b.items() if not isinstance(v, Param)}]
            for p, a in b.items():
                if isinstance(a, Param) and a.conversion is None and a.format_spec is None and depth < MAX_FORWARDS:
                    g = self.tables.functions.get(caller)
                    sub = self._binds(caller, g, {a.name}, depth + 1) if g is not None and a.name in g.params else None
                    if sub:
                        options = [{**o, p: sb[a.name]} for o in options for sb in sub if a.name in sb] or options
            for o in options:
                if o not in out:
                    out.append(o)
            if len(out) > most:
                return None
        # the function's own default text is raised whenever a caller leaves it out, though none in the
        # package does (h11's `validate(regex, data, msg="malformed data", *format_args)`, called so by tests)
        own = {p: a for p in wanted if (a := defaults.get(p)) is not None and literal_text(a)}
        if own and own not in out and depth == 0:
            out.append(own)
        return out

    def classes(self) -> tuple[ClassInfo, ...]:
        public: dict[str, list[str]] = {}
        for s in self.summaries:
            if _is_public(s.module):
                for local, target in s.imports.items():
                    if local.startswith("_"):
                        continue
                    canon = self.tables.canonical(target)
                    if canon in self.tables.classes:
                        public.setdefault(canon, []).append(f"{s.module}.{local}")
        out: list[ClassInfo] = []
        for qual, (c, s) in self.tables.classes.items():
            names = list(dict.fromkeys(public.get(qual, [])))
            if _is_public(qual) and qual not in names:
                names.insert(0, qual)
            out.append(ClassInfo(
                qualname=qual, path=s.path, line=c.line,
                bases=tuple(self.tables.canonical(b) for b in c.bases),
                docstring=clean_text(c.docstring), public_names=tuple(sorted(names, key=lambda n: (n.count("."), n))),
            ))
        return tuple(sorted(out, key=lambda c: c.qualname))

    def symbols(self) -> dict[str, tuple[str, ...]]:
        names: dict[str, list[str]] = {s.module: list(s.names) for s in self.summaries}
        for mod in list(names):
            parent, _, child = mod.rpartition(".")
            if parent:
                lst = names.setdefault(parent, [])
                if child not in lst:
                    lst.append(child)
        return {m: tuple(sorted(set(v))) for m, v in sorted(names.items())}


def _passed_text(value: Node | None) -> str:
    """The longest literal run of the message a raise passes its class as its first argument:
    ``CoreError("No source file/data was loaded")``.  Not a ``message=`` keyword: jinja2's
    ``TemplatesNotFound(message="Tried to select ...")`` dropped the text its other raise prints, and a
    wrap between that text and ``{name} is undefined`` then ranked the helper's raise first."""
    if not isinstance(value, Ref) or not value.is_call or value.param or not value.args:
        return ""
    arg = value.args[0]
    parts = arg.parts if isinstance(arg, Cat) else (arg,)
    # between the fields a class may fill in later (`self.msg.format(**kw)`, `msg % args`)
    runs = (r.strip() for p in parts if isinstance(p, Lit) for r in _FIELD.split(p.text))
    return max(runs, key=len, default="")


def _showing_passed(templates: tuple[Template, ...], value: Node | None) -> tuple[Template, ...]:
    """A class whose ``__str__`` prints its message only when it is not empty (``if self.msg:
    parts.append(self.msg)``) gives templates with and without it; a raise passing non-empty literal
    text takes the branch that prints it, so the templates without that text are dropped (pykwalify's
    ``<CoreError: error code 3: Path: '/'>`` would otherwise print every ``CoreError`` of the package)."""
    text = _passed_text(value)
    if len(text) < 4 or " " not in text:  # a word may be a code the class keeps apart ('XPTY0004')
        return templates
    def shown(t: Template) -> str:
        return "".join(seg.text for seg in t.segments if seg.is_literal)

    # a template of no text of its own (`{self.fmt.format(**kw)}`) stays: it says nothing either way
    kept = tuple(t for t in templates if text in shown(t) or not shown(t).strip())
    return kept if any(text in shown(t) for t in kept) else templates


def _message_placeholder(templates: tuple[Template, ...]) -> bool:
    """A template with a placeholder named as a message (``{message}``, ``{msg}``)."""
    return any(seg.expr is not None and MSG_NAME.fullmatch(seg.expr) is not None
               for t in templates for seg in t.segments)


def _is_public(dotted: str) -> bool:
    return not any(p.startswith("_") for p in dotted.split("."))


def _instantiations(value: Node) -> bool:
    """Whether a raised value is a call of one of several classes held in a local (``raise cls(msg)``
    after ``cls = A if ... else B``), not a raise of an instance built elsewhere (``raise error``)."""
    return isinstance(value, Alt) and all(isinstance(o, Ref) and o.is_call for o in value.options)
