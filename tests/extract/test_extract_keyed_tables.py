"""A class and a text read from a module-level table of tuples keyed by the caller's literal code
(``extract/keyedtables.py``): elementpath 5.1.4's ``self.error(code)`` -> ``xpath_error(code, ...)`` ->
``error_class, default_message = XPATH_ERROR_CODES[code]`` -> ``error_class(message, pcode, token)``
(issue 17's twenty-ninth round).  Each caller's code picks its entry's class and text; a call whose code
is not known here reads the table's first entries as alternatives."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    class PathError(Exception):
        def __init__(self, message, code=None):
            super().__init__(message)
            self.message = message
            self.code = code


    class PathTypeError(PathError, TypeError):
        pass


    class PathSyntaxError(PathError, SyntaxError):
        pass


    ERROR_CODES = {
        "XPST0003": (PathSyntaxError, "Invalid expression"),
        "XPTY0004": (PathTypeError, "type is not appropriate for the context"),
    }


    def path_error(code, message=None):
        try:
            error_class, default_message = ERROR_CODES[code]
        except KeyError:
            error_class = PathError
            default_message = "custom error"
        if message is None:
            message = default_message
        return error_class(message, code)


    class Token:
        def error(self, code, message=None):
            return path_error(code, message)

        def check(self, value):
            if value is None:
                raise self.error("XPTY0004")
            if not value:
                raise path_error("XPST0003", "empty expression")

        def any_code(self, code):
            raise path_error(code)
'''


def _outcomes(result, qualname: str, index: int = 0) -> list[tuple[str, str]]:
    site = site_in(result, "pkg/__init__.py", qualname, index)
    return sorted({(site.exception, t.render()) for t in site.templates})


def test_the_callers_code_picks_its_entrys_class_and_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(ERRORS))
    result = extract_dir(tmp_path)
    first = site_in(result, "pkg/__init__.py", "Token.check")
    texts = [t.render() for t in first.templates]
    assert "type is not appropriate for the context" in texts
    assert "Invalid expression" not in texts  # another code's entry
    assert first.exception.endswith("PathTypeError")
    second = site_in(result, "pkg/__init__.py", "Token.check", 1)
    assert "empty expression" in [t.render() for t in second.templates]
    assert second.exception.endswith("PathSyntaxError")


def test_a_code_not_known_here_reads_the_tables_entries(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(ERRORS))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "pkg/__init__.py", "Token.any_code").templates]
    assert "Invalid expression" in texts and "type is not appropriate for the context" in texts
