"""A module-level function whose first parameter is ``self: Token`` (a method a decorator registers on the
class later, elementpath 5.1.4's ``select__attribute_reference_or_axis(self: XPathAxis, context)``):
``raise self.missing_context()`` is the annotated class's method (``factories.receiver_method``), and a
table's key reaching the table through a parameter's literal default (``expected(..., code='XPST0003')``
calling ``self.wrong_syntax(message, code)``) reads that default's entry too (``binding._defaulted_key``;
issue 17's thirtieth round)."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in
from xpathpkg import package


def test_a_method_of_the_annotated_self_of_a_module_level_function(tmp_path: Path) -> None:
    site = site_in(extract_dir(package(tmp_path)), "xp/axes.py", "select_attribute")
    assert "Dynamic context required for evaluate" in [t.render() for t in site.templates]
    assert site.exception.endswith("MissingContextError")
