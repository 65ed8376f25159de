"""``str()`` of an ``Enum`` member whose class builds its text: through its ``__init__`` and ``__str__``.

pathvalidate 3.3.1's ``ErrorReason(enum.Enum)`` has members ``NULL_NAME = (_to_error_code(1001),
"NULL_NAME", "the value must not be an empty string")``, an ``__init__(self, code, name, description)``
(Python calls it with the member's tuple value spread out) and ``__str__`` returning
``f"[{self.__code}] {self.__description}"``; ``ValidationError.__str__`` prints ``str(self.reason)``.
Phase 1 records each member of an enum class that defines ``__init__`` as the constant ``Cls.MEMBER``: a
reference (``ENUM_MEMBER``) to the class with the value's items as arguments.  Phase 2 reads it as the text
the class's ``__str__`` makes of those arguments, when the class (or a package base) has one; else as the
member's name as written (issue 17's thirtieth round).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract.imports import dotted_source
from errdex.extract.ir import Node, Ref

ENUM_MEMBER = "<enum member>"  # ``Ref.callee`` of an enum member: ``target`` the class, ``args`` its value's items
_ENUMS = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "enum.ReprEnum"})


def members(node: ast.ClassDef, qual: str, module: str, bases: list[str],
            arg: Callable[[ast.expr], Node]) -> dict[str, Node]:
    """``Cls.MEMBER`` -> ``Ref(Cls, callee=ENUM_MEMBER, args=<the value's items>)`` for each member of an enum
    class (a base of ``enum``) whose own body defines ``__init__``; nothing for other classes."""
    if not any(b in _ENUMS for b in bases) or not any(
            isinstance(f, ast.FunctionDef) and f.name == "__init__" for f in node.body):
        return {}
    out: dict[str, Node] = {}
    for stmt in node.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(t := stmt.targets[0], ast.Name)
                and not t.id.startswith("_")):
            continue
        value = stmt.value
        if isinstance(value, ast.Lambda) or (isinstance(value, ast.Call) and (dotted_source(value.func) or "").rsplit(
                ".", 1)[-1] == "auto"):
            continue  # a method made by a lambda, `auto()`: no value items known
        items = value.elts if isinstance(value, ast.Tuple) else [value]
        if any(isinstance(e, ast.Starred) for e in items):
            continue
        out[f"{qual}.{t.id}"] = Ref(target=f"{module}.{qual}" if module else qual, src=f"{qual}.{t.id}",
                                    callee=ENUM_MEMBER, args=tuple(arg(e) for e in items), is_call=False)
    return out
