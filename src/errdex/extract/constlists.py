"""A module-level list or tuple of literals interpolated into a message: the text is its repr.

fluids 1.3.1's ``fittings.py`` names the methods each function knows in a module-level list, and a
module-level text formats it: ``entrance_rounded_methods = ["Rennels", "Crane", "Miller", "Idelchik",
"Harris", "Swamee"]``, ``entrance_rounded_methods_error = f"Specified method not recognized; methods are
{entrance_rounded_methods}"``; twelve functions raise twelve such texts, which read alike as
``... methods are {entrance_rounded_methods}`` and tied, while the message prints the list: ``... methods are
['Rennels', 'Crane', 'Miller', 'Idelchik', 'Harris', 'Swamee']``.  ``str()`` of a list or tuple of literals is
their ``repr``, known from the source, so the placeholder is that text.

Only a name the module binds once, at its top level, to a display of literals (strings, numbers, ``True``,
``False``, ``None``; at most ``MAX_ITEMS``), that no line of the module grows, shrinks, sorts or rebinds
(``name.append(...)``, ``name += ...``, ``name[0] = ...``, ``global name``): a list some code edits prints what
the edits made of it.  Python-language knowledge, so it lives in ``extract``.
"""

from __future__ import annotations

import ast
import re

MAX_ITEMS = 64  # items of a list read as its repr; a longer one stays a placeholder
_EDITS = r"\.\s*(?:append|extend|insert|remove|pop|clear|sort|reverse)\s*\(|\s*(?:\+|\*|-|\|)=|\s*\[[^\]\n]*\]\s*=(?!=)"


def literal_repr(name: str, value: ast.expr, module_text: str) -> str | None:
    """``repr`` of the list or tuple of literals ``value`` that module-level ``name`` is bound to, when the
    module never edits or rebinds it; ``None`` otherwise."""
    if not isinstance(value, (ast.List, ast.Tuple)) or len(value.elts) > MAX_ITEMS:
        return None
    if not all(isinstance(e, ast.Constant) and isinstance(e.value, (str, int, float, bool, type(None)))
               for e in value.elts):
        return None
    word = re.escape(name)
    if re.search(rf"\b{word}(?:{_EDITS})", module_text) or re.search(rf"\bglobal\b[^\n]*\b{word}\b", module_text):
        return None
    if len(re.findall(rf"^{word}\s*(?::[^=\n]*)?=(?!=)", module_text, re.M)) != 1:
        return None  # bound again at the top level (or by an annotation only): which binding is read is not known
    return repr(ast.literal_eval(value))
