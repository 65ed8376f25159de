"""The sections of a page whose raise an earlier dispatch narrowed (analyze/narrowed.py), in the user's terms.

The values that reach the raise are made by methods the user calls (``ref.reshape(...)``) and carried to
it by other methods of the same object (``ref[...] = value``): the page says that, instead of the public
path's nearest entry (which may reach the function without ever carrying those values).
"""

from __future__ import annotations

import re
from dataclasses import replace

from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.guardwords import narrowed_reason
from errdex.analyze.narrowed import Narrowed
from errdex.analyze.static import roles
from errdex.analyze.static.words import exc_name
from errdex.model import ErrorSite, Evidence, PublicPath, Solution


def _either(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _parts(f: Facts) -> tuple[Narrowed, GuardFact] | None:
    n = f.narrowed
    g = next((g for g in f.guards if g.guard.kind == "narrowed" and g.words), None)
    if n is None or g is None or not n.makers or not n.operations:
        return None
    return n, g


def _stage(f: Facts, n: Narrowed) -> str:
    """The stage the operation's own chain goes through (the `swap` operation's discharge), not the path's."""
    return roles.stage(replace(f, public_path=PublicPath(entries=f.public_path.entries, chain=n.chain,
                                                         depth=len(n.chain) - 1)))


def _subject(n: Narrowed) -> str:
    return f"{_either(n.done())} on the `{n.obj}` that {_either(n.made())} returns"


def evidence(f: Facts) -> list[Evidence]:
    parts = _parts(f)
    if parts is None:
        return []
    g = parts[1].guard
    return [Evidence(kind="dispatch", text=g.source, path=f.site.path, line=g.line,
                     url=f.snapshot.source_url(f.site.path, g.line)),
            Evidence(kind="guard", text=g.normalized, path=f.site.path, line=f.site.line, url=f.source_url)]


def meaning(f: Facts) -> str:
    parts = _parts(f)
    if parts is None:
        return ""
    n, g = parts
    stage = _stage(f, n)
    return (f"{_subject(n)[:1].upper()}{_subject(n)[1:]} raises {exc_name(f)}" + (f" {stage}" if stage else "")
            + f": `{n.subject}` is then {g.words.split(f'`{n.subject}` is ', 1)[-1]} ({narrowed_reason(g.guard)}).")


def trigger(f: Facts) -> str:
    parts = _parts(f)
    if parts is None:
        return ""
    n, _g = parts
    stage = _stage(f, n)
    return (f"{_subject(n)[:1].upper()}{_subject(n)[1:]}" + (f" ({stage.removeprefix('while ')})" if stage else "")
            + ".")


def solution(f: Facts) -> Solution | None:
    parts = _parts(f)
    if parts is None:
        return None
    n, _g = parts
    handled = _either([f"`{h}`" for h in n.handled])
    first = n.done()[0]
    makers = " or ".join(f"`{m}`" for m in n.makers)
    return Solution(
        text=(f"Use {first} on the `{n.obj}` itself, not on the one {_either(n.made())} returns (here `{n.subject}` "
              f"may only be {handled}): do the {makers} on the value instead, so that it already has the "
              f"`{n.obj}`'s own shape and dtype."),
        evidence=tuple(evidence(f)))


_CASE = re.compile(r"^\s*case\s+([\w.]+)\(|^\s*(?:el)?if\s+isinstance\(\s*\w+\s*,\s*\(?([\w., ]+?)\)?\s*\)\s*:")


def handled_elsewhere(f: Facts) -> ErrorSite | None:
    """Another raise of the same message in a lowering (its path or function says ``lower``) whose own dispatch,
    above it in its snippet, handles every type that reaches this raise (rating 12, 9fa3: Mosaic TPU's
    ``_transform_ref`` handles ``BitcastTransform`` and ``ReshapeTransform``, so a compiled kernel accepts what
    state discharge refuses; "Never" was too broad)."""
    parts = _parts(f)
    if parts is None:
        return None
    wanted = {t.rsplit(".", 1)[-1] for t in parts[0].types}
    for o in f.same_text:
        if o.path == f.site.path or "lower" not in f"{o.path} {o.qualname}".lower():
            continue
        lines = o.snippet.splitlines()[: max(0, o.line - o.snippet_start)]
        seen = {name.strip().rsplit(".", 1)[-1] for ln in lines if (m := _CASE.match(ln))
                for name in (m.group(1) or m.group(2) or "").split(",") if name.strip()}
        if wanted and wanted <= seen:
            return o
    return None


def _stage_words(f: Facts, n: Narrowed) -> str:
    return _stage(f, n).removeprefix("while ")


def compiled_solution(f: Facts) -> Solution | None:
    """"Or run it compiled ...": the lowering that handles the narrowed types, as the other way out."""
    other = handled_elsewhere(f)
    parts = _parts(f)
    if other is None or parts is None:
        return None
    n, _g = parts
    kinds = " and ".join(f"`{t.rsplit('.', 1)[-1]}`" for t in n.types)
    return Solution(
        text=(f"Or run it compiled, where the {_either(n.made())} view is lowered rather than discharged: "
              f"`{other.qualname}` (`{other.path}:{other.line}`), a lowering of the same operations, handles {kinds} "
              "itself and raises this message only for other transforms; this page's raise comes only "
              + (_stage(f, n) or "on this path") + "."),
        evidence=(Evidence(kind="template", text=" ".join(other.template.render().split())[:200], path=other.path,
                           line=other.line),))


def prevention(f: Facts) -> str:
    parts = _parts(f)
    if parts is None:
        return ""
    n, _g = parts
    if handled_elsewhere(f) is not None:  # scoped by the stage, not "never": a compiled lowering accepts it
        stage = _stage_words(f, n)
        return ((f"Where {stage}, do not" if stage else "On this path, do not") + f" use {_either(n.done())} on the "
                f"`{n.obj}` that {_either(n.made())} returns: change the value you give it, not the `{n.obj}` you "
                "give it to (a compiled kernel whose lowering handles the view accepts it, as the solutions say).")
    return (f"Never use {_either(n.done())} on the `{n.obj}` that {_either(n.made())} returns: change the value "
            f"you give it, not the `{n.obj}` you give it to.")


def guard_note(f: Facts) -> str:
    parts = _parts(f)
    if parts is None:
        return ""
    n, _g = parts
    return (f"What you can check before {n.done()[0]}: that the `{n.obj}` is not one that {_either(n.made())} "
            f"returned (use the `{n.obj}` itself, and change the value instead): the code decides it, not the data "
            "it runs on.")


def situation(f: Facts) -> str:
    parts = _parts(f)
    if parts is None:
        return ""
    n, _g = parts
    chain = " → ".join(f"`{c.rsplit('.', 1)[-1]}`" for c in n.chain)
    owner = n.holder.rsplit(".", 1)[-1]
    made = ", ".join(f"`{owner}.{m}`" for m in n.makers)
    return (f"{_subject(n)[:1].upper()}{_subject(n)[1:]}: the library's own call chain {chain} "
            f"(`{f.site.path}:{f.site.line}`) carries what {made} added to it to the raise.")
