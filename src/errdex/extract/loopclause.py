"""A local holding one of a few clauses, one of them written in a loop from the loop's target.

``message_clause_prefix = ''``, then ``for obj_item_index, obj_item in enumerate(obj_items): if not
checkable(obj_item): message_clause_prefix = f'{obj_item_prefix}{obj_item_index} child type hint
{repr(obj_item)} '; break`` and ``f'... as {message_clause_prefix}metaclass ...'`` (beartype 0.23.1's
``_die_unless_object_builtin_checkable``): the clause names the item the loop stopped at. A local of text
alternatives is spelled out only when every one is literal (``msgvalue._enumerated``); one built from
another value stays a placeholder (a value's decoration, pint's ``dim1 = f" ({self.dim1})"`` / ``dim1 = ""``,
crowded the raise's own variants out of the cap). A clause built from a loop's target is the text of the item
found: its alternatives are kept, the target's value a placeholder in the text.

Only when every alternative is assigned a string literal or an f-string (not ``+=``, not a grown list), at
least one f-string reads a name bound as a ``for`` loop's target (its value unknown: a loop over a display
binds the items, ``loopitems``), there are at most ``MAX_CLAUSES`` of them, and each reads as literal text
with plain placeholders (literal alternatives inside, no unresolved text).
"""

from __future__ import annotations

import ast

from errdex.extract import env as envmod
from errdex.extract.ir import Alt, Cat, Hole, Lit, Node, Param

MAX_CLAUSES = 4


def loop_clauses(b: envmod.Binding, ir: Node) -> Node | None:
    """``ir`` (the IR of the local ``b``) when it is such a set of clauses, else None."""
    if not isinstance(ir, Alt) or len(ir.options) > MAX_CLAUSES:
        return None
    leaves = _leaves(b)
    if leaves is None or not all(_assigned_text(o) for o in leaves) or not any(_reads_loop_target(o) for o in leaves):
        return None
    return ir if all(_plain(o) for o in ir.options) else None


def _leaves(b: envmod.Binding) -> list[envmod.Binding] | None:
    """The bindings a merged one holds (through nested joins); None when a branch left the name unbound."""
    out: list[envmod.Binding] = []
    stack: list[envmod.Binding | None] = [b]
    while stack:
        cur = stack.pop()
        if cur is None or len(out) > 2 * MAX_CLAUSES:
            return None
        if cur.options:
            stack.extend(cur.options)
        else:
            out.append(cur)
    return out


def _assigned_text(b: envmod.Binding) -> bool:
    v = b.value
    return b.prev is None and not b.grow and (
        isinstance(v, ast.JoinedStr) or (isinstance(v, ast.Constant) and isinstance(v.value, str)))


def _reads_loop_target(b: envmod.Binding) -> bool:
    if not isinstance(b.value, ast.JoinedStr):
        return False
    for part in b.value.values:
        if isinstance(part, ast.FormattedValue):
            for n in ast.walk(part.value):
                if isinstance(n, ast.Name) and (t := envmod.lookup(b.env, n.id)) is not None and t.loop_target:
                    return True
    return False


def _plain(ir: Node) -> bool:
    if isinstance(ir, Cat):
        return all(_plain_part(p) for p in ir.parts)
    return _plain_part(ir)


def _plain_part(ir: Node) -> bool:
    if isinstance(ir, Alt):
        return all(isinstance(o, Lit) for o in ir.options)
    return isinstance(ir, (Lit, Param)) or (isinstance(ir, Hole) and not ir.unresolved)
