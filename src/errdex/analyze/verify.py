"""The sample verifier: a code sample is published only if it parses and every name it uses exists.

"Exists" means one of: a name the sample binds itself (assignment, parameter,
import, ``for``/``with``/``except`` target, ...), a builtin, the standard
library (checked by importing the stdlib module and looking the attribute up:
the standard library is not the indexed code, so importing it is allowed), or
the indexed library's modules and attributes as the catalog's symbol table
knows them.  The symbol table maps a dotted module -- or a dotted public
object such as ``jax.config`` -- to the names defined on it.

A dotted chain through the indexed library is checked one attribute at a
time.  When the chain reaches something that is neither a module nor an
object the table describes (a class, a function), the remaining attributes
cannot be proved; they are reported, because a sample we cannot check is
not one we may publish (``jax.config.jax_eager`` in the seeds is exactly such
a made-up attribute).  Attributes of values the sample computes itself
(``fn(x).shape``) are not checked: the sample owns those.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import importlib.util
import sys
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Literal

from errdex.model import CallEdge

ProblemKind = Literal["syntax", "unknown-name", "unknown-module", "unknown-attribute", "relative-import"]

_BUILTINS = frozenset(dir(builtins)) | {"__name__", "__file__", "__doc__", "__spec__", "__builtins__"}
# Importing these has side effects (opening a browser, printing); never import them to check a name.
_NO_IMPORT = frozenset({"antigravity", "this", "__hello__", "__phello__", "idlelib", "tkinter", "turtle", "turtledemo"})
_MISSING = object()
# Examples taken from a library's tests import its test runner; that is not a missing name.
_TEST_RUNNERS = frozenset({"pytest"})


@dataclass(frozen=True, slots=True)
class SampleProblem:
    """Why a sample cannot be published: what is wrong, with the name and the line."""

    kind: ProblemKind
    name: str  # the unknown name ("jitted_fn", "jax.config.jax_eager"), or "" for syntax errors
    line: int
    message: str


def check_sample(code: str, symbols: Mapping[str, tuple[str, ...]]) -> list[SampleProblem]:
    """Every problem of ``code``: a parse failure (alone), else each unknown name, in order."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(code)
    except SyntaxError as e:
        return [SampleProblem("syntax", "", e.lineno or 0, f"does not parse: {e.msg} (line {e.lineno})")]
    except (ValueError, RecursionError) as e:
        return [SampleProblem("syntax", "", 0, f"does not parse: {e}")]
    return _Checker(symbols).run(tree)


def expand_symbols(symbols: Mapping[str, tuple[str, ...]], edges: Iterable[CallEdge]) -> dict[str, tuple[str, ...]]:
    """The symbol table as the import system sees it: ``from .m import *`` adds ``m``'s names (its
    ``__all__`` when it declares one, else its public names), and a module with a lazy
    ``__getattr__`` also has the names its lookup tables list (``extract/calls.py`` records both)."""
    declared: dict[str, list[str]] = {}
    lazy: dict[str, list[str]] = {}
    stars: dict[str, list[str]] = {}
    for e in edges:
        if e.kind != "export":
            continue
        mod, _, last = e.caller.rpartition(".")
        if last == "__all__":
            declared.setdefault(mod, []).append(e.callee.rsplit(".", 1)[-1])
        elif last == "__getattr__":
            lazy.setdefault(mod, []).append(e.callee.rsplit(".", 1)[-1])
        elif last == "*":
            stars.setdefault(mod, []).append(e.callee[:-2])
    out = {m: set(v) for m, v in symbols.items()}
    for mod, names in lazy.items():
        out.setdefault(mod, set()).update(names)

    def offered(src: str) -> set[str]:
        if src in declared:
            return set(declared[src])
        return {n for n in out.get(src, ()) if not n.startswith("_")}

    modules = dict.fromkeys(symbols)
    alias: dict[str, str] = {}  # "pkg.isomorphism" -> "pkg.algorithms.isomorphism": a module under another name
    for e in edges:
        if e.kind == "export" and e.callee in modules and e.caller not in modules and not e.caller.endswith("*"):
            alias[e.caller] = e.callee
    explicit = set(alias)
    for _ in range(3):  # a star of a star: a few rounds reach the fixed point of real packages
        for mod, sources in stars.items():
            for src in sources:
                given = offered(src)
                out.setdefault(mod, set()).update(given)
                for n in given:  # the later star import wins, as in Python; an explicit import is kept
                    key = f"{mod}.{n}"
                    if key in explicit or key in modules:
                        continue
                    if f"{src}.{n}" in modules:
                        alias[key] = alias.get(f"{src}.{n}", f"{src}.{n}")
                    elif f"{src}.{n}" in alias:
                        alias[key] = alias[f"{src}.{n}"]
    for name, target in alias.items():
        out.setdefault(name, set()).update(out.get(target, ()))
    return {m: tuple(sorted(v)) for m, v in out.items()}


def is_valid_sample(code: str, symbols: Mapping[str, tuple[str, ...]]) -> bool:
    return not check_sample(code, symbols)


class _Index:
    """Per symbol table: its root packages and name sets, built once (a snapshot has 6,000 samples)."""

    def __init__(self, symbols: Mapping[str, tuple[str, ...]]) -> None:
        self.symbols = symbols
        self.roots = frozenset(m.split(".", 1)[0] for m in symbols)
        self.sets: dict[str, frozenset[str]] = {}


_LAST: list[_Index] = []


def _index(symbols: Mapping[str, tuple[str, ...]]) -> _Index:
    for ix in _LAST:
        if ix.symbols is symbols:
            return ix
    ix = _Index(symbols)
    _LAST[:] = [ix, *_LAST[:3]]
    return ix


class _Checker:
    def __init__(self, symbols: Mapping[str, tuple[str, ...]]) -> None:
        ix = _index(symbols)
        self.symbols = symbols
        self.sets = ix.sets
        self.library_roots = ix.roots
        self.problems: list[SampleProblem] = []
        self.imported: dict[str, str] = {}  # local name -> dotted target
        self.bound: set[str] = set()

    # ------------------------------------------------------------------ driver

    def run(self, tree: ast.Module) -> list[SampleProblem]:
        nodes = list(ast.walk(tree))  # walked once: three passes over a list are much cheaper
        self._collect_bindings(nodes)
        for node in nodes:
            if isinstance(node, ast.Import):
                self._check_import(node)
            elif isinstance(node, ast.ImportFrom):
                self._check_import_from(node)
        for node in nodes:
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                self._check_attribute(node)
            elif (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                  and node.id not in self.bound and node.id not in _BUILTINS):
                self._add("unknown-name", node.id, node.lineno,
                          f"`{node.id}` is not defined in the sample, not a builtin and not imported")
        return sorted(self.problems, key=lambda p: p.line)

    def _add(self, kind: ProblemKind, name: str, line: int, message: str) -> None:
        p = SampleProblem(kind, name, line, message)
        if p not in self.problems:
            self.problems.append(p)

    # ------------------------------------------------------------------ bindings

    def _collect_bindings(self, nodes: list[ast.AST]) -> None:
        """Names the sample binds anywhere (not flow-sensitive: samples are a few lines)."""
        b = self.bound
        for node in nodes:
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                b.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                b.add(node.name)
            elif isinstance(node, ast.arg):
                b.add(node.arg)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                b.add(node.name)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                b.update(node.names)
            elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
                b.add(node.name)
            elif isinstance(node, ast.MatchMapping) and node.rest:
                b.add(node.rest)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    local = a.asname or a.name.split(".", 1)[0]
                    b.add(local)
                    self.imported[local] = a.name if a.asname else local
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name == "*":
                        continue
                    local = a.asname or a.name
                    b.add(local)
                    if node.level == 0 and node.module:
                        self.imported[local] = f"{node.module}.{a.name}"

    # ------------------------------------------------------------------ imports

    def _check_import(self, node: ast.Import) -> None:
        for a in node.names:
            if not self._module_exists(a.name):
                self._add("unknown-module", a.name, node.lineno, f"no module `{a.name}`")

    def _check_import_from(self, node: ast.ImportFrom) -> None:
        if node.level:
            self._add("relative-import", "." * node.level + (node.module or ""), node.lineno,
                      "a sample cannot use a relative import")
            return
        mod = node.module or ""
        if not self._module_exists(mod):
            self._add("unknown-module", mod, node.lineno, f"no module `{mod}`")
            return
        for a in node.names:
            if a.name != "*" and not self._has_attr(mod, a.name):
                self._add("unknown-attribute", f"{mod}.{a.name}", node.lineno, f"`{mod}` has no `{a.name}`")

    # ------------------------------------------------------------------ attribute chains

    def _check_attribute(self, node: ast.Attribute) -> None:
        chain: list[str] = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute):
            chain.append(cur.attr)
            cur = cur.value
        if not isinstance(cur, ast.Name) or cur.id not in self.imported:
            return  # attributes of the sample's own values are the sample's business
        chain.reverse()
        base = self.imported[cur.id]
        if not self._resolve_base(base):
            return  # the import itself is reported
        dotted = base
        for attr in chain:
            if not self._has_attr(dotted, attr):
                full = f"{dotted}.{attr}"
                self._add("unknown-attribute", full, node.lineno, self._attr_message(dotted, attr))
                return
            dotted = f"{dotted}.{attr}"

    def _attr_message(self, dotted: str, attr: str) -> str:
        if self._is_library(dotted) and not self._is_library_container(dotted):
            return f"cannot show that `{dotted}` has an attribute `{attr}` (it is not a module the catalog knows)"
        return f"`{dotted}` has no attribute `{attr}`"

    def _resolve_base(self, dotted: str) -> bool:
        """The imported target exists (``from m import n`` gives ``m.n``)."""
        if self._module_exists(dotted):
            return True
        mod, _, name = dotted.rpartition(".")
        return bool(mod) and self._module_exists(mod) and self._has_attr(mod, name)

    # ------------------------------------------------------------------ the two worlds

    def _is_library(self, dotted: str) -> bool:
        return dotted.split(".", 1)[0] in self.library_roots

    def _is_library_container(self, dotted: str) -> bool:
        return dotted in self.symbols

    def _names(self, dotted: str) -> frozenset[str]:
        s = self.sets.get(dotted)
        if s is None:
            s = frozenset(self.symbols.get(dotted, ()))
            self.sets[dotted] = s
        return s

    def _module_exists(self, dotted: str) -> bool:
        if not dotted:
            return False
        if self._is_library(dotted):
            return dotted in self.symbols
        if dotted.split(".", 1)[0] in _TEST_RUNNERS:
            return True
        return _stdlib_module(dotted) is not None

    def _has_attr(self, dotted: str, attr: str) -> bool:
        if self._is_library(dotted):
            return attr in self._names(dotted) or f"{dotted}.{attr}" in self.symbols
        if dotted.split(".", 1)[0] in _TEST_RUNNERS:
            return True  # not the indexed code and not importable here: the test's own runner
        obj = _stdlib_object(dotted)
        if obj is _MISSING:
            return False
        if getattr(obj, attr, _MISSING) is not _MISSING:
            return True
        if isinstance(obj, ModuleType):
            return _stdlib_module(f"{dotted}.{attr}") is not None
        return False


def _stdlib_module(dotted: str) -> ModuleType | None:
    root = dotted.split(".", 1)[0]
    if root not in sys.stdlib_module_names or root in _NO_IMPORT:
        return None
    try:
        return importlib.import_module(dotted)
    except Exception:  # any failure to import means "not there" for a sample
        return None


def _stdlib_object(dotted: str) -> object:
    """The stdlib object at ``dotted`` (module, then attributes), or ``_MISSING``."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        mod = _stdlib_module(".".join(parts[:i]))
        if mod is None:
            continue
        obj: object = mod
        for p in parts[i:]:
            obj = getattr(obj, p, _MISSING)
            if obj is _MISSING:
                return _MISSING
        return obj
    return _MISSING
