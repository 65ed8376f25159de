"""An object that raises the exception class an attribute holds, with the text a property builds
(jinja2's ``Undefined``: ``raise self._undefined_exception(self._undefined_message)``, the class an
``__init__`` default, the text a ``@property``); the printed texts ``'no_name_1' is undefined`` and
``'None' has no attribute 'split'`` were captured from jinja2's own test suite."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.match.verify import verify
from errdex.model import ErrorSite, Template

RUNTIME = '''
    class UndefinedError(Exception):
        """An undefined value was used."""


    class SecurityError(Exception):
        """Something unsafe was tried."""


    missing = object()


    class Undefined:
        def __init__(self, hint=None, obj=missing, name=None, exc=UndefinedError):
            self._undefined_hint = hint
            self._undefined_obj = obj
            self._undefined_name = name
            self._undefined_exception = exc

        @property
        def _undefined_message(self):
            if self._undefined_obj is missing:
                return f"{self._undefined_name!r} is undefined"
            return f"{type(self._undefined_obj).__name__!r} has no attribute {self._undefined_name!r}"

        def _fail_with_undefined_error(self, *args, **kwargs):
            raise self._undefined_exception(self._undefined_message)


    class Sandbox:
        error_class = SecurityError

        def check(self, name):
            raise self.error_class(f"access to attribute {name!r} is unsafe")
'''


def _sites(tmp_path: Path) -> dict[str, ErrorSite]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "runtime.py").write_text(textwrap.dedent(RUNTIME))
    return {s.qualname: s for s in extract_dir(tmp_path).sites}


def test_the_class_an_attribute_holds_and_the_text_a_property_builds(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    undefined = sites["Undefined._fail_with_undefined_error"]
    assert undefined.exception_resolved == "pkg.runtime.UndefinedError"
    assert {t.render() for t in undefined.templates} == {
        "{self._undefined_name} is undefined",
        "{type(self._undefined_obj).__name__} has no attribute {self._undefined_name}"}
    for text in ("'no_name_1' is undefined", "'None' has no attribute 'split'"):
        assert any(_fits(t, text) for t in undefined.templates)
    sandbox = sites["Sandbox.check"]  # a class attribute naming the class
    assert sandbox.exception_resolved == "pkg.runtime.SecurityError"
    assert [t.render() for t in sandbox.templates] == ["access to attribute {name} is unsafe"]


def _fits(t: Template, text: str) -> bool:
    return verify(tuple((g.is_literal, (g.text or "") if g.is_literal else (g.expr or "")) for g in t.segments), text).exact
