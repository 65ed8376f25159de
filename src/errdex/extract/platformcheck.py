"""The platform a module requires at import: a check at its top level that stops the import elsewhere.

click's ``_winconsole.py`` starts with ``assert sys.platform == "win32"``: every class and function in it
exists only on Windows, so every raise in it can happen only there (rating 13, eb3a: a page on its console
reader never said so).  The same holds for ``if sys.platform != "win32": raise ImportError(...)`` at top
level.  Only the module's own top-level statements count (a check inside a function is a guard of that
function's raises, recorded as such), and only a test that reads the platform (``sys.platform``,
``os.name``, ``platform.system()``): a module that asserts something else at import is no platform's.

Parsing only: nothing here imports the package.
"""

from __future__ import annotations

import ast
import re

from errdex.extract.guards import negated_test
from errdex.extract.source import SourceText

_PLATFORM = re.compile(r"\b(?:sys\.platform|os\.name|platform\.system\(\))")


def required_platform(tree: ast.Module, src: SourceText) -> tuple[str, int]:
    """(the condition as written, its line) that the module's import requires, or ("", 0)."""
    for node in tree.body:
        if isinstance(node, ast.Assert) and _PLATFORM.search(text := src.segment(node.test)):
            return " ".join(text.split()), node.lineno
        if (isinstance(node, ast.If) and not node.orelse and len(node.body) == 1
                and isinstance(node.body[0], ast.Raise) and _PLATFORM.search(text := src.segment(node.test))):
            return negated_test(node.test, src), node.lineno
    return "", 0
