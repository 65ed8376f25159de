"""Walk only the parts of a module that can hold what a fact collector looks for.

``ast.walk`` of a large module visits hundreds of thousands of nodes in
Python; the fact collectors (environment reads, configuration registries)
look for calls whose spelling is visible in the text (``environ``,
``getenv``, ``bool_state(``).  A text search finds the lines that can hold
one, and ``walk_near`` descends only into the nodes whose line span covers
such a line, so a 9,000-line module with two environment reads costs a few
hundred node visits instead of the whole tree.  What it yields is exactly
what ``ast.walk`` yields on those lines: a node that spans no marker line
cannot contain a node that does.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator


def marker_lines(source: str, pattern: re.Pattern[str]) -> list[int]:
    """Sorted 1-based numbers of the lines where ``pattern`` matches."""
    if not pattern.search(source):
        return []
    starts = [0]
    find = source.find
    pos = find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    out: list[int] = []
    for m in pattern.finditer(source):
        line = bisect.bisect_right(starts, m.start())
        if not out or out[-1] != line:
            out.append(line)
    return out


def _covers(lines: list[int], node: ast.AST) -> bool:
    lo = getattr(node, "lineno", None)
    if lo is None:  # operators, contexts, ``arguments``: positionless, and small
        return True
    hi = getattr(node, "end_lineno", None) or lo
    decorators = getattr(node, "decorator_list", None)
    if decorators:  # ``@dataclass(frozen=True)`` above ``class C:`` is the class's, on a line before its own
        lo = min(lo, *(d.lineno for d in decorators))
    i = bisect.bisect_left(lines, lo)
    return i < len(lines) and lines[i] <= hi


def walk_near(tree: ast.AST, lines: list[int]) -> Iterator[ast.AST]:
    """The nodes of ``tree`` (itself included) whose line span holds one of ``lines``, outermost first."""
    if not lines:
        return
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        children = [c for c in ast.iter_child_nodes(node) if _covers(lines, c)]
        stack.extend(reversed(children))
