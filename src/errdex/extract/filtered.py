"""``sep.join(filter(None, [a, b, c]))``: a list literal whose empty or ``None`` items are left out.

parglare 0.22.0's ``ParglareError.__init__`` builds every error's text so::

    context = get_context(input, location, context_message) if context_message else None
    hint = _(f"  hint: {hint}") if hint else None
    self.full_message = "\\n".join(filter(None, [f"{error_type}: {message}", context, hint]))

The join was one placeholder (``{"\\n".join(filter(None, [...]))}``), and 28 of its events matched nothing
from the message alone.  An item that may be empty (a choice with an empty or ``None`` branch, a value
held by a name) is there or not; an item with text of its own is always there.  The combinations keep
the items' order (``msgjoin._list_items`` caps them).
"""

from __future__ import annotations

import ast
import itertools

from errdex.extract.ir import Alt, Cat, Lit, Node, alt

MAX_OPTIONAL = 4  # items that may be left out, at most (2**4 combinations before the cap)


def filter_none_items(node: ast.expr) -> list[ast.expr] | None:
    """The items of ``filter(None, [..])`` / ``filter(bool, (..))`` over a list or tuple literal."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "filter"
            and len(node.args) == 2 and not node.keywords):
        return None
    how, seq = node.args
    if not ((isinstance(how, ast.Constant) and how.value is None) or (isinstance(how, ast.Name) and how.id == "bool")):
        return None
    if not isinstance(seq, ast.List | ast.Tuple) or any(isinstance(e, ast.Starred) for e in seq.elts):
        return None
    return list(seq.elts)


def kept_combinations(items: list[Node]) -> list[tuple[Node, ...]] | None:
    """Each order-keeping choice of the items that may be absent (an item known empty is always absent);
    ``None`` when too many may be."""
    choices: list[list[Node | None]] = []
    for item in items:
        present = _nonempty(item)
        if present is None:
            choices.append([None])
        elif _always(item):
            choices.append([present])
        else:
            choices.append([present, None])
    if sum(len(c) > 1 for c in choices) > MAX_OPTIONAL:
        return None
    return [tuple(i for i in combo if i is not None) for combo in itertools.product(*choices)]


def _nonempty(item: Node) -> Node | None:
    """The item's text with its empty branches removed; ``None`` when it is always empty."""
    if isinstance(item, Lit):
        return item if item.text else None
    if isinstance(item, Alt):
        kept = [o for o in item.options if not (isinstance(o, Lit) and not o.text)]
        return alt(kept) if kept else None
    return item


def _always(item: Node) -> bool:
    """Text that is never empty: a literal, or a concatenation holding one (an f-string with words)."""
    if isinstance(item, Lit):
        return bool(item.text)
    if isinstance(item, Cat):
        return any(isinstance(p, Lit) and p.text for p in item.parts)
    if isinstance(item, Alt):
        return all(_always(o) for o in item.options)
    return False
