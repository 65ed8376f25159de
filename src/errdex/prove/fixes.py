"""Afters that give the call what it needs, from what errdex knows of the error (parsing only).

The first after that runs clean often only takes the trigger away (``nargs=3`` dropped, ``['--my-help']`` ->
``[]``, ``multiple=True`` dropped): readers grade such an example weak (rating 8: Example fix weak or absent on 80%
of the rated pages).  The afters here are built from the error's own facts, never from a library's names, and are
tried before the value-only afters of ``keep.py`` when the proven after is such a non-fix
(``afters.AfterSearch.kept``):

- **the value the message asks for** (``message_values``): a placeholder of the template filled, in the before's
  real message, with a literal, right after literal text that names a keyword the call passes
  (``'nargs' must be {self.type.arity} ...`` printed as ``'nargs' must be 2 ...``: ``nargs=2``);
- **a class where an instance is expected** (``instantiated``): the site's guard asks ``issubclass(x, C)`` (the
  value is a class) and the raising call passes a class by name: the class called (``type=MyType`` ->
  ``type=MyType()``);
- **a signal, caught the documented way** (``caught``): an exception class that signals control flow rather than a
  mistake (not named ``...Error``/``...Exception``/``...Warning``, and documented as one: its docstring says it
  signals, indicates, exits or aborts) is caught around the raising statement, as the library's own callers do
  (``try: cli.make_context(...)`` / ``except click.exceptions.Exit as signal: print(...)``); the proof still
  runs it (``afters.py``: the after must exit 0 with nothing printed on stderr).

Each is still run and kept only when it exits 0 without this error (``afters.AfterSearch.kept``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from errdex.model import ClassInfo, ErrorSite

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SIGNAL_WORDS = re.compile(r"\b(signal\w*|indicat\w*|exit\w*|abort\w*|stop\w*|interrupt\w*)\b", re.IGNORECASE)
_ERROR_NAMES = ("Error", "Exception", "Warning", "Failure", "Fault")
CAUGHT_LABEL = "caught as the signal it is"


def _literal(text: str) -> bool:
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def message_line(output: str, exception: str) -> str:
    """The message the before printed: the text after ``Class: `` on the exception line of ``output``."""
    short = exception.rsplit(".", 1)[-1]
    for line in reversed(output.splitlines()):
        for prefix in (exception, short):
            if prefix and line.startswith(prefix + ": "):
                return line[len(prefix) + 2:]
    return ""


def message_values(site: ErrorSite, message: str) -> dict[str, tuple[str, ...]]:
    """Keyword -> values the message asks for: each placeholder filled with a literal whose literal text just
    before names the keyword (``'nargs' must be {self.type.arity}`` filled as ``2``: ``nargs`` -> ``('2',)``);
    a placeholder that is the keyword itself is its current value (``it was {nargs}``), not the wanted one."""
    out: dict[str, list[str]] = {}
    if not message:
        return {}
    for t in site.templates or (site.template,):
        segs = t.segments
        if not any(not s.is_literal for s in segs):
            continue
        rx = "".join(re.escape(s.text) if s.is_literal else f"(?P<p{i}>.*?)" for i, s in enumerate(segs))
        m = re.fullmatch(rx, message, re.DOTALL)
        if m is None:
            continue
        for i, s in enumerate(segs):
            if s.is_literal or i == 0 or not segs[i - 1].is_literal:
                continue
            value = (m.group(f"p{i}") or "").strip()
            if not value or not _literal(value):
                continue
            words = _NAME.findall(segs[i - 1].text)[-4:]  # the clause just before the value
            for w in words:
                if w != (s.expr or "").rsplit(".", 1)[-1] and value not in out.setdefault(w, []):
                    out[w].append(value)
    return {k: tuple(v) for k, v in out.items() if v}


def _subclass_checks(site: ErrorSite) -> bool:
    """Whether a guard of the site asks if a value is a class of some kind (``issubclass(x, C)``,
    ``isinstance(x, type)``)."""
    for g in site.guards:
        try:
            node = ast.parse(g.normalized, mode="eval")
        except SyntaxError:
            continue
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                if n.func.id == "issubclass":
                    return True
                if n.func.id == "isinstance" and len(n.args) == 2 and isinstance(n.args[1], ast.Name) \
                        and n.args[1].id == "type":
                    return True
    return False


def _classes(module: ast.Module) -> set[str]:
    """Names the script binds to a class: its own ``class`` statements."""
    return {s.name for s in ast.walk(module) if isinstance(s, ast.ClassDef)}


def _class_ref(node: ast.expr, own: set[str]) -> bool:
    """A bare reference to a class: a name the script's ``class`` binds, or a dotted name whose last part is
    CamelCase (``click.types.IntParamType``)."""
    if isinstance(node, ast.Name):
        return node.id in own
    if isinstance(node, ast.Attribute):
        return node.attr[:1].isupper() and any(c.islower() for c in node.attr) and "_" not in node.attr.strip("_")
    return False


def instantiated(site: ErrorSite, before: str) -> list[tuple[str, str]]:
    """(label, source): each class passed by reference to a call of the script called instead (``type=MyType``
    -> ``type=MyType()``), when the site's guard asks whether the value is a class."""
    if not _subclass_checks(site):
        return []
    try:
        module = ast.parse(before)
    except SyntaxError:
        return []
    own = _classes(module)
    out: list[tuple[str, str]] = []
    for k, call in enumerate(n for n in ast.walk(module) if isinstance(n, ast.Call)):
        slots = [*((j, a) for j, a in enumerate(call.args)),
                 *((kw.arg, kw.value) for kw in call.keywords if kw.arg is not None)]
        for key, value in slots:
            if not _class_ref(value, own):
                continue
            m2 = ast.parse(before)
            call2 = [n for n in ast.walk(m2) if isinstance(n, ast.Call)][k]
            new = ast.Call(func=value, args=[], keywords=[])
            if isinstance(key, int):
                call2.args[key] = new
            else:
                next(kw for kw in call2.keywords if kw.arg == key).value = new
            text = ast.unparse(value)
            out.append((f"{text} -> {text}() (an instance, not the class)", ast.unparse(m2) + "\n"))
    return out


def signals(exception: str, class_doc: str) -> bool:
    """Whether the exception class signals control flow rather than a mistake: not named as an error, and
    documented as a signal (its docstring says it signals, indicates, exits, aborts, stops or interrupts)."""
    short = exception.rsplit(".", 1)[-1]
    if not short or short.endswith(_ERROR_NAMES):
        return False
    return bool(_SIGNAL_WORDS.search(class_doc))


def caught(before: str, exception: str, class_doc: str, public_names: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(label, source): the raising statement (the script's last) in ``try``, the signal caught by its public
    name (where the class is defined when that is public, else the shortest), what it carries printed; [] unless
    the class ``signals`` control flow."""
    if not signals(exception, class_doc):
        return []
    try:
        module = ast.parse(before)
    except SyntaxError:
        return []
    if not module.body:
        return []
    name = exception if exception in public_names or not public_names else min(public_names, key=len)
    root = name.split(".", 1)[0]
    imported = {(al.asname or al.name).split(".")[0] for s in module.body if isinstance(s, (ast.Import, ast.ImportFrom))
                for al in s.names}
    doc = " ".join(class_doc.split()).split(". ")[0].rstrip(".")[:100]
    last = module.body[-1]
    handler = ast.parse(f"try:\n    pass\nexcept {name} as signal:\n"
                        f"    print({(name.rsplit('.', 1)[-1] + ' caught:')!r}, repr(signal))\n").body[0]
    assert isinstance(handler, ast.Try)
    handler.body = [last]
    body = [*module.body[:-1], handler]
    if root not in imported:
        body.insert(0, ast.Import(names=[ast.alias(root)]))
    src = ast.unparse(ast.Module(body=body, type_ignores=[])) + "\n"
    comment = f"  # {doc}" if doc else ""
    src = src.replace(f"except {name} as signal:\n", f"except {name} as signal:{comment}\n", 1)
    return [(f"{name} {CAUGHT_LABEL}", src)]


def real_fixes(classes: Sequence[ClassInfo], site: ErrorSite, before: str, exception: str) -> list[tuple[str, str]]:
    """(label, source) of the afters above that apply to this error, a class instantiated first; ``exception``
    is the class the before printed (qualified), ``classes`` the package's (for the signal's docstring)."""
    short = exception.rsplit(".", 1)[-1]
    info = next((c for c in classes if c.qualname == exception), None) or \
        next((c for c in classes if c.qualname.rsplit(".", 1)[-1] == short and short), None)
    signal = caught(before, info.qualname, info.docstring, info.public_names) if info is not None else []
    return [*instantiated(site, before), *signal]


def caught_class(before: str, after: str) -> str:
    """The class an after made by ``caught`` catches ("" when ``after`` is not ``before`` with its last statement
    in ``try`` / ``except X as signal``)."""
    try:
        b, a = ast.parse(before).body, ast.parse(after).body
    except SyntaxError:
        return ""
    if not b or not a or not isinstance(a[-1], ast.Try) or len(a[-1].handlers) != 1:
        return ""
    t = a[-1]
    h = t.handlers[0]
    if h.name != "signal" or h.type is None or len(t.body) != 1 or ast.dump(t.body[0]) != ast.dump(b[-1]):
        return ""
    kept = [ast.dump(s) for s in b[:-1]]
    rest = [ast.dump(s) for s in a[:-1]]
    if rest[1:] == kept and isinstance(a[0], ast.Import):  # the signal's package imported first
        rest = rest[1:]
    return ast.unparse(h.type) if rest == kept else ""


def entered(before: str, after: str) -> str:
    """The object an after uses in its ``with`` block where the before used it bare (``click.progressbar(...)``
    made, then ``.generator()`` called on it outside ``with``): the call that makes it, or ""."""
    try:
        b, a = ast.parse(before), ast.parse(after)
    except SyntaxError:
        return ""
    made = {ast.dump(i.context_expr) for n in ast.walk(b) if isinstance(n, ast.With) for i in n.items}
    calls = {ast.dump(n) for n in ast.walk(b) if isinstance(n, ast.Call)}
    for n in ast.walk(a):
        if isinstance(n, ast.With):
            for item in n.items:
                d = ast.dump(item.context_expr)
                if d in calls and d not in made and isinstance(item.optional_vars, ast.Name):
                    return ast.unparse(item.context_expr)
    return ""


def given_wanted(before: str, wanted: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    """(label, source): each keyword a call of the script passes given the value the message asks for
    (``message_values``), one keyword and value at a time, the same keyword of every call at once."""
    try:
        ast.parse(before)
    except SyntaxError:
        return []
    out: list[tuple[str, str]] = []
    for name, values in wanted.items():
        for v in values:
            m = ast.parse(before)
            hit = False
            for n in ast.walk(m):
                if isinstance(n, ast.Call):
                    for kw in n.keywords:
                        if kw.arg == name and ast.unparse(kw.value) != v:
                            kw.value = ast.parse(v, mode="eval").body
                            hit = True
            if hit:
                out.append((f"{name}={v} (the value the message asks for)", ast.unparse(m) + "\n"))
    return out

