"""``sep.join(<element> for x in xs)``: a text joined from parts a comprehension generates.

python-jsonschema-objects 0.5.7's ``TypeProxy.__call__`` (issue 17's forty-fourth round)::

    raise validators.ValidationError(
        "Unable to instantiate any valid types: \\n"
        "".join("{0}: {1}\\n".format(k, e) for k, e in validation_errors)
    )

(the two literals are one by implicit concatenation: the heading is the *separator*). The join was one
placeholder, and every message it printed (``<class ...>: 2.4 is not a string\\nUnable to instantiate any
valid types: \\n<class ...>: ...``) matched other sites. The items a comprehension yields all have the
element's text, so the join is that element once, or twice with the separator between (the last
element's placeholders take any further items, as a placeholder takes any text): a bounded repetition,
like ``lines.extend(f(x) for x in xs)`` (``msgjoin._items_of``). No items (an empty text) says nothing, except over an exception's own
parameter (``over_own_param``): a raise leaving ``reasons=[]`` out prints the empty join.

Only when the element is read without guessing: every loop variable is a plain name (or a tuple of
names), read inside the element as a value of unknown text (a local or a parameter of the same name
outside is shadowed, as Python does; a name the module defines or imports is left alone: the readers
of attributes resolve those first), and the element has literal text of its own (``str(e) for e in errors``
is text of unknown form: the join stays one placeholder).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract import env as envmod
from errdex.extract.ir import Alt, Cat, Dedent, Lit, Node


def comprehension_element(node: ast.expr, bound: Callable[[str], bool]) -> tuple[ast.expr, list[str]] | None:
    """The element expression of ``(elt for ... in ...)`` / ``[elt for ... in ...]`` and its loop variables,
    when those are plain names none of which ``bound`` says names a module-level thing; else None."""
    if not isinstance(node, (ast.GeneratorExp, ast.ListComp)):
        return None
    names: list[str] = []
    for gen in node.generators:
        found = _target_names(gen.target)
        if gen.is_async or found is None or any(bound(n) for n in found):
            return None
        names.extend(found)
    return node.elt, names


def over_own_param(node: ast.expr, params: frozenset[str], env: envmod.Env | None, in_exception: bool) -> bool:
    """``sep.join(f"({r.message})" for r in reasons)`` in an exception's method, over one of its parameters
    (never rebound): the caller may pass no items (frictionless's ``FrictionlessException(error, *,
    reasons=[])``, left at its default by most raises), and the join is then empty text."""
    if not (in_exception and isinstance(node, (ast.GeneratorExp, ast.ListComp)) and len(node.generators) == 1):
        return False
    it = node.generators[0].iter
    return isinstance(it, ast.Name) and it.id in params and envmod.lookup(env, it.id) is None


def shadowed(env: envmod.Env | None, names: list[str]) -> envmod.Env | None:
    """The bindings inside the comprehension: each loop variable holds a value the walk does not model
    (as a ``for`` loop's target), whatever a local or a parameter of that name held outside."""
    for n in names:
        env = envmod.bind(env, n, envmod.Binding())
    return env


def _target_names(target: ast.expr) -> list[str] | None:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        out: list[str] = []
        for e in target.elts:
            inner = _target_names(e)
            if inner is None:
                return None
            out.extend(inner)
        return out
    return None


def has_literal(node: Node) -> bool:
    """Whether the text has literal characters of its own (in every option of an ``Alt``)."""
    if isinstance(node, Lit):
        return bool(node.text)
    if isinstance(node, Cat):
        return any(has_literal(p) for p in node.parts)
    if isinstance(node, Alt):
        return bool(node.options) and all(has_literal(o) for o in node.options)
    if isinstance(node, Dedent):
        return has_literal(node.inner)
    return False


def repeated_items(element: Node) -> list[tuple[Node, ...]]:
    """The item tuples of a join over generated parts: the element once, or twice (the second standing
    for it and any after)."""
    return [(element,), (element, element)]
