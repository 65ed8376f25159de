"""A misspelt name read from a module whose ``__getattr__`` refuses it (parsing only).

A module-level ``__getattr__`` ends with ``raise AttributeError(name)`` for every name it does not provide.
The library's own test asks for a name no version has (``module.no_such_attribute``), so the after the
engine finds reads another, unrelated name (``module.Argument``): it shows where the error comes from but
is no fix (rating 10, 809c).  What users meet is a misspelt, renamed or removed name, and the fix is the
right one.  So for such a raise the test's read is restated as a near miss of a name the module defines
(``respelt``), the after reads that name:

- the name to misspell is, first, the replacement a deprecation message of the same ``__getattr__`` names
  ("'BaseCommand' is deprecated ... Use 'Command' instead.": the name users of a deprecated or removed one are
  sent to), else the name the module defines nearest to the test's own (``difflib``), else its first public
  name (the module's own classes first: ``reshape.defined_first``);
- the near miss (``near_miss``) is a doubled letter written once (``Comand``), else the name in lower case,
  else its last letter but one dropped; kept only when the module does not define it and ``difflib`` finds
  the target as its nearest name, the way a reader (or Python's own "Did you mean") would correct it.

The engine runs it like every candidate: the before must raise this error, the after must run clean.  The
proof is marked ``kept, respelt: ...`` (``keep.arguments_mark``) and the page says what the after does.
"""

from __future__ import annotations

import ast
import copy
import difflib
import re
from collections.abc import Mapping, Sequence

from errdex.model import ErrorSite
from errdex.prove.distill import Distilled
from errdex.prove.reshape import module_of

_USE = re.compile(r"\b[Uu]se\s+['\"`]?([A-Za-z_]\w*)['\"`]?\s+instead")
CUTOFF = 0.8  # difflib ratio from which a changed name reads as the same name respelt


def module_getattr(site: ErrorSite) -> bool:
    """The raise is a module-level ``__getattr__``'s ``AttributeError``."""
    return site.qualname == "__getattr__" and site.exception_name == "AttributeError"


def replacements(site: ErrorSite, others: Sequence[ErrorSite]) -> list[str]:
    """The names the same ``__getattr__``'s other messages send users to ("Use 'Command' instead.")."""
    out: list[str] = []
    for o in others:
        if o.path != site.path or o.qualname != site.qualname:
            continue
        for t in o.templates or (o.template,):
            for name in _USE.findall(t.render()):
                if name not in out:
                    out.append(name)
    return out


def near_miss(name: str, names: Sequence[str]) -> str:
    """A misspelling of ``name`` that ``names`` does not hold and whose nearest name in ``names`` is ``name``
    ("" when none of the three spellings tried is)."""
    tries: list[str] = []
    doubled = re.search(r"([a-z])\1", name)
    if doubled:
        tries.append(name[:doubled.start()] + name[doubled.start() + 1:])
    tries += [name.lower(), name[:-2] + name[-1:] if len(name) > 3 else ""]
    for t in tries:
        if t and t != name and t not in names and difflib.get_close_matches(t, names, n=1, cutoff=0.6) == [name]:
            return t
    return ""


def respelt(d: Distilled, site: ErrorSite, symbols: Mapping[str, tuple[str, ...]],
            others: Sequence[ErrorSite] = ()) -> list[tuple[str, str, str]]:
    """(label, before, after): the raising statement's read of a name the raising module does not define,
    restated as a near miss of a name it does (``before``) and as that name (``after``); [] for any other raise,
    or when the test's own name is near one already (its after is a correction as it stands)."""
    if not module_getattr(site):
        return []
    defined = symbols.get(site.module, ())
    public = [n for n in defined if not n.startswith("_")]
    stmt = d.module.body[d.raising]
    for j, node in enumerate(ast.walk(stmt)):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        if module_of(d.module, node.value, symbols) != site.module or node.attr in defined:
            continue
        if difflib.get_close_matches(node.attr, public, n=1):
            return []
        targets = [n for n in replacements(site, others) if n in public] + public[:1]
        for target in targets:
            typo = near_miss(target, public)
            if not typo:
                continue
            before, after = (_reading(d, j, typo), _reading(d, j, target))
            why = "named by its deprecation message" if target in replacements(site, others) else "one it defines"
            return [(f"{site.module}.{typo} -> {target} (the nearest name the module defines; {why})", before, after)]
    return []


def _reading(d: Distilled, j: int, attr: str) -> str:
    """The script with the ``j``-th node of its raising statement (an attribute read) reading ``attr``."""
    m = copy.deepcopy(d.module)
    twin = list(ast.walk(m.body[d.raising]))[j]
    assert isinstance(twin, ast.Attribute)
    twin.attr = attr
    return ast.unparse(ast.fix_missing_locations(_used_imports(m))) + "\n"


def _used_imports(m: ast.Module) -> ast.Module:
    """``m`` without ``import pkg.sub`` statements whose module the rest never names, when another import binds
    ``pkg`` (a test parametrized over modules imports them all; the example reads one)."""
    text = "\n".join(ast.unparse(s) for s in m.body if not isinstance(s, (ast.Import, ast.ImportFrom)))
    roots = {a.name for s in m.body if isinstance(s, ast.Import) for a in s.names if "." not in a.name}

    def used(s: ast.stmt) -> bool:
        if not isinstance(s, ast.Import) or any(a.asname for a in s.names):
            return True
        return any("." not in a.name or a.name.split(".")[0] not in roots
                   or re.search(rf"\b{re.escape(a.name)}\b", text) for a in s.names)

    m.body = [s for s in m.body if used(s)]
    return m


def respelt_names(before: str, after: str) -> tuple[str, str] | None:
    """(old, new) when the after only reads another name off the same object, and the two names are one
    respelt (``difflib`` ratio at least ``CUTOFF``: ``Comand`` -> ``Command``); else None."""
    try:
        b, a = ast.parse(before), ast.parse(after)
    except SyntaxError:
        return None
    nb, na = list(ast.walk(b)), list(ast.walk(a))
    if len(nb) != len(na):
        return None
    hits = [k for k, (x, y) in enumerate(zip(nb, na, strict=True))
            if isinstance(x, ast.Attribute) and isinstance(y, ast.Attribute) and x.attr != y.attr]
    if len(hits) != 1:
        return None
    x, y = nb[hits[0]], na[hits[0]]
    assert isinstance(x, ast.Attribute) and isinstance(y, ast.Attribute)
    old, new = x.attr, y.attr
    x.attr = new  # every other node the same
    same = ast.dump(b) == ast.dump(a)
    return (old, new) if same and same_respelt(old, new) else None


def same_respelt(old: str, new: str) -> bool:
    """Two names close enough to be one name respelt (case aside)."""
    return old != new and difflib.SequenceMatcher(None, old.lower(), new.lower()).ratio() >= CUTOFF
