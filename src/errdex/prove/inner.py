"""The inner public call: for an error the test's outer call catches (a command's ``main`` turning
it into an exit code, shell completion parsing leniently), the public call on the recorded chain
that lets it escape.

The observation's chain names every frame from the test to the raise.  The public functions and
methods between the entry and the raise (``click.core.Command.make_context``) are the calls a user
makes too; ``inner_script.py`` runs the candidate in the sandbox under a tracer and restates each
such frame, when the site raises, from the arguments it received (``cli.make_context('cli',
['-c'])``).  The candidate's statements before its raising one, followed by that call, make a new
before; its afters are ``mutate``'s and ``reshape``'s variants of the new call, so it is proven by
the same bar as every other candidate.  Two befores per frame: the call as received, and without
the keyword arguments the caller passed through ``**kwargs`` (the outer call's own settings,
``resilient_parsing=True``, which is what caught the error).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from errdex.model import ErrorSite
from errdex.prove.distill import Distilled, prune
from errdex.prove.mutate import variants
from errdex.prove.reshape import reshaped
from errdex.sandbox import Environment, Limits, RunRequest, run

INNER_SCRIPT = Path(__file__).with_name("inner_script.py")
MAX_TARGETS = 4


@dataclass(frozen=True, slots=True)
class InnerCall:
    """A before restating an inner public call, and its after-variants."""

    target: str  # the chain frame restated, "click.core.Command.make_context"
    before: str
    afters: tuple[str, ...]


def _public(qualname: str, package: str) -> bool:
    parts = qualname.split(".")
    return (parts[0] == package and len(parts) >= 2 and "<locals>" not in parts and "<lambda>" not in parts
            and not any(p.startswith("_") for p in parts))


def chain_targets(chain: Sequence[str], entry: str, site: ErrorSite, package: str) -> list[str]:
    """The public functions and methods strictly between the outer call and the raise, outermost first
    (harness frames, the entry itself, and the site's own function left out)."""
    names = [frame.split(" (", 1)[0] for frame in chain]
    start = names.index(entry) + 1 if entry in names else 0
    top = package.split("[")[0].strip().replace("-", "_")
    out: list[str] = []
    for q in names[start:]:
        if q.endswith("." + site.qualname) or q in out or not _public(q, top):
            continue
        out.append(q)
    return out[:MAX_TARGETS]


def _before(d: Distilled, call: str, imports: Sequence[str]) -> tuple[ast.Module, int] | None:
    try:
        stmt = ast.parse(call).body[0]
    except (SyntaxError, IndexError):
        return None
    body = prune([*ast.parse("\n".join(f"import {i}" for i in imports)).body, *d.module.body[:d.raising], stmt],
                 stmt, set())  # what only the outer call needed goes (a harness's helpers)
    m = ast.fix_missing_locations(ast.Module(body, []))
    return m, len(m.body) - 1


def _candidate(d: Distilled, target: str, call: str, imports: Sequence[str], guard_names: Sequence[str],
               package: str, symbols: Mapping[str, tuple[str, ...]]) -> InnerCall | None:
    built = _before(d, call, imports)
    if built is None:
        return None
    module, raising = built
    nodes = list(ast.walk(module))
    focus = tuple(i for i, n in enumerate(nodes) if isinstance(n, ast.Call) and n is module.body[raising].value)  # type: ignore[attr-defined]
    d2 = Distilled(module=module, focus=focus, raising=raising, test=d.test)
    afters = [src for _, src in variants(d2, guard_names)]
    afters += [src for _, src in reshaped(d2, guard_names, package, symbols)]
    return InnerCall(target, d2.source, tuple(dict.fromkeys(afters)))


def inner_calls(env: Environment, run_vars: Mapping[str, str], timeout_s: float, d: Distilled, script: str,
                chain: Sequence[str], entry: str, site: ErrorSite, package: str, scratch: Path,
                guard_names: Sequence[str] = (), symbols: Mapping[str, tuple[str, ...]] | None = None
                ) -> list[InnerCall]:
    """Befores that make the inner public calls of ``chain`` directly (one traced sandbox run of
    ``script``), outermost first; [] when the chain has none or none could be restated."""
    targets = chain_targets(chain, entry, site, package)
    if not targets:
        return []
    work = scratch / "inner"
    work.mkdir(parents=True, exist_ok=True)
    (work / "example.py").write_text(script, encoding="utf-8")
    req, out = work / "inner-in.json", work / "inner-out.json"
    req.write_text(json.dumps({"script": str(work / "example.py"), "targets": targets,
                               "site": {"path": site.path, "line": site.line, "end_line": site.end_line}}))
    out.unlink(missing_ok=True)
    run(RunRequest(argv=(str(env.python), str(INNER_SCRIPT), str(req), str(out)),
                   limits=Limits(timeout_s=timeout_s, memory_bytes=4 * 1024**3),
                   env={"PYTHONDONTWRITEBYTECODE": "1", **run_vars}, scratch=work / "run"))
    try:
        found = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else []
    except ValueError:
        return []
    got: list[InnerCall] = []
    for item in found if isinstance(found, list) else []:
        for call in dict.fromkeys((str(item.get("call", "")), str(item.get("plain", "")))):
            c = _candidate(d, str(item.get("target", "")), call, [str(i) for i in item.get("imports", [])],
                           guard_names, package, symbols or {})
            if c is not None and c.before not in {g.before for g in got}:
                got.append(c)
    return got
