"""Run INSIDE the sandbox by the environment's Python, never imported by errdex (it imports the library).

Reads a JSON request (argv[1]): the observed entry point (``click.core.Option.__init__``) and
the recorded arguments (name, type, repr).  Writes (argv[2]) the public call as source text,
``import`` line included, and after-variants: the same call with one argument set back to its
default (or a bool flipped).  Only arguments whose recorded repr is a Python literal are used:
an object built by the test (``<click.core.Command>``) cannot be restated from a repr.
Standard library only; Python 3.9+.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
from typing import Any

EMPTY = inspect.Parameter.empty


class Unsupported(Exception):
    pass


def resolve(entry: str) -> tuple[list[str], Any, Any]:
    parts = entry.split(".")
    if "<locals>" in parts or "<lambda>" in parts:
        raise Unsupported("entry is a local function (defined inside another call)")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        owner = None
        for p in parts[i:]:
            owner, obj = obj, getattr(obj, p)
        return parts[i:], owner, obj
    raise Unsupported("entry module does not import")


def public_name(target: Any, package: str) -> tuple[str, str]:
    """The shortest importable public spelling of ``target`` (``click.Option`` for click.core.Option)."""
    top = importlib.import_module(package)
    for name in sorted(dir(top)):
        if not name.startswith("_") and getattr(top, name, None) is target:
            return package, name
    mod = getattr(target, "__module__", "") or ""
    qual = getattr(target, "__qualname__", "") or ""
    if not mod or "<" in qual:
        raise Unsupported("no importable name")
    return mod, qual


def render(alias: str, attr: str, params: list[inspect.Parameter], values: dict[str, Any]) -> str:
    """Source of ``alias.attr(...)``: required positionals in place, the rest by keyword, defaults omitted."""
    pos: list[str] = []
    kws: list[str] = []
    for p in params:
        if p.name not in values:
            continue
        v = values[p.name]
        if p.kind is p.VAR_POSITIONAL:
            pos.extend(repr(x) for x in v)
        elif p.kind is p.VAR_KEYWORD:
            kws.extend(f"{k}={x!r}" for k, x in v.items() if str(k).isidentifier())
        elif p.default is not EMPTY or p.kind is p.KEYWORD_ONLY:
            kws.append(f"{p.name}={v!r}")
        else:
            pos.append(repr(v))
    return f"{alias}.{attr}({', '.join(pos + kws)})"


def fill_of(annotation: Any) -> list[Any]:
    """Simple values of an annotated type (the annotation's text: ``t.Optional[int]`` gives 1)."""
    text = annotation if isinstance(annotation, str) else str(annotation)
    if annotation is EMPTY:
        return []
    out: list[Any] = []
    for word, value in (("int", 1), ("float", 1.0), ("str", "x"), ("bool", True),
                        ("Iterable", [1]), ("Sequence", [1]), ("list", [1]), ("dict", {})):
        if word in text:
            out.append(value)
    return out


def plan(req: dict[str, Any]) -> dict[str, Any]:
    rest, owner, fn = resolve(req["entry"])
    args = {a["name"]: a for a in req["args"]}
    if rest and rest[-1] == "__init__" and inspect.isclass(owner):
        target, sig_of, skip_first = owner, fn, True
    elif (inspect.isfunction(fn) and len(rest) == 1) or (inspect.isclass(owner) and isinstance(inspect.getattr_static(owner, rest[-1], None), staticmethod)):
        target, sig_of, skip_first = fn, fn, False
    else:
        raise Unsupported("entry is a method of an object the test built")
    params = list(inspect.signature(sig_of).parameters.values())
    if skip_first:
        params = params[1:]
    values: dict[str, Any] = {}
    for p in params:
        a = args.get(p.name)
        if a is None:
            continue
        try:
            v = ast.literal_eval(a["repr"])
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            d = p.default
            if d is not EMPTY and a.get("type") == f"{type(d).__module__}.{type(d).__qualname__}" \
                    and a["repr"].startswith("<"):
                continue  # an opaque object of the default's own type (a sentinel): left at its default
            raise Unsupported(f"argument {p.name} is not a literal: {a['repr'][:60]}") from None
        if p.kind is p.VAR_KEYWORD and not isinstance(v, dict):
            raise Unsupported("**kwargs not recorded as a dict")
        if p.kind is p.VAR_POSITIONAL:
            v = tuple(v)
        if p.default is not EMPTY and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            try:
                if v == p.default and type(v) is type(p.default):
                    continue
            except Exception:
                pass
        if (p.kind is p.VAR_POSITIONAL and not v) or (p.kind is p.VAR_KEYWORD and not v):
            continue
        values[p.name] = v
    module, attr = public_name(target, req["package"])
    imp = f"import {module}"
    call = render(module, attr, params, values)
    variants: list[tuple[str, str]] = []
    for p in params:
        if p.name not in values:
            continue
        v = values[p.name]
        if p.kind is p.VAR_KEYWORD:
            for k in list(v):
                nv = dict(values)
                nv[p.name] = {kk: vv for kk, vv in v.items() if kk != k}
                variants.append((f"without {k}=", render(module, attr, params, nv)))
        elif p.default is not EMPTY:
            nv = {k: x for k, x in values.items() if k != p.name}
            variants.append((f"{p.name} left at its default", render(module, attr, params, nv)))
            if isinstance(v, bool):
                nv = dict(values)
                nv[p.name] = not v
                variants.append((f"{p.name}={not v}", render(module, attr, params, nv)))
    # The guard turned around: a value the library's own tests passed for the same parameter of the same
    # call, and for a parameter left at None, a simple value of its annotated type.
    alternatives = req.get("alternatives") or {}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        current = values.get(p.name, p.default)
        options: list[Any] = []
        for text in alternatives.get(p.name, []):
            try:
                options.append(ast.literal_eval(text))
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                continue
        if current is None or current is EMPTY:
            options.extend(fill_of(p.annotation))
        for alt in options:
            try:
                if alt == current and type(alt) is type(current):
                    continue
            except Exception:
                continue
            nv = dict(values)
            if p.default is not EMPTY and alt is p.default:
                nv.pop(p.name, None)
            else:
                nv[p.name] = alt
            variants.append((f"{p.name}={alt!r}", render(module, attr, params, nv)))
    seen: set[str] = set()
    unique: list[dict[str, str]] = []
    for why, c in variants:
        if c != call and c not in seen:
            seen.add(c)
            unique.append({"why": why, "call": c})
    return {"import": imp, "call": call, "variants": unique[:40], "target": f"{module}.{attr}"}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        req = json.load(f)
    try:
        out: dict[str, Any] = plan(req)
    except Unsupported as exc:
        out = {"unsupported": str(exc)}
    except Exception as exc:  # the library's own import or attribute errors: this candidate is unusable
        out = {"unsupported": f"{type(exc).__name__}: {exc}"[:300]}
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
