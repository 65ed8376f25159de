"""A check on a value the library works out inside the call, said in words rather than by the local
variable's name: a user never sees ``is_squeezed``, ``writer`` or ``bytes_to_be_read``, so the name is
spelled out as words ("the bytes to be read") and the usual wrappers read as English (``any(x)`` ->
"one of the x", ``len(x)`` -> "the number of x").  Only spans that name a local are rewritten;
parameters of the public call keep their code form."""

from __future__ import annotations

import re

_SPAN = re.compile(r"`([^`]+)`")


def spelled(name: str) -> str:
    """"bytes to be read" for ``bytes_to_be_read``, "binary writer" for ``binaryWriter``."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).strip("_").lower().split("_")
    return " ".join(w for w in words if w)


_SHORT_WORDS = frozenset({"is", "to", "be", "of", "in", "no", "on", "by", "at", "or", "an"})


def _readable(name: str) -> bool:
    """Whether the name spells out as words (``bytes_to_be_read``), not an abbreviation (``reg_ty``)."""
    return all(len(w) >= 3 or w in _SHORT_WORDS for w in spelled(name).split())


def _span(code: str, local: set[str]) -> str | None:
    """The words for one code span that reads a local, or None (leave the span as code)."""
    m = re.fullmatch(r"(any|all|len)\((\w+)\)", code)
    if m and m.group(2) in local:
        fn, what = m.group(1), spelled(m.group(2))
        return {"any": f"one of the “{what}” values", "all": f"every “{what}” value",
                "len": f"the number of “{what}” values"}[fn]
    m = re.fullmatch(r"(\w+)\.(\w+)", code)
    if m and m.group(1) in local and not m.group(2).startswith("_") and m.group(2)[:1].islower():
        return f"the {spelled(m.group(2))} of the {spelled(m.group(1))}"
    if code in local:
        words = spelled(code)
        # a lone participle names a value, not a thing: "the guessed value", not "the guessed"
        return f"the {words} value" if " " not in words and words.endswith("ed") else f"the {words}"
    return None


_FINDER = re.compile(r"^_*(?:find|get|lookup|search|locate)_(\w+)$")


def found_by(snippet: str, names: set[str]) -> dict[str, str]:
    """Local -> what the helper it is assigned from looks for, in words, when the helper is named so
    (``writer = _find_binary_writer(sys.stderr)``: ``writer`` -> "binary writer"): a guard ``writer is None``
    then reads "it finds no binary writer", not "the writer is None" (rating 12, ad70: internal jargon)."""
    out: dict[str, str] = {}
    for name in names:
        for m in re.finditer(rf"^\s*{re.escape(name)}\s*(?::[^=]+)?=\s*([\w.]+)\(", snippet, re.MULTILINE):
            f = _FINDER.match(m.group(1).rsplit(".", 1)[-1])
            if f and _readable(f.group(1)):
                out[name] = spelled(f.group(1))
    return out


def in_words(text: str, local: set[str], found: dict[str, str] | None = None) -> str:
    """``text`` with every code span that names one of ``local`` said in words (a span that reads a
    local in a way these rules do not cover stays as it was); ``found``: locals a finder helper returned
    (``found_by``), their ``is None`` said as "it finds no ..."."""
    for name, what in (found or {}).items():
        text = re.sub(rf"`{re.escape(name)}` is None\b", f"it finds no {what}", text)
        text = re.sub(rf"`{re.escape(name)} is None`", f"it finds no {what}", text)
    # a class named in a check is no local; an abbreviation (``reg_ty``) reads worse spelled out than as code
    local = {n for n in local if (n[:1].islower() or n[:1] == "_") and _readable(n)}
    out = _SPAN.sub(lambda m: _span(m.group(1), local) or m.group(0), text)
    out = re.sub(r"(one of the “[^”]+” values) returns a true value", r"\1 is true", out)
    out = re.sub(r"(every “[^”]+” value) returns a true value", r"\1 is true", out)
    return out
