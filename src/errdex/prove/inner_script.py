"""Run INSIDE the sandbox by the environment's Python, never imported by errdex (it runs the library).

Reads a JSON request (argv[1]): a script, the site (file path suffix and line span), and targets:
the public functions and methods of the recorded call chain between the entry and the raise
(``click.core.Command.make_context``).  Runs the script under a tracer; the first time the site
raises, each target frame on the stack is restated as a call from the arguments it received
(captured when it was called): the receiver as the script's global that holds it, literals by
their repr, a script global by its name, an argument left at its default left out, an argument
the script cannot name (an object the library built) left out when it has a default.  Writes
(argv[2]) a JSON list, outermost first: ``{"target", "call", "plain", "imports"}`` where ``plain``
leaves out the keyword arguments the caller passed through ``**kwargs`` (the library's own
settings for the inner call, ``resilient_parsing=True``).  Standard library only; Python 3.9+.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import runpy
import sys
from types import CodeType, FrameType
from typing import Any

EMPTY = inspect.Parameter.empty


def resolve(qualname: str) -> tuple[Any, Any, str]:
    """(function, owner class or None, module name) of ``pkg.mod.Class.method``."""
    parts = qualname.split(".")
    for i in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        owner = None
        try:
            for p in parts[i:]:
                owner, obj = obj, getattr(obj, p)
        except AttributeError:
            return None, None, ""
        return obj, (owner if inspect.isclass(owner) else None), ".".join(parts[:i])
    return None, None, ""


def literal(v: Any) -> str | None:
    try:
        src = repr(v)
        return src if ast.literal_eval(src) == v and type(ast.literal_eval(src)) is type(v) else None
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return None


def main_globals(frame: FrameType | None, script: str) -> dict[str, Any]:
    while frame is not None:
        if frame.f_code.co_filename == script and frame.f_code.co_name == "<module>":
            return frame.f_globals
        frame = frame.f_back
    return {}


def name_in(g: dict[str, Any], v: Any) -> str | None:
    for k, x in g.items():
        if x is v and not k.startswith("__"):
            return k
    return None


def restate(target: dict[str, Any], frame: FrameType, script: str) -> dict[str, Any] | None:
    """The call ``frame`` received, as source text (None when a needed argument cannot be named)."""
    fn, owner, module = target["fn"], target["owner"], target["module"]
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    g = main_globals(frame, script)
    loc = frame.f_locals
    params = list(sig.parameters.values())
    if owner is not None:
        if not params:
            return None
        recv = name_in(g, loc.get(params[0].name))
        if recv is None:
            return None
        head, params, imports = f"{recv}.{fn.__name__}", params[1:], []
    else:
        head, imports = f"{module}.{fn.__name__}", [module]
    pos: list[str] = []
    kws: list[str] = []
    extra: list[str] = []
    positional = True
    for p in params:
        v = loc.get(p.name, EMPTY)
        if p.kind is p.VAR_POSITIONAL:
            items = [literal(x) or name_in(g, x) for x in (v if isinstance(v, tuple) else ())]
            if None in items or not positional:
                return None
            pos.extend(str(x) for x in items)
            continue
        if p.kind is p.VAR_KEYWORD:
            for k, x in (v.items() if isinstance(v, dict) else ()):
                text = literal(x) or name_in(g, x)
                if text is not None:
                    extra.append(f"{k}={text}")
            continue
        if v is EMPTY or (p.default is not EMPTY and (v is p.default or (
                literal(v) is not None and v == p.default and type(v) is type(p.default)))):
            positional = False
            continue
        text = literal(v) or name_in(g, v)
        if text is None:
            if p.default is EMPTY:
                return None
            positional = False  # an object the library built (a parent context): left at its default
            continue
        if positional and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            pos.append(text)
        else:
            kws.append(f"{p.name}={text}")
    return {"target": target["qualname"], "call": f"{head}({', '.join(pos + kws + extra)})",
            "plain": f"{head}({', '.join(pos + kws)})", "imports": imports}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as fh:
        req = json.load(fh)
    out = sys.argv[2]
    script = req["script"]
    site_path, first, last = req["site"]["path"], int(req["site"]["line"]), int(req["site"]["end_line"])
    targets: dict[CodeType, dict[str, Any]] = {}
    for q in req["targets"]:
        fn, owner, module = resolve(q)
        code = getattr(inspect.unwrap(fn), "__code__", None) if fn is not None else None
        if code is not None:
            targets[code] = {"qualname": q, "fn": fn, "owner": owner, "module": module}
    calls: dict[int, dict[str, Any] | None] = {}  # id(frame) -> the call it received
    found: list[dict[str, Any]] = []
    done = False

    def at_site(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal done
        if event == "exception" and not done and first <= frame.f_lineno <= last:
            done = True
            f: FrameType | None = frame
            while f is not None:
                got = calls.get(id(f)) if f.f_code in targets else None
                if got is not None:
                    found.append(got)
                f = f.f_back
        return at_site

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if event != "call" or done:
            return None
        code = frame.f_code
        if code in targets:
            calls[id(frame)] = restate(targets[code], frame, script)
        if code.co_filename.replace("\\", "/").endswith(site_path) and code.co_firstlineno <= first:
            return at_site
        return None

    sys.argv = [script]
    sys.settrace(tracer)
    try:
        runpy.run_path(script, run_name="__main__")
    except BaseException:  # the script's own outcome does not matter here
        pass
    finally:
        sys.settrace(None)
    found.reverse()  # outermost first
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(found, fh)


if __name__ == "__main__":
    main()
