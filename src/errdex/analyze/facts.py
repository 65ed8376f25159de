"""``Facts``: everything an error's page may rest on, gathered from the catalog for one site.

The static backend and the language-model backend both write the page from
these facts and nothing else, so a sentence on the page can always point at
the fact it came from.  ``gather_facts`` is the one entry point; the
snapshot-wide tables it needs (options, tests, classes, symbols, every site)
are loaded once into a ``SnapshotContext`` and reused for every site.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field
from typing import Literal

from errdex.analyze.context import SnapshotContext, load_context
from errdex.analyze.earlyexit import early_exits, function_seen, parameters, rebound
from errdex.analyze.guardwords import describe_guard, guard_names
from errdex.analyze.helperflags import flag_sources
from errdex.analyze.kindmakers import kind_makers
from errdex.analyze.narrowed import Narrowed, narrowed_of
from errdex.analyze.optionlink import options_for_guard
from errdex.analyze.options import OptionFacts, option_facts, raising_value
from errdex.analyze.related import related_errors, related_note
from errdex.analyze.returnedname import returned_constant
from errdex.catalog.base import Catalog
from errdex.model import (
    ConfigOption,
    ErrorSite,
    Guard,
    Observation,
    PublicPath,
    RelatedError,
    Snapshot,
    TestExpectation,
)

LinkHow = Literal["regex", "literals", "type"]


@dataclass(frozen=True, slots=True)
class GuardFact:
    """One condition on the way to the raise, with its plain-words reading.

    ``words`` is "" when no rule could read the condition; the page then
    quotes ``guard.normalized`` as code instead of paraphrasing it.
    ``options`` are the configuration options the condition reads.
    """

    guard: Guard
    words: str = ""
    rule: str = ""  # the rule that produced ``words`` ("config-flag", "isinstance", ...)
    names: tuple[str, ...] = ()  # variables and attributes the condition reads
    options: tuple[ConfigOption, ...] = ()
    rebound: str = ""  # ``axes = (axes,)``: the function rebuilt the parameter the guard reads from itself first


@dataclass(frozen=True, slots=True)
class TestLink:
    """A test that expects this error: the best evidence of when it happens."""

    __test__ = False  # not a pytest class

    test: TestExpectation
    how: LinkHow  # regex: the test's pattern matched a rendering of the template; literals: its text agrees
    score: float = 0.0
    url: str = ""


@dataclass(frozen=True, slots=True)
class ExceptionFact:
    """The raised class: its name as users catch it, its documentation and its bases."""

    resolved: str  # "jax._src.errors.ConcretizationTypeError" or "RuntimeError"
    name: str  # "ConcretizationTypeError"
    public_name: str  # what user code writes in ``except``: "jax.errors.ConcretizationTypeError"
    builtin: bool
    docstring: str = ""
    bases: tuple[str, ...] = ()  # nearest first, up to builtins
    path: str = ""
    line: int = 0
    catch_name: str = ""  # when ``public_name`` is "": the nearest base class user code can name


@dataclass(frozen=True, slots=True)
class Facts:
    """Everything the page for one error rests on."""

    site: ErrorSite
    snapshot: Snapshot
    exception: ExceptionFact
    guards: tuple[GuardFact, ...] = ()
    options: tuple[ConfigOption, ...] = ()  # every option the guards read, once
    tests: tuple[TestLink, ...] = ()  # best first
    docstring: str = ""  # the enclosing function's (or class's)
    comments: tuple[str, ...] = ()
    public_function: str = ""  # the re-exported name of the enclosing function, when unique
    related: tuple[RelatedError, ...] = ()  # at most five, best first
    related_note: str = ""  # why none is related, when none is (related.related_note)
    # (guard, message) of the other raises and warnings in the same function: the branches a snippet may not show
    siblings: tuple[tuple[str, str], ...] = ()
    source_url: str = ""
    symbols_extra: dict[str, tuple[str, ...]] = field(default_factory=dict)  # objects' attributes (jax.config)
    public_path: PublicPath = field(default_factory=PublicPath)  # the public names whose calls reach the raise
    option_facts: tuple[OptionFacts, ...] = ()  # per option in ``options``: how to set it, what it is for
    same_text: tuple[ErrorSite, ...] = ()  # other sites of the snapshot that raise exactly this message
    earlier: tuple[ErrorSite, ...] = ()  # same message and check, made first by a function on the way here
    rerouted: bool = False  # the earlier check is on every route from the first entry: the path avoids it
    earlier_entries: tuple[tuple[str, ...], ...] = ()  # per site of ``earlier``: the public calls that reach it
    bypass: tuple[str, str, tuple[str, ...]] = ("", "", ())  # (entry, function below the earlier check, its other callers)
    params: tuple[str, ...] = ()  # the raising function's parameters (when its ``def`` is in the snippet)
    whole_function: bool = True  # the snippet shows the raising function from its ``def``
    observed: tuple[Observation, ...] = ()  # the library's own tests raising it (``errdex observe``), best first
    uncalled: bool = False  # nothing in the package calls, registers or exports the raising function
    enum_settings: tuple[tuple[str, str, str], ...] = ()  # (attribute, member, public enum) a guard compares with ==
    enum_others: tuple[str, ...] = ()  # the other members of enum_settings[0]'s enum that the package's guards name
    same_function: tuple[ErrorSite, ...] = ()  # the other raises of the raising function (its other branches)
    # (public function, its docstring) for the other public calls that create the class whose constructor raises
    # (``jax.make_mesh`` for ``Mesh.__new__``): the docstring is that of a raise site in the function
    function_text: str = ""  # the raising function from its ``def`` to the raise, from the file's snippets
    enum_setter: str = ""  # the public call the package's own code sets ``enum_settings[0]``'s attribute with
    factory_docs: tuple[tuple[str, str, str], ...] = ()  # (name, docstring, path)
    # (local, helper call, tests that make one of its flags true, the argument the tested value is an entry of): a list of flags unpacked from a package
    # helper's result and tested (``is_squeezed`` from ``utils.parse_indices``, true where ``isinstance(idx, int)``)
    flag_sources: tuple[tuple[str, str, tuple[str, ...], str], ...] = ()
    flag_clears: tuple[tuple[str, str, tuple[str, ...], str], ...] = ()  # the same, for the cases a flag is false
    # (enum member, public class, method) for a registration limited to one kind (``kernel_types=[CoreType.X]``):
    # the public class whose method returns that member (``VectorSubcoreMesh.core_type``), which the user writes
    kind_makers: tuple[tuple[str, str, str], ...] = ()
    returns_constant: str = ""  # a private raising function's only return value, a public module constant (public name)
    # the narrowed types that reach the raise, the user's calls that make them, the operations that reach it
    narrowed: Narrowed | None = None

    @property
    def error_id(self) -> str:
        return self.site.error_id

    @property
    def title(self) -> str:
        return self.site.template.render() or self.exception.name


def gather_facts(catalog: Catalog, snapshot: Snapshot, site: ErrorSite, *,
                 context: SnapshotContext | None = None) -> Facts:
    """The facts for ``site`` in ``snapshot``.

    Pass ``context`` (from ``load_context``) when gathering for many sites of
    one snapshot; without it the snapshot's tables are loaded for this call.
    """
    ctx = context if context is not None else load_context(catalog, snapshot)
    guards: list[GuardFact] = []
    options: list[ConfigOption] = []
    params = parameters(site)
    shadowing = [p for p in params if hasattr(builtins, p)]  # ``open``, ``type``, ``id``: the parameter, not the builtin
    for g in (*early_exits(site), *site.guards):
        opts = options_for_guard(g, site, ctx)
        words, rule = describe_guard(g, opts, snippet=site.snippet, snippet_start=site.snippet_start)
        names = guard_names(g)
        if g.kind != "except":
            names += tuple(p for p in shadowing if p not in names
                           and re.search(rf"(?<![\w.]){p}(?![\w(])", g.normalized or g.source))
        again = next((r for n in names if (r := rebound(site, n, g.line))), "") if g.line else ""
        if again and words:  # said of the value as the function holds it, not of the argument passed
            head = next(n for n in names if rebound(site, n, g.line))
            words = words.replace(f"`{head}`", f"`{head}`, once `{again}` has run,", 1)
        guards.append(GuardFact(guard=g, words=words, rule=rule, names=names, options=opts, rebound=again))
        options.extend(o for o in opts if o not in options)
    links = ctx.tests_for_site(site)
    raising = {o: raising_value(g.words) for g in guards for o in g.options}
    ofacts = tuple(option_facts(o, raising.get(o), ctx.symbols, ctx.tests) for o in options)
    enums = ctx.enum_settings(site)
    narrowed = narrowed_of(site, ctx.call_graph) if any(g.kind == "narrowed" for g in site.guards) else None
    return Facts(
        site=site,
        snapshot=snapshot,
        exception=exception_fact(site, ctx),
        guards=tuple(guards),
        options=tuple(options),
        tests=tuple(TestLink(test=t, how=_how(how), score=score, url=snapshot.source_url(t.path, t.line))
                    for t, how, score in links),
        docstring=site.docstring,
        comments=site.comments,
        public_function=ctx.public_function(site),
        related=(rel := related_errors(site, ctx)),
        related_note=related_note(site, ctx, rel),
        siblings=tuple((" and ".join(g.normalized for g in o.guards), o.template.render())
                       for o in ctx.sites_by_function.get((site.path, site.qualname), []) if o.error_id != site.error_id),
        source_url=snapshot.source_url(site.path, site.line, site.end_line),
        symbols_extra=ctx.extra_symbols,
        public_path=ctx.public_path(site),
        option_facts=ofacts,
        same_text=ctx.same_text(site),
        earlier=ctx.earlier(site),
        rerouted=ctx.rerouted(site),
        earlier_entries=tuple(ctx.public_path(e).entries[:2] for e in ctx.earlier(site)),
        bypass=ctx.bypass(site),
        params=params,
        whole_function=function_seen(site),
        observed=ctx.observed(site),
        uncalled=ctx.uncalled(site),
        enum_settings=enums,
        enum_others=tuple(m for m in ctx.enum_compared(enums[0][2]) if m != enums[0][1]) if enums else (),
        enum_setter=ctx.enum_setter(enums[0][0], enums[0][2]) if enums else "",
        function_text=ctx.function_text(site),
        same_function=tuple(s for s in ctx.sites_by_function.get((site.path, site.qualname), ())
                            if s.error_id != site.error_id),
        factory_docs=_factory_docs(site, ctx),
        flag_sources=flag_sources(site, [g.normalized or g.source for g in site.guards], ctx.sites_by_function),
        flag_clears=flag_sources(site, [g.normalized or g.source for g in site.guards], ctx.sites_by_function,
                                 "False"),
        kind_makers=kind_makers(registered_members(site), ctx.sites, ctx.call_graph.public),
        # only for a function outside code calls directly: a rule the package registers is not the user's to call
        returns_constant=returned_constant(site, ctx.symbols) if ctx.uncalled(site) else "",
        narrowed=narrowed,
    )


def registered_members(site: ErrorSite) -> list[str]:
    """The enum members (``tpu_core.CoreType.SC_VECTOR_SUBCORE``) a keyword of the registration decorating the
    raising function limits it to (``@register_lowering_rule(lax.rev_p, kernel_types=[...])``)."""
    fn = re.escape(site.qualname.split(".<locals>.", 1)[0].rsplit(".", 1)[-1])
    m = re.search(rf"@([\w.]*regist\w*)\(\s*[\w.]+\s*,\s*(\w+\s*=[^@]*?)\)\s*\n(?:\s*@.*\n)*\s*def {fn}\(",
                  site.snippet)
    return re.findall(r"\b[\w.]*[A-Z]\w*\.[A-Z][A-Z0-9_]*\b", m.group(2)) if m else []


_CONSTRUCTORS = ("__init__", "__new__", "__post_init__")


def _factory_docs(site: ErrorSite, ctx: SnapshotContext) -> tuple[tuple[str, str, str], ...]:
    """(public name, docstring, path) of the other public functions through which the class whose constructor
    raises is created (the public path's further entries), when one module-level function of that name in
    the package has a raise site that carries its docstring (a unique docstring: no guess between two)."""
    if site.qualname.rsplit(".", 1)[-1] not in _CONSTRUCTORS:
        return ()
    entries = ctx.public_path(site).entries
    if len(entries) < 2:
        return ()
    if "by_qualname" not in ctx.relation_index:
        idx: dict[str, list[ErrorSite]] = {}
        for s in ctx.sites:
            if s.docstring and "." not in s.qualname:
                idx.setdefault(s.qualname, []).append(s)
        ctx.relation_index["by_qualname"] = idx
    out: list[tuple[str, str, str]] = []
    for e in entries[1:3]:
        found = {s.docstring: s.path for s in ctx.relation_index["by_qualname"].get(e.rsplit(".", 1)[-1], [])}
        if len(found) == 1:
            doc, path = found.popitem()
            out.append((e, doc, path))
    return tuple(out)


def exception_fact(site: ErrorSite, ctx: SnapshotContext) -> ExceptionFact:
    """The raised class as users see it: the public name they can catch, and its docstring."""
    resolved = site.exception_resolved or site.exception
    info = ctx.classes.get(resolved)
    is_builtin = "." not in resolved and isinstance(getattr(builtins, resolved, None), type)
    public = resolved if is_builtin else ""
    if info is not None and info.public_names:
        # the shortest name; between equals, where the class is defined (rating 7, 5b54: `click.exceptions.Exit`,
        # not `click.core.Exit`, which only imports it)
        public = min(info.public_names, key=lambda n: (n.count("."), n != resolved))
    elif not is_builtin and "." in resolved and not any(p.startswith("_") for p in resolved.split(".")):
        public = resolved
    return ExceptionFact(
        resolved=resolved, name=site.exception_name, public_name=public, builtin=is_builtin,
        docstring=info.docstring if info is not None else "", bases=site.exception_bases,
        path=info.path if info is not None else "", line=info.line if info is not None else 0,
        catch_name="" if public else ctx.base_public_name(site),
    )


def _how(how: str) -> LinkHow:
    return "regex" if how == "regex" else "literals" if how == "literals" else "type"
