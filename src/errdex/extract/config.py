"""Configuration facts of one file: environment-variable reads, plus what the adapters know.

The generic reader finds ``os.environ["X"]``, ``os.environ.get("X", d)``,
``os.getenv("X", d)`` and ``"X" in os.environ`` with a constant name.  When
the read is the right-hand side (possibly wrapped, as in
``FOO = int(os.getenv("FOO", "0"))``) of a module-level assignment, the
assigned name is the option's holder, so a guard reading ``FOO`` links to it.
"""

from __future__ import annotations

import ast
import re

from errdex.extract.adapters import ADAPTERS
from errdex.extract.imports import dotted_source as _dotted
from errdex.extract.near import marker_lines, walk_near
from errdex.model import ConfigOption

_READERS = {"os.environ.get", "os.getenv", "environ.get", "getenv", "os.environ.setdefault"}
_MARKER = re.compile(r"environ|getenv")  # every reader above is spelled with one of these


def env_read(node: ast.AST) -> tuple[str, ast.expr | None] | None:
    """(variable name, default expression) when ``node`` reads one environment variable."""
    if isinstance(node, ast.Call) and node.args and _dotted(node.func) in _READERS:
        a = node.args[0]
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            default = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "default"), None)
            return a.value, default
    if isinstance(node, ast.Subscript) and _dotted(node.value) in ("os.environ", "environ"):
        s = node.slice
        if isinstance(s, ast.Constant) and isinstance(s.value, str):
            return s.value, None
    if (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and _dotted(node.comparators[0]) in ("os.environ", "environ")
            and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
        return node.left.value, None
    return None


def env_options(tree: ast.Module, path: str, module: str, source: str) -> list[ConfigOption]:
    """The environment variables ``tree`` reads, visiting only the lines that spell a reader."""
    if "environ" not in source and "getenv" not in source:  # str.find: a regex alternation scans slowly
        return []
    lines = marker_lines(source, _MARKER)
    if not lines:
        return []
    holders: dict[int, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                for sub in walk_near(stmt.value, lines):
                    holders[id(sub)] = targets[0].id
    out: dict[tuple[str, str], ConfigOption] = {}
    for node in walk_near(tree, lines):
        found = env_read(node)
        if found is None:
            continue
        name, default = found
        if not name or len(name) > 100 or not name.replace("_", "").isalnum():
            continue
        holder = holders.get(id(node), "")
        key = (name, holder)
        if key in out:
            continue
        default_text = None
        if default is not None:
            try:
                default_text = ast.unparse(default)[:100]
            except (ValueError, RecursionError):
                default_text = None
        out[key] = ConfigOption(
            name=name, kind="env", default=default_text, env_var=name,
            holder=f"{module}.{holder}" if holder else "",
            set_hint=f"set the environment variable {name} in the environment of the process",
            path=path, line=getattr(node, "lineno", 0), adapter="generic:env", module=module,
        )
    return list(out.values())


def config_options(tree: ast.Module, path: str, module: str, source: str) -> list[ConfigOption]:
    """Every option this file defines or reads: generic env reads first, then each adapter's."""
    out = env_options(tree, path, module, source)
    for adapter in ADAPTERS:
        out.extend(adapter(tree, path, module, source))
    return out
