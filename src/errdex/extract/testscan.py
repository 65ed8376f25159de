"""Tests that expect an exception or a warning: ``pytest.raises``, ``assertRaises(Regex)``, ``pytest.warns``.

Recognised shapes (``E`` a class or a tuple of classes, ``P`` a pattern)::

    with pytest.raises(E, match=P): ...          pytest.raises(E, f, *args)
    with self.assertRaises(E): ...               self.assertRaises(E, f, *args)
    with self.assertRaisesRegex(E, P): ...       self.assertRaisesRegex(E, P, f, *args)
    with pytest.warns(W, match=P): ...           self.assertWarns(W) / assertWarnsRegex(W, P)
    with self.assertRaisesWithLiteralMatch(E, text): ...   (absl: the text, escaped)

The pattern is resolved when it is a string constant, an f-string (its
formatted values become ``.*``), ``re.escape(<constant>)``, ``"..." % x``, or a
name bound to one of those in the test function or at module level; other
patterns are left ``None`` (the test then only counts as a typed expectation).
``code`` is the with-statement (or the call) as written; ``imports`` are the
module's import statements that bind names the code uses, so that the code
can be shown as a runnable example.
"""

from __future__ import annotations

import ast
import re
import textwrap

from errdex.extract.astwalk import statements, walk
from errdex.model import TestExpectation

_RAISES = {
    "raises": "pytest.raises", "warns": "pytest.warns",
    "assertRaises": "assertRaises", "assertRaisesRegex": "assertRaisesRegex",
    "assertRaisesRegexp": "assertRaisesRegex", "assertWarns": "assertWarns",
    "assertWarnsRegex": "assertWarnsRegex", "assertRaisesWithLiteralMatch": "assertRaisesWithLiteralMatch",
}
_REGEX_POS = {"assertRaisesRegex", "assertWarnsRegex", "assertRaisesWithLiteralMatch"}
MAX_CODE_LINES = 30


def scan_tests(tree: ast.Module, source: str) -> list[TestExpectation]:
    if not any(k in source for k in ("raises", "assertRaises", "warns", "assertWarns")):
        return []
    lines = source.splitlines()
    module_consts = _string_bindings(tree.body)
    imports = _imports(tree)
    out: list[TestExpectation] = []
    for qual, fn in _functions(tree):
        local = {**module_consts, **_string_bindings(statements(fn))}
        for node in statements(fn):  # with-statements and expression statements: no need to enter expressions
            if isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if isinstance(item.context_expr, ast.Call):
                        out.extend(_expect(item.context_expr, node, fn, qual, local, lines, imports, block=True))
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                out.extend(_expect(node.value, node, fn, qual, local, lines, imports, block=False))
    return out


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    out: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append((prefix + stmt.name, stmt))
            elif isinstance(stmt, ast.ClassDef):
                visit(stmt.body, f"{prefix}{stmt.name}.")

    visit(tree.body, "")
    return out


def _style(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Attribute):
        if f.attr in ("raises", "warns"):
            return _RAISES[f.attr] if isinstance(f.value, ast.Name) and f.value.id == "pytest" else None
        return _RAISES.get(f.attr)
    if isinstance(f, ast.Name) and f.id in ("raises", "warns"):
        return _RAISES[f.id]
    return None


def _expect(call: ast.Call, stmt: ast.stmt, fn: ast.FunctionDef | ast.AsyncFunctionDef, qual: str,
            consts: dict[str, str], lines: list[str],
            imports: list[tuple[str, set[str]]], *, block: bool) -> list[TestExpectation]:
    style = _style(call)
    if style is None or not call.args:
        return []
    if not block and style.startswith("pytest") and len(call.args) < 2:
        return []  # ``pytest.raises(E)`` outside a with-statement is not an expectation
    if not block and style in ("assertRaises", "assertWarns") and len(call.args) < 2:
        return []
    types = _types(call.args[0])
    if not types:
        return []
    pattern = _pattern(call, style, consts)
    code = _code(fn, stmt, lines)
    used = _names_in(code, fn)
    needed = tuple(src for src, names in imports if names & used)
    return [TestExpectation(path="", line=stmt.lineno, test_name=qual, exception=t, pattern=pattern,
                            code=code, style=style, imports=needed) for t in types]


def _names_in(code: str, fn: ast.AST) -> set[str]:
    """Names the shown code reads (the whole function's when the excerpt does not parse alone)."""
    try:
        tree: ast.AST = ast.parse(code)
    except SyntaxError:
        tree = fn
    return {n.id for n in walk(tree) if isinstance(n, ast.Name)}


def _types(node: ast.expr) -> list[str]:
    elts = node.elts if isinstance(node, ast.Tuple) else [node]
    out: list[str] = []
    for e in elts:
        try:
            text = ast.unparse(e)
        except (ValueError, RecursionError):
            continue
        if re.fullmatch(r"[A-Za-z_][\w.]*", text):
            out.append(text)
    return out


def _pattern(call: ast.Call, style: str, consts: dict[str, str]) -> str | None:
    node: ast.expr | None = None
    for kw in call.keywords:
        if kw.arg in ("match", "expected_regex", "expected_exception_message"):
            node = kw.value
    if node is None and style in _REGEX_POS and len(call.args) > 1:
        node = call.args[1]
    if node is None:
        return None
    value = pattern_text(node, consts)
    if value is not None and style == "assertRaisesWithLiteralMatch":
        return re.escape(value)
    return value


def pattern_text(node: ast.expr, consts: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return consts.get(node.id)
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for v in node.values:
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                parts.append(v.value)
            else:
                parts.append(".*")
        return "".join(parts)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "escape"
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and len(node.args) == 1):
        inner = pattern_text(node.args[0], consts)
        return re.escape(inner) if inner is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = pattern_text(node.left, consts)
        return re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc]", ".*", left) if left is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = pattern_text(node.left, consts), pattern_text(node.right, consts)
        return a + b if a is not None and b is not None else None
    return None


def _string_bindings(nodes: object) -> dict[str, str]:
    out: dict[str, str] = {}
    seen: set[str] = set()
    for n in nodes:  # type: ignore[attr-defined]
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
            value = pattern_text(n.value, {})
            if name in seen:
                out.pop(name, None)  # rebound: no single value
                continue
            seen.add(name)
            if value is not None:
                out[name] = value
    return out


def _code(fn: ast.FunctionDef | ast.AsyncFunctionDef, stmt: ast.stmt, lines: list[str]) -> str:
    """The test body from its first statement through the expecting statement (at most
    ``MAX_CODE_LINES``): what the test does before it expects the error is how it gets there."""
    end = stmt.end_lineno or stmt.lineno
    first = fn.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and len(fn.body) > 1:
        first = fn.body[1]  # skip the docstring
    start = first.lineno
    if first.lineno > stmt.lineno:
        start = stmt.lineno
    if end - start + 1 > MAX_CODE_LINES:
        start = stmt.lineno
        end = min(end, stmt.lineno + MAX_CODE_LINES - 1)
    return textwrap.dedent("\n".join(lines[start - 1:end]))


def _imports(tree: ast.Module) -> list[tuple[str, set[str]]]:
    out: list[tuple[str, set[str]]] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            names = {(a.asname or a.name.split(".", 1)[0]) for a in stmt.names}
        elif isinstance(stmt, ast.ImportFrom) and stmt.level == 0:
            names = {(a.asname or a.name) for a in stmt.names}
        else:
            continue
        out.append((ast.unparse(stmt), names))
    return out
