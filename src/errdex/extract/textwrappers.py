"""Objects of a dependency whose ``str()`` is the text they were built from.

``rich.text.Text(text, style=...)`` carries styling beside its text; printed plainly (``str(t)``,
``t.plain``) it is that text.  An exception that keeps its message as one (cyclopts' ``CycloptsError``
wraps ``msg`` in ``Text(self.msg)`` before joining it with the rest of its pieces) prints the text passed.
Keyed by the dotted name the call resolves to; the value is the argument that holds the text.
"""

from __future__ import annotations

TEXT_WRAPPERS: dict[str, int] = {
    "rich.text.Text": 0,
    "rich.text.Text.from_markup": 0,  # markup tags dropped when printed: the words stay
}
