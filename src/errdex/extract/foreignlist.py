"""A class of another package handed a one-item list of text: the item may print alone.

simplesqlite 1.5.4's ``_validator.py`` raises pathvalidate's class with its text in a list::

    from pathvalidate.error import ErrorReason, ValidationError
    ...
        if not name:
            raise ValidationError(["null name"], reason=ErrorReason.NULL_NAME)

and pathvalidate's ``__init__`` unpacks the list (``super().__init__(*args[0], **kwargs)``) while its
``__str__`` prints a header before it: ``[PV1001] the value must not be an empty string: null name``.  The
class is not in the indexed package, so neither its ``__init__`` nor its ``__str__`` is read: the builtin rule
gives the list's repr, ``['null name']`` (what a plain ``Exception(["null name"])`` prints, and what Django's
or marshmallow's ``ValidationError(["..."])`` print too).  ``item_alternative`` adds the item's own text as a
second reading of that argument, so the site's words are found inside the printed text (an exact match of a
short text inside a longer one: scored as a lead, not a confident answer), and the list's repr stays.

Only for a class the raise imported from another top-level package (not the module's own, not the standard
library's, not a builtin), a list or tuple display of exactly one item that is a string or an f-string.
"""

from __future__ import annotations

import ast
import sys

from errdex.extract.ir import Node, alt


def foreign_class(resolved: str | None, module: str) -> bool:
    """Whether ``resolved`` (the raised class's qualified name) is another package's class."""
    if resolved is None or "." not in resolved:
        return False
    head = resolved.split(".", 1)[0]
    return head != module.split(".", 1)[0] and head not in sys.stdlib_module_names and head != "builtins"


def one_text_item(node: ast.expr) -> ast.expr | None:
    """The one item of a list or tuple display when it is a string or an f-string, else None."""
    if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) == 1:
        item = node.elts[0]
        if isinstance(item, ast.JoinedStr) or (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            return item
    return None


def item_alternative(shown: Node, item: Node) -> Node:
    """The argument read as its display's repr or as its one item's text."""
    return alt([shown, item])
