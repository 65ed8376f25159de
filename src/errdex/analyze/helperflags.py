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

import ast
import re
from collections.abc import Iterable, Mapping, Sequence

from errdex.model import ErrorSite

_UNPACK = re.compile(r"^\s*([A-Za-z_][\w ,]*,[\w ,]*)=\s*([A-Za-z_][\w.]*)\(")
_RETURN = re.compile(r"^\s*return\s+([A-Za-z_][\w ,]*)$")


def flag_sources(site: ErrorSite, guards: Iterable[str],
                 by_function: Mapping[tuple[str, str], Sequence[ErrorSite]],
                 value: str = "True") -> tuple[tuple[str, str, tuple[str, ...], str], ...]:
    """(local, helper call as written, the tests that make a flag true, the caller's argument the tested name
    is an entry of or "") for each local the guards read that the snippet unpacks from a package helper's
    result, when a raise site of that helper shows where it appends ``True`` to the list it returns in that
    position; with ``value="False"``, the tests that make a flag false (rating 12, 7554: what to pass instead,
    "a `slice` or a `DynamicSlice`", where the true cases said only what not to pass)."""
    texts = list(guards)
    out: list[tuple[str, str, tuple[str, ...], str]] = []
    for line in site.snippet.splitlines():
        m = _UNPACK.match(line)
        if not m:
            continue
        targets = [t.strip() for t in m.group(1).split(",")]
        call = m.group(2)
        for k, local in enumerate(targets):
            if not local or not any(re.search(rf"(?<![\w.]){re.escape(local)}(?!\w)", t) for t in texts):
                continue
            found, params = _helper_tests(call, k, local, by_function, value)
            if found and all(o[0] != local for o in out):
                out.append((local, call, found, _argument_for(line, params)))
    return tuple(out)


def _helper_tests(call: str, position: int, local: str, by_function: Mapping[tuple[str, str], Sequence[ErrorSite]],
                  value: str = "True") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The tests, and for each helper parameter position the name the tested value is an entry of (``index``
    for ``for axis, (idx, bound) in enumerate(zip(index, shape))`` when the tests are on ``idx``)."""
    name = call.rsplit(".", 1)[-1]
    module = call.rsplit(".", 1)[0].rsplit(".", 1)[-1] if "." in call else ""
    tests: dict[tuple[str, int], str] = {}  # (path, line) -> test: the snippets of one function overlap
    loops: set[str] = set()  # the helper's parameter the tested name runs over
    params: tuple[str, ...] = ()
    for (path, qualname), sites in by_function.items():
        if qualname != name or (module and path.rsplit("/", 1)[-1].removesuffix(".py") != module):
            continue
        for s in sites:
            lines = s.snippet.splitlines()
            held = _returned_name(lines, position) or local
            found = _append_tests(lines, held, value)
            tests.update({(path, s.snippet_start + i): t for i, t in found})
            params = params or _def_params(lines, name)
            for i, t in found:
                loops.add(_loop_over(lines, i, t))
    loops.discard("")  # a snippet that starts inside the loop shows no loop line
    over = loops.pop() if len(loops) == 1 else ""
    marks = tuple("entry" if p == over else "" for p in params) if over else ()
    return tuple(dict.fromkeys(tests[k] for k in sorted(tests))), marks


def _def_params(lines: list[str], name: str) -> tuple[str, ...]:
    """The positional parameters of ``def name(...)`` in the snippet, its header on one line or several."""
    for i, ln in enumerate(lines):
        if not re.match(rf"\s*def {re.escape(name)}\(", ln):
            continue
        for j in range(i, min(i + 12, len(lines))):
            try:
                tree = ast.parse("\n".join(x.strip() for x in lines[i:j + 1]) + "\n    pass")
            except SyntaxError:
                continue
            fn = tree.body[0]
            if isinstance(fn, ast.FunctionDef):
                return tuple(a.arg for a in (*fn.args.posonlyargs, *fn.args.args))
        return ()
    return ()


def _loop_over(lines: list[str], at: int, test: str) -> str:
    """The name the loop around line ``at`` runs over whose element is the tested name, or ""."""
    m = re.fullmatch(r"isinstance\((\w+),.*\)", test)
    if not m:
        return ""
    indent = len(lines[at]) - len(lines[at].lstrip())
    for j in range(at - 1, -1, -1):
        ln = lines[j]
        level = len(ln) - len(ln.lstrip())
        if not ln.strip() or level >= indent:
            continue
        indent = level
        if ln.strip().startswith("for "):
            try:
                loop = ast.parse(ln.strip() + "\n    pass").body[0]
            except SyntaxError:
                return ""
            return _element_source(loop.target, loop.iter, m.group(1)) if isinstance(loop, ast.For) else ""
        if ln.strip().startswith("def "):
            return ""
    return ""


def _element_source(target: ast.expr, it: ast.expr, name: str) -> str:
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate" and it.args \
            and isinstance(target, ast.Tuple) and len(target.elts) == 2:
        return _element_source(target.elts[1], it.args[0], name)
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "zip" \
            and isinstance(target, ast.Tuple) and len(target.elts) == len(it.args):
        return next((_element_source(t, a, name) for t, a in zip(target.elts, it.args, strict=True)
                     if _element_source(t, a, name)), "")
    if isinstance(target, ast.Name) and target.id == name and isinstance(it, ast.Name):
        return it.id
    return ""


def _argument_for(line: str, marks: tuple[str, ...]) -> str:
    """The caller's argument (a plain name) at the position ``marks`` flags, in the unpacking call ``line``."""
    if "entry" not in marks:
        return ""
    try:
        value = ast.parse(line.strip()).body[0]
    except SyntaxError:
        return ""
    call = value.value if isinstance(value, ast.Assign) else None
    k = marks.index("entry")
    arg = call.args[k] if isinstance(call, ast.Call) and k < len(call.args) else None
    return arg.id if isinstance(arg, ast.Name) else ""


def _returned_name(lines: list[str], position: int) -> str:
    """The name the helper returns at ``position`` (``return base, shape, flags``), when the snippet shows it."""
    for ln in lines:
        m = _RETURN.match(ln)
        if m:
            parts = [p.strip() for p in m.group(1).split(",")]
            return parts[position] if position < len(parts) and parts[position].isidentifier() else ""
    return ""


def _append_tests(lines: list[str], held: str, value: str = "True") -> list[tuple[int, str]]:
    """(index of the test's line, test) for each ``held.append(True)`` (or ``value``) the snippet shows."""
    out: list[tuple[int, str]] = []
    for i, ln in enumerate(lines):
        if not re.match(rf"\s*{re.escape(held)}\.append\({value}\)\s*$", ln):
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


def cases_words(tests: Sequence[str], entry_of: str = "") -> str:
    """"`idx` is an `int` or an `ir.Value`" for ``isinstance(idx, int)`` and ``isinstance(idx, ir.Value)``
    ("an entry of `idxs` is ..." when the tested name runs over the caller's ``idxs``); tests of other forms as
    code ("`x > 0` holds"), joined with "or"."""
    ms = [_ISINSTANCE.fullmatch(t) for t in tests]
    if ms and all(ms) and len({m.group(1) for m in ms if m}) == 1:
        kinds = [k.strip() for m in ms if m for k in m.group(2).split(",") if k.strip()]
        who = f"an entry of `{entry_of}`" if entry_of else f"`{ms[0].group(1) if ms[0] else ''}`"
        return f"{who} is " + _either([f"{_article(k)} `{k}`" for k in kinds])
    return _either([f"`{t}` holds" for t in tests])


def case_kinds(tests: Sequence[str]) -> list[str]:
    """The classes of ``isinstance`` tests on one name (``slice``, ``DynamicSlice``), or [] for tests of other
    forms."""
    ms = [_ISINSTANCE.fullmatch(t) for t in tests]
    if not ms or not all(ms) or len({m.group(1) for m in ms if m}) != 1:
        return []
    return [k.strip() for m in ms if m for k in m.group(2).split(",") if k.strip()]


def kinds_words(kinds: Sequence[str]) -> str:
    """"a `slice` or a `DynamicSlice`"."""
    return _either([f"{_article(k)} `{k}`" for k in kinds])


def _article(kind: str) -> str:
    return "an" if kind[:1].lower() in "aeiou" else "a"


def _either(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]
