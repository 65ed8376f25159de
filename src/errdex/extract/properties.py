"""An exception class's own ``@property`` read in the methods that build its text.

``return f"{self.message}\\n -> {self.token.path!r} ..."`` in python-jsonpath's ``JSONPathError``
(whose ``message`` property returns ``self.args[0]``): the read is a call of that method, so phase 2
puts the raise's first argument there, as it does for ``self._message()`` (``messages.py``)."""

from __future__ import annotations

import ast

from errdex.extract.msgbase import Builder, Scope

_DECORATORS = frozenset({"property", "cached_property"})


def properties_of(node: ast.ClassDef) -> frozenset[str]:
    """The names of the methods of ``node``'s own body decorated ``@property`` / ``@cached_property``
    (``@functools.cached_property`` too); a setter's ``@message.setter`` is not one."""
    out: set[str] = set()
    for fn in node.body:
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                (isinstance(d, ast.Name) and d.id in _DECORATORS)
                or (isinstance(d, ast.Attribute) and d.attr in _DECORATORS) for d in fn.decorator_list):
            out.add(fn.name)
    return frozenset(out)


def property_attrs(node: ast.ClassDef) -> dict[str, str]:
    """``{property: attribute}`` for each property of ``node``'s own body that only returns an attribute of
    the instance (``@property def reason(self): return self.__reason``): reading it is reading that attribute,
    whatever ``__init__`` (walked later, when the properties come first) keeps there."""
    props = properties_of(node)
    out: dict[str, str] = {}
    for fn in node.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name in props):
            continue
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) == 1 and isinstance(r := body[0], ast.Return) and isinstance(v := r.value, ast.Attribute) \
                and isinstance(v.value, ast.Name) and v.value.id == "self" and v.attr != fn.name:
            out[fn.name] = v.attr
    return out


def property_read(builder: Builder, node: ast.expr, scope: Scope) -> ast.Call | None:
    """``self.<a property of the class>`` read in an exception's method, and not an attribute its
    ``__init__`` sets: the same read written as a call of the method (``self.message()``), else None."""
    if not (scope.in_exception and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "self" and node.attr in scope.properties and node.attr not in scope.self_attrs):
        return None
    if builder.callee(f"self.{node.attr}", scope) is None:
        return None
    return ast.copy_location(ast.Call(func=node, args=[], keywords=[]), node)


def returned_text(value: ast.expr, qual: tuple[str, ...], properties: frozenset[str]) -> bool:
    """A ``return`` in one of an exception class's properties that is text of the instance: what it
    holds (``return self.args[0]``, ``return self._msg``), a text built from it (xmlschema's
    ``f"{self._message} {self.validator!r}."``) or what another of its methods makes (``self.__str__()``);
    its ``__str__`` may print it.  Not ``None``, nor a call of a function (mashumaro's ``return
    type_name(self.field_type, short=True)``): that function's own returns (``"None"``) are not what it
    prints for the instance."""
    if not (qual and qual[-1] in properties):
        return False
    if isinstance(value, ast.Constant):
        return value.value is not None
    root = value
    while isinstance(root, ast.Subscript | ast.Attribute | ast.Call):  # `self.__str__()`: the same instance's
        root = root.func if isinstance(root, ast.Call) else root.value
    return not isinstance(value, ast.Call) or (isinstance(root, ast.Name) and root.id == "self")
