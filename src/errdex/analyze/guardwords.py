"""Guards in plain words: a chain of small rules, each returning None to decline.

``describe_guard`` parses the guard's normalized condition (what holds at the
raise: an ``else`` branch arrives as ``not (...)``) and tries each rule in
turn (STYLE.md item 8).  A rule only restates what the code says -- "`x` is
not a list or tuple" for ``not isinstance(x, (list, tuple))`` -- and when no
rule knows the shape, the guard is left without words so that the page
quotes the code instead of guessing.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence

from errdex.extract.imports import dotted_source as dotted
from errdex.model import ConfigOption, Guard

MAX_CODE = 70  # longer sub-expressions are not quoted inline; the rule declines
Rule = Callable[[ast.expr, bool, Sequence[ConfigOption]], str | None]

_TYPE_WORDS = {
    "list": "a list", "tuple": "a tuple", "dict": "a dict", "set": "a set", "frozenset": "a frozenset",
    "str": "a string", "bytes": "bytes", "int": "an int", "float": "a float", "bool": "a bool",
    "complex": "a complex number", "type": "a class", "slice": "a slice", "range": "a range",
    "bytearray": "a bytearray", "memoryview": "a memoryview", "object": "an object",
}
_CMP_WORDS: dict[type[ast.cmpop], tuple[str, str]] = {
    ast.Eq: ("equals", "does not equal"), ast.NotEq: ("does not equal", "equals"),
    ast.Lt: ("is less than", "is at least"), ast.LtE: ("is at most", "is greater than"),
    ast.Gt: ("is greater than", "is at most"), ast.GtE: ("is at least", "is less than"),
    ast.Is: ("is", "is not"), ast.IsNot: ("is not", "is"),
    ast.In: ("is in", "is not in"), ast.NotIn: ("is not in", "is in"),
}
_SENTINEL = re.compile(r"(?:^|\.)_*(?:NotSpecified|Unspecified|NotGiven|NoDefault|Missing|MISSING|Sentinel)\w*$")
_ENV_CALLS = {"os.environ.get", "os.getenv", "environ.get", "getenv"}


def code(node: ast.AST) -> str | None:
    """The node as inline code, or None when it is too long to quote in a sentence."""
    try:
        text = ast.unparse(node)
    except (ValueError, RecursionError):
        return None
    return None if len(text) > MAX_CODE else text


def q(node: ast.AST) -> str | None:
    text = code(node)
    return None if text is None else f"`{text}`"




# --------------------------------------------------------------------------- rules


def rule_config(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> str | None:
    """``config.no_execution.value`` (or ``config.jax_no_execution``) → "the `jax_no_execution` option is on"."""
    if not options:
        return None
    target = node
    value_words: str | None = None
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        target = node.left
        right = q(node.comparators[0])
        if right is None:
            return None
        verb = _CMP_WORDS.get(type(node.ops[0]))
        if verb is None:
            return None
        value_words = f"{verb[1] if neg else verb[0]} {right}"
    name = dotted(target)
    if name is None and setting_key(target) is not None:
        name = setting_key(target)
    if name is None:
        env = _env_arg(target)
        if env is None:
            return None
        name = env
    opt = _option_for(name, options)
    if opt is None:
        return None
    what = f"the environment variable `{opt.name}`" if opt.kind == "env" else f"the `{opt.name}` {_kind(opt)}"
    if value_words is not None:
        return f"{what} {value_words}"
    if opt.kind == "env":
        return f"{what} is {'unset or empty' if neg else 'set to a non-empty value'}"
    if _is_bool(opt):
        return f"{what} is {'off' if neg else 'on'}"
    return f"{what} is {'unset (false-like)' if neg else 'set (true-like)'}"


def _env_arg(node: ast.expr) -> str | None:
    """``os.environ.get("X")`` / ``os.getenv("X")`` / ``os.environ["X"]`` → X."""
    if (isinstance(node, ast.Call) and dotted(node.func) in _ENV_CALLS and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return node.args[0].value
    if (isinstance(node, ast.Subscript) and dotted(node.value) in ("os.environ", "environ")
            and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
        return node.slice.value
    return None


def setting_key(node: ast.AST) -> str | None:
    """``get_config()["key"]`` → key (a settings object read through its getter)."""
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call)
            and (dotted(node.value.func) or "").rsplit(".", 1)[-1] == "get_config"
            and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
        return node.slice.value
    return None


def _kind(opt: ConfigOption) -> str:
    return {"flag": "flag", "setting": "setting"}.get(opt.kind, "option")


def _is_bool(opt: ConfigOption) -> bool:
    d = opt.default or ""
    return d in ("True", "False") or d.startswith("bool(") or "bool" in opt.adapter


def _option_for(name: str, options: Sequence[ConfigOption]) -> ConfigOption | None:
    parts = [p for p in name.split(".") if p not in ("value", "_value")]
    for o in options:
        holder = o.holder.rsplit(".", 1)[-1] if o.holder else ""
        if parts and (parts[-1] == holder or parts[-1].lower() == o.name.lower()):
            return o
    return None


def rule_isinstance(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> str | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2 and not node.keywords):
        return None
    subject = q(node.args[0])
    kinds = type_words(node.args[1])
    if subject is None or kinds is None:
        return None
    if node.func.id == "isinstance" and _SENTINEL.search(dotted(node.args[1]) or ""):
        return f"{subject} is {'given' if neg else 'not given'}"  # ``isinstance(body, NotSpecified)``
    if node.func.id == "issubclass":
        return f"{subject} is {'not ' if neg else ''}a subclass of {kinds}"
    return f"{subject} is {'not ' if neg else ''}{kinds}"


def type_words(node: ast.expr) -> str | None:
    elts = node.elts if isinstance(node, ast.Tuple) else [node]
    words: list[str] = []
    for e in elts:
        name = dotted(e)
        if name is None:
            return None
        words.append(_TYPE_WORDS.get(name, f"{'an' if name[:1].lower() in 'aeiou' else 'a'} `{name}`"))
    if not words:
        return None
    if len(words) == 1:
        return words[0]
    # "a list or tuple": drop the repeated article when every word has one
    if all(w.startswith("a ") and not w.startswith("a `") for w in words):
        rest = [w[2:] for w in words[1:]]
        return words[0] + "".join(f", {r}" for r in rest[:-1]) + f" or {rest[-1]}"
    return ", ".join(words[:-1]) + f" or {words[-1]}"


def rule_len(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> str | None:
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    left, right, op = node.left, node.comparators[0], node.ops[0]
    lx, rx = _len_arg(left), _len_arg(right)
    if lx is None and rx is None:
        return None
    eq = isinstance(op, ast.Eq) != neg
    if isinstance(op, (ast.Eq, ast.NotEq)) and lx is not None and rx is not None:
        a, b = q(lx), q(rx)
        if a is None or b is None:
            return None
        return f"{a} and {b} have {'the same length' if eq else 'different lengths'}"
    if lx is not None and isinstance(right, ast.Constant) and right.value == 0 and isinstance(op, (ast.Eq, ast.NotEq)):
        a = q(lx)
        return None if a is None else f"{a} is {'empty' if eq else 'not empty'}"
    verb = _CMP_WORDS.get(type(op))
    if lx is None or verb is None:
        return None
    a, b = q(lx), q(right)
    if a is None or b is None:
        return None
    return f"the length of {a} {verb[1] if neg else verb[0]} {b}"


def _len_arg(node: ast.expr) -> ast.expr | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1:
        return node.args[0]
    return None


def rule_compare(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> str | None:
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    op, right = node.ops[0], node.comparators[0]
    if (isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mod) and isinstance(right, ast.Constant)
            and right.value == 0 and isinstance(op, (ast.Eq, ast.NotEq))):
        # ``x % n != 0`` is "`x` is not a multiple of `n`", not "`x % n` does not equal `0`"
        return rule_multiple(node.left, neg != isinstance(op, ast.Eq), options)
    left = q(node.left)
    if left is None:
        return None
    if isinstance(right, ast.Constant) and right.value is None and isinstance(op, (ast.Is, ast.IsNot)):
        is_none = isinstance(op, ast.Is) != neg
        return f"{left} is None" if is_none else f"{left} is not None"
    verb = _CMP_WORDS.get(type(op))
    r = q(right)
    if verb is None or r is None:
        return None
    return f"{left} {verb[1] if neg else verb[0]} {r}"


def rule_given(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> str | None:
    """``(a is not None) != (b is not None)`` → "exactly one of `a` and `b` is given (not None)"."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq | ast.NotEq)):
        return None
    sides = [_none_test(node.left), _none_test(node.comparators[0])]
    if sides[0] is None or sides[1] is None:
        return None
    (a, a_not), (b, b_not) = sides  # type: ignore[misc]
    differ = isinstance(node.ops[0], ast.NotEq) != (a_not != b_not)
    if differ != neg:
        return f"exactly one of {a} and {b} is given (not None)"
    return f"{a} and {b} are either both given or both None"


def _none_test(node: ast.expr) -> tuple[str, bool] | None:
    if (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Is | ast.IsNot)
            and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None):
        s = q(node.left)
        return None if s is None else (s, isinstance(node.ops[0], ast.IsNot))
    return None


def rule_multiple(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> str | None:
    """``x % n`` as a condition → "`x` is not a multiple of `n`" ("`x` is odd" for 2)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)):
        return None
    x, n = q(node.left), q(node.right)
    if x is None or n is None or (isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
        return None
    if isinstance(node.right, ast.Constant) and node.right.value == 2:
        return f"{x} is {'even' if neg else 'odd'}"
    return f"{x} is {'a multiple' if neg else 'not a multiple'} of {n}"


def rule_callable(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> str | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) in (1, 2):
        if node.func.id == "callable" and len(node.args) == 1:
            s = q(node.args[0])
            return None if s is None else f"{s} is {'not ' if neg else ''}callable"
        if node.func.id == "hasattr" and len(node.args) == 2 and isinstance(node.args[1], ast.Constant):
            s = q(node.args[0])
            return None if s is None else f"{s} {'has no' if neg else 'has an'} attribute `{node.args[1].value!s}`"
    return None


def rule_truth(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> str | None:
    if isinstance(node, (ast.Name, ast.Attribute)):
        s = q(node)
        return None if s is None else f"{s} is {'false or empty' if neg else 'true (non-empty)'}"
    if isinstance(node, ast.Call):
        s = q(node)
        return None if s is None else f"{s} returns {'a false value' if neg else 'a true value'}"
    return None


RULES: tuple[tuple[str, Rule], ...] = (
    ("config", rule_config),
    ("isinstance", rule_isinstance),
    ("len", rule_len),
    ("given", rule_given),
    ("compare", rule_compare),
    ("multiple", rule_multiple),
    ("callable", rule_callable),
    ("truth", rule_truth),
)


class _Simplify(ast.NodeTransformer):
    """What the condition means to a caller: ``(x := e)`` is ``e``; ``__debug__`` (true unless Python
    runs with ``-O``) is dropped from an ``and``, since turning assertions off is never the fix."""

    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.expr:
        return self.visit(node.value)  # type: ignore[no-any-return]

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        values = [self.visit(v) for v in node.values]
        if isinstance(node.op, ast.And):
            values = [v for v in values if not (isinstance(v, ast.Name) and v.id == "__debug__")] or values
        return values[0] if len(values) == 1 else ast.BoolOp(op=node.op, values=values)


def simplify(node: ast.expr, snippet: str = "", before_line: int = 0, snippet_start: int = 0) -> ast.expr:
    """``node`` without walrus targets and ``__debug__``, and with names unpacked from an attribute
    in the snippet above (``m, k, _2 = meta.shape``) read as that attribute's item (``meta.shape[2]``)."""
    out: ast.expr = _Simplify().visit(node)
    unpacked = unpacked_names(snippet, before_line, snippet_start) if snippet else {}
    if unpacked:
        class _Sub(ast.NodeTransformer):
            def visit_Name(self, n: ast.Name) -> ast.expr:
                rep = unpacked.get(n.id)
                return parse_condition(rep) or n if rep else n

        out = _Sub().visit(out)
    return out


def unpacked_names(snippet: str, before_line: int, snippet_start: int) -> dict[str, str]:
    """Names bound by ``a, b, c = x.attr`` above ``before_line`` → ``x.attr[i]`` (only from a plain
    dotted name, so the substitute reads as the thing the caller passed)."""
    out: dict[str, str] = {}
    for i, line in enumerate(snippet.splitlines()):
        if before_line and snippet_start + i >= before_line:
            break
        m = re.match(r"\s*((?:\w+\s*,\s*)+\w+)\s*,?\s*=\s*([A-Za-z_][\w.]*)\s*(?:#.*)?$", line)
        if m:
            for k, name in enumerate(n.strip() for n in m.group(1).split(",")):
                if name != "_":
                    out[name] = f"{m.group(2)}[{k}]"
    return out


def words_for(node: ast.expr, neg: bool, options: Sequence[ConfigOption]) -> tuple[str, str] | None:
    """(words, rule) for ``node`` (negated when ``neg``), trying each rule; None when none applies."""
    if isinstance(node, ast.Name) and node.id == "__debug__":
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return words_for(node.operand, not neg, options)
    if isinstance(node, ast.BoolOp):
        parts: list[str] = []
        rules: list[str] = []
        for v in node.values:
            w = words_for(v, neg, options)
            if w is None:
                return None
            parts.append(w[0])
            rules.append(w[1])
        # De Morgan: not (a and b) is "not a, or not b"
        joiner = " and " if isinstance(node.op, ast.And) != neg else " or "
        return joiner.join(parts), "+".join(dict.fromkeys(rules))
    for name, rule in RULES:
        out = rule(node, neg, options)
        if out is not None:
            return out, name
    return None


def describe_guard(guard: Guard, options: Sequence[ConfigOption] = (), *,
                   snippet: str = "", snippet_start: int = 0) -> tuple[str, str]:
    """(plain words, rule name) for a guard; ("", "") when no rule applies.

    ``snippet`` (the site's source lines) lets ``except ImportError`` name the
    module whose import failed when the import is visible above the handler.
    """
    if guard.kind == "except":
        return _describe_except(guard, imported_module_near(snippet, guard.line, snippet_start),
                                try_call(snippet, guard.line, snippet_start))
    if guard.kind == "match":
        return f"the value matches the pattern `{guard.source.removeprefix('case ').strip()}`", "match"
    if guard.kind == "narrowed":
        return _describe_narrowed(guard)
    node = parse_condition(guard.normalized or guard.source)
    if node is None:
        return "", ""
    out = words_for(simplify(node, snippet, guard.line, snippet_start), False, options)
    return out if out is not None else ("", "")


def _describe_narrowed(guard: Guard) -> tuple[str, str]:
    """What reaches a dispatch's fall-through that an earlier loop's dispatch narrowed (extract/narrowing.py):
    "`t` is a `B` or a `C`" (``narrowed_reason`` says why)."""
    reach = parse_condition(guard.normalized)
    out = words_for(reach, False, ()) if reach is not None else None
    if out is None or not narrowed_reason(guard):
        return "", ""
    return out[0], "narrowed"


def narrowed_reason(guard: Guard) -> str:
    """"the loop before, at line 31, lets only `A`, `B` and `C` through; this one handles only `A`"."""
    reach, through = parse_condition(guard.normalized), parse_condition(guard.source)
    if reach is None or through is None:
        return ""
    choices = _choices(through)
    handled = [c for c in choices if c not in _choices(reach)]
    if not handled:
        return ""
    return (f"the loop before, at line {guard.line}, lets only {_listed(choices)} through; "
            f"this one handles only {_listed(handled)}")


def _choices(node: ast.expr) -> list[str]:
    """The types of ``isinstance(x, (A, B))`` or the values of ``x in (1, 2)`` / ``x == 1``, as code."""
    if isinstance(node, ast.Call) and len(node.args) == 2:
        node = node.args[1]
    elif isinstance(node, ast.Compare) and len(node.comparators) == 1:
        node = node.comparators[0]
    elts = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [ast.unparse(e) for e in elts]


def _listed(items: list[str]) -> str:
    quoted = [f"`{i}`" for i in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def parse_condition(text: str) -> ast.expr | None:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return None
    return tree.body


_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}


def _describe_except(guard: Guard, module: str | None, call: tuple[str, str] = ("", "")) -> tuple[str, str]:
    types = [t.strip() for t in guard.normalized.split(",") if t.strip()]
    names = [t.rsplit(".", 1)[-1] for t in types]
    if names and all(n in _IMPORT_ERRORS for n in names):
        if module:
            return f"importing `{module}` failed (`" + "` or `".join(names) + "`)", "import-failed"
        return "importing a module failed (the `try` block raised `" + "` or `".join(names) + "`)", "import-failed"
    if names == ["BaseException"] and guard.source == "except:":
        return "the code in the `try` block raised an exception", "except"
    if not names:
        return "", ""
    func, args = call
    if func and any(p.startswith("_") for p in func.split(".")):  # a private helper: named by what it is given
        what = f"an internal call on `{args}` in the `try` block" if args else "an internal call in the `try` block"
    elif func:
        what = f"`{func}({args})` in the `try` block"
    else:
        what = "the code in the `try` block"
    return what + " raised `" + "` or `".join(types) + "`", "except"


def try_call(snippet: str, except_line: int, snippet_start: int) -> tuple[str, str]:
    """(function, arguments) of the one call a one-statement ``try`` body makes (``return _check_iter(value)``),
    for the handler at ``except_line``; ("", "") when the body is longer or the ``try`` is not in the snippet.
    Rating 7 (a9dd): "the code in the `try` block raised `TypeError`" said nothing of what was tried."""
    lines = snippet.splitlines()
    at = except_line - snippet_start
    if not 0 < at < len(lines):
        return "", ""
    indent = len(lines[at]) - len(lines[at].lstrip())
    body: list[str] = []
    for ln in reversed(lines[:at]):
        if not ln.strip() or ln.lstrip().startswith("#"):
            continue
        if len(ln) - len(ln.lstrip()) <= indent:
            if ln.strip() != "try:" or len(ln) - len(ln.lstrip()) != indent:
                return "", ""
            break
        body.insert(0, ln.strip())
    else:
        return "", ""
    m = re.fullmatch(r"(?:return\s+|\w+\s*=\s*)?([A-Za-z_][\w.]*)\((.*)\)", " ".join(body)) if len(body) == 1 else None
    if m is None or "(" in m.group(2) or len(m.group(2)) > 60:
        return "", ""
    return m.group(1), m.group(2).strip()


def guard_names(guard: Guard) -> tuple[str, ...]:
    """The variables and dotted attributes the condition reads (for related errors)."""
    if guard.kind == "except":
        return ()
    node = parse_condition(guard.normalized or guard.source)
    if node is None:
        return ()
    out: list[str] = []
    called = {id(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)}  # ``utils.bitwidth(x)``: not a variable
    for n in ast.walk(node):
        if id(n) in called:
            continue
        if isinstance(n, (ast.Attribute, ast.Name)) and isinstance(getattr(n, "ctx", None), ast.Load):
            d = dotted(n)
            if d is not None and d not in out and not _is_builtin_name(d):
                out.append(d)
    return tuple(out)


def _is_builtin_name(name: str) -> bool:
    import builtins

    return "." not in name and hasattr(builtins, name)


def imported_module_near(snippet: str, before_line: int, snippet_start: int) -> str | None:
    """The module imported closest above ``before_line`` in ``snippet`` (for ``except ImportError``)."""
    lines = snippet.splitlines()
    last: str | None = None
    for i, line in enumerate(lines):
        if snippet_start + i >= before_line:
            break
        m = re.match(r"\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", line)
        if m:
            last = m.group(1) or m.group(2)
    return last


def describe_negation(guard: Guard, options: Sequence[ConfigOption] = (), *,
                       snippet: str = "", snippet_start: int = 0) -> str:
    """Plain words for the opposite of the guard (what must hold for the raise *not* to happen)."""
    if guard.kind in ("except", "match"):
        return ""
    node = parse_condition(guard.normalized or guard.source)
    if node is None:
        return ""
    out = words_for(simplify(node, snippet, guard.line, snippet_start), True, options)
    return out[0] if out is not None else ""
