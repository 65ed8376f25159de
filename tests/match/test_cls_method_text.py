"""A classmethod that builds its message with a method of its class called through ``cls``: icalendar
7.3.2's ``Component.from_ical`` raises ``ValueError(cls._format_error("Found no components where exactly
one is required", st))``, and the static ``_format_error`` returns ``f"{error_description}: {bad_input}"``
(cut with ``[...]`` when long).  ``cls._format_error`` did not resolve (``self._x`` did), so the raise's
text was one placeholder.  It now names the class's method, as ``self.`` does.  The package is written in
that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

CAL = '''
class Component:
    name = None

    def __init__(self, *args, **kwargs):
        self.subcomponents = []

    @classmethod
    def _get_parser(cls, st):
        return st.splitlines()

    @classmethod
    def from_ical(cls, st, multiple=False):
        components = [line for line in cls._get_parser(st) if line.startswith(b"BEGIN:")]
        if multiple:
            return components
        if len(components) > 1:
            raise ValueError(
                cls._format_error(
                    "Found multiple components where only one is allowed", st
                )
            )
        if len(components) < 1:
            raise ValueError(
                cls._format_error(
                    "Found no components where exactly one is required", st
                )
            )
        return components[0]

    @staticmethod
    def _format_error(error_description, bad_input, elipsis="[...]"):
        max_error_length = 100 - 3
        if len(error_description) + len(bad_input) + len(elipsis) > max_error_length:
            truncate_to = max_error_length - len(error_description) - len(elipsis)
            return f"{error_description}: {bad_input[:truncate_to]} {elipsis}"
        return f"{error_description}: {bad_input}"
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "clsmethod", "qcal", {"__init__.py": "", "component.py": CAL})


@pytest.mark.parametrize(("text", "line"), [
    ("Found no components where exactly one is required: b'BEGIN:VCALENDAR\\nEND:VCALENDAR'", 24),
    ("Found multiple components where only one is allowed: b'BEGIN:VCALENDAR\\nBEGIN:VEVENT\\nEND:VE' [...]", 18),
])
def test_the_text_the_class_method_returns_is_the_raises(lib: Catalog, text: str, line: int) -> None:
    r = explain(lib, text)
    assert (r.matches[0].line, r.matches[0].method) == (line, "exact")
