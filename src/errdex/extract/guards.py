"""Guards: the conditions on the way to a raise, built as the walker descends.

``if a: ... elif b: raise X`` gives ``not (a)`` (negated) then ``b``; an
``else`` negates every test of its chain; ``except E:`` gives the caught
types; ``while`` its test; ``match`` cases ``<subject> matches <pattern>``.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from errdex.extract.source import CUT, SourceText
from errdex.model import Guard, GuardKind

MAX_GUARDS = 32  # guards kept per site, nearest the raise (an elif chain of thousands would be quadratic)
GUARD_CHARS = 1_000  # characters of a guard's source and normalized text; longer ones end in "…"

# A one-operator comparison's negation, as Python writes it: ``a < b`` does not hold exactly when ``a >= b``
# holds.  Pages say a guard's other side as code (the import check a platform needs, the check a caller can
# make before the call), and both read it from here.
NEGATED_COMPARISON: dict[type[ast.cmpop], str] = {
    ast.Eq: "!=", ast.NotEq: "==", ast.Lt: ">=", ast.LtE: ">", ast.Gt: "<=", ast.GtE: "<", ast.Is: "is not",
    ast.IsNot: "is", ast.In: "not in", ast.NotIn: "in"}


def negated_test(test: ast.expr, src: SourceText) -> str:
    """The condition under which ``if test:`` is not taken, as written where it can be (``not x`` -> ``x``,
    ``a == b`` -> ``a != b``), else ``not (test)``: a module's import condition (``platformcheck``) and the
    conditions a factory hands a reader out under (``handedstream``) are said this way."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return " ".join(src.segment(test.operand).split())
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in NEGATED_COMPARISON:
        return (f"{' '.join(src.segment(test.left).split())} {NEGATED_COMPARISON[type(test.ops[0])]} "
                f"{' '.join(src.segment(test.comparators[0]).split())}")
    return f"not ({' '.join(src.segment(test).split())})"


class _WalrusValue(ast.NodeTransformer):
    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.AST:
        out: ast.AST = self.visit(node.value)
        return out


def without_walrus(cond: str) -> str:
    """``cond`` with each ``name := value`` read as its value: ``(is_scaled := a is not None) != (b is not None)``
    -> ``(a is not None) != (b is not None)``; the name the walrus binds is the function's own, not something a
    caller passes or can test.  ``cond`` unchanged when it has no walrus or does not parse."""
    if ":=" not in cond:
        return cond
    try:
        tree = ast.parse(cond.strip(), mode="eval")
    except SyntaxError:
        return cond
    return ast.unparse(_WalrusValue().visit(tree))


class Spec(NamedTuple):
    """A guard not yet rendered: the walker pushes these on every branch it enters,
    and only the few that lead to a site are turned into ``Guard`` text (unparse is costly)."""

    kind: GuardKind
    node: ast.AST  # the test, the except handler or the match case
    negated: bool = False
    subject: ast.expr | None = None  # a match statement's subject
    body: tuple[int, int] = (0, 0)  # an except handler's ``try`` body: its first and last lines


def build(specs: tuple[Spec, ...], src: SourceText) -> tuple[Guard, ...]:
    """The guards of a site: at most ``MAX_GUARDS``, the innermost, each rendered once per file
    (the many sites under one condition share its ``Guard``) and bounded in length."""
    out: list[Guard] = []
    memo = src.memo
    for sp in specs[-MAX_GUARDS:]:
        key = (id(sp.node), sp.negated, sp.kind)
        guard = memo.get(key)
        if guard is None:
            guard = _render(sp, src)
            if guard is None:
                continue
            memo[key] = guard
        out.append(guard)
    return tuple(out)


def _render(sp: Spec, src: SourceText) -> Guard | None:
    if isinstance(sp.node, ast.ExceptHandler):
        guard = handler(sp.node, src, sp.body)
    elif isinstance(sp.node, ast.match_case) and sp.subject is not None:
        guard = case(sp.subject, sp.node, src)
    elif isinstance(sp.node, ast.expr):
        guard = (negative if sp.negated else positive)(sp.kind, sp.node, src)
    else:
        return None
    if len(guard.source) > GUARD_CHARS or len(guard.normalized) > GUARD_CHARS:
        guard = Guard(kind=guard.kind, source=_cut(guard.source), normalized=_cut(guard.normalized),
                      line=guard.line, negated=guard.negated, body=guard.body)
    return guard


def _cut(text: str) -> str:
    return text if len(text) <= GUARD_CHARS else text[: GUARD_CHARS - 1] + CUT


def _norm(node: ast.AST, src: SourceText, text: str | None = None) -> str:
    """A condition's text with whitespace folded; ``ast.unparse`` only when it holds a comment
    or a line continuation (folding would change its meaning), since unparse is costly."""
    if text is None:
        text = src.segment(node)
    if "#" not in text and "\\" not in text:
        return " ".join(text.split())
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return " ".join(text.split())


def positive(kind: GuardKind, test: ast.expr, src: SourceText) -> Guard:
    text = src.segment(test)
    return Guard(kind=kind, source=text, normalized=_norm(test, src, text), line=test.lineno)


def negative(kind: GuardKind, test: ast.expr, src: SourceText) -> Guard:
    text = src.segment(test)
    return Guard(kind=kind, source=text, normalized=f"not ({_norm(test, src, text)})", line=test.lineno,
                 negated=True)


def is_elif(node: ast.If, src: SourceText) -> bool:
    """An ``elif`` and an ``else:`` holding a lone ``if`` have the same AST; the text tells them apart."""
    lines = src.lines
    if node.lineno > len(lines):
        return False
    return lines[node.lineno - 1].lstrip().startswith("elif")


def handler(h: ast.ExceptHandler, src: SourceText, body: tuple[int, int] = (0, 0)) -> Guard:
    if h.type is None:
        return Guard(kind="except", source="except:", normalized="BaseException", line=h.lineno, body=body)
    caught = src.segment(h.type)
    normalized = ", ".join(_norm(e, src) for e in h.type.elts) if isinstance(h.type, ast.Tuple) else _norm(h.type, src)
    return Guard(kind="except", source=f"except {caught}", normalized=normalized, line=h.lineno, body=body,
                 name=h.name or "")


def case(subject: ast.expr, c: ast.match_case, src: SourceText) -> Guard:
    pattern = src.segment(c.pattern)
    normalized = f"{_norm(subject, src)} matches {_norm(c.pattern, src)}"
    if c.guard is not None:
        normalized += f" if {_norm(c.guard, src)}"
    return Guard(kind="match", source=f"case {pattern}", normalized=normalized, line=c.pattern.lineno)
