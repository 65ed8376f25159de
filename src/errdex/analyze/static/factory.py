"""The public function that creates the class, as a way out of its constructor's check.

Rating 8, bce3: `jax.sharding.Mesh(devices, axis_names)` refuses devices whose number of dimensions is not the
number of names; the page had no fix, where readers wrote `jax.make_mesh((2, n // 2), ('x', 'y'))`, which
builds the device array from a shape and the names together.  errdex already knows that `jax.make_mesh` creates
the `Mesh` (the public path's further entries: "Creating a `jax.sharding.Mesh` (directly or through
`jax.make_mesh`)"); the factory's own docstring says what it is for and shows a call.  So when a constructor's
decisive check reads the arguments the user passes, and a public function that creates the class has a
docstring naming the class with an example call of itself, the page offers that function, in the library's
own words and with the library's own example.  Nothing is claimed beyond them.
"""

from __future__ import annotations

import ast
import re

from errdex.analyze.facts import Facts
from errdex.analyze.static.words import decisive
from errdex.model import Evidence, Solution

_EXAMPLE = re.compile(r"^\s*>>>\s*(?:[A-Za-z_]\w*\s*=\s*)?(?P<call>[\w.]+\(.*\))\s*(?:#.*)?$")
_MAX_CALL = 80


def _first_sentence(doc: str) -> str:
    text = " ".join(doc.strip().split("\n\n", 1)[0].split())
    m = re.search(r"(?<=[.!?])\s", text)
    return text[: m.start()] if m else text


def factory_call(f: Facts) -> tuple[str, str, str, str, str] | None:
    """(factory name, class, its docstring's first sentence, its example call, docstring path), or None."""
    if not f.factory_docs or f.public_path.depth != 0 or not f.public_path.entries:
        return None
    params = set(f.params) - {"self", "cls"}
    reads = {n.split(".", 1)[0] for g in decisive(f) for n in g.names}
    if not params & reads:  # the check is not on what the user passes to the constructor
        return None
    cls = f.public_path.entries[0].rsplit(".", 1)[-1]
    for name, doc, path in f.factory_docs:
        calls = [c for ln in doc.splitlines() if (m := _EXAMPLE.match(ln))
                 and (c := m.group("call")).startswith(name + "(") and len(c) <= _MAX_CALL]
        first = _first_sentence(doc)
        if not calls or not re.search(rf"\b{re.escape(cls)}\b", doc) or not first or len(first) > 160:
            continue
        return name, cls, first, max(calls, key=len), path
    return None


def factory_solution(f: Facts) -> Solution | None:
    """"Or let `jax.make_mesh` create the `Mesh`: "Creates an efficient mesh ..." (its docstring's example:
    `jax.make_mesh((2, 8), ('x', 'y'))`)." or None."""
    found = factory_call(f)
    if found is None:
        return None
    name, cls, first, example, path = found
    doc = next(d for n, d, p in f.factory_docs if n == name and p == path)
    return Solution(text=f"Or let `{name}` create the `{cls}`: \"{first}\" (its docstring's example: `{example}`).",
                    evidence=(Evidence(kind="docstring", text=doc[:400], path=path),))


# ---------------------------------------------------------------- a dimension check the factory's shape satisfies

_NDIM_LEN = re.compile(r"^\s*(\w+)\.ndim\s*!=\s*len\((\w+)\)\s*$|^\s*len\((\w+)\)\s*!=\s*(\w+)\.ndim\s*$")
_ARG = re.compile(r"^\s{2,}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def _doc_args(doc: str) -> list[tuple[str, str]]:
    """(name, first line of its description) of a Google-style ``Args:`` section, in order."""
    out: list[tuple[str, str]] = []
    indent = -1
    inside = False
    for ln in doc.splitlines():
        if ln.strip() in ("Args:", "Arguments:", "Parameters:"):
            inside = True
            continue
        if not inside or not ln.strip():
            continue
        if not ln.startswith((" ", "\t")) or ln.strip()[:-1] in ("Returns", "Raises", "Yields"):
            break
        here = len(ln) - len(ln.lstrip())
        if (m := _ARG.match(ln)) and (indent < 0 or here <= indent):
            indent = here
            out.append((m.group(1), m.group(2).strip()))
    return out


def _length(node: ast.expr) -> int | None:
    if isinstance(node, (ast.Tuple, ast.List)):
        return len(node.elts)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return 1  # one name given as a string
    return None


def shape_factory(f: Facts) -> tuple[str, str, str, str, str, str] | None:
    """(factory, class, the factory's shape parameter, the names parameter, the array parameter, an example)
    when the constructor refuses ``array.ndim != len(names)``, a public factory of the class takes ``names``
    too and a parameter its docstring calls a shape, and every example call in its docstring gives the two
    the same length (rating 12, bce3: `jax.make_mesh(axis_shapes, axis_names)`, whose mesh has one dimension
    per entry of `axis_shapes`, the fix readers wrote: `len(axis_shapes) == len(axis_names)`)."""
    if not f.factory_docs or not f.public_path.entries:
        return None
    pair = next(((m.group(1) or m.group(4), m.group(2) or m.group(3)) for g in decisive(f)
                 if (m := _NDIM_LEN.match(g.guard.normalized or g.guard.source))), None)
    if pair is None or not {pair[0], pair[1]} <= set(f.params):
        return None
    array, names = pair
    cls = f.public_path.entries[0].rsplit(".", 1)[-1]
    for name, doc, _path in f.factory_docs:
        args = _doc_args(doc)
        order = [n for n, _ in args]
        shape = next((n for n, d in args if n != names and re.match(r"(?i)shape\b", d)), "")
        if names not in order or not shape:
            continue
        seen = []
        for ln in doc.splitlines():
            if (m := _EXAMPLE.match(ln)) and m.group("call").startswith(name + "("):
                try:
                    call = ast.parse(m.group("call"), mode="eval").body
                except SyntaxError:
                    continue
                if not isinstance(call, ast.Call):
                    continue
                given = {order[i]: a for i, a in enumerate(call.args) if i < len(order)}
                given.update({k.arg: k.value for k in call.keywords if k.arg})
                if shape in given and names in given:
                    seen.append((_length(given[shape]), _length(given[names]), m.group("call")))
        if seen and all(a is not None and a == b for a, b, _ in seen):
            example = max((c for *_, c in seen if len(c) <= _MAX_CALL), key=len, default=seen[0][2])
            return name, cls, shape, names, array, example
    return None


def factory_prevention(f: Facts) -> str:
    found = shape_factory(f)
    if found is None:
        return ""
    name, cls, shape, names, array, example = found
    return (f"Build the `{cls}` with `{name}({shape}, {names})`, where `len({shape}) == len({names})` (as each "
            f"example in its docstring: `{example}`): its docstring calls `{shape}` the shape, so the `{array}` it "
            f"makes has one dimension per name, which is what this check asks; where you pass `{array}` yourself, "
            f"give it one dimension per name (`numpy.ndim({array}) == len({names})`).")


def factory_situation(f: Facts) -> str:
    found = shape_factory(f)
    if found is None:
        return ""
    name, cls, shape, names, array, _ = found
    return (f"Calling `{name}` with more or fewer `{names}` than `{shape}` has entries, or `{cls}` with a "
            f"`{array}` that has another number of dimensions (a flat list, say) than there are "
            f"`{names}`.")
