"""Which configuration options a guard reads.

The extractor records where options are defined (``no_execution =
bool_state(name='jax_no_execution', ...)`` in ``jax._src.config``) and where
environment variables are read.  A guard names them through an attribute
chain: ``config.no_execution.value`` (module alias + holder), ``config.
jax_no_execution`` (the option's own name), a bare holder in the defining
module, or a direct ``os.environ.get("X")``.  Matching is by those names
only; a chain whose module part disagrees with the option's module is not a
match, so ``self.no_execution`` does not pick up JAX's option.
"""

from __future__ import annotations

import ast

from errdex.analyze.context import SnapshotContext
from errdex.analyze.guardwords import parse_condition, setting_key
from errdex.extract.imports import dotted_source as dotted
from errdex.model import ConfigOption, ErrorSite, Guard

_ENV_READERS = {"os.environ.get", "os.getenv", "environ.get", "getenv", "os.environ.__getitem__"}
_VALUE_ATTRS = ("value", "_value")


def options_for_guard(guard: Guard, site: ErrorSite, ctx: SnapshotContext) -> tuple[ConfigOption, ...]:
    if guard.kind in ("except", "match") or not ctx.options:
        return ()
    node = parse_condition(guard.normalized or guard.source)
    if node is None:
        return ()
    found: list[ConfigOption] = []

    def add(opts: list[ConfigOption]) -> None:
        for o in opts:
            if o not in found:
                found.append(o)

    for n in ast.walk(node):
        key = setting_key(n)
        if key is not None:
            add([o for o in ctx.options_by_name.get(key.lower(), []) if o.kind == "setting"])
            continue
        env = _env_name(n)
        if env is not None:
            add([o for o in ctx.options_by_name.get(env.lower(), []) if o.kind == "env" or o.env_var == env])
            continue
        if isinstance(n, ast.Attribute) and not isinstance(getattr(n, "ctx", None), ast.Store):
            chain = dotted(n)
            if chain is not None:
                add(_by_chain(chain, site, ctx))
        elif isinstance(n, ast.Name):
            add([o for o in ctx.options_by_holder.get(n.id, []) if o.module == site.module or o.path == site.path])
    return tuple(found)


def _env_name(n: ast.AST) -> str | None:
    """``os.environ.get("X")``, ``os.getenv("X")``, ``os.environ["X"]``, ``"X" in os.environ`` → X."""
    if isinstance(n, ast.Call) and dotted(n.func) in _ENV_READERS and n.args:
        a = n.args[0]
        return a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
    if isinstance(n, ast.Subscript) and dotted(n.value) in ("os.environ", "environ"):
        s = n.slice
        return s.value if isinstance(s, ast.Constant) and isinstance(s.value, str) else None
    if (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.In, ast.NotIn))
            and dotted(n.comparators[0]) in ("os.environ", "environ")
            and isinstance(n.left, ast.Constant) and isinstance(n.left.value, str)):
        return n.left.value
    return None


def _by_chain(chain: str, site: ErrorSite, ctx: SnapshotContext) -> list[ConfigOption]:
    parts = chain.split(".")
    while len(parts) > 1 and parts[-1] in _VALUE_ATTRS:
        parts.pop()
    if len(parts) < 2:
        return []
    owner, last = parts[-2], parts[-1]
    out: list[ConfigOption] = []
    for o in ctx.options_by_holder.get(last, []):
        mod_tail = o.module.rsplit(".", 1)[-1] if o.module else ""
        if owner == mod_tail or (o.module and ".".join(parts[:-1]).endswith(o.module)):
            out.append(o)
    if not out and owner in ("config", "flags", "FLAGS", "settings"):
        out.extend(o for o in ctx.options_by_name.get(last.lower(), []) if o.kind != "env")
    return out
