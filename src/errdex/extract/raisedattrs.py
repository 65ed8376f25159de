"""A class attribute each subclass of an exception sets, read through ``self`` where the base does not set it.

pyspnego 0.12.4's ``SpnegoError.message`` (a property its ``__init__`` hands ``Exception.__init__``) reads

```python
base_message = getattr(self, "_BASE_MESSAGE", "Unknown error code")
msg = "SpnegoError (%d): %s" % (error_code, base_message)
```

and each subclass only sets the class attribute (``class NoContextError(SpnegoError): ERROR_CODE = ...;
_BASE_MESSAGE = "No context has been established, or invalid handled passed in"``).  The base never sets it, so
``owntexts.own_text_param`` (a constant of the defining class) did not apply and ``base_message`` was unknown:
every raise of every subclass printed ``SpnegoError ({error_code}): {base_message}``.

``raised_attr`` reads, in a method of an exception class, ``getattr(self, "NAME", "default")`` and ``self.NAME``
of an attribute neither the class's body nor its ``__init__`` sets (nor a method or property of the class) as the
marker parameter of ``owntexts`` naming ``Cls.NAME``: phase 2 binds it to the raised class's own constant (its
override, else the nearest base's, ``owntexts.RaisedTexts``).  With ``getattr``'s literal default, a class that
sets none prints the default (``binding``'s ``DEFAULTED``: either, when the attribute is not known).
"""

from __future__ import annotations

import ast

from errdex.extract.ir import DEFAULTED, Alt, Hole, Lit, Node, Param, Ref
from errdex.extract.msgbase import Scope
from errdex.extract.owntexts import constant_of, own_text_key


def raised_attr(module: str, node: ast.expr, scope: Scope, shown: str, conversion: str | None = None,
                spec: str | None = None) -> Node | None:
    """``node`` as the raised class's attribute (see the module docstring), else None."""
    if not scope.in_exception or scope.class_qualname is None or scope.cls_alias:
        return None
    default: Node | None = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
            and len(node.args) == 3 and not node.keywords and _is_self(node.args[0]) \
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) \
            and isinstance(node.args[2], ast.Constant) and isinstance(node.args[2].value, str) \
            and conversion in (None, "s") and spec is None:
        attr, default = node.args[1].value, Lit(node.args[2].value)
    elif isinstance(node, ast.Attribute) and _is_self(node.value):
        attr = node.attr
    else:
        return None
    if not attr.isidentifier() or attr.startswith("__") or attr in scope.self_attrs or attr in scope.properties:
        return None
    dotted = f"{module}.{scope.class_qualname}.{attr}" if module else f"{scope.class_qualname}.{attr}"
    marker = Param(own_text_key(dotted), conversion, spec, shown=f"self.{attr}")
    if default is None:
        return marker
    return Ref(target=DEFAULTED, src=shown, callee=DEFAULTED, is_call=False, args=(marker, default))


def carries(ir: Node) -> bool:
    """A local's value that holds such an attribute (``base_message = getattr(self, ...)``, on one branch of
    several): interpolated, it is that value, not the local's placeholder."""
    if isinstance(ir, Alt):
        return any(carries(o) for o in ir.options) and all(isinstance(o, (Lit, Hole, Param, Ref)) for o in ir.options)
    if isinstance(ir, Ref):
        return ir.callee == DEFAULTED and bool(ir.args) and isinstance(ir.args[0], Param) \
            and constant_of(ir.args[0].name) is not None
    return isinstance(ir, Param) and constant_of(ir.name) is not None


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"
