"""A small XPath-like package (an error table of tuples keyed by code, tokens whose methods look codes up, and
module-level functions registered on a token class with an annotated ``self``), shaped as elementpath 5.1.4 is:
the fixture of ``test_extract_default_key`` and ``test_extract_annotated_self``."""

from __future__ import annotations

import textwrap
from pathlib import Path

ERRORS = '''
    class PathError(Exception):
        def __init__(self, message, code=None):
            super().__init__(message)
            self.code = code


    class PathSyntaxError(PathError, SyntaxError):
        pass


    class PathTypeError(PathError, TypeError):
        pass


    class MissingContextError(PathError):
        pass


    ERROR_CODES = {
        "XPDY0002": (MissingContextError, "Dynamic context required for evaluate"),
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

        def missing_context(self, message=None):
            return self.error("XPDY0002", message)

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


    class Axis(Token):
        pass
'''

AXES = '''
    from .tokens import Axis


    def register(symbol):
        def decorator(func):
            setattr(Axis, symbol, func)
            return func
        return decorator


    @register("select")
    def select_attribute(self: Axis, context=None):
        if context is None:
            raise self.missing_context()
        return context
'''


def package(tmp_path: Path) -> Path:
    """The package written under ``tmp_path/xp``; returns ``tmp_path``."""
    (tmp_path / "xp").mkdir()
    (tmp_path / "xp" / "__init__.py").write_text("")
    for name, text in (("errors", ERRORS), ("tokens", TOKENS), ("axes", AXES)):
        (tmp_path / "xp" / f"{name}.py").write_text(textwrap.dedent(text))
    return tmp_path
