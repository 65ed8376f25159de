"""Module names and import tables: how a name in one file maps to a dotted name.

Parse, never import (STYLE.md item 3): ``errors.ConcretizationTypeError`` in
``jax/_src/interpreters/pxla.py`` resolves to
``jax._src.errors.ConcretizationTypeError`` by reading that file's imports,
with relative imports resolved against the module's own dotted name.
"""

from __future__ import annotations

import ast
import builtins

BUILTIN_NAMES = frozenset(dir(builtins))
BUILTIN_EXCEPTIONS = frozenset(
    n for n in BUILTIN_NAMES if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), BaseException)
)

# the standard library's exception classes named in lower case, C modules' old style (``raise socket.timeout()``,
# ``raise select.error(...)``): classes all the same, though no capital says so
STDLIB_LOWER_CLASSES = frozenset({
    "socket.error", "socket.timeout", "socket.herror", "socket.gaierror", "select.error", "os.error",
    "struct.error", "zlib.error", "re.error", "sre_constants.error", "getopt.error",
    "termios.error", "resource.error", "curses.error", "mmap.error", "pyexpat.error", "xml.parsers.expat.error",
})


def class_like(dotted: str) -> bool:
    """Whether a dotted name reads as a class (``errors.TracerError``, ``ValueError``), by the naming
    convention the static walk has to go on: its last part capitalised, or a builtin exception, or one
    of the standard library's lower-case classes (``STDLIB_LOWER_CLASSES``)."""
    last = dotted.rsplit(".", 1)[-1]
    return last[:1].isupper() or last in BUILTIN_EXCEPTIONS or dotted in STDLIB_LOWER_CLASSES


def module_name(path: str) -> str:
    """``jax/_src/errors.py`` → ``jax._src.errors``; a package's ``__init__.py`` → the package."""
    p = path[:-3] if path.endswith(".py") else path
    parts = [x for x in p.split("/") if x]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: str) -> bool:
    return path.endswith("__init__.py")


def resolve_relative(module: str, package: bool, level: int, target: str | None) -> str:
    """The absolute module named by ``from <level dots><target> import ...`` in ``module``."""
    if level == 0:
        return target or ""
    base = module.split(".") if module else []
    # In a plain module one dot means "my package"; in a package's __init__ it means "me".
    drop = level - 1 if package else level
    if drop:
        base = base[:-drop] if drop <= len(base) else []
    if target:
        base = [*base, *target.split(".")]
    return ".".join(base)


STAR = "*"  # the key prefix under which a module's imports keep its star imports' source modules


def star_source(node: ast.Import | ast.ImportFrom, module: str, package: bool) -> str | None:
    """The module a ``from M import *`` of the same top-level package reads (else None)."""
    if not isinstance(node, ast.ImportFrom) or not any(a.name == "*" for a in node.names):
        return None
    src = resolve_relative(module, package, node.level, node.module)
    top = module.split(".", 1)[0]
    return src if src and top and src.split(".", 1)[0] == top else None


def import_bindings(node: ast.Import | ast.ImportFrom, module: str, package: bool) -> list[tuple[str, str]]:
    """The (local name, dotted target) pairs an import statement binds."""
    out: list[tuple[str, str]] = []
    if isinstance(node, ast.Import):
        for a in node.names:
            if a.asname:
                out.append((a.asname, a.name))
            else:
                head = a.name.split(".", 1)[0]
                out.append((head, head))
        return out
    src = resolve_relative(module, package, node.level, node.module)
    for a in node.names:
        if a.name == "*":
            continue
        out.append((a.asname or a.name, f"{src}.{a.name}" if src else a.name))
    return out


def dotted_source(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def const_str(node: ast.expr | None) -> str | None:
    """A string constant, an implicit or ``+`` concatenation of them, or ``(...)`` around one."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = const_str(node.left), const_str(node.right)
        return a + b if a is not None and b is not None else None
    return None


def resolve_dotted(written: str, table: dict[str, str], module: str, local_defs: frozenset[str]) -> str:
    """Resolve ``written`` (``errors.X``) through the import table.

    A head bound by an import maps through it; a name defined at module top
    level maps to ``module.name``; builtins stay bare; anything else is
    returned as written (it could be a local variable or an attribute).
    """
    head, _, rest = written.partition(".")
    if head in table:
        target = table[head]
        return f"{target}.{rest}" if rest else target
    if head in local_defs:
        return f"{module}.{written}" if module else written
    return written
