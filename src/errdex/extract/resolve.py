"""Phase 2 assembly: pending sites → ``ErrorSite``, classes → ``ClassInfo``, symbols.

Runs once in the parent over every file's ``FileResult``.  It is a linear
pass over the sites plus dictionary look-ups into the summaries; nothing
here re-reads or re-parses source.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from errdex.extract.expand import MAX_TEMPLATES, Expander, Outcome, Tables
from errdex.extract.imports import BUILTIN_EXCEPTIONS
from errdex.extract.ir import Variant
from errdex.extract.summary import FileResult, ModuleSummary, PendingSite
from errdex.model import ClassInfo, ErrorSite, Segment, Template, error_id

_DOTTED = re.compile(r"[\w.]+")


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


def _templates(variants: Iterable[Variant]) -> tuple[tuple[Template, ...], tuple[str, ...]]:
    templates: list[Template] = []
    unresolved: list[str] = []
    for v in variants:
        t = Template.of(_clean(p.segment) for p in v)
        if t not in templates:
            templates.append(t)
        for p in v:
            if p.unresolved and p.segment.expr is not None and p.segment.expr not in unresolved:
                unresolved.append(p.segment.expr)
        if len(templates) >= MAX_TEMPLATES:
            break
    # A template that is one unresolved placeholder says least: keep it, but never as the first
    # (the one the id hashes) when a variant with known text exists.
    templates.sort(key=lambda t: len(t.segments) == 1 and not t.literals and t.segments[0].expr in unresolved)
    return tuple(templates) or (Template(),), tuple(unresolved)


def _pick(outcomes: list[Outcome]) -> Outcome:
    """The outcome that names a class (not an unknown value), else the first."""
    for o in outcomes:
        if o.resolved in BUILTIN_EXCEPTIONS or "." in o.resolved or o.resolved[:1].isupper():
            return o
    return outcomes[0]


class Resolver:
    def __init__(self, results: list[FileResult], repo: str = "") -> None:
        self.repo = repo
        self.summaries: list[ModuleSummary] = [r.summary for r in results if r.summary is not None]
        self.tables = Tables(self.summaries)
        self.x = Expander(self.tables)

    def site(self, s: PendingSite, path: str, module: str) -> ErrorSite:
        written = s.written
        if s.kind == "error":
            assert s.value is not None
            outcomes = self.x.exception(s.value)
            main = _pick(outcomes)
            variants = [v for o in outcomes for v in o.variants]
            resolved = main.resolved
            if main.written not in ("?", "") and main.written != written and (
                    not written[:1].isupper() or not _DOTTED.fullmatch(written)):
                written = main.written  # raised through a helper, a variable or an expression: name the class
        elif s.kind == "warning":
            if s.value is None:
                resolved = "UserWarning"
                variants = list(self.x.text(s.message)) if s.message is not None else [()]
            else:
                outcomes = self.x.exception(s.value)
                main = _pick(outcomes)
                resolved = main.resolved
                if s.message is not None:
                    variants = list(self.x.text(s.message))
                else:
                    variants = [v for o in outcomes for v in o.variants]
        else:
            resolved = "AssertionError"
            variants = list(self.x.text(s.message)) if s.message is not None else [()]
        templates, unresolved = _templates(variants)
        return ErrorSite(
            error_id=error_id(self.repo, s.kind, resolved, templates[0].normalized(), s.qualname),
            kind=s.kind, exception=written, exception_resolved=resolved, templates=templates,
            path=path, line=s.line, end_line=s.end_line, qualname=s.qualname, module=module,
            exception_bases=self.tables.bases_chain(resolved), guards=s.guards,
            snippet=s.snippet, snippet_start=s.snippet_start, docstring=clean_text(s.docstring),
            comments=s.comments, unresolved=unresolved, cause=s.cause,
        )

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


def _is_public(dotted: str) -> bool:
    return not any(p.startswith("_") for p in dotted.split("."))
