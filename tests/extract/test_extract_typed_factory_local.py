"""A local holding a method call on an attribute of known class, then raised: parver 1.0.1.post0's
``Parser.finish`` does ``diagnostic = self.diagnostics.error(self.version)`` then ``raise diagnostic``, with
``self.diagnostics = _ParseDiagnostics()`` in ``__init__`` (a private class: its name starts with ``_``); the site
held ``{diagnostic}``.  The helper formatting its text returns ``"end of input"`` or ``repr(version[index])``: both
are the texts it returns."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

MOD = '''
    from collections.abc import Iterable


    def _format_found(version: str, index: int) -> str:
        if index >= len(version):
            return "end of input"
        return repr(version[index])


    class UnexpectedInputError(ValueError):
        def __init__(self, *, version: str, index: int, expected: Iterable[str]):
            super().__init__()
            self.full_version = version
            self.index = index
            self.expected = tuple(expected)

        def __str__(self) -> str:
            found = _format_found(self.full_version, self.index)
            return f"Expected {', '.join(self.expected)} at position {self.index}, found {found}"


    class _ParseDiagnostics:
        index: int = -1
        expected: tuple[str, ...] = ()

        def error(self, version: str) -> UnexpectedInputError | None:
            if self.index < 0 or not self.expected:
                return None
            return UnexpectedInputError(version=version, index=self.index, expected=self.expected)


    class Parser:
        def __init__(self, version: str, *, strict: bool = False) -> None:
            self.strict = strict
            self.version = version
            self.diagnostics = _ParseDiagnostics()

        def finish(self) -> None:
            diagnostic = self.diagnostics.error(self.version)
            if diagnostic is not None:
                raise diagnostic
'''


def test_a_local_of_a_typed_attribute_method_raises_what_it_returns(tmp_path: Path) -> None:
    (tmp_path / "parsing").mkdir()
    (tmp_path / "parsing" / "__init__.py").write_text("")
    (tmp_path / "parsing" / "_version.py").write_text(textwrap.dedent(MOD))
    result = extract_dir(tmp_path)
    site = next(s for s in result.sites if s.qualname == "Parser.finish")
    texts = [t.render() for t in site.templates]
    assert site.exception.endswith("UnexpectedInputError"), site.exception
    assert any(t.endswith("found end of input") for t in texts), texts
    assert any(t.startswith("Expected ") and t.endswith("found {repr(version[index])}") for t in texts), texts


ALIASED = '''
    from typing import Union

    _Body = Union[str, BaseException, bytes, None]


    class Response:
        def __init__(self, body: "_Body" = "") -> None:
            self.body: "_Body" = body

        def get_response(self):
            if self.body and isinstance(self.body, Exception):
                raise self.body
            return self.body
'''


def test_an_annotation_naming_a_private_type_alias_types_nothing(tmp_path: Path) -> None:
    # responses 0.26.3: `self.body: "_Body" = body`, `_Body` a Union: the raise stays a raise of the kept value
    (tmp_path / "mocking").mkdir()
    (tmp_path / "mocking" / "__init__.py").write_text("")
    (tmp_path / "mocking" / "core.py").write_text(textwrap.dedent(ALIASED))
    site = next(s for s in extract_dir(tmp_path).sites if s.qualname == "Response.get_response")
    assert site.exception == "self.body", site.exception
