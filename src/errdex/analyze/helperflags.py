"""What a list of flags a package helper returns holds, read from the helper's own code.

A raising function that unpacks a list from a helper of its package and tests it
(``base, shape, is_squeezed = utils.parse_indices(idxs, self.shape)`` then ``if any(is_squeezed): raise``)
checks values the user never sees by that name: rating 8 (7554) found "one of the 'is squeezed' values is
true" said nothing of what the user did.  The helper says it where it fills the list:
``if isinstance(idx, int): ... is_squeezed.append(True)``.  errdex holds no function bodies, but a raise site
of the helper holds a snippet of it; the test above the ``append(True)`` (its nearest enclosing ``if`` /
``elif``) is the case that makes a flag true.  Only the helper's own name is used (a module-level function, or
the call's module matching the file's); several cases (an ``int`` index, a traced scalar one) are all kept, in
the order the helper tests them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from errdex.model import ErrorSite

_UNPACK = re.compile(r"^\s*([A-Za-z_][\w ,]*,[\w ,]*)=\s*([A-Za-z_][\w.]*)\(")
_RETURN = re.compile(r"^\s*return\s+([A-Za-z_][\w ,]*)$")


def flag_sources(site: ErrorSite, guards: Iterable[str],
                 by_function: Mapping[tuple[str, str], Sequence[ErrorSite]]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(local, helper call as written, the tests that make a flag true) for each local the guards read that the
    snippet unpacks from a package helper's result, when a raise site of that helper shows where it appends
    ``True`` to the list it returns in that position."""
    texts = list(guards)
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for line in site.snippet.splitlines():
        m = _UNPACK.match(line)
        if not m:
            continue
        targets = [t.strip() for t in m.group(1).split(",")]
        call = m.group(2)
        for k, local in enumerate(targets):
            if not local or not any(re.search(rf"(?<![\w.]){re.escape(local)}(?!\w)", t) for t in texts):
                continue
            found = _helper_tests(call, k, local, by_function)
            if found and all(o[0] != local for o in out):
                out.append((local, call, found))
    return tuple(out)


def _helper_tests(call: str, position: int, local: str,
                  by_function: Mapping[tuple[str, str], Sequence[ErrorSite]]) -> tuple[str, ...]:
    name = call.rsplit(".", 1)[-1]
    module = call.rsplit(".", 1)[0].rsplit(".", 1)[-1] if "." in call else ""
    tests: dict[tuple[str, int], str] = {}  # (path, line) -> test: the snippets of one function overlap
    for (path, qualname), sites in by_function.items():
        if qualname != name or (module and path.rsplit("/", 1)[-1].removesuffix(".py") != module):
            continue
        for s in sites:
            lines = s.snippet.splitlines()
            held = _returned_name(lines, position) or local
            tests.update({(path, s.snippet_start + i): t for i, t in _append_true_tests(lines, held)})
    return tuple(dict.fromkeys(tests[k] for k in sorted(tests)))


def _returned_name(lines: list[str], position: int) -> str:
    """The name the helper returns at ``position`` (``return base, shape, flags``), when the snippet shows it."""
    for ln in lines:
        m = _RETURN.match(ln)
        if m:
            parts = [p.strip() for p in m.group(1).split(",")]
            return parts[position] if position < len(parts) and parts[position].isidentifier() else ""
    return ""


def _append_true_tests(lines: list[str], held: str) -> list[tuple[int, str]]:
    """(index of the test's line, test) for each ``held.append(True)`` the snippet shows."""
    out: list[tuple[int, str]] = []
    for i, ln in enumerate(lines):
        if not re.match(rf"\s*{re.escape(held)}\.append\(True\)\s*$", ln):
            continue
        indent = len(ln) - len(ln.lstrip())
        for j in range(i - 1, -1, -1):
            above = lines[j]
            stripped = above.strip()
            level = len(above) - len(above.lstrip())
            if not stripped or level >= indent:
                continue
            m = re.match(r"(?:if|elif)\s+(.+):$", stripped)
            if m:
                out.append((j, m.group(1).strip()))
            break  # the nearest enclosing block decides; a loop or an ``else`` gives no test
    return out


_ISINSTANCE = re.compile(r"isinstance\((\w+),\s*\(?([\w.]+(?:,\s*[\w.]+)*)\)?\)")


def cases_words(tests: Sequence[str]) -> str:
    """"`idx` is an `int` or an `ir.Value`" for ``isinstance(idx, int)`` and ``isinstance(idx, ir.Value)``;
    tests of other forms as code ("`x > 0` holds"), joined with "or"."""
    ms = [_ISINSTANCE.fullmatch(t) for t in tests]
    if ms and all(ms) and len({m.group(1) for m in ms if m}) == 1:
        kinds = [k.strip() for m in ms if m for k in m.group(2).split(",") if k.strip()]
        return f"`{ms[0].group(1) if ms[0] else ''}` is " + _either([f"{_article(k)} `{k}`" for k in kinds])
    return _either([f"`{t}` holds" for t in tests])


def _article(kind: str) -> str:
    return "an" if kind[:1].lower() in "aeiou" else "a"


def _either(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]
