"""A class each subclass names in a class attribute, picked through the instance (or the class) and called.

frictionless 5.21.0's ``Metadata`` declares ``metadata_Error: ClassVar[Optional[Type[Error]]] = None``, each of its
seventeen subclasses names its error class (``Package.metadata_Error = errors.PackageError``, ``Schema``'s
``errors.SchemaError``...), and the base's classmethods raise

```python
Error = cls.metadata_Error or platform.frictionless_errors.MetadataError
...
raise FrictionlessException(Error(note=note)) from exception
```

The text is the picked class's (``[package-error] The data package has an error: ...``), but ``Error`` was a
value of unknown kind and the site printed ``[{self.error.type}] {self.error.message}``.

- phase 1 records, per class, each class-body assignment of a dotted name that reads as a class
  (``metadata_Error = errors.SchemaError``) as the constant ``Cls.<holds>attr``, the class as resolved
  (``held_constants``);
- ``cls.attr`` / ``self.attr`` (or ``Local.attr``, a class the method picked: ``Class =
  cls.metadata_select_class(...)``) read where a class is expected, in a method of a class, is a ``Ref`` with
  ``callee == HOLDS`` (``holds_ref``), a class this code names in phase 2;
- phase 2 (``held_family``) reads the class the method's class (or its nearest base) names and each its
  subclasses name, and the site's raise is read once per class (``with_held``), the ``or`` default too.
  An attribute no class of the family names a class stays the value it was.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from errdex.extract.imports import class_like, dotted_source
from errdex.extract.ir import Alt, Lit, Node, Ref, alt, reaches, with_parts

if TYPE_CHECKING:
    from errdex.extract.tables import Tables

HOLDS = "<holds>"  # ``Ref.callee`` of a class attribute naming a class, and the infix of its key among constants
MAX_HELD = 24  # more classes than this over a family: left as it was (a site keeps its first texts)
_RECEIVERS = ("cls", "self")


def held_constants(node: ast.ClassDef, qual: str, resolve: Callable[[str], str | None]) -> dict[str, Node]:
    """``Cls.<holds>attr`` → the class (as resolved) that the class body's ``attr = pkg.SomeError`` names."""
    out: dict[str, Node] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        written = dotted_source(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
        if isinstance(target, ast.Name) and written is not None and class_like(written) \
                and not class_like(target.id) and written.rsplit(".", 1)[-1] not in ("None", "NotImplemented"):
            out[f"{qual}.{HOLDS}{target.id}"] = Lit(resolve(written) or written)
    return out


def holds_ref(node: ast.expr, module: str, class_qualname: str | None, receivers: frozenset[str], src: str) -> Ref | None:
    """``cls.attr`` / ``self.attr`` / ``Local.attr`` (``receivers``: the method's locals that may hold a class it
    picked) in a method of a class, ``attr`` no class name: a class the family names there, for phase 2."""
    if class_qualname is None or not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Name) \
            or class_like(node.attr) or node.attr.startswith("__") \
            or not (node.value.id in _RECEIVERS or node.value.id in receivers):
        return None
    owner = f"{module}.{class_qualname}" if module else class_qualname
    return Ref(target=f"{owner}.{HOLDS}{node.attr}", src=src, callee=HOLDS, is_call=False)


def held_family(t: Tables, target: str) -> list[str]:
    """The classes ``cls.attr`` may name in a method of ``owner``: the one the class or its nearest base names,
    then each subclass's own; [] when none does, or too many."""
    owner, _, attr = target.partition(f".{HOLDS}")
    if not attr or owner not in t.classes:
        return []

    def own(cls: str) -> Node | None:
        return t.constants.get(f"{cls}.{HOLDS}{attr}")

    found = [t.nearest(owner, own), *(own(s) for s in t.subclasses(owner))]
    names = list(dict.fromkeys(t.canonical(n.text) for n in found if isinstance(n, Lit)))
    return names if len(names) <= MAX_HELD else []


def with_held(t: Tables, node: Node, depth: int = 0) -> Node:
    """``node`` with each call of a held class (``HOLDS``) read as an ``Alt`` of calls of the classes the family
    names (``held_family``); a held class no class names stays the placeholder it was written as."""
    if depth > 16:
        return node
    if isinstance(node, Ref) and node.callee == HOLDS:
        classes = held_family(t, node.target)
        if not classes:  # a class this code cannot name, held in the local the call wrote (`Error(note=...)`)
            local = node.src.split("(", 1)[0].strip()
            return dataclasses.replace(node, target=local, callee=local, param=local)
        called = with_parts(node, lambda p: with_held(t, p, depth + 1))
        return alt([dataclasses.replace(called, target=c, callee=c.rpartition(".")[2]) for c in classes])
    out = with_parts(node, lambda p: with_held(t, p, depth + 1))
    return alt(list(out.options)) if isinstance(out, Alt) else out


def holds_any(node: Node) -> bool:
    """Whether ``node`` holds a call of a held class (cheap test before ``with_held``)."""
    return reaches(node, lambda n: isinstance(n, Ref) and n.callee == HOLDS, limit=16)
