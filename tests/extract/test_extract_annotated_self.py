"""A module-level function whose first parameter is ``self: Token`` (a method a decorator registers on the
class later, elementpath 5.1.4's ``select__attribute_reference_or_axis(self: XPathAxis, context)``):
``raise self.missing_context()`` is the annotated class's method (``factories.receiver_method``), and a
table's key reaching the table through a parameter's literal default (``expected(..., code='XPST0003')``
calling ``self.wrong_syntax(message, code)``) reads that default's entry too (``binding._defaulted_key``;
issue 17's thirtieth round)."""

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


def _package(tmp_path: Path) -> Path:
    (tmp_path / "xp").mkdir()
    (tmp_path / "xp" / "__init__.py").write_text("")
    for name, text in (("errors", ERRORS), ("tokens", TOKENS), ("axes", AXES)):
        (tmp_path / "xp" / f"{name}.py").write_text(textwrap.dedent(text))
    return tmp_path


def test_a_method_of_the_annotated_self_of_a_module_level_function(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "xp/axes.py", "select_attribute")
    assert "Dynamic context required for evaluate" in [t.render() for t in site.templates]
    assert site.exception.endswith("MissingContextError")


def test_a_key_passed_on_from_a_parameters_literal_default(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "xp/tokens.py", "Token.expected")
    texts = [t.render() for t in site.templates]
    assert "Invalid expression" in texts  # code='XPST0003', the default
    assert "Wrong number of arguments" in texts  # code = 'XPST0017' on the other path
