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
