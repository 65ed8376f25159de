"""Module-level tables of tuples keyed by a literal (elementpath's ``XPATH_ERROR_CODES = {'XPST0003':
(ElementPathSyntaxError, 'Invalid XPath expression'), ...}``), read by a function as ``error_class,
default_message = XPATH_ERROR_CODES[code]`` with ``code`` its caller's literal.

Phase 1 records each entry's text items as constants ``NAME[key][i]`` and, per position, the first entries'
texts as ``NAME[*][i]`` (the read when no literal key reaches it); ``messages._table_item`` reads
``TABLE[key][i]`` as a ``Ref`` (``ir.TABLE_ITEM``) and phase 2 (``expand``) takes the entry for each literal
key the call passed, else the alternatives.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract.imports import class_like, dotted_source
from errdex.extract.ir import Alt, Node, Ref

ANY_KEY = "*"
MAX_ALTERNATIVES = 8  # as ``expand.MAX_TEMPLATES``: a table's texts read without a key, the first ones


def table_entries(module_env: dict[str, ast.expr], arg: Callable[[ast.expr], Node],
                  resolve: Callable[[str], str | None]) -> dict[str, Node]:
    """``NAME[key][i]`` for each literal text or class item of a module-level dict of tuples keyed by
    strings, and ``NAME[*][i]``: the first ones at that position, as alternatives."""
    out: dict[str, Node] = {}
    for name, value in module_env.items():
        if not isinstance(value, ast.Dict):
            continue
        anykey: dict[int, list[Node]] = {}
        for k, v in zip(value.keys, value.values, strict=True):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and isinstance(v, ast.Tuple)):
                continue
            for i, item in enumerate(v.elts):
                written = dotted_source(item)
                if written is not None and class_like(written):
                    node: Node = Ref(target=resolve(written) or written, src=written, callee=written, is_call=False)
                elif (isinstance(item, ast.Constant) and isinstance(item.value, str)) or isinstance(item, ast.JoinedStr):
                    node = arg(item)
                else:
                    continue
                out[f"{name}[{k.value}][{i}]"] = node
                seen = anykey.setdefault(i, [])
                if len(seen) < MAX_ALTERNATIVES and node not in seen:
                    seen.append(node)
        for i, nodes in anykey.items():
            out[f"{name}[{ANY_KEY}][{i}]"] = Alt(tuple(nodes)) if len(nodes) > 1 else nodes[0]
    return out
