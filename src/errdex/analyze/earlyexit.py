"""Guards the extractor does not record: ``if ...: return`` before the raise at the same level.

``def f(x): if x is None: return; raise E`` raises only when ``x is not None``:
the early exit is a guard as much as an enclosing ``if`` is.  The site's
snippet is parsed from the enclosing ``def`` (trailing lines dropped until it
parses), the raise is found by line, and every earlier sibling statement on
the way up (in the raise's block and the blocks around it) that is an ``if``
without ``else`` whose body always leaves (``return``, ``raise``,
``continue``, ``break``) adds the negation of its test.  Also: the parameter
names of the raising function, so that pages call a parameter a parameter and
nothing else one.
"""

from __future__ import annotations

import ast
import re
import textwrap

from errdex.model import ErrorSite, Guard

_MAX_TRIM = 60


def function_tree(site: ErrorSite) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, int] | None:
    """The enclosing function parsed from the snippet and the file line of its ``def`` (None without it)."""
    return _function_tree(site)


def _function_tree(site: ErrorSite) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, int] | None:
    """The enclosing function parsed from the snippet, and the file line of its ``def``."""
    lines = site.snippet.splitlines()
    rel = site.line - site.snippet_start
    if not lines or not 0 <= rel < len(lines):
        return None
    name = site.qualname.split(".<locals>.")[-1].rsplit(".", 1)[-1]
    raise_indent = len(lines[rel]) - len(lines[rel].lstrip())
    start = None
    for i in range(rel, -1, -1):
        ln = lines[i]
        indent = len(ln) - len(ln.lstrip())
        if re.match(rf"\s*(async\s+)?def\s+{re.escape(name)}\b", ln) and indent < raise_indent:
            start = i
            break
    if start is None:
        return None
    # decorators above the def are not needed; the body may be cut at the snippet's end
    end = len(lines)
    for _ in range(_MAX_TRIM):
        text = textwrap.dedent("\n".join(lines[start:end]))
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            end -= 1
            if end <= rel:
                return None
            continue
        fn = tree.body[0] if tree.body else None
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            return fn, site.snippet_start + start
        return None
    return None


def function_seen(site: ErrorSite) -> bool:
    """Whether the snippet holds the raising function from its ``def`` (so its early exits are known)."""
    return site.qualname.startswith("<") or _function_tree(site) is not None


def parameters(site: ErrorSite) -> tuple[str, ...]:
    """The raising function's parameter names (``self``/``cls`` left out), when the snippet shows its ``def``."""
    found = _function_tree(site)
    if found is None:
        return ()
    a = found[0].args
    names = [x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]]
    if a.vararg:
        names.append(a.vararg.arg)
    if a.kwarg:
        names.append(a.kwarg.arg)
    return tuple(n for n in names if n not in ("self", "cls"))


def _leaves(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Return | ast.Raise | ast.Continue | ast.Break)


def early_exits(site: ErrorSite) -> tuple[Guard, ...]:
    """``not (<test>)`` for each ``if <test>: return`` that runs before the raise on its way."""
    found = _function_tree(site)
    if found is None:
        return ()
    fn, def_line = found
    target_line = site.line - def_line + 1  # line of the raise inside the parsed text
    out: list[Guard] = []

    def visit(body: list[ast.stmt]) -> bool:
        for i, stmt in enumerate(body):
            end = stmt.end_lineno or stmt.lineno
            if stmt.lineno <= target_line <= end:
                for prev in body[:i]:
                    if isinstance(prev, ast.If) and not prev.orelse and _leaves(prev.body):
                        cond = ast.unparse(prev.test)
                        out.append(Guard(kind="if", source=f"if {cond}: {type(prev.body[-1]).__name__.lower()}",
                                         normalized=f"not ({cond})", line=def_line + prev.lineno - 1, negated=True))
                for child in _blocks(stmt):
                    if visit(child):
                        return True
                return True
        return False

    visit(fn.body)
    return tuple(out)


def _blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    out: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        b = getattr(stmt, name, None)
        if isinstance(b, list) and b and isinstance(b[0], ast.stmt):
            out.append(b)
    for h in getattr(stmt, "handlers", []) or []:
        out.append(h.body)
    for c in getattr(stmt, "cases", []) or []:
        out.append(c.body)
    return out


def rebound(site: ErrorSite, name: str, before: int) -> str:
    """The statement (``axes = (axes,)``) by which the raising function rebinds its parameter ``name`` from
    its own value before file line ``before`` (a guard): the guard then tests what the function made of the
    argument, not the argument (``None`` becomes ``(None,)``, which is true); "" when there is none (a
    default filled in without reading the name, ``if x is None: x = 1``, or a conversion of it alone,
    ``x = operator.index(x)``, keeps what the caller passed)."""
    found = _function_tree(site)
    if found is None or name not in parameters(site):
        return ""
    fn, def_line = found
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) or node.value is None:
            continue
        if def_line + node.lineno - 1 >= before:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if not any(isinstance(t, ast.Name) and t.id == name for t in targets):
            continue
        v = node.value
        convert = (isinstance(v, ast.Call) and len(v.args) == 1 and not v.keywords  # ``operator.index(n)``
                   and isinstance(v.args[0], ast.Name) and v.args[0].id == name)
        reads = isinstance(node, ast.AugAssign) or (not convert and any(
            isinstance(n, ast.Name) and n.id == name for n in ast.walk(v)))
        text = ast.unparse(node)
        if reads and len(text) <= 70:
            return text
    return ""


def filled_when_none(site: ErrorSite, name: str, before: int) -> bool:
    """Whether the raising function, above file line ``before`` (a guard), fills in ``name`` itself when it is
    ``None`` (``if vec_size is None:`` then ``vec_size = ...`` on the next line): passing ``None`` lets the
    function choose the value (rating 8, 027b: jax works out a `vec_size` that divides the output).  Read from
    the snippet's lines, which need not hold the ``def`` (a long function's snippet starts below it)."""
    lines = site.snippet.splitlines()
    head = re.compile(rf"\s*if {re.escape(name)} is None:\s*$")
    fill = re.compile(rf"\s*{re.escape(name)}\s*(?::[^=]+)?=[^=]")
    for i, ln in enumerate(lines[:-1]):
        if site.snippet_start + i + 1 >= before:
            break
        if head.match(ln) and fill.match(lines[i + 1]):
            return True
    return False


def passed_chains(site: ErrorSite, line: int = 0) -> tuple[Guard, ...]:
    """The tests of ``if``/``elif`` chains that run before the raise on its way, every branch of which leaves
    (returns or raises) and which have no final ``else``: the raise is reached only when all of them are false,
    and a value making one true takes that branch instead (``early_exits`` keeps only a lone ``if``).  Each as
    written (``isinstance(body, Sequence)``), not negated.  When the snippet does not reach the ``def`` (a
    long function: jax's ``pl.kernel``), the outermost block it shows above the raise is read instead.
    ``line``: another raise of the same function whose own snippet starts too late to show the chain, read in
    this site's snippet (which must show that line)."""
    line = line or site.line
    if not site.snippet_start <= line < site.snippet_start + len(site.snippet.splitlines()):
        return ()
    found = _function_tree(site)
    top: list[ast.stmt]
    if found is not None:
        fn, def_line = found
        top = fn.body
    elif (block := _block(site)) is not None:
        top, def_line = block
    else:
        return ()
    target_line = line - def_line + 1
    out: list[Guard] = []

    def chain(stmt: ast.If) -> list[ast.If] | None:
        links = [stmt]
        while len(links[-1].orelse) == 1 and isinstance(links[-1].orelse[0], ast.If):
            links.append(links[-1].orelse[0])
        return links if not links[-1].orelse and all(_leaves(x.body) for x in links) else None

    def visit(body: list[ast.stmt]) -> bool:
        for i, stmt in enumerate(body):
            if stmt.lineno <= target_line <= (stmt.end_lineno or stmt.lineno):
                for prev in body[:i]:
                    links = chain(prev) if isinstance(prev, ast.If) and prev.orelse else None
                    for k, x in enumerate(links or []):
                        cond = ast.unparse(x.test)
                        out.append(Guard(kind="elif" if k else "if", source=cond, normalized=cond,
                                         line=def_line + x.lineno - 1))
                return any(visit(child) for child in _blocks(stmt)) or True
        return False

    visit(top)
    return tuple(out)


def _block(site: ErrorSite) -> tuple[list[ast.stmt], int] | None:
    """The statements of the outermost block the snippet shows above the raise, parsed (the text from its first
    line that parses, at the least indentation above the raise), and the file line of that first line."""
    lines = site.snippet.splitlines()
    rel = site.line - site.snippet_start
    if not lines or not 0 <= rel < len(lines):
        return None
    shown = [(i, len(ln) - len(ln.lstrip())) for i, ln in enumerate(lines[:rel + 1])
             if ln.strip() and not ln.lstrip().startswith("#")]
    least = min(d for _, d in shown)
    for start in [i for i, d in shown if d == least][:8]:
        for end in range(len(lines), rel, -1):
            try:
                tree = ast.parse(textwrap.dedent("\n".join(lines[start:end])))
            except (SyntaxError, ValueError, RecursionError):
                continue
            return tree.body, site.snippet_start + start
    return None
