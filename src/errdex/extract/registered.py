"""The keys a function is registered under by its decorators (``@method(axis('ancestor-or-self'))``).

A table-driven parser or dispatcher registers its handlers with a decorator call that names what each one
handles: elementpath 5.1.4's Pratt parsers write

    @method(axis('ancestor', reverse_axis=True))
    @method(axis('ancestor-or-self', reverse_axis=True))
    def select__ancestor_axes(self: XPathAxis, context=None):
        if context is None:
            raise self.missing_context()

and the error's text shows the token it was raised for (``'ancestor-or-self' axis at line 1, column 1:
[err:XPDY0002] Dynamic context required for evaluate``).  Eighty-two handlers raise that same text, so the
text alone is a tie of eighty-two; the key the value shows is the decorator's.  A site keeps the short
string literals of its function's decorator calls (``registered``); ``match/registered.py`` narrows a tied
group to the sites registered under the key a value quotes.  Only words without blanks, of at most
``MAX_KEY`` characters, are keys (a ``@deprecated("use x instead")`` text is none).
"""

from __future__ import annotations

import ast

MAX_KEY = 40  # characters a registration key may have


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def registered_table(tree: ast.Module) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The string literals (short, without blanks) among the arguments of the decorator calls of each function
    of the module that has some, by the names that lead to it (its classes' and functions' names from the
    module down), in one pass over the module's definitions.  Of two definitions of one name in one body the
    last is the one bound, and only its body is read."""
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    todo: list[tuple[tuple[str, ...], list[ast.stmt]]] = [((), tree.body)]
    while todo:
        path, body = todo.pop()
        bound = {n.name: n for n in body if isinstance(n, _DEFS)}  # the last definition wins
        for name, node in bound.items():
            qual = (*path, name)
            if not isinstance(node, ast.ClassDef) and (keys := _decorator_keys(node)):
                out[qual] = keys
            todo.append((qual, node.body))
    return out


def registered_keys(tree: ast.Module, qual: tuple[str, ...]) -> tuple[str, ...]:
    """The keys ``registered_table`` gives the function ``qual`` names; none when it has no decorator call or
    is not found (a caller with many functions to look up keeps the table: this builds it anew)."""
    return registered_table(tree).get(qual, ())


def _decorator_keys(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    keys: dict[str, None] = {}
    for deco in node.decorator_list:
        for sub in ast.walk(deco):
            if isinstance(sub, ast.Call):
                for arg in sub.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and _key(arg.value):
                        keys[arg.value] = None
    return tuple(keys)


def _key(text: str) -> bool:
    return 0 < len(text) <= MAX_KEY and not any(c.isspace() for c in text)
