"""What the function's own docstring says of an argument its check reads.

Rating 8, b806: `format_tcgen05_sparse_metadata` raises when `meta.shape[2]` is not 2, and its docstring says
"meta: Metadata of shape (M, K // 4, 2)."; the page stated the check but not the layout, which readers found
only in the Source.  The description of the argument, in the library's words, tells the user what to pass, not
only what to avoid.  Docstring styles read: Google (``Args:`` then ``name: text`` or ``name (type): text``),
NumPy (``Parameters`` then ``name : type`` and an indented text) and Sphinx (``:param name: text``).
"""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts, GuardFact
from errdex.analyze.static.words import ARGS_SECTION

_END = re.compile(r"\s*(?:Returns|Raises|Yields|Example|Examples|Note|Notes|See Also)\s*:?\s*$")
_MAX = 160


def _clean(parts: list[str]) -> str:
    text = " ".join(" ".join(parts).split())
    return text if 0 < len(text) <= _MAX else ""


def arg_doc(doc: str, name: str) -> str:
    """The docstring's description of the argument ``name`` ("" when it has none, or a long one)."""
    lines = doc.splitlines()
    for i, line in enumerate(lines):  # Sphinx
        m = re.match(rf"\s*:param(?:\s+[\w\[\], .]+)?\s+{re.escape(name)}\s*:(.*)$", line)
        if m:
            more = [x.strip() for x in _continuation(lines, i)]
            return _clean([m.group(1).strip(), *more])
    inside = False
    for i, line in enumerate(lines):
        if ARGS_SECTION.match(line):
            inside = True
            continue
        if not inside:
            continue
        if _END.match(line):
            inside = False
            continue
        m = re.match(rf"\s*\*{{0,2}}{re.escape(name)}\s*(?:\([^)]*\))?\s*:(.*)$", line)
        if m is None:
            continue
        first = m.group(1).strip()
        more = [x.strip() for x in _continuation(lines, i) if not set(x.strip()) <= {"-"}]
        # NumPy: ``name : type`` then the text indented below; Google: the text after the colon
        return _clean(more if lines[i].rstrip().endswith(":") or re.match(r"\s*\w+\s+:", line) else [first, *more])
    return ""


def _continuation(lines: list[str], i: int) -> list[str]:
    """The lines indented deeper than line ``i``, right below it."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    out: list[str] = []
    for line in lines[i + 1:]:
        if not line.strip() or len(line) - len(line.lstrip()) <= indent:
            break
        out.append(line)
    return out


def documented(f: Facts, gs: list[GuardFact]) -> str:
    """" (`meta` is documented as "Metadata of shape (M, K // 4, 2)")" for the first argument the guards read
    that the raising function's docstring describes, when that function is the public call ("" otherwise:
    below it the argument may be another value by another name)."""
    if f.public_path.depth != 0 or not f.public_path.entries or not f.docstring:
        return ""
    # the names the guards read, and those their words show (``_2`` unpacked from ``meta.shape`` reads as
    # `meta.shape[2]`): the argument itself or its shape, not an attribute deep inside it (``ctx.module_context
    # .platforms``: the docstring's "The lowering context" says nothing of what is checked)
    read = [n for g in gs for n in (*g.names, *re.findall(r"`([A-Za-z_][\w.]*)", g.words))]
    shallow = re.compile(r"[A-Za-z_]\w*(?:\.(?:shape|ndim|dtype|size))?")
    heads = dict.fromkeys(n.split(".", 1)[0] for n in read)
    for name in [h for h in heads if all(shallow.fullmatch(n) for n in read if n.split(".", 1)[0] == h)]:
        desc = arg_doc(f.docstring, name)
        if desc:
            return f" (`{name}` is documented as \"{desc.rstrip('.')}\")"
    return ""


_CONDITIONAL_SEQUENCE = re.compile(
    r"\b(?:must|should|has to|needs to) be an? (sequence|list|tuple|iterable|collection) of (\w+) "
    r"(?:only )?(if|when|where) ([^.;]+)", re.IGNORECASE)


def _singular(noun: str) -> str:
    """"mesh" for "meshes", "callable" for "callables" (English plurals of the regular kinds)."""
    if re.search(r"(?:s|sh|ch|x|z)es$", noun):
        return noun[:-2]
    return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def single_value(f: Facts, negation: str, gs: list[GuardFact]) -> str:
    """"; pass one mesh, not a sequence of them: a sequence of meshes is asked for only if `body` is a sequence
    of callables" when the check refuses a sequence for an argument whose documentation asks for a sequence only
    under a condition.  Rating 8 on 707f (``pl.kernel`` as a decorator refuses a sequence ``mesh``): "not a
    `Sequence`" says what to avoid; the docstring's own condition says what to pass instead."""
    if f.public_path.depth != 0 or not f.public_path.entries or not f.docstring:
        return ""
    for name in dict.fromkeys(n.split(".", 1)[0] for g in gs for n in g.names):
        if not re.search(rf"`{re.escape(name)}` is not an? `?(?:Sequence|list|tuple|Iterable|Collection)\b", negation):
            continue
        m = _CONDITIONAL_SEQUENCE.search(arg_doc(f.docstring, name))
        if m is None:
            continue
        kind, noun, word, cond = m.group(1).lower(), m.group(2), m.group(3).lower(), m.group(4).strip()
        cond = re.sub(r"``([^`]+)``", r"`\1`", cond)
        return (f"; pass one {_singular(noun)}, not a {kind} of them: the documentation asks for a {kind} of {noun} "
                f"only {word} {cond}")
    return ""
