"""absl flags: ``flags.DEFINE_bool("name", default, "help")`` and friends.

An absl flag is set on the command line (``--name=value``) of a program that
parses flags with ``absl.app``; its value is read as ``FLAGS.name`` or through
the ``FlagHolder`` that ``DEFINE_*`` returns (``_NAME.value``).
"""

from __future__ import annotations

import ast
import re

from errdex.extract.adapters._common import arg, assignments, callee, text
from errdex.extract.imports import const_str
from errdex.model import ConfigOption

DEFINERS = frozenset({
    "DEFINE_bool", "DEFINE_boolean", "DEFINE_integer", "DEFINE_float", "DEFINE_string", "DEFINE_enum",
    "DEFINE_list", "DEFINE_multi_string", "DEFINE_multi_integer", "DEFINE_enum_class", "DEFINE_spaceseplist",
})
_MARKER = re.compile(r"DEFINE_")  # a call of any name in DEFINERS


def options(tree: ast.Module, path: str, module: str, source: str) -> list[ConfigOption]:
    if "absl" not in source or "DEFINE_" not in source:
        return []
    out: list[ConfigOption] = []
    for target, call, line in assignments(tree, source, _MARKER):
        fn = callee(call)
        if fn not in DEFINERS or not _absl_call(call):
            continue
        name = const_str(arg(call, 0, "name"))
        if not name:
            continue
        default = text(arg(call, 1, "default"))
        help_pos = 3 if fn in ("DEFINE_enum", "DEFINE_enum_class") else 2
        help_text = const_str(arg(call, help_pos, "help")) or ""
        out.append(ConfigOption(
            name=name, kind="flag", default=default, help=" ".join(help_text.split()),
            holder=f"{module}.{target}" if target else "",
            set_hint=f"--{name}=<value> on the command line (absl flags)",
            path=path, line=line, adapter=f"absl:{fn}", module=module,
        ))
    return out


def _absl_call(call: ast.Call) -> bool:
    f = call.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("flags", "absl_flags")
