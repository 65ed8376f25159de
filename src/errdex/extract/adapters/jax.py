"""JAX's configuration registry: ``no_execution = bool_state(name='jax_no_execution', default=False, help=...)``.

What this adapter states about an option was checked against
``jax/_src/config.py`` at jax-v0.10.2:

* ``bool_state``, ``enum_state``, ``optional_enum_state``, ``enum_class_state``,
  ``int_state``, ``float_state``, ``string_state`` (via
  ``string_or_object_state``), ``optional_string_state`` read their initial
  value from the environment variable ``name.upper()`` and register a
  ``Config`` property of the same name (so ``jax.config.jax_no_execution``
  reads it);
* ``Config.update(name, val)`` sets any registered option, and ``jax``
  re-exports the ``Config`` instance as ``jax.config``;
* the ``*_flag`` family (``bool_flag``, ...) registers an option that
  ``jax.config.update`` sets, with no environment variable of its own.

Older releases spelled these ``config.define_bool_state(...)``; those are
read the same way.  Only files of the ``jax``/``jaxlib`` packages (or files
that import ``jax._src.config``) are read.
"""

from __future__ import annotations

import ast
import re

from errdex.extract.adapters._common import arg, assignments, callee, text
from errdex.extract.imports import const_str
from errdex.model import ConfigOption

STATE_FUNCS = frozenset({
    "bool_state", "enum_state", "optional_enum_state", "enum_class_state", "int_state", "float_state",
    "string_state", "optional_string_state", "string_or_object_state",
    "define_bool_state", "define_enum_state", "define_int_state", "define_float_state", "define_string_state",
    "define_optional_enum_state", "define_optional_string_state", "define_string_or_object_state",
})
FLAG_FUNCS = frozenset({"bool_flag", "int_flag", "float_flag", "string_flag", "enum_flag"})
SET_CALL = "jax.config.update"
_MARKER = re.compile(r"_(?:state|flag)\s*\(")  # a call of any name in STATE_FUNCS or FLAG_FUNCS


def _applies(module: str, source: str) -> bool:
    root = module.split(".", 1)[0]
    return root in ("jax", "jaxlib") or "jax._src.config" in source or "jax._src import config" in source


def options(tree: ast.Module, path: str, module: str, source: str) -> list[ConfigOption]:
    if not _applies(module, source) or ("_state(" not in source and "_flag(" not in source):
        return []
    out: list[ConfigOption] = []
    for target, call, line in assignments(tree, source, _MARKER):
        fn = callee(call)
        is_state = fn in STATE_FUNCS
        is_flag = fn in FLAG_FUNCS and _config_call(call)
        if not (is_state or is_flag):
            continue
        name = const_str(arg(call, 0, "name"))
        if not name or not name.replace("_", "").isalnum():
            continue
        name = name.lower()
        default = text(arg(call, 1, "default"))
        help_text = const_str(arg(call, 2, "help")) or ""
        kind_hint = fn.removeprefix("define_").split("_", 1)[0]
        value = _example_value(fn, default)
        out.append(ConfigOption(
            name=name,
            kind="option",
            default=default,
            help=" ".join(help_text.split()),
            env_var=name.upper() if is_state else None,
            holder=f"{module}.{target}" if target else "",
            set_hint=f'jax.config.update("{name}", {value})',
            path=path,
            line=line,
            adapter=f"jax:{fn}" + (f":{kind_hint}" if kind_hint == "bool" and "bool" not in fn else ""),
            set_call=SET_CALL,
            read_attr=f"jax.config.{name}" if is_state else "",
            module=module,
        ))
    return out


def _config_call(call: ast.Call) -> bool:
    """``bool_flag(...)`` inside jax's config module, or ``config.bool_flag(...)`` elsewhere."""
    f = call.func
    return isinstance(f, ast.Name) or (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                                       and f.value.id == "config")


def _example_value(fn: str, default: str | None) -> str:
    """The value a set hint shows: the opposite of a boolean default, else the default itself."""
    if "bool" in fn:
        return "False" if default == "True" else "True" if default == "False" else "False"
    if default and len(default) <= 40 and "(" not in default:
        return default
    return "..."
