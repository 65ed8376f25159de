"""An exception whose ``__str__`` prints a ``message`` property (``return self.args[0]``) inside a
context block, raised with the text positionally and a keyword-only ``token`` (python-jsonpath 2.2.1's
``JSONPathError.detailed_message``; captured text from its own test suite::

    expected a shorthand selector
      -> '$.1' 1:2
      |
    1 | $.1
      |   ^ expected a shorthand selector
)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract.properties import properties_of, returned_text

EXC = '''
    class PathError(Exception):
        """Base exception for all errors."""

        def __init__(self, *args, token=None):
            super().__init__(*args)
            self.token = token

        def __str__(self):
            return self.detailed_message()

        def detailed_message(self):
            """The message with the expression and a pointer under the token."""
            if not self.token:
                return super().__str__()
            lineno, col = self.token.line, self.token.col
            pad = " " * len(str(lineno))
            return (
                f"{self.message}\\n"
                f"{pad} -> {self.token.path!r} {lineno}:{col}\\n"
                f"{pad} | {self.message}\\n"
            )

        @property
        def message(self):
            """The exception's error message if one was given."""
            if self.args:
                return self.args[0]
            return None


    class PathSyntaxError(PathError):
        def __init__(self, *args, token):
            super().__init__(*args)
            self.token = token


    class Plain(PathError):
        def __str__(self):
            return self.message
'''

PARSE = '''
    from .exceptions import PathSyntaxError, Plain


    def parse_shorthand(token):
        raise PathSyntaxError("expected a shorthand selector", token=token)


    def expect(token, kind):
        raise PathSyntaxError(f"expected {kind!r}, found {token.kind!r}", token=token)


    def plain():
        raise Plain("no context here")
'''


def _sites(tmp_path: Path) -> list[list[str]]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "exceptions.py").write_text(textwrap.dedent(EXC))
    (pkg / "parse.py").write_text(textwrap.dedent(PARSE))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path == "pkg/parse.py"), key=lambda s: s.line)
    return [[t.render() for t in s.templates] for s in sites]


def test_property_read_in_str_is_the_raised_text(tmp_path: Path) -> None:
    shorthand, expect, plain = _sites(tmp_path)
    # `self.message` is the property returning `self.args[0]`: the raise's text, twice; the text goes to
    # `*args`, not to the keyword-only `token` (which would leave `self.args` empty)
    assert shorthand[0].startswith("expected a shorthand selector\n")
    assert shorthand[0].endswith("| expected a shorthand selector\n")
    assert "{self.message}" not in shorthand[0] and "{self.args[0]}" not in shorthand[0]
    assert expect[0].startswith("expected {kind}, found {token.kind}\n")
    # `return self.message` on its own: the text itself
    assert plain == ["no context here"]


def test_properties_of_names_decorated_methods_only() -> None:
    cls = ast.parse(textwrap.dedent('''
        class E(Exception):
            @property
            def message(self): return self.args[0]
            @message.setter
            def message(self, v): pass
            @functools.cached_property
            def code(self): return 1
            def plain(self): return "x"
    ''')).body[0]
    assert isinstance(cls, ast.ClassDef)
    assert properties_of(cls) == frozenset({"message", "code"})


def test_returned_text_skips_none_and_other_methods() -> None:
    args0 = ast.parse("self.args[0]", mode="eval").body
    none = ast.parse("None", mode="eval").body
    assert returned_text(args0, ("E", "message"), frozenset({"message"}))
    assert not returned_text(none, ("E", "message"), frozenset({"message"}))
    assert not returned_text(args0, ("E", "other"), frozenset({"message"}))
    for text in ("self._msg", "f'{self._message} {self.validator!r}.'", "self.__str__()"):
        assert returned_text(ast.parse(text, mode="eval").body, ("E", "message"), frozenset({"message"}))
    # a computed value: the called function's own texts are not the instance's
    computed = ast.parse("type_name(self.field_type, short=True)", mode="eval").body
    assert not returned_text(computed, ("E", "message"), frozenset({"message"}))
