"""Keywords an ``__init__`` reads out of its ``**kwargs`` by name, and entries it sets there itself.

pathvalidate 3.3.1's ``ValidationError.__init__(self, *args, **kwargs)`` keeps
``self.__reason = kwargs.pop(ErrorAttrKey.REASON)`` (``ErrorAttrKey.REASON: Final = "reason"``, a class
constant) and its ``__str__`` prints ``str(self.reason)``; a raise passes ``reason=ErrorReason.NULL_NAME``.
The popped entry is a keyword-only parameter of its own (``reason``), bound at the raise like any other.
A subclass's ``kwargs[ErrorAttrKey.REASON] = ErrorReason.INVALID_CHARACTER`` before
``super().__init__(args, **kwargs)`` passes that keyword on (with whatever the raise gave in ``**kwargs``).
A key is a string literal, or a module or class constant of this module holding one (issue 17's thirtieth
round).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from errdex.extract.imports import const_str, dotted_source
from errdex.extract.ir import Node, literal_text

_READS = frozenset({"pop", "get"})
# a keyword named by a constant of another module (``**err_kwargs`` of ``{ErrorAttrKey.REASON: ...}``): the
# constant's dotted name after this mark, its text read in phase 2 (``named_keys``)
KEY_REF = "<key>"


def key_ref(target: str) -> str:
    return KEY_REF + target


def named_keys(kwargs: Mapping[str, Node], constant: Callable[[str], Node | None]) -> dict[str, Node]:
    """``kwargs`` with each key named by a constant (``key_ref``) replaced by the constant's text; one whose
    text is not known is left out (it names no parameter)."""
    if not any(k.startswith(KEY_REF) for k in kwargs):
        return dict(kwargs)
    out: dict[str, Node] = {}
    for k, v in kwargs.items():
        if k.startswith(KEY_REF):
            held = constant(k[len(KEY_REF):])
            text = literal_text(held) if held is not None else None
            if text is None or not text.isidentifier():
                continue
            k = text
        out[k] = v
    return out


def key_text(node: ast.expr, module_env: Mapping[str, ast.expr], class_constants: Mapping[str, ast.expr]) -> str | None:
    """A dict key's text: a string literal, or a name (``KEY``, ``Keys.REASON``) bound in this module to one."""
    if (text := const_str(node)) is not None:
        return text
    d = dotted_source(node)
    if d is None:
        return None
    held = module_env.get(d) if "." not in d else class_constants.get(d)
    return const_str(held)


def popped_key(node: ast.expr, varkw: str | None, module_env: Mapping[str, ast.expr],
               class_constants: Mapping[str, ast.expr]) -> str | None:
    """``kwargs.pop(K)`` / ``kwargs.pop(K, default)`` / ``kwargs.get(K)`` / ``kwargs[K]`` of the function's own
    ``**kwargs``: ``K``'s text (the keyword a caller passes), else None."""
    if not varkw:
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _READS \
            and isinstance(node.func.value, ast.Name) and node.func.value.id == varkw \
            and 1 <= len(node.args) <= 2 and not node.keywords:
        key = node.args[0]
    elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == varkw:
        key = node.slice
    else:
        return None
    text = key_text(key, module_env, class_constants)
    return text if text is not None and text.isidentifier() else None


def set_key(target: ast.expr, varkw: str | None, module_env: Mapping[str, ast.expr],
            class_constants: Mapping[str, ast.expr]) -> str | None:
    """``kwargs[K] = ...`` on the function's own ``**kwargs``: ``K``'s text, else None."""
    if not (varkw and isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
            and target.value.id == varkw):
        return None
    text = key_text(target.slice, module_env, class_constants)
    return text if text is not None and text.isidentifier() else None
