"""A table's key reaching a module-level table of tuples through the raising function's parameter with a
literal default (elementpath 5.1.4's ``expected(..., code='XPST0003')`` calling ``self.wrong_syntax(message,
code)``, which sets ``code = 'XPST0017'`` on one path): the default's entry is read too, beside the other
path's (``binding._defaulted_key``, ``resolve.Resolver._own_defaults``; issue 17's thirtieth round)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    class PathError(Exception):
        def __init__(self, message, code=None):
            super().__init__(message)
            self.code = code


    class PathSyntaxError(PathError, SyntaxError):
        pass


    class PathTypeError(PathError, TypeError):
        pass


    ERROR_CODES = {
        "XPST0003": (PathSyntaxError, "Invalid expression"),
        "XPST0017": (PathTypeError, "Wrong number of arguments"),
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
'''

TOKENS = '''
    from .errors import path_error


    class Token:
        label = "operator"

        def error(self, code, message=None):
            return path_error(code, message)

        def wrong_syntax(self, message=None, code="XPST0003"):
            if self.label == "function":
                code = "XPST0017"
            return self.error(code, message)

        def expected(self, *symbols, message=None, code="XPST0003"):
            if symbols and self.symbol not in symbols:
                raise self.wrong_syntax(message, code)

        def check(self, value):
            if not value:
                raise self.wrong_syntax("empty function call", "XPST0017")
'''


def _package(tmp_path: Path) -> Path:
    (tmp_path / "xp").mkdir()
    (tmp_path / "xp" / "__init__.py").write_text("")
    for name, text in (("errors", ERRORS), ("tokens", TOKENS)):
        (tmp_path / "xp" / f"{name}.py").write_text(textwrap.dedent(text))
    return tmp_path


def test_a_key_passed_on_from_a_parameters_literal_default(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "xp/tokens.py", "Token.expected")
    texts = [t.render() for t in site.templates]
    assert "Invalid expression" in texts  # code='XPST0003', the default
    assert "Wrong number of arguments" in texts  # code = 'XPST0017' on the other path


def test_a_key_the_raise_passes_reads_only_its_entry(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "xp/tokens.py", "Token.check")
    assert site.exception.endswith("PathTypeError")
    assert "Invalid expression" not in [t.render() for t in site.templates]  # a callee's default is no key here
