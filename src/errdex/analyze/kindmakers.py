"""The public class that makes a kind of kernel (or device, or backend) a registration is limited to.

A lowering rule registered for one kind only (``register_lowering_rule(lax.rev_p,
kernel_types=[tpu_core.CoreType.SC_VECTOR_SUBCORE])``) was said as "in a `SC_VECTOR_SUBCORE` kernel": an
internal enum member the user never writes (rating 8, 5931).  The user chooses the kind through a public
class whose method returns that member (``def core_type(self): return tpu_core.CoreType.SC_VECTOR_SUBCORE``
in ``VectorSubcoreMesh``).  errdex holds no class bodies, but a raise site of the class (its constructor's
checks) holds a snippet of it; a ``return`` of ``<Enum>.<MEMBER>`` inside the same top-level class names it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from errdex.model import ErrorSite


def kind_makers(members: Sequence[str], sites: Iterable[ErrorSite],
                public: Mapping[str, str]) -> tuple[tuple[str, str, str], ...]:
    """(member as written, public class, method) for each ``Enum.MEMBER`` of ``members`` (their last two
    parts are matched) that a method of a public class returns, as a raise site's snippet of it shows."""
    wanted = {".".join(m.split(".")[-2:]): m for m in members if m.count(".") >= 1}
    if not wanted:
        return ()
    out: dict[tuple[str, str, str], None] = {}
    for s in sites:
        if "." not in s.qualname or "<locals>" in s.qualname or not any(w in s.snippet for w in wanted):
            continue
        cls = s.qualname.split(".", 1)[0]
        name = public.get(f"{s.module}.{cls}")
        if not name:
            continue
        lines = s.snippet.splitlines()
        here = s.line - s.snippet_start
        for i, ln in enumerate(lines):
            m = re.match(r"\s*return\s+([\w.]+)\s*$", ln)
            key = ".".join(m.group(1).split(".")[-2:]) if m else ""
            if key not in wanted or not _same_class(lines, here, i):
                continue
            method = next((d.group(1) for j in range(i - 1, -1, -1)
                           if (d := re.match(r"\s+def\s+(\w+)\(", lines[j]))), "")
            if method and not method.startswith("_"):
                out[(wanted[key], name, method)] = None
    return tuple(out)


def _same_class(lines: list[str], a: int, b: int) -> bool:
    """No top-level statement between lines ``a`` and ``b`` of the snippet (both in one top-level class)."""
    lo, hi = sorted((a, b))
    if lo < 0:
        return False
    return not any(ln.strip() and not ln[:1].isspace() and not ln.lstrip().startswith(("#", "@"))
                   for ln in lines[lo + 1:hi + 1])
