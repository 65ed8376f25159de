"""``SnapshotContext``: the snapshot-wide tables that gathering facts for one site needs.

Loaded once per snapshot (every site, class, option, test and the symbol
table) and indexed for the look-ups that ``gather_facts`` makes per site, so
that analysing 6,000 errors is a linear pass rather than 6,000 catalog scans.
"""

from __future__ import annotations

import builtins
import re
from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from errdex.analyze.public_path import (
    MAX_VISITED,
    CallGraph,
    build_graph,
    public_path,
    rule_operation,
    site_function,
)
from errdex.analyze.testlink import Link, link_all
from errdex.analyze.verify import expand_symbols
from errdex.catalog.base import Catalog
from errdex.model import (
    CallEdge,
    ClassInfo,
    ConfigOption,
    ErrorSite,
    Observation,
    PublicPath,
    Snapshot,
    TestExpectation,
)


@dataclass
class SnapshotContext:
    snapshot: Snapshot
    sites: list[ErrorSite]
    classes: dict[str, ClassInfo]
    options: list[ConfigOption]
    tests: list[TestExpectation]
    symbols: dict[str, tuple[str, ...]]
    calls: list[CallEdge] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)  # what ``errdex observe`` saw (may be empty)
    extra_symbols: dict[str, tuple[str, ...]] = field(default_factory=dict)
    options_by_holder: dict[str, list[ConfigOption]] = field(default_factory=dict)
    options_by_name: dict[str, list[ConfigOption]] = field(default_factory=dict)
    tests_by_exception: dict[str, list[TestExpectation]] = field(default_factory=dict)
    sites_by_exception: dict[str, list[ErrorSite]] = field(default_factory=dict)
    sites_by_function: dict[tuple[str, str], list[ErrorSite]] = field(default_factory=dict)
    sites_by_module: dict[str, list[ErrorSite]] = field(default_factory=dict)
    _public_functions: dict[str, str] = field(default_factory=dict)
    _test_links: dict[str, list[Link]] | None = None
    _all_symbols: dict[str, tuple[str, ...]] | None = None
    _graph: CallGraph | None = None
    _public_by_last: dict[str, set[str]] | None = None  # last part of a dotted public name -> the public names
    _by_text: dict[str, list[ErrorSite]] | None = None
    _compared: dict[str, set[str]] | None = None  # class name -> the members guards compare with
    _by_check: dict[str, list[ErrorSite]] | None = None
    _earlier: dict[tuple[str, int, str], tuple[ErrorSite, ...]] = field(default_factory=dict)
    _rerouted: set[tuple[str, int, str]] = field(default_factory=set)
    _bypass: dict[tuple[str, int, str], tuple[str, str, tuple[str, ...]]] = field(default_factory=dict)
    _file_lines: dict[str, dict[int, str]] = field(default_factory=dict)  # path -> the lines its snippets cover
    word_cache: dict[tuple[str, int, str], frozenset[str]] = field(default_factory=dict)  # related.py
    var_cache: dict[tuple[str, int, str], frozenset[str]] = field(default_factory=dict)  # related.py
    site_words: dict[str, list[ErrorSite]] = field(default_factory=dict)  # related.py: word -> sites
    relation_index: dict[str, dict[str, list[ErrorSite]]] = field(default_factory=dict)  # related.py: guard var / entry / test -> sites
    _paths: dict[tuple[str, int, str], PublicPath] = field(default_factory=dict)
    _observed: dict[str, list[Observation]] | None = None

    def __post_init__(self) -> None:
        for o in self.options:
            if o.holder:
                self.options_by_holder.setdefault(o.holder.rsplit(".", 1)[-1], []).append(o)
            self.options_by_name.setdefault(o.name.lower(), []).append(o)
        for t in self.tests:
            self.tests_by_exception.setdefault(t.exception.rsplit(".", 1)[-1], []).append(t)
        by_exc: defaultdict[str, list[ErrorSite]] = defaultdict(list)
        by_fn: defaultdict[tuple[str, str], list[ErrorSite]] = defaultdict(list)
        by_mod: defaultdict[str, list[ErrorSite]] = defaultdict(list)
        for s in self.sites:
            by_exc[s.exception_name].append(s)
            by_fn[(s.path, s.qualname)].append(s)
            by_mod[s.path].append(s)
        self.sites_by_exception, self.sites_by_function, self.sites_by_module = dict(by_exc), dict(by_fn), dict(by_mod)
        self.extra_symbols = _object_symbols(self.options, self.symbols)
        self._public_functions = _public_functions(self.symbols)

    # ------------------------------------------------------------------ symbols

    @property
    def all_symbols(self) -> dict[str, tuple[str, ...]]:
        """The catalog's symbol table plus the attributes of public objects that adapters proved
        (computed once: the verifier looks names up in it for every sample)."""
        if self._all_symbols is None:
            merged = expand_symbols(self.symbols, self.calls)
            for k, v in self.extra_symbols.items():
                merged[k] = tuple(sorted(set(merged.get(k, ())) | set(v)))
            self._all_symbols = merged
        return self._all_symbols

    # ------------------------------------------------------------------ exception

    def base_public_name(self, site: ErrorSite) -> str:
        """The nearest base class with a name user code can write (a builtin at worst)."""
        for b in site.exception_bases:
            info = self.classes.get(b)
            if info is not None and info.public_names:
                return info.public_names[0]
            if "." not in b and isinstance(getattr(builtins, b, None), type):
                return b
        return "Exception"

    # ------------------------------------------------------------------ public function

    def public_function(self, site: ErrorSite) -> str:
        """``jax.jit`` for a raise inside ``jax._src.api.jit``: only when exactly one public
        module exports a name equal to the top-level function's and the site's module is private."""
        if "." in site.qualname or site.qualname.startswith("<") or _is_public(site.module):
            return ""
        name = site.qualname
        if name.startswith("_"):
            return ""
        return self._public_functions.get(name, "")

    def observed(self, site: ErrorSite) -> tuple[Observation, ...]:
        """The exceptions the library's own tests raised at ``site``: escaped ones first, then by count."""
        if self._observed is None:
            by: defaultdict[str, list[Observation]] = defaultdict(list)
            for o in self.observations:
                if o.kind == "site" and o.error_id:
                    by[o.error_id].append(o)
            self._observed = {k: sorted(v, key=lambda o: (not o.escaped, -o.count, o.test)) for k, v in by.items()}
        return tuple(self._observed.get(site.error_id, ()))

    def test_links(self) -> dict[str, list[Link]]:
        """Error id -> linked tests; computed once for the snapshot (each test picks its best sites)."""
        if self._test_links is None:
            self._test_links = link_all(self.sites, self.tests)
        return self._test_links

    def tests_for_site(self, site: ErrorSite) -> list[Link]:
        return list(self.test_links().get(site.error_id, []))

    @property
    def call_graph(self) -> CallGraph:
        """The reversed call graph with the public names (built once per snapshot)."""
        if self._graph is None:
            self._graph = build_graph(self.calls, self.symbols,
                                      {q: c.bases for q, c in self.classes.items() if c.bases},
                                      {site_function(s) for s in self.sites})
        return self._graph

    def uncalled(self, site: ErrorSite) -> bool:
        """Whether nothing in the package reaches the raising module-level function: no call, registration,
        export or read of its name anywhere (``ref`` edges), no untyped call of its name, no public name; not a
        rule named after an operation, not decorated and not named anywhere else in the snippet."""
        fn = site_function(site)
        graph = self.call_graph
        name = fn.rsplit(".", 1)[-1]
        if ("." in site.qualname or site.qualname.startswith("<") or not graph.referenced  # indexed before ``ref`` edges
                or fn in graph.referenced
                or name.startswith("__") or rule_operation(fn) or graph.public_name(fn)
                or self.public_path(site).entries or graph.callers.get(fn) or graph.callers.get(f"?.{name}")):
            return False
        owner = fn.rpartition(".")[0] if "." in site.qualname.split(".<locals>.", 1)[0] else ""
        if owner and (graph.callers.get(owner) or graph.public_name(owner)):
            return False
        lines = site.snippet.splitlines()
        defs = [i for i, ln in enumerate(lines) if re.match(rf"\s*(?:async\s+)?def {re.escape(name)}\(", ln)]
        if not defs or (defs[0] > 0 and lines[defs[0] - 1].lstrip().startswith("@")):
            return False
        return not any(re.search(rf"(?<![\w.]){re.escape(name)}\b", ln) for i, ln in enumerate(lines) if i != defs[0])

    def enum_settings(self, site: ErrorSite) -> tuple[tuple[str, str, str], ...]:
        """``(lowering_semantics, Warpgroup, jax.experimental.pallas.mosaic_gpu.LoweringSemantics)`` for each guard
        ``x.lowering_semantics == mgpu.LoweringSemantics.Warpgroup`` on the way to the raise whose enum class has
        a public name (the shortest): a value user code can name, so a setting it may choose."""
        out: list[tuple[str, str, str]] = []
        for g in site.guards:
            m = re.fullmatch(r"[\w.]*?(\w+)\s*==\s*(?:[\w.]+\.)?([A-Z]\w*)\.(\w+)", g.normalized.strip())
            if g.negated or m is None:
                continue
            names = self._public_names_ending(m.group(2))
            if names:
                out.append((m.group(1), m.group(3), min(names, key=lambda n: (n.count("."), n))))
        return tuple(out)

    def function_text(self, site: ErrorSite) -> str:
        """The raising function's lines from its ``def`` down to the raise, pieced together from the snippets of
        every raise in the file (each covers a window of it), or "" when the windows leave a gap (rating 12, a28d:
        ``optimization_barrier``'s ``dtype = array.mlir_dtype`` sits above its raise's own snippet, in the window
        of its nested ``_repack``'s raise)."""
        lines = self._file_lines.get(site.path)
        if lines is None:
            lines = {}
            for o in self.sites_by_module.get(site.path, []):
                for k, text in enumerate(o.snippet.splitlines()):
                    lines.setdefault(o.snippet_start + k, text)
            self._file_lines[site.path] = lines
        if site.line not in lines:  # a site of another snapshot's list: its own snippet only
            lines = {site.snippet_start + k: t for k, t in enumerate(site.snippet.splitlines())}
        name = re.escape(site.qualname.split(".<locals>.", 1)[0].rsplit(".", 1)[-1])
        for at in range(site.line, 0, -1):
            if at not in lines:
                return ""
            if re.match(rf"\s*(?:async\s+)?def {name}\(", lines[at]):
                return "\n".join(lines[k] for k in range(at, site.line + 1))
        return ""

    def enum_setter(self, attr: str, enum: str) -> str:
        """The public class or function the package's own code passes ``attr=<enum>.<member>`` to, by the public
        name of the module that also exports the enum (rating 12, 8ee0: `hopper_matmul_mgpu.matmul` writes
        ``plgpu.CompilerParams(lowering_semantics=plgpu.LoweringSemantics.Warpgroup)``, so the setting is made
        with `jax.experimental.pallas.mosaic_gpu.CompilerParams`); "" when no snippet shows such a call or its
        name does not resolve to one public name."""
        short = enum.rsplit(".", 1)[-1]
        call = re.compile(rf"([\w.]+)\(\s*(?:[^()]*,\s*)?{re.escape(attr)}\s*=\s*(?:[\w.]+\.)?{re.escape(short)}\.\w+")
        makers = sorted({m.group(1).rsplit(".", 1)[-1] for s in self.sites for m in call.finditer(s.snippet)})
        homes = {n.rpartition(".")[0] for n in self._public_names_ending(short)}
        found = sorted({n for maker in makers for n in self._public_names_ending(maker) if n.rpartition(".")[0] in homes})
        return found[0] if len(found) == 1 else ""

    def enum_compared(self, enum: str) -> tuple[str, ...]:
        """The members of the class ``enum`` (its last name) that any guard of the package compares with
        (``x.lowering_semantics == LoweringSemantics.Lane``): the values its own code knows, sorted.  A
        solution that says "try another value" can then name them (rating 8 on 8ee0)."""
        if self._compared is None:
            self._compared = defaultdict(set)
            for s in self.sites:
                for g in s.guards:
                    for m in re.finditer(r"(?<![\w])([A-Z]\w*)\.([A-Z]\w*)\b", g.normalized):
                        self._compared[m.group(1)].add(m.group(2))
        return tuple(sorted(self._compared.get(enum.rsplit(".", 1)[-1], set())))

    def _public_names_ending(self, last: str) -> set[str]:
        """The dotted public names whose last part is ``last``; indexed once per snapshot rather than
        scanning every public name for each guard of each site."""
        if self._public_by_last is None:
            self._public_by_last = defaultdict(set)
            for v in self.call_graph.public.values():
                _head, dot, tail = v.rpartition(".")
                if dot:
                    self._public_by_last[tail].add(v)
        return self._public_by_last.get(last, set())

    def same_text(self, site: ErrorSite) -> tuple[ErrorSite, ...]:
        """The other sites whose message is exactly this site's (literal text and placeholders)."""
        if self._by_text is None:
            by: defaultdict[str, list[ErrorSite]] = defaultdict(list)
            for s in self.sites:
                if s.error_id:
                    by[s.template.render()].append(s)
            self._by_text = {k: v for k, v in by.items() if len(v) > 1}
        text = site.template.render()
        if not text.strip():
            return ()
        return tuple(s for s in self._by_text.get(text, ()) if s.error_id != site.error_id)

    def public_path(self, site: ErrorSite, observed: Sequence[str] = ()) -> PublicPath:
        """The public path; when its chain runs through a function that makes the same check first
        (``earlier_checks``), the path that avoids those functions, if there is one."""
        if observed:
            return public_path(site, self.call_graph, observed)
        key = (site.path, site.line, site.error_id)
        p = self._paths.get(key)
        if p is None:
            p = public_path(site, self.call_graph)
            earlier = self._earlier[key] = self.earlier_checks(site, p)
            avoid = frozenset(site_function(e) for e in earlier)
            if avoid and p.chain and self._on_every_route(site, p, avoid):
                # the earlier check is on every route from the chosen entry: a call through it never gets here
                q = public_path(site, self.call_graph, avoid=avoid)
                if q.entries:
                    p = q
                    self._rerouted.add(key)
            elif avoid and any(c in avoid for c in p.chain[:-1]):
                # the chosen chain itself goes through the earlier check (that call raises there, not
                # here): the page names a route that gets here, when the graph has one, and what enters
                # the chain below the check (``jit_trace`` calling ``_infer_params``, past ``cache_miss``)
                hit = next(i for i, c in enumerate(p.chain) if c in avoid)
                below = p.chain[hit + 1] if hit + 1 < len(p.chain) else ""
                others = tuple(dict.fromkeys(c for c, _ in self.call_graph.callers.get(below, ())
                                             if c != p.chain[hit]))
                q = public_path(site, self.call_graph, avoid=avoid)
                if q.entries:
                    if others:
                        self._bypass[key] = (p.entries[0], below, others[:3])
                    p = q
            self._paths[key] = p
        return p

    def _on_every_route(self, site: ErrorSite, p: PublicPath, avoid: frozenset[str]) -> bool:
        """Whether every route from ``p``'s first entry to the raise goes through ``avoid``: never for an
        entry the message names (the library says which call this raise is for); not when the entry
        reaches the raise around them; not when a function of the chain below them has a caller
        off the chain (a route that enters below the earlier check, as a method of a returned object)."""
        words = set(re.findall(r"\w+", " ".join(site.template.literals)))
        if any(e.rsplit(".", 1)[-1] in words for e in p.entries):
            return False
        graph = self.call_graph
        if reaches(site_function(site), p.chain[0], graph, avoid):
            return False
        hits = [i for i, c in enumerate(p.chain) if c in avoid]
        if not hits:
            return True
        below = p.chain[hits[0] + 1:-1]
        return all({c for c, _ in graph.callers.get(fn, ())} <= {prev}
                   for prev, fn in zip(p.chain[hits[0]:], below, strict=False))

    def rerouted(self, site: ErrorSite) -> bool:
        """True when the public path was searched again without the functions of ``earlier``."""
        self.public_path(site)
        return (site.path, site.line, site.error_id) in self._rerouted

    def bypass(self, site: ErrorSite) -> tuple[str, str, tuple[str, ...]]:
        """(the entry whose chain went through an earlier check, the function below that check, its other
        callers) when the page's path was searched again without that check; else ("", "", ())."""
        self.public_path(site)
        return self._bypass.get((site.path, site.line, site.error_id), ("", "", ()))

    def earlier(self, site: ErrorSite) -> tuple[ErrorSite, ...]:
        """``earlier_checks`` of the site's (static) public path."""
        self.public_path(site)
        return self._earlier.get((site.path, site.line, site.error_id), ())

    def earlier_checks(self, site: ErrorSite, path: PublicPath) -> tuple[ErrorSite, ...]:
        """Sites with this site's raising check (the whole condition, not a generic one such as
        ``x is None`` or a bare name) and its message (the same literal text), in a function the
        public path's chain goes through or that calls the raising function directly: a call
        through them raises there first, not here."""
        check = raising_check(site)
        if not check or not any(t.strip() for t in site.template.literals):
            return ()
        if self._by_check is None:
            by: defaultdict[str, list[ErrorSite]] = defaultdict(list)
            for s in self.sites:
                c = raising_check(s)
                if s.error_id and c:
                    by[c].append(s)
            self._by_check = by
        own = site_function(site)
        on_way = set(path.chain) | {c for c, _ in self.call_graph.callers.get(own, ())}
        out: dict[str, ErrorSite] = {}
        for s in self._by_check.get(check, ()):
            fn = site_function(s)
            if (s.error_id != site.error_id and fn != own and fn in on_way
                    and s.template.literals == site.template.literals):
                out.setdefault(s.error_id, s)
        return tuple(out.values())


_GENERIC = re.compile(r"^(?:not\s+)?\(?\s*[A-Za-z_]\w*(?:\s+is(?:\s+not)?\s+None)?\s*\)?$")


def raising_check(site: ErrorSite) -> str:
    """The condition that raises (the last guard, as written normalized), or "" when there is none
    or it is generic (``x is None``, ``not x``, a bare name: many unrelated checks read the same)."""
    for g in site.guards[-1:]:
        if g.normalized and not g.negated and not _GENERIC.match(g.normalized.strip()):
            return g.normalized.strip()
    return ""


def reaches(start: str, target: str, graph: CallGraph, avoid: frozenset[str]) -> bool:
    """Whether ``target`` calls ``start`` (through the reversed graph) without going through ``avoid``."""
    if start == target:
        return True
    seen = {start}
    queue = deque([start])
    while queue and len(seen) < MAX_VISITED:
        cur = queue.popleft()
        for caller, _kind in graph.callers.get(cur, ()):
            if caller in seen or caller in avoid:
                continue
            if caller == target:
                return True
            seen.add(caller)
            queue.append(caller)
    return False


def _is_public(dotted: str) -> bool:
    return bool(dotted) and not any(p.startswith("_") for p in dotted.split("."))


def _public_functions(symbols: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """name -> the one public module that exports it (names exported by several are dropped)."""
    seen: dict[str, list[str]] = {}
    for mod, names in symbols.items():
        if not _is_public(mod) or ".tests" in mod or mod.endswith("_test"):
            continue
        for n in names:
            if not n.startswith("_") and n[:1].islower():
                seen.setdefault(n, []).append(mod)
    out: dict[str, str] = {}
    for n, mods in seen.items():
        shortest = min(mods, key=lambda m: (m.count("."), m))
        if len(mods) == 1 or all(m.startswith(shortest + ".") for m in mods if m != shortest):
            out[n] = f"{shortest}.{n}"
    return out


def _object_symbols(options: list[ConfigOption], symbols: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Attributes of public objects that adapters proved: ``jax.config`` has ``update`` and every
    ``jax_*`` option name.  Only objects whose parent module really exports them are kept."""
    extra: dict[str, set[str]] = {}
    for o in options:
        for dotted in (o.set_call, o.read_attr):
            if not dotted or "." not in dotted:
                continue
            obj, _, attr = dotted.rpartition(".")
            parent, _, name = obj.rpartition(".")
            if parent and name in symbols.get(parent, ()):
                extra.setdefault(obj, set()).add(attr)
    return {k: tuple(sorted(v)) for k, v in extra.items()}


def load_context(catalog: Catalog, snapshot: Snapshot) -> SnapshotContext:
    key = snapshot.key
    return SnapshotContext(
        snapshot=snapshot,
        sites=list(catalog.sites(key)),
        classes={c.qualname: c for c in catalog.classes(key)},
        options=list(catalog.config_options(key)),
        tests=list(catalog.tests(key)),
        symbols=dict(catalog.symbols(key)),
        calls=list(catalog.calls(key)),
        observations=list(catalog.observations(snapshot_key=key)),
    )
