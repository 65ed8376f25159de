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
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFS = (*_FUNCTIONS, ast.ClassDef)
_Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef  # a body definitions bind names in


class Registered:
    """The keys of a module's functions, for a walker that asks for each function holding a site: each body on
    the way to one (the module's, a class's) is read once for the names its definitions bind, each function's
    decorators once."""

    def __init__(self, tree: ast.Module) -> None:
        self._tree = tree
        self._bound: dict[tuple[str, ...], dict[str, _Scope]] = {}  # a path -> what its body's definitions bind
        self._keys: dict[tuple[str, ...], tuple[str, ...]] = {}

    def keys(self, qual: tuple[str, ...]) -> tuple[str, ...]:
        """The string literals (short, without blanks) among the arguments of the decorator calls of the
        function ``qual`` names (its classes' and functions' names from the module down); none when it has no
        decorator call or is not found."""
        if (keys := self._keys.get(qual)) is not None:
            return keys
        keys = ()
        node: _Scope = self._tree
        for i, name in enumerate(qual):
            if (found := self._names(qual[:i], node).get(name)) is None:
                break
            node = found
        else:
            if isinstance(node, _FUNCTIONS):
                keys = decorator_keys(node)
        self._keys[qual] = keys
        return keys

    def _names(self, path: tuple[str, ...], node: _Scope) -> dict[str, _Scope]:
        """The definitions ``node``'s body binds by name, the last of a name being the one bound."""
        if (names := self._bound.get(path)) is None:
            names = self._bound[path] = {n.name: n for n in node.body if isinstance(n, _DEFS)}
        return names


def registered_keys(tree: ast.Module, qual: tuple[str, ...]) -> tuple[str, ...]:
    """``Registered.keys`` of one function (a caller with many to look up keeps the ``Registered``)."""
    return Registered(tree).keys(qual)


def decorator_keys(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The string literals (short, without blanks) among the arguments of ``node``'s decorator calls."""
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
