"""An ``__init__`` that takes the first of its surplus arguments into its text and passes on the rest.

udsoncan 1.26.1's ``InvalidResponseException.__init__(self, response, *args, **kwargs)``::

    msg = self.make_msg(response)
    if len(args) > 0:
        msg += " " + str(args[0])
        args = tuple(list(args)[1:])
    super().__init__(msg, *args, **kwargs)

``raise InvalidResponseException(response, "Response data must be at least 2 bytes")`` prints the class's
text, a space and the literal; ``super().__init__`` gets no surplus argument.  Phase 1 reads the rebinding
``args = args[n:]`` (``tuple(...)`` / ``list(...)`` of it, ``tuple(list(args)[n:])``, ``first, *args =
args``) as the pack shifted by ``n`` (``InitSummary.vararg_skip``) and ``args[k]`` in what the base gets as
the parameter ``args[k]``; phase 2 binds each to the raise's surplus arguments, passes on those after the
first ``n``, and keeps of an ``Alt`` the texts the raise can print: none reading an item it does not pass,
and, of the others, those reading the most items it passes (the ``if len(args) > 0:`` branch).
"""

from __future__ import annotations

import ast
import dataclasses
import re

from errdex.extract.calltexts import passed_on
from errdex.extract.factories import PACK
from errdex.extract.ir import Alt, Cat, Dedent, Hole, Node, Param, Ref, alt
from errdex.extract.poppedopts import is_pack
from errdex.extract.summary import InitSummary

_ITEM = re.compile(r"(\w+)\[(\d)\]")


def _converted(e: ast.expr) -> ast.expr:
    """``e`` without one ``tuple(...)`` / ``list(...)`` around it."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("tuple", "list") \
            and len(e.args) == 1 and not e.keywords:
        return e.args[0]
    return e


def _shift(value: ast.expr, vararg: str) -> int | None:
    """``args[n:]``, ``list(args)[n:]``, each maybe in ``tuple(...)`` / ``list(...)``: ``n``."""
    value = _converted(value)
    if not (isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice)):
        return None
    s = value.slice
    if s.upper is not None or s.step is not None or not (
            isinstance(s.lower, ast.Constant) and type(s.lower.value) is int and 0 < s.lower.value < 10):
        return None
    seq = _converted(value.value)
    return s.lower.value if isinstance(seq, ast.Name) and seq.id == vararg else None


def shifted(target: ast.expr, value: ast.expr, vararg: str) -> tuple[int, list[tuple[str, int]]] | None:
    """``args = args[1:]`` (and its spellings) or ``first, *args = args`` rebinding the ``*args`` pack:
    how many items it drops, and the names bound to those items (``first`` -> 0).  None otherwise."""
    if isinstance(target, ast.Name) and target.id == vararg:
        n = _shift(value, vararg)
        return None if n is None else (n, [])
    if isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Name) and value.id == vararg \
            and len(target.elts) >= 2 and len(target.elts) < 10:
        *heads, last = target.elts
        if isinstance(last, ast.Starred) and isinstance(last.value, ast.Name) and last.value.id == vararg \
                and all(isinstance(h, ast.Name) for h in heads):
            return len(heads), [(h.id, i) for i, h in enumerate(heads) if isinstance(h, ast.Name)]
    return None


def item_params(node: Node, vararg: str, names: dict[str, int]) -> Node:
    """``node`` with each ``{args[k]}`` placeholder of the pack ``vararg`` (or of a name ``names`` binds to
    its ``k``-th item) a parameter ``args[k]``."""
    if isinstance(node, Hole):
        m = _ITEM.fullmatch(node.expr)
        if m is not None and m.group(1) == vararg:
            return Param(node.expr, node.conversion, node.format_spec)
        if node.expr in names:
            return Param(f"{vararg}[{names[node.expr]}]", node.conversion, node.format_spec)
        return node
    if isinstance(node, Cat):
        return Cat(tuple(item_params(p, vararg, names) for p in node.parts))
    if isinstance(node, Alt):
        return Alt(tuple(item_params(p, vararg, names) for p in node.options))
    if isinstance(node, Dedent):
        return dataclasses.replace(node, inner=item_params(node.inner, vararg, names))
    if isinstance(node, Ref):
        return dataclasses.replace(node, args=tuple(item_params(a, vararg, names) for a in node.args))
    return node


def passed_args(init: InitSummary, bind: dict[str, Node]) -> tuple[Node, ...]:
    """What ``init`` passes its base (``calltexts.passed_on``) for a raise binding ``bind`` (its surplus
    arguments under ``*vararg``): each ``args[k]`` bound to the ``k``-th surplus argument, the pack shifted
    past the items the ``__init__`` consumed, and of each ``Alt`` the texts that raise prints
    (``passed_texts``).  ``bind`` gets the items and the shifted pack.  As ``passed_on`` when the pack's
    length is not known (a ``*xs`` of the raise)."""
    passed = passed_on(init, bind)
    pack = bind.get("*" + init.vararg) if init.vararg else None
    if not (isinstance(pack, Ref) and pack.callee == PACK) or any(is_pack(a) for a in pack.args):
        return passed
    surplus = pack.args
    bind.update({f"{init.vararg}[{k}]": a for k, a in enumerate(surplus[:10])})
    if init.vararg_skip:
        bind["*" + init.vararg] = dataclasses.replace(pack, args=surplus[init.vararg_skip:])
    return tuple(passed_texts(a, init.vararg, len(surplus)) for a in passed)


def _items(node: Node, vararg: str) -> set[int]:
    if isinstance(node, Param):
        m = _ITEM.fullmatch(node.name)
        return {int(m.group(2))} if m is not None and m.group(1) == vararg else set()
    if isinstance(node, Cat):
        return set().union(*(_items(p, vararg) for p in node.parts))
    if isinstance(node, Dedent):
        return _items(node.inner, vararg)
    if isinstance(node, Ref):
        return set().union(*(_items(a, vararg) for a in node.args))
    return set()


def passed_texts(node: Node, vararg: str, passed: int) -> Node:
    """Of the options of ``node`` (before binding), those a raise passing ``passed`` surplus arguments
    prints: none reading an item past them, and of the rest those reading the most items (a branch under
    ``if len(args) > 0:`` that reads ``args[0]`` is the one taken when the raise passes one)."""
    if isinstance(node, Cat):
        return Cat(tuple(passed_texts(p, vararg, passed) for p in node.parts))
    if not isinstance(node, Alt):
        return node
    options = [passed_texts(o, vararg, passed) for o in node.options]
    reads = [_items(o, vararg) if not isinstance(o, Alt) else set() for o in options]
    fits = [(o, r) for o, r in zip(options, reads, strict=True) if all(k < passed for k in r)]
    if not fits:
        return node
    most = max(len(r) for _, r in fits)
    return alt([o for o, r in fits if len(r) == most])
