"""Related errors: same function, same guard variables, similar text, same module; ranked, at most five.

Every candidate gets a score from the reasons that apply (each reason is a
fact that the page states: "raised in the same function"), ties broken by
distance in the file so the neighbours of a raise come first.
"""

from __future__ import annotations

import re

from errdex.analyze.context import SnapshotContext
from errdex.analyze.guardwords import guard_names
from errdex.model import ErrorSite, RelatedError

MAX_RELATED = 5
_WORD = re.compile(r"[a-z_][a-z0-9_]{2,}")
_STOP = frozenset({"the", "and", "for", "not", "with", "that", "this", "must", "are", "was", "got", "but",
                   "has", "have", "from", "which", "when", "use", "can"})


def _key(site: ErrorSite) -> tuple[str, int, str]:
    return (site.path, site.line, site.error_id)


def _words(site: ErrorSite, ctx: SnapshotContext) -> frozenset[str]:
    key = _key(site)
    out = ctx.word_cache.get(key)
    if out is None:
        out = frozenset({w for t in site.templates for lit in t.literals for w in _WORD.findall(lit.lower())} - _STOP)
        ctx.word_cache[key] = out
    return out


def _guard_vars(site: ErrorSite, ctx: SnapshotContext) -> frozenset[str]:
    key = _key(site)
    out = ctx.var_cache.get(key)
    if out is None:
        out = frozenset(n for g in site.guards for n in guard_names(g) if "." in n or len(n) > 2)
        ctx.var_cache[key] = out
    return out


def _word_index(ctx: SnapshotContext) -> dict[str, list[ErrorSite]]:
    if not ctx.site_words:
        for s in ctx.sites:
            for w in _words(s, ctx):
                ctx.site_words.setdefault(w, []).append(s)
    return ctx.site_words


def title(site: ErrorSite) -> str:
    text = site.template.render().strip() or site.exception_name
    text = " ".join(text.split())
    return f"{site.exception_name}: {text[:117] + '...' if len(text) > 120 else text}"


def related_errors(site: ErrorSite, ctx: SnapshotContext) -> tuple[RelatedError, ...]:
    mine_words = _words(site, ctx)
    mine_vars = _guard_vars(site, ctx)
    scored: dict[str, tuple[float, int, ErrorSite, list[str]]] = {}

    def consider(other: ErrorSite, points: float, reason: str) -> None:
        if other.error_id == site.error_id or not other.error_id:
            return
        if not any(t.strip() for t in other.template.literals) and reason not in (
                "raised in the same function", "same package, same exception type", "same exception type",
                "raised nearby in the same module", "raised in the same package"):
            return  # "Exception: Exception" tells the reader nothing
        prev = scored.get(other.error_id)
        if prev is None:
            dist = abs(other.line - site.line) if other.path == site.path else 10**6
            scored[other.error_id] = (points, dist, other, [reason])
        elif reason not in prev[3]:
            scored[other.error_id] = (prev[0] + points, prev[1], other, [*prev[3], reason])

    for other in ctx.sites_by_function.get((site.path, site.qualname), []):
        consider(other, 3.0, "raised in the same function")
    module_sites = ctx.sites_by_module.get(site.path, [])
    for other in module_sites:
        if mine_vars:
            shared = mine_vars & _guard_vars(other, ctx)
            if shared:
                consider(other, 2.0, "guarded by the same " + ", ".join(f"`{v}`" for v in sorted(shared)[:2]))
    if mine_words:
        for other in module_sites:
            ow = _words(other, ctx)
            if ow:
                jac = len(mine_words & ow) / len(mine_words | ow)
                if jac >= 0.4:
                    consider(other, 2.0 * jac, "similar message")
    if len(scored) < MAX_RELATED:
        for other in module_sites:
            if other.exception_name == site.exception_name:
                consider(other, 0.5, "same module, same exception type")
    if len(scored) < MAX_RELATED and mine_words:
        index = _word_index(ctx)
        for w in sorted(mine_words, key=lambda w: len(index.get(w, ())))[:2]:
            for other in index.get(w, [])[:200]:
                if other.path == site.path:
                    continue
                ow = _words(other, ctx)
                jac = len(mine_words & ow) / len(mine_words | ow)
                if jac >= 0.3:
                    consider(other, 1.5 * jac, "similar message in another module")
    if not scored:
        package = site.path.rsplit("/", 1)[0]
        near = [o for o in ctx.sites_by_exception.get(site.exception_name, [])
                if o.path.startswith(package + "/") and o.error_id != site.error_id]
        for other in near[:MAX_RELATED + 1]:
            consider(other, 0.1, "same package, same exception type")
    if not scored:
        # Last resort, falling back through the class chain (STYLE.md item 8): the same
        # exception type elsewhere in the library, else a base class of it.
        for name in (site.exception_name, *(b.rsplit(".", 1)[-1] for b in site.exception_bases)):
            anywhere = [o for o in ctx.sites_by_exception.get(name, []) if o.error_id != site.error_id]
            reason = "same exception type" if name == site.exception_name else f"raises the base class {name}"
            for other in sorted(anywhere, key=lambda o: (o.path != site.path, o.path, o.line))[:MAX_RELATED + 1]:
                consider(other, 0.05, reason)
            if scored:
                break
    if not scored:
        for other in sorted(module_sites, key=lambda o: abs(o.line - site.line))[:MAX_RELATED + 1]:
            consider(other, 0.01, "raised nearby in the same module")
    if not scored:
        folder = site.path.rsplit("/", 1)[0] + "/"
        siblings = [o for path, sites in sorted(ctx.sites_by_module.items())
                    if path.startswith(folder) and "/" not in path[len(folder):] for o in sites]
        for other in siblings[:MAX_RELATED + 1]:
            consider(other, 0.01, "raised in the same package")
    ranked = sorted(scored.values(), key=lambda x: (-x[0], x[1], x[2].error_id))
    out: list[RelatedError] = []
    repeats: list[RelatedError] = []
    titles = {title(site)}
    for _, _, o, r in ranked:
        t = title(o)
        item = RelatedError(error_id=o.error_id, title=t, reason="; ".join(r))
        if t in titles:
            repeats.append(item)  # the same message raised elsewhere: only if nothing else is related
            continue
        titles.add(t)
        out.append(item)
        if len(out) == MAX_RELATED:
            break
    if not out:
        out = repeats[:2]
    return tuple(out)
