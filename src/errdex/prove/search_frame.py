"""Run INSIDE the sandbox beside ``search_script.py`` (and importable by errdex's tests): the forms a searched
call is made in.  Python 3.10+, no dependency.

``FRAME`` holds, for the target being searched: the adapter's modules the calls may name (``imports``), the
call forms (``wrappers``: (format string with ``{call}``, kind), as written first), the statements that undo
an option a form set (``reset``), a kernel's own values (``kernel_values``), the kernel forms' indexes
(``kernel_at``: the form whose kernel stores the call's value; ``body_at``: the kernel whose parameters are
scratch refs, the call a statement of its body, -1 when the site has none), the refs' names (``refs``) and
the values the kernel form gives a parameter by the end of its name (``named``: its mesh's axis name).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

FRAME: dict[str, Any] = {"imports": [], "wrappers": [("{call}", "plain")], "reset": [], "kernel_values": [],
                         "kernel_at": -1, "body_at": -1, "refs": [], "named": {}, "bodies": [], "typed": {}}
WRAP = "@wrap"


def frame_for(t: dict[str, Any], adapter: dict[str, Any], callables: list[str]) -> None:
    """The imports and call forms of this target's calls: as written; the adapter's ``forms`` (jax: traced
    only, under ``jax.jit``); with each option the site's guard reads turned on first (``option``); a
    target's ``kernel`` form (``kernel_forms.py``) last, drawn for half the calls, and its ``body`` form
    (a kernel whose parameters are scratch refs) for a call given one of its ``refs``.  Hits made as written
    are preferred (``pick``), so a plain check in a kernel's files gets a pair that runs as written."""
    FRAME["imports"] = [m for m in adapter.get("imports") or [] if m]
    wrappers: list[tuple[str, str]] = [("{call}", "plain")]
    wrappers += [(str(f), "form") for f in adapter.get("forms") or []]
    callables[:] = [str(c) for c in adapter.get("callables") or []]
    if adapter.get("option"):
        wrappers += [(str(adapter["option"]).format(name=o) + "\n{call}", "option") for o in t.get("options") or []]
    kernel = t.get("kernel") or {}
    FRAME["refs"] = [str(r) for r in kernel.get("refs") or []] if kernel.get("body") else []
    # a kernel's refs first (the buffers its operations take), then the values of its own shapes
    FRAME["kernel_values"] = [*FRAME["refs"], *(str(v) for v in kernel.get("values") or [])]
    FRAME["kernel_at"] = FRAME["body_at"] = -1
    # values the kernel's form gives a parameter named so (the mesh axis it maps: ``axis_name='x'``), tried first
    FRAME["named"] = {str(k): [str(v) for v in vs] for k, vs in (kernel.get("named") or {}).items()}
    if kernel.get("form"):  # a site a kernel of another platform may reach: calls made in that kernel too
        # (not only: a plain Python check in the same files, ``Mesh(num_threads=3)``, is reached as written,
        # and its clean call is then no value a kernel stores, so only a call as written can run clean)
        wrappers.append((str(kernel["form"]), "kernel"))
        FRAME["kernel_at"] = len(wrappers) - 1
        FRAME["imports"] = list(dict.fromkeys([*FRAME["imports"], *(str(m) for m in kernel.get("imports") or [])]))
    FRAME["bodies"] = []  # (its form's index, its refs' names) per kernel of refs: a call naming one is made there
    if kernel.get("body"):
        wrappers.append((str(kernel["body"]), "kernel"))
        FRAME["body_at"] = len(wrappers) - 1
        FRAME["bodies"].append((FRAME["body_at"], _names(FRAME["refs"])))
        for more in kernel.get("bodies") or []:  # more kernels of refs (Mosaic GPU's own beside Pallas')
            wrappers.append((str(more["body"]), "kernel"))
            FRAME["bodies"].append((len(wrappers) - 1, _names([str(r) for r in more.get("refs") or []])))
    # the refs of those kernels by their class (``tcgen05.TMEMRef``): tried for a parameter annotated with it
    FRAME["typed"] = {str(c): [str(v) for v in vs] for c, vs in (kernel.get("typed") or {}).items()}
    FRAME["wrappers"] = wrappers
    FRAME["reset"] = [str(adapter["option_off"]).format(name=o) for o in t.get("options") or []
                      if adapter.get("option") and adapter.get("option_off")]


def _names(refs: list[str]) -> set[str]:
    return {m.group(0) for r in refs for m in [re.match(r"\w+", r)] if m}


def form_of(values: list[str], wrap: int) -> int:
    """The form a call is made in: the kernel whose parameters are the refs when one of its values names a ref
    (a ref exists only in that kernel's body), else the drawn one (``wrap``), never the refs' kernel then."""
    for at, names in FRAME["bodies"]:
        if names and any(set(re.findall(r"\b\w+\b", v)) & names for v in values):
            return int(at)
    return FRAME["kernel_at"] if wrap in body_forms() and FRAME["kernel_at"] >= 0 else wrap


def body_forms() -> set[int]:
    """The indexes of the kernels of refs among the forms (never drawn: a call given a ref is made there)."""
    return {int(at) for at, _ in FRAME["bodies"]}


def same_kind(a: str, b: str) -> bool:
    """Whether two values are alike in naming a kernel's ref or not: a ref's variant is another ref (``_tmem.at[0]``
    -> ``_tmem.at[:, 0:64]``), an array's is no ref (which would move the call into the kernel of refs)."""
    names = {n for _, ns in FRAME["bodies"] for n in ns}
    if not names:
        return True

    def named(v: str) -> bool:
        return bool(set(re.findall(r"\b\w+\b", v)) & names)
    return named(a) == named(b)


def as_written(s: Any, render: Callable[..., str], limit: int = 3) -> list[tuple[int, str, dict[str, Any]]]:
    """The first hits made in a kernel, made again as written, those that raise here that way too: a plain
    check in a kernel's files (b806's ``format_tcgen05_sparse_metadata``) is hit in the kernel as well, but its
    result is no value the kernel can lower (a ``transpose`` of uint2), so only a call as written runs clean."""
    out: list[tuple[int, str, dict[str, Any]]] = []
    for h in [h for h in s.hits if h[2]["args"] and FRAME["wrappers"][int(dict(h[2]["args"]).get(WRAP, "0"))][1]
              == "kernel"][:limit]:
        args = [(k, "0") if k == WRAP else (k, v) for k, v in h[2]["args"]]
        plan, ctor = h[2]["plan"], h[2]["ctor"]
        src = render(plan["module"], plan["call"], list(ctor) if ctor is not None else None, args)
        if src != h[1] and all(src != x[1] for x in s.hits) and s.at_site(s.run(src)):
            out.append((len(src), src, {**h[2], "args": tuple(args)}))
    return out
