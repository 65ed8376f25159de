"""A raise through a helper returning the object it is handed, and a class parameter with an ``or`` default
(issue 17's eighty-seventh round).  ZConfig 4.3's schema parser raises every schema error through
``error(message, kind=None)``: ``kind = kind or ZConfig.SchemaError``, then ``raise
self.initerror(kind(message))``, ``initerror`` setting the position on the exception and returning it.  The
raise was one placeholder (``{self.initerror(kind(message))}``), so the callers' texts never reached it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

INIT = '''
    class ConfigError(Exception):
        def __init__(self, msg, url=None):
            self.message = msg
            self.url = url
            Exception.__init__(self, msg)

        def __str__(self):
            return self.message


    class ParseError(ConfigError):
        def __init__(self, msg, url=None, lineno=None, colno=None):
            self.lineno = lineno
            self.colno = colno
            ConfigError.__init__(self, msg, url)

        def __str__(self):
            s = self.message
            if self.lineno:
                s += " (line %d" % self.lineno
                if self.colno is not None:
                    s += ", column %d" % self.colno
                s += ")"
            return s


    class SchemaError(ParseError):
        pass


    class UnknownDocumentTypeError(SchemaError):
        pass


    class LoaderError(ConfigError):
        pass
'''

SCHEMA = '''
    import zconf


    class BaseParser:
        def __init__(self, locator=None):
            self._locator = locator

        def start_import(self, attrs):
            if "src" in attrs and "package" in attrs:
                self.error("import may only specify one of src or package")
            if "src" not in attrs and "package" not in attrs:
                self.error("import must specify either src or package")

        def start_root(self, name):
            if name != "schema":
                self.error("Unknown document type " + name, zconf.UnknownDocumentTypeError)

        def initerror(self, e):
            if self._locator is not None:
                e.colno = self._locator.getColumnNumber()
                e.lineno = self._locator.getLineNumber()
            return e

        def error(self, message, kind=None):
            kind = kind or zconf.SchemaError
            raise self.initerror(kind(message))

        def copied(self, e):
            if self._locator is None:
                return e
            return type(e)(str(e) + " here")

        def fail(self, message):
            raise self.copied(zconf.SchemaError(message))

        def load_root(self, name):
            self.fail("cannot load " + name)


    def located(e, where):
        e.url = where
        return e


    def open_resource(path):
        if not path:
            raise located(zconf.LoaderError("resource path is empty"), path)
        if path.startswith("/"):
            raise located(zconf.LoaderError("resource path must be relative: " + path))
'''

LOADER = '''
    import zconf


    def check(value, kind=None):
        kind = kind or zconf.SchemaError
        raise kind("bad value %r" % (value,))


    def check_schema(value, kind=None):
        kind = kind or zconf.SchemaError
        raise kind("bad value %r" % (value,))


    def check_loader(value):
        check(value, zconf.LoaderError)
        check_schema(value, zconf.UnknownDocumentTypeError)
'''


def _result(tmp_path: Path):  # type: ignore[no-untyped-def]
    pkg = tmp_path / "zconf"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(textwrap.dedent(INIT))
    (pkg / "schema.py").write_text(textwrap.dedent(SCHEMA))
    (pkg / "loader.py").write_text(textwrap.dedent(LOADER))
    return extract_dir(tmp_path)


def _texts(site) -> list[str]:  # type: ignore[no-untyped-def]
    return ["".join(g.text if g.expr is None else "{" + g.expr + "}" for g in t.segments) for t in site.templates]


def test_callers_texts_reach_the_helper_through_the_returning_method(tmp_path: Path) -> None:
    site = site_in(_result(tmp_path), "zconf/schema.py", "BaseParser.error")
    texts = _texts(site)
    assert "import must specify either src or package" in texts
    assert "import may only specify one of src or package (line {lineno}, column {colno})" in texts
    assert "Unknown document type {name}" in texts


def test_the_or_default_is_the_class_when_callers_pass_its_subclasses(tmp_path: Path) -> None:
    site = site_in(_result(tmp_path), "zconf/schema.py", "BaseParser.error")
    assert site.exception_resolved == "zconf.SchemaError"


def test_a_module_function_returning_its_argument(tmp_path: Path) -> None:
    result = _result(tmp_path)
    first = site_in(result, "zconf/schema.py", "open_resource")
    assert first.exception_resolved == "zconf.LoaderError"
    assert _texts(first) == ["resource path is empty"]
    # one argument only: the helper called with the default of its second parameter
    second = site_in(result, "zconf/schema.py", "open_resource", 1)
    assert second.exception_resolved == "zconf.LoaderError"
    assert _texts(second) == ["resource path must be relative: {path}"]


def test_a_helper_that_may_return_another_object_is_not_read_through(tmp_path: Path) -> None:
    site = site_in(_result(tmp_path), "zconf/schema.py", "BaseParser.fail")
    assert site.exception_resolved != "zconf.SchemaError"
    assert "cannot load {name}" not in _texts(site)


def test_the_or_default_with_no_callers_text_keeps_the_parameter(tmp_path: Path) -> None:
    # a text of its own: the callers (who pass only a class, LoaderError being no SchemaError) are not read, so
    # the site names no one class; its texts are the default's forms
    for qual in ("check", "check_schema"):
        site = site_in(_result(tmp_path / qual), "zconf/loader.py", qual)
        assert site.exception_resolved == "kind"
        assert "bad value {value} (line {lineno}, column {colno})" in _texts(site)
        assert "bad value {value}" in _texts(site)
