"""The public path: which names users call that lead to a raise, shortest first.

The call graph (``extract/calls.py``, stored per snapshot) is walked
backwards from the raising function: callers, the primitives or rule tables
that register it, the module names that wrap it, until a name the package
offers to users is reached — a name a public module binds or re-exports
(``__all__`` and star re-exports honoured), a method of a class so exported,
or a public module's own function.  Among the entries found, the ones nearest
the raise come first; at equal distance, the shorter (more top-level) name
and the one more of the package's code calls.

Observed entries (what ``errdex observe`` recorded while the library's tests
ran) take precedence over this static guess: pass them as ``observed``.
Parse only: this reads the stored graph and never imports the library.
"""

from __future__ import annotations

import importlib
import re
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from errdex.model import CallEdge, ErrorSite, PublicPath

MAX_DEPTH = 8
MAX_VISITED = 4000
MAX_ENTRIES = 5
MAX_UNTYPED = 3  # ``?.meth`` maps to methods of that name only when the package has at most this many
CONSTRUCTORS = ("__init__", "__new__", "__post_init__")  # a raise in these is a raise of ``Class(...)``


def is_public_module(dotted: str) -> bool:
    return bool(dotted) and not any(p.startswith("_") for p in dotted.split(".")) and not _is_test_module(dotted)


def _is_test_module(dotted: str) -> bool:
    parts = dotted.split(".")
    return any(p in ("tests", "test", "testing") or p.startswith("test_") or p.endswith("_test") for p in parts)


@dataclass
class CallGraph:
    """The reversed graph and the public names, built once per snapshot."""

    callers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # callee -> [(caller, kind)]
    public: dict[str, str] = field(default_factory=dict)  # internal dotted -> best public name
    uses: dict[str, int] = field(default_factory=dict)  # how many call edges reach a name
    modules: frozenset[str] = frozenset()
    returned_by: dict[str, list[str]] = field(default_factory=dict)  # class -> functions returning an instance
    referenced: frozenset[str] = frozenset()  # private names some module reads (``ref`` edges)
    tables: dict[str, tuple[str, ...]] = field(default_factory=dict)  # ``mod.table[]`` -> the functions it holds

    def public_name(self, dotted: str) -> str:
        """The name users write for ``dotted``, or ""."""
        if dotted in self.public:
            return self.public[dotted]
        head, _, last = dotted.rpartition(".")
        if last.startswith("_") and last not in ("__call__", *CONSTRUCTORS):
            return ""
        # a method of a public class: ``jax.sharding.Mesh.__enter__`` -> users call on the instance
        owner = self.public.get(head)
        if owner and owner.rsplit(".", 1)[-1][:1].isupper():
            return owner if last in CONSTRUCTORS else f"{owner}.{last}"
        return ""


def build_graph(edges: Iterable[CallEdge], symbols: Mapping[str, tuple[str, ...]],
                bases: Mapping[str, Sequence[str]] | None = None, functions: Iterable[str] = ()) -> CallGraph:
    """The reversed call graph with every public name mapped to what it is inside the package.

    ``bases`` (class -> its base classes, nearest first) adds virtual dispatch: ``self.m()`` written
    in a base class also reaches a subclass's own ``m``, and a subclass's inherited ``__init__``
    path starts at the subclass.  ``functions`` are functions known to exist though they call
    nothing the graph records (the raising functions: ``def _check(self): raise ...``)."""
    edges = list(edges)
    refs = [e for e in edges if e.kind in ("ref", "returns")]  # facts about names, not ways to reach them
    edges = [e for e in edges if e.kind not in ("ref", "returns")]
    functions = list(functions)
    if bases:
        edges.extend(_dispatch_edges(edges, bases, functions))
        edges.extend(_handed_out_edges(edges, bases, functions))
    edges.extend(_rule_edges(edges, functions))
    modules = frozenset(symbols)
    callers: defaultdict[str, list[tuple[str, str]]] = defaultdict(list)
    uses: defaultdict[str, int] = defaultdict(int)
    by_last: defaultdict[str, list[str]] = defaultdict(list)
    defined: set[str] = {e.caller for e in edges if e.kind in ("call", "alias")}
    for name in defined:
        by_last[name.rsplit(".", 1)[-1]].append(name)
    prims = {e.caller for e in edges if e.kind == "register"}
    prims_by_last: defaultdict[str, list[str]] = defaultdict(list)
    for name in prims:
        prims_by_last[name.rsplit(".", 1)[-1]].append(name)
    exports: defaultdict[str, list[str]] = defaultdict(list)
    returned_by: defaultdict[str, list[str]] = defaultdict(list)
    referenced: set[str] = set()
    for e in [*edges, *refs]:
        if e.kind == "export":
            exports[e.caller].append(e.callee)
            continue
        if e.kind == "returns":
            returned_by[e.callee].append(e.caller)
            continue
        if e.kind == "ref":
            referenced.add(e.callee)
            continue
        targets = [e.callee]
        if e.callee.startswith("?."):
            cands = by_last.get(e.callee[2:], [])
            targets = cands if 0 < len(cands) <= MAX_UNTYPED else []
        elif e.kind == "register" and e.caller.endswith("_p") and e.caller not in defined:
            # ``lax.rev_p`` read through a package that re-exports it: the one primitive of that name
            cands = prims_by_last.get(e.caller.rsplit(".", 1)[-1], [])
            if len(cands) == 2 and e.caller in cands:
                other = next(c for c in cands if c != e.caller)
                callers[e.callee].append((other, e.kind))
        for t in targets:
            callers[t].append((e.caller, e.kind))
            uses[t] += 1
    _through_exports(callers, uses, exports, defined)
    public: dict[str, str] = {}

    def offer(internal: str, name: str) -> None:
        if name.rsplit(".", 1)[-1].startswith("__"):  # ``pkg.__all__``, ``pkg.__getattr__``: not a call
            return
        old = public.get(internal)

        def rank(n: str) -> tuple[int, int, bool, str]:  # at equal depth, the defining module's own name
            r = _rank_name(n)
            return (r[0], r[1], n != internal, n)

        if old is None or rank(name) < rank(old):
            public[internal] = name

    # names defined in public modules are public where they are
    for mod, names in symbols.items():
        if is_public_module(mod):
            for n in names:
                if not n.startswith("_"):
                    offer(f"{mod}.{n}", f"{mod}.{n}")
    for name, targets in exports.items():
        if name.endswith(".*"):
            continue
        for t in targets:
            offer(t, name)
    # star re-exports: ``pkg.*`` -> ``pkg.mod.*``: every public name of ``pkg.mod`` is also ``pkg.<name>``
    for star, targets in exports.items():
        if not star.endswith(".*"):
            continue
        pkg = star[:-2]
        for t in targets:
            src = t[:-2]
            for n in symbols.get(src, ()):
                if not n.startswith("_"):
                    inner = f"{src}.{n}"
                    offer(inner, f"{pkg}.{n}")
                    for deeper in exports.get(inner, ()):
                        offer(deeper, f"{pkg}.{n}")
    # a public name that is a re-export of another re-export: follow to the definition
    for internal, name in list(public.items()):
        seen = {internal}
        cur = internal
        while len(seen) < 6:
            nxt = exports[cur][0] if cur in exports else _submodule_definition(cur, defined, by_last, symbols)
            if not nxt or nxt in seen:
                break
            seen.add(nxt)
            offer(nxt, name)
            cur = nxt
    tables: defaultdict[str, list[str]] = defaultdict(list)
    for e in edges:
        if e.kind == "alias" and e.caller.endswith("[]"):
            tables[e.caller].append(e.callee)
    return CallGraph(callers=dict(callers), public=public, uses=dict(uses), modules=modules,
                     returned_by=dict(returned_by), referenced=frozenset(referenced),
                     tables={t: tuple(dict.fromkeys(m)) for t, m in tables.items()})


def _through_exports(callers: defaultdict[str, list[tuple[str, str]]], uses: defaultdict[str, int],
                     exports: Mapping[str, Sequence[str]], defined: set[str]) -> None:
    """A call written through a package's re-export (``mgpu.optimization_barrier(...)``, recorded as a call of
    ``jax.experimental.mosaic.gpu.optimization_barrier``) is a call of the definition the name re-exports
    (``...fragmented_array.optimization_barrier``): its callers are the definition's callers too (a chain of
    re-exports followed up to 5 steps; a name the package defines itself is left alone)."""
    for name in [n for n in list(callers) if n in exports and n not in defined and not n.endswith(".*")]:
        cur, seen = name, {name}
        while cur in exports and len(seen) < 6:
            nxt = exports[cur][0]
            if nxt in seen:
                break
            seen.add(nxt)
            cur = nxt
        if cur == name:
            continue
        have = set(callers.get(cur, ()))
        for c in callers[name]:
            if c not in have:
                callers[cur].append(c)
                uses[cur] += 1


def _words(name: str) -> frozenset[str]:
    return frozenset(w for w in name.rsplit(".", 1)[-1].lower().split("_") if w)


def table_exclusions(table: str, member: str, graph: CallGraph) -> frozenset[str]:
    """The words that name the other entries of ``table`` and not ``member`` (``stdout``, ``stderr`` for
    ``get_text_stdin`` among ``get_text_stdout``/``get_text_stderr``): a caller up the walk named by one of
    them (``get_text_stderr``) picks another entry of the table, so it does not reach ``member``."""
    own = _words(member)
    out: set[str] = set()
    for other in graph.tables.get(table, ()):
        if other != member:
            out |= _words(other) - own
    return frozenset(out)


def _submodule_definition(name: str, defined: set[str], by_last: Mapping[str, list[str]],
                          symbols: Mapping[str, tuple[str, ...]]) -> str:
    """What a package's name is when the package only re-exports it from one of its own submodules
    (``jax._src.lax.control_flow.cond`` is ``...control_flow.conditionals.cond``, imported by the
    package's ``__init__``, which records no export): the one function of that name defined in a
    module below the package, or ""."""
    pkg, _, last = name.rpartition(".")
    if not pkg or name in defined or name in symbols or last not in symbols.get(pkg, ()):
        return ""  # a module (``jax._src.pjit``) is no re-exported function
    cands = [c for c in by_last.get(last, ()) if c.startswith(pkg + ".") and c.rpartition(".")[0] in symbols]
    return cands[0] if len(cands) == 1 else ""


def _dispatch_edges(edges: list[CallEdge], bases: Mapping[str, Sequence[str]],
                    functions: Iterable[str] = ()) -> list[CallEdge]:
    """``Base.m`` → ``Sub.m`` for every method a subclass overrides, and ``Sub.__init__`` →
    ``Base.__init__`` when the subclass has none (its construction runs the base's)."""
    defined = {e.caller for e in edges if e.kind in ("call", "alias")} | {
        e.callee for e in edges if e.kind == "call" and not e.callee.startswith("?")} | set(functions)
    methods: defaultdict[str, set[str]] = defaultdict(set)
    for d in defined:
        head, _, meth = d.rpartition(".")
        methods[head].add(meth)
    out: list[CallEdge] = []
    for cls, meths in methods.items():  # an instance is called by whoever made it: X(...) reaches X.__call__
        if "__call__" in meths and cls in methods:
            out.append(CallEdge(caller=cls, callee=f"{cls}.__call__", kind="call"))
    for cls, bs in bases.items():
        own = methods.get(cls, set())
        for b in bs:
            for meth in methods.get(b, ()):
                if meth in own and meth != "__init__":
                    out.append(CallEdge(caller=f"{b}.{meth}", callee=f"{cls}.{meth}", kind="call"))
                elif meth == "__init__":  # its own __init__ calls super().__init__, or it has none
                    out.append(CallEdge(caller=f"{cls}.__init__", callee=f"{b}.__init__", kind="call"))
    return out


def _handed_out_edges(edges: list[CallEdge], bases: Mapping[str, Sequence[str]],
                       functions: Iterable[str] = ()) -> list[CallEdge]:
    """``Cls`` → ``Cls.readinto`` for a method nothing in the package calls that overrides a method of a
    standard-library base class (``io.RawIOBase``): the instance is handed to the standard library, whose
    code calls the method (``io.BufferedReader(_Reader(...)).read()``), so whoever makes the instance
    reaches it.  Only the standard library's classes are looked at (their methods are known here without
    the indexed package); a method called by name anywhere (``?.readinto`` too) keeps its own callers."""
    called = {e.callee.rsplit(".", 1)[-1] if e.callee.startswith("?.") else e.callee for e in edges
              if e.kind == "call"}
    defined = {e.caller for e in edges if e.kind in ("call", "alias")} | set(functions)
    out: list[CallEdge] = []
    for fn in defined:
        cls, _, meth = fn.rpartition(".")
        if cls not in bases or fn in called or meth in called or (meth.startswith("__") and meth.endswith("__")):
            continue
        if any(_stdlib_method(b, meth) for b in _outside_bases(cls, bases)):
            out.append(CallEdge(caller=cls, callee=fn, kind="call"))
    return out


def _outside_bases(cls: str, bases: Mapping[str, Sequence[str]]) -> list[str]:
    """The base classes of ``cls``, through the package's own, that the package does not define."""
    out: list[str] = []
    todo, seen = list(bases.get(cls, ())), {cls}
    while todo:
        b = todo.pop()
        if b in seen:
            continue
        seen.add(b)
        if b in bases:
            todo.extend(bases[b])
        else:
            out.append(b)
    return out


# standard-library modules whose code calls the methods of the subclasses it is handed (importing them has
# no side effect; an arbitrary standard-library module may: ``antigravity`` opens a browser)
_FRAMEWORKS = frozenset({"io", "codecs", "logging", "logging.handlers", "threading", "json", "argparse", "ast",
                         "html.parser", "socketserver", "http.server", "collections.abc", "numbers", "string",
                         "contextlib", "unittest"})


def _stdlib_method(base: str, meth: str) -> bool:
    """Whether ``base`` is a class of one of those modules (``io.RawIOBase``) that has ``meth``."""
    module, _, name = base.rpartition(".")
    if module not in _FRAMEWORKS:
        return False
    try:
        obj = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return False
    return isinstance(obj, type) and callable(getattr(obj, meth, None))


_RULE_NAME = re.compile(r"^_(\w+?)_(?:abstract_eval|shape_rule|dtype_rule|lowering_rule|lowering|batch_rule|"
                        r"batching_rule|transpose_rule|jvp_rule|jvp|discharge_rule|physicalize_rule|"
                        r"interpret_rule|impl)$")


def rule_operation(function: str) -> str:
    """``run_scoped`` for a rule named ``_run_scoped_lowering_rule`` (a primitive's rule by its name), or ""."""
    m = _RULE_NAME.match(function.rsplit(".", 1)[-1])
    return m.group(1) if m else ""


def _rule_edges(edges: list[CallEdge], functions: Iterable[str]) -> list[CallEdge]:
    """``prim_p`` → ``_prim_abstract_eval`` for a raising rule that nothing in the graph registers
    (``prim_p.def_abstract_eval(_prim_abstract_eval)``): a rule named after a primitive of its own
    module is that primitive's rule."""
    prims = {e.caller for e in edges if e.caller.endswith("_p")} | {e.callee for e in edges if e.callee.endswith("_p")}
    reached = {e.callee for e in edges}
    out: list[CallEdge] = []
    for fn in functions:
        if fn in reached:
            continue
        module, _, name = fn.rpartition(".")
        m = _RULE_NAME.match(name)
        if m and f"{module}.{m.group(1)}_p" in prims:
            out.append(CallEdge(caller=f"{module}.{m.group(1)}_p", callee=fn, kind="register"))
    return out


def _rank_name(name: str) -> tuple[int, int, str]:
    """Shorter, more top-level names first; experimental and internal-looking ones last."""
    parts = name.split(".")
    odd = sum(p in ("experimental", "interpreters", "lib", "extend", "core") for p in parts)
    return (odd, len(parts), name)


def site_function(site: ErrorSite) -> str:
    """The dotted name of the function that raises (``<locals>`` stripped to the outer function)."""
    qual = site.qualname.split(".<locals>.", 1)[0]
    if qual.startswith("<"):
        return site.module
    return f"{site.module}.{qual}" if site.module else qual


def factories(start: str, own: str, graph: CallGraph, limit: int = 1) -> tuple[str, ...]:
    """For a raise in a constructor: the more top-level public functions that build the class
    (``click.progressbar`` makes a ``click.termui.ProgressBar``), as users more often call those."""
    cls, _, last = start.rpartition(".")
    if last not in CONSTRUCTORS:
        return ()
    depth = own.count(".")
    out = [n for n in dict.fromkeys(graph.public_name(c) for c, _ in graph.callers.get(cls, ()))
           if n and n != own and n.count(".") < depth and n.rsplit(".", 1)[-1][:1].islower()
           and not _is_test_module(n)]
    # a factory named after the class first (``jax.make_mesh`` for ``Mesh``, not ``jax.device_put_replicated``)
    word = cls.rsplit(".", 1)[-1].lower()
    return tuple(sorted(out, key=lambda n: (word not in n.rsplit(".", 1)[-1].replace("_", "").lower(),
                                            _rank_name(n)))[:limit])


def top_level_callers(start: str, own: str, graph: CallGraph, limit: int = 2) -> tuple[str, ...]:
    """For a public function of a submodule (``click.types.convert_type``): the package's top-level names
    that call it directly (``click.Parameter``, ``click.prompt``), which users more often write."""
    top = own.split(".", 1)[0]
    if own.count(".") < 2:
        return ()
    uses: dict[str, int] = {}
    for c, _ in graph.callers.get(start, ()):
        n = graph.public_name(c)
        if n and n != own and n.count(".") == 1 and n.startswith(top + ".") and not _is_test_module(n):
            uses[n] = max(uses.get(n, 0), graph.uses.get(c, 0))
    return tuple(sorted(uses, key=lambda n: (-uses[n], n))[:limit])  # the more used first


def returned_methods(start: str, graph: CallGraph, limit: int = 2) -> tuple[str, ...]:
    """For a public-named method of a class users cannot name (``click._termui_impl.ProgressBar.generator``):
    ``click.progressbar(...).generator`` for each public function that returns an instance of the class
    (its return annotation or a ``return Cls(...)``): the user calls the method on the object they got."""
    cls, _, meth = start.rpartition(".")
    if not cls or meth.startswith("_") or not cls.rsplit(".", 1)[-1][:1].isupper() or graph.public_name(cls):
        return ()
    names = [n for n in dict.fromkeys(graph.public_name(fn) for fn in graph.returned_by.get(cls, ()))
             if n and not _is_test_module(n) and n.rsplit(".", 1)[-1][:1].islower()]
    return tuple(f"{n}(...).{meth}" for n in sorted(names, key=_rank_name)[:limit])


def public_path(site: ErrorSite, graph: CallGraph, observed: Sequence[str] = (),
                avoid: frozenset[str] = frozenset()) -> PublicPath:
    """The public entries that reach ``site`` (observed ones, when given, first and alone).

    An entry the message itself names (``for `jit```) comes first: the library says which call it is;
    then the nearest, then the more top-level name, then the one more of the package's code uses.
    The walk does not go through the functions in ``avoid`` (ones that make the same check earlier and
    raise there, so a call through them never reaches this raise)."""
    if observed:
        return PublicPath(entries=tuple(dict.fromkeys(observed))[:MAX_ENTRIES], observed=True)
    start = site_function(site)
    own = graph.public_name(start)
    if own:
        return PublicPath(entries=(own, *factories(start, own, graph), *top_level_callers(start, own, graph)),
                          chain=(start,), depth=0)
    held = returned_methods(start, graph)
    if held:
        return PublicPath(entries=held, chain=(start,), depth=0)
    parent: dict[str, str] = {start: ""}
    depth: dict[str, int] = {start: 0}
    # a table of functions passed on the way: the words of its other entries, whose callers pick those
    picks_other: dict[str, frozenset[str]] = {start: frozenset()}
    queue = deque([start])
    found: list[tuple[int, int, tuple[int, int], int, str, str]] = []
    mentioned = set(re.findall(r"\w+", site.template.render()))
    owner = start.rpartition(".")[0]
    own_class = graph.public.get(owner, "") if owner[owner.rfind(".") + 1:][:1].isupper() else ""
    while queue and len(parent) < MAX_VISITED:
        cur = queue.popleft()
        d = depth[cur]
        if d >= MAX_DEPTH:
            continue
        callers = graph.callers.get(cur, [])
        if cur == start and start.rpartition(".")[2] in CONSTRUCTORS:  # ``Bar(...)`` runs ``Bar.__init__``
            callers = [*callers, *graph.callers.get(start.rpartition(".")[0], [])]
        other = picks_other[cur]
        for caller, kind in callers:
            if caller in parent or caller in avoid or (other and _words(caller) & other):
                continue
            parent[caller] = cur
            depth[caller] = d + 1
            picks_other[caller] = other | table_exclusions(caller, cur, graph) if kind == "alias" else other
            name = graph.public_name(caller)
            if name.endswith("_p"):  # an exported primitive object: users call the function that binds it
                name = ""
            if name and not _is_test_module(caller):
                named = 0 if name.rsplit(".", 1)[-1] in mentioned else 1 if own_class and (
                    name == own_class or name.startswith(own_class + ".")) else 2
                # at equal depth: the more top-level name, then the more used, then the name
                found.append((named, d + 1, (_rank_name(name)[0], _rank_name(name)[1]), -graph.uses.get(caller, 0), name, caller))
                if named < 2 or not own_class:
                    continue  # a public name is where the user's call enters; no need to go further up
            queue.append(caller)
    if not found:
        return PublicPath()
    found.sort()
    best_depth = min(f[1] for f in found)
    if found[0][0] < 2:  # named by the message or the raising method's own class: those alone
        entries = tuple(dict.fromkeys(f[4] for f in found if f[0] < 2))[:MAX_ENTRIES]
    else:
        entries = tuple(dict.fromkeys(f[4] for f in found if f[1] <= best_depth + 1))[:MAX_ENTRIES]
    chain: list[str] = []
    cur = found[0][5]
    while cur:
        chain.append(cur)
        cur = parent.get(cur, "")
    return PublicPath(entries=entries, chain=tuple(chain), depth=found[0][1])


def _name_words(dotted: str) -> frozenset[str]:
    """The words of a function's and its class's names: ``TMEMRef.slice`` -> tmem, ref, slice."""
    parts = dotted.split(".")[-2:]
    return frozenset(w.lower() for p in parts for w in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z]+", p)
                     if w)


def entries_under(site: ErrorSite, graph: CallGraph, modules: Sequence[str], limit: int = 3) -> tuple[str, ...]:
    """Public calls of ``modules`` (dotted prefixes, ``jax.experimental.pallas.mosaic_gpu.``) that reach the
    site through the call graph, walking past the site's own public name and the other public names on the
    way (``public_path`` stops at the first): where a check runs only while a kernel is lowered, the raising
    function's own name takes objects only the lowering makes (``TMEMRef.slice``), and the user's call is the
    kernel's operation that binds the primitive whose lowering rule calls it (``async_load_tmem``).  Those
    sharing more words with the raising function's and its class's names first (``tmem``), then the nearer."""
    if not modules:
        return ()
    start = site_function(site)
    words = _name_words(start)
    depth = {start: 0}
    queue = deque([start])
    found: list[tuple[int, int, str]] = []
    while queue and len(depth) < MAX_VISITED:
        cur = queue.popleft()
        if depth[cur] >= MAX_DEPTH:
            continue
        for caller, _ in graph.callers.get(cur, []):
            if caller in depth:
                continue
            depth[caller] = depth[cur] + 1
            queue.append(caller)
            name = graph.public_name(caller)
            if name and not name.endswith("_p") and name.startswith(tuple(modules)) and not _is_test_module(caller):
                found.append((-len(words & _name_words(name)), depth[caller], name))
    return tuple(dict.fromkeys(n for _, _, n in sorted(found)))[:limit]
