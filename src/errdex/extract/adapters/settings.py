"""A settings object: ``_global_config = {"assume_finite": ..., ...}`` with ``get_config``/``set_config``.

scikit-learn's shape (``sklearn/_config.py``): a module-level dict of the
defaults, ``get_config()`` returning it, and ``set_config(key=None, ...)`` taking
one keyword per setting.  A key becomes a setting only when ``set_config``
takes a parameter of that name, so the set hint ``<package>.set_config(key=...)``
names a real parameter; the package-level re-export is checked by the
verifier against the symbol table when the hint becomes a code sample.
A default that reads ``os.environ.get("X", ...)`` names the setting's
environment variable.
"""

from __future__ import annotations

import ast

from errdex.extract.adapters._common import text
from errdex.extract.astwalk import walk
from errdex.model import ConfigOption


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}


def _env_name(node: ast.expr) -> str | None:
    for n in walk(node):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("get", "getenv")
                and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)):
            return n.args[0].value
    return None


def options(tree: ast.Module, path: str, module: str, source: str) -> list[ConfigOption]:
    if "def set_config" not in source or "def get_config" not in source:
        return []
    fns = _functions(tree)
    setter = fns.get("set_config")
    if setter is None or "get_config" not in fns:
        return []
    params = {a.arg for a in [*setter.args.args, *setter.args.kwonlyargs]}
    root = module.split(".", 1)[0]
    out: list[ConfigOption] = []
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and "config" in stmt.targets[0].id.lower() and isinstance(stmt.value, ast.Dict)):
            continue
        holder = stmt.targets[0].id
        for k, v in zip(stmt.value.keys, stmt.value.values, strict=True):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)) or k.value not in params:
                continue
            env = _env_name(v)
            out.append(ConfigOption(
                name=k.value, kind="setting", default=text(v, 100), env_var=env,
                holder=f"{module}.{holder}", set_hint=f"{root}.set_config({k.value}=...)",
                path=path, line=k.lineno, adapter="settings:set_config", set_call=f"{root}.set_config",
                module=module,
            ))
    return out
