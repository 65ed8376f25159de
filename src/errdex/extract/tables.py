"""Phase 2's tables: every module's summary indexed by dotted name, and how a name written in one
module resolves to where it is defined (re-exports, imports, a package's star imports)."""

from __future__ import annotations

from collections.abc import Callable

from errdex.extract.factories import by_name_parts, resolve_by_name
from errdex.extract.imports import STAR
from errdex.extract.ir import Node
from errdex.extract.summary import ClassSummary, FuncSummary, ModuleSummary


class Tables:
    """Every module's summary, indexed by dotted name."""

    def __init__(self, summaries: list[ModuleSummary]) -> None:
        self.modules: dict[str, ModuleSummary] = {s.module: s for s in summaries}
        self.classes: dict[str, tuple[ClassSummary, ModuleSummary]] = {}
        self.functions: dict[str, FuncSummary] = {}
        self.constants: dict[str, Node] = {}
        # attribute name -> the classes its annotations give its items, over the package (``itemtypes``)
        self.item_types: dict[str, set[str]] = {}
        for s in summaries:
            for attr, cls in s.item_types:
                self.item_types.setdefault(attr, set()).add(cls)
            prefix = f"{s.module}." if s.module else ""
            for c in s.classes:
                self.classes[prefix + c.name] = (c, s)
            for name, f in s.functions.items():
                self.functions[prefix + name] = f
            for name, n in s.constants.items():
                self.constants[prefix + name] = n
        self._canon: dict[str, str] = {}
        self._subclasses: dict[str, tuple[str, ...]] | None = None
        self._by_name: dict[str, str | None] = {}
        self._function_names: frozenset[str] | None = None

    def constant(self, dotted: str) -> Node | None:
        """The module- or class-level constant ``dotted`` names, through re-exports (``Keys.PLATFORM``)."""
        return self.constants.get(self.canonical(dotted))

    def canonical(self, dotted: str) -> str:
        """Follow re-exports: ``jax.errors.X`` → where ``X`` is defined (or as given)."""
        hit = self._canon.get(dotted)
        if hit is not None:
            return hit
        self._canon[dotted] = dotted  # provisional: modules that star-import each other end here
        seen: set[str] = set()
        name = dotted
        # Bounded: an import that re-binds a name to a path below itself would otherwise grow forever.
        while name not in seen and len(seen) < 32:
            seen.add(name)
            if name in self.classes or name in self.functions or name in self.constants or name in self.modules:
                break
            nxt = self._via_import(name)
            if nxt is None:
                name = self._unbound(name)
                break
            name = nxt
        self._canon[dotted] = name
        return name

    def rebound(self, module: str) -> str:
        """What a package's attribute named like its submodule is once the package is imported: ``github/__init__``'s
        ``from .GithubException import GithubException`` rebinds ``github.GithubException`` from the submodule to its
        class, so a call ``github.GithubException(400, data)`` (a module is never called) makes that class.  The
        module itself when the package binds no other value under that name."""
        package, _, last = module.rpartition(".")
        mod = self.modules.get(package)
        target = mod.imports.get(last) if mod is not None and package else None
        if target is None or target == module or target.startswith(STAR):
            return module
        return self.canonical(target)

    def _via_import(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            mod = self.modules.get(".".join(parts[:i]))
            if mod is None:
                continue
            target = mod.imports.get(parts[i])
            if target is None:
                return self._via_star(mod, parts[i:])
            rest = parts[i + 1 :]
            return ".".join([target, *rest])
        return None

    def _via_star(self, mod: ModuleSummary, parts: list[str]) -> str | None:
        """A name the module does not bind itself, read from the package modules it star-imports."""
        if parts[0] in mod.names:
            return None
        for key, src in mod.imports.items():
            if key.startswith(STAR) and src != mod.module:
                cand = ".".join([src, *parts])
                head = f"{src}.{parts[0]}"
                if self.canonical(head) != head or head in self.classes or head in self.functions \
                        or head in self.constants:
                    return cand
        return None

    def _unbound(self, name: str) -> str:
        """A name qualified by a star-importing module that none of its stars binds: as written."""
        parts = name.split(".")
        for i in range(len(parts) - 1, 0, -1):
            mod = self.modules.get(".".join(parts[:i]))
            if mod is not None:
                if parts[i] not in mod.names and any(k.startswith(STAR) for k in mod.imports):
                    return ".".join(parts[i:])
                return name
        return name

    def function(self, dotted: str) -> tuple[FuncSummary | None, str | None]:
        """The function ``dotted`` names and, for ``Class.method``, that class: a method the class
        does not define is looked up on its bases (a factory classmethod inherited by a subclass)."""
        f = self.functions.get(dotted)
        owner, _, name = dotted.rpartition(".")
        if owner not in self.classes:
            return f, None
        for base in self.bases_chain(owner) if f is None else ():
            f = self.functions.get(f"{base}.{name}")
            if f is not None:
                break
        return f, owner

    def names_a_function(self, target: str) -> bool:
        """Whether any function or method of the package has the by-name target's name
        (``factories.by_name``): a call of a name none has is no factory of the package."""
        if self._function_names is None:
            self._function_names = frozenset(k.rpartition(".")[2] for k in self.functions)
        return by_name_parts(target)[2] in self._function_names

    def by_name(self, target: str) -> str | None:
        """A method known by name only (``factories.by_name``): the package's one class method of
        that name other than the caller's (computed once per target)."""
        hit = self._by_name.get(target, "")
        if hit == "":
            hit = self._by_name[target] = self._via_attr(target) or resolve_by_name(
                target, self.functions, self.classes, self.bases_chain)
        return hit

    def _via_attr(self, target: str) -> str | None:
        """``self._log.error(...)`` in a method of a class whose own or inherited class attribute
        ``_log`` holds an instance of a package class (``_log = ErrorHandler()``, ``getattrs.py``): that
        class's method, or the method its ``__getattr__`` hands out for the name."""
        caller, via, method = by_name_parts(target)
        owner = caller.rpartition(".")[0]
        if not via or owner not in self.classes:
            return None
        for cls in (owner, *self.bases_chain(owner)):
            entry = self.classes.get(cls)
            held = next((c for a, c in entry[0].attr_instances if a == via), None) if entry else None
            if held is not None:
                return self.method(self.canonical(held), method)
        return None

    def method(self, cls: str, name: str) -> str | None:
        """The function ``cls.name`` calls: defined on the class or a base, else what a ``__getattr__``
        of the class or a base returns for that name (``getattrs.getattr_forward``)."""
        if cls not in self.classes:
            return None
        chain = (cls, *self.bases_chain(cls))
        for c in chain:
            if f"{c}.{name}" in self.functions:
                return f"{c}.{name}"
        for c in chain:
            entry = self.classes.get(c)
            fwd = entry[0].getattr_forward if entry else None
            if fwd is not None and (not fwd[1] or name in fwd[1]) and f"{c}.{fwd[0]}" in self.functions:
                return f"{c}.{fwd[0]}"
        return None

    def nearest(self, cls: str, lookup: Callable[[str], Node | None], upto: str | None = None) -> Node | None:
        """What ``self.<name>`` finds on an instance of ``cls``: the first value ``lookup`` gives over the
        class and its bases, nearest first (``bases_chain``), looking past ``upto`` no further; else None.
        (A class's text its raise binds, ``owntexts.RaisedTexts``; a text a plain class keeps, ``kepttexts``.)"""
        for c in (cls, *self.bases_chain(cls)):
            found = lookup(c)
            if found is not None:
                return found
            if c == upto:
                break
        return None

    def subclasses(self, cls: str) -> tuple[str, ...]:
        """The package's classes that have ``cls`` among their bases (computed once per class)."""
        if self._subclasses is None:
            index: dict[str, list[str]] = {}
            for c in self.classes:
                for b in self.bases_chain(c):
                    index.setdefault(b, []).append(c)
            self._subclasses = {b: tuple(sorted(cs)) for b, cs in index.items()}
        return self._subclasses.get(cls, ())

    def bases_chain(self, cls: str) -> tuple[str, ...]:
        """Resolved bases, nearest first, depth-first, up to (and including) builtins."""
        out: list[str] = []
        stack = [cls]
        seen = {cls}
        while stack:
            cur = stack.pop(0)
            entry = self.classes.get(cur)
            if entry is None:
                continue
            nxt = []
            for b in entry[0].bases:
                cb = self.canonical(b)
                if cb not in seen:
                    seen.add(cb)
                    out.append(cb)
                    nxt.append(cb)
            stack = nxt + stack
        return tuple(out)
