"""Public names the library itself marks deprecated, said next to the name on the page (rating 9: click
8.5.1 serves ``click.get_binary_stream`` / ``get_text_stream`` through its module ``__getattr__`` with
"'get_binary_stream' is deprecated and will be removed in Click 9.0.", and ad70 / eb3a sent users there
without a word).

The evidence is the library's own ``DeprecationWarning`` (or ``PendingDeprecationWarning``) sites, which
extract indexes as warnings:

- in a module's ``__getattr__`` under ``if name == "X":``: ``module.X`` is deprecated;
- at the top of a function (no condition on the way): the function, and the public names that export it,
  are deprecated.

Where the page names such an entry and the public path has another entry the library does not deprecate,
the page points to that one too."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence

from errdex.model import Analysis, CallEdge, ErrorSite, Solution

_WARNINGS = frozenset({"DeprecationWarning", "PendingDeprecationWarning"})
_NAME_TEST = re.compile(r"""^\s*\w+\s*==\s*(['"])([A-Za-z_]\w*)\1\s*$""")
_MAX_WORDS = 160


def deprecated_names(sites: Iterable[ErrorSite], calls: Sequence[CallEdge] = ()) -> dict[str, str]:
    """public name -> the library's own deprecation text for it."""
    exports: dict[str, list[str]] = {}
    for e in calls:
        if e.kind == "export":
            exports.setdefault(e.callee, []).append(e.caller)
    out: dict[str, str] = {}
    for s in sites:
        if s.kind != "warning" or s.exception_name not in _WARNINGS or not s.module:
            continue
        text = s.template.render().strip()
        if not text or len(text) > _MAX_WORDS:
            continue
        if s.qualname == "__getattr__":
            names = [m.group(2) for g in s.guards if (m := _NAME_TEST.match(g.normalized)) is not None]
            if len(names) == 1:
                out.setdefault(f"{s.module}.{names[0]}", text)
        elif s.qualname and "." not in s.qualname and not s.qualname.startswith("<") and not s.guards:
            own = f"{s.module}.{s.qualname}"
            for name in (own, *exports.get(own, ())):
                if not any(p.startswith("_") for p in name.split(".")):
                    out.setdefault(name, text)
    return out


def with_deprecations(a: Analysis, deprecated: Mapping[str, str], entries: Sequence[str] = ()) -> Analysis:
    """The page with " (deprecated: ...)" after the first mention of each deprecated public name in its
    Meaning (else its first solution that names it), and, when ``entries`` (the public path) holds a name the
    library does not deprecate, a solution that points to it."""
    named = [n for n in deprecated if f"`{n}`" in _page_text(a)]
    if not named:
        return a
    for n in named:
        mark = f"`{n}` (deprecated: {_package(n)} warns \"{deprecated[n]}\")"
        if f"`{n}` (deprecated" in _page_text(a):  # said already
            continue
        if f"`{n}`" in a.meaning:
            a = dataclasses.replace(a, meaning=a.meaning.replace(f"`{n}`", mark, 1))
            continue
        sols = list(a.solutions)
        for i, s in enumerate(sols):
            if f"`{n}`" in s.text:
                sols[i] = dataclasses.replace(s, text=s.text.replace(f"`{n}`", mark, 1))
                break
        a = dataclasses.replace(a, solutions=tuple(sols))
    other = [e for e in entries if e not in deprecated and e not in named
             and not any(p.startswith("_") for p in e.split("."))]
    if other:
        said = ", ".join(f"`{n}`" for n in named)
        text = (f"{said} {'is' if len(named) == 1 else 'are'} deprecated; `{other[0]}` is a public call "
                f"{_package(named[0])} does not deprecate that goes through the same code (so the same check "
                "applies): prefer it where it does what you need.")
        if not any(s.text == text for s in a.solutions):
            a = dataclasses.replace(a, solutions=(*a.solutions, Solution(text=text)))
    return a


def _page_text(a: Analysis) -> str:
    return " ".join([a.meaning, a.trigger, *a.situations, *(s.text for s in a.solutions), *a.prevention, a.guard_note])


def _package(name: str) -> str:
    return name.split(".", 1)[0]
