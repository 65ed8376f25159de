"""Exceptions built by the callers and raised by a helper that is handed the instance, and attrs
exception classes whose text is their fields (shapes captured from pyproject-metadata's and
referencing's own test suites: ``Field "project.name" has an invalid type, expecting str (got bool)``
raised at ``raise error`` of an error collector; ``'urn:child'`` printed by a ``KeyError`` subclass
declared with ``@frozen`` and raised as ``NoSuchResource(ref=uri)``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.match.verify import verify
from errdex.model import ErrorSite, Template

ERRORS = '''
    class ConfigurationError(Exception):
        def __init__(self, msg, *, key=None):
            super().__init__(msg)
            self._key = key


    class ConfigurationTypeError(ConfigurationError):
        """A field of the wrong type."""


    class Collector:
        def __init__(self, collect_errors):
            self.collect_errors = collect_errors
            self.errors = []

        def error(self, error):
            """Add an error to the list, or raise it immediately."""
            if self.collect_errors:
                self.errors.append(error)
            else:
                raise error
'''

TABLE = '''
    from pkg.errors import Collector, ConfigurationError, ConfigurationTypeError


    def cast(data, prefix, collector: Collector):
        if not isinstance(data, str):
            msg = f'Field "{prefix}" has an invalid type, expecting str (got {type(data).__name__})'
            collector.error(ConfigurationTypeError(msg, key=prefix))


    def check_name(name, collector: Collector):
        if not name.isidentifier():
            collector.error(ConfigurationError(f"Invalid project name {name!r}", key="project.name"))
'''

WRAPPER = '''
    from attrs import frozen as _frozen


    def frozen(cls):
        return _frozen(cls)
'''

EXCEPTIONS = '''
    from pkg._attrs import frozen


    @frozen
    class NoSuchResource(KeyError):
        """The given URI is not present in a registry."""

        ref: str


    @frozen
    class Unresolvable(Exception):
        """A reference could not be resolved."""

        ref: str
'''

CORE = '''
    from pkg import exceptions


    class Registry:
        def __init__(self, resources):
            self._resources = resources

        def __getitem__(self, uri):
            try:
                return self._resources[uri]
            except KeyError:
                raise exceptions.NoSuchResource(ref=uri) from None

        def lookup(self, ref):
            if ref not in self._resources:
                raise exceptions.Unresolvable(ref=ref)
            return self._resources[ref]
'''


def _sites(tmp_path: Path) -> dict[str, ErrorSite]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    for name, text in (("errors", ERRORS), ("table", TABLE), ("_attrs", WRAPPER), ("exceptions", EXCEPTIONS),
                       ("core", CORE)):
        (pkg / f"{name}.py").write_text(textwrap.dedent(text))
    return {s.qualname: s for s in extract_dir(tmp_path).sites}


def _fits(t: Template, text: str) -> bool:
    return verify(tuple((g.is_literal, (g.text or "") if g.is_literal else (g.expr or "")) for g in t.segments),
                  text).exact


def test_a_helper_raising_the_instance_it_is_handed_gets_the_callers_texts(tmp_path: Path) -> None:
    site = _sites(tmp_path)["Collector.error"]
    assert site.exception_resolved == "error"  # instances of two classes: no one class, the parameter
    assert not site.unresolved
    for text in ('Field "project.name" has an invalid type, expecting str (got bool)',
                 "Invalid project name '1x'"):
        assert any(_fits(t, text) for t in site.templates), [t.render() for t in site.templates]


def test_an_attrs_exception_prints_its_fields_and_a_key_error_their_repr(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    missing = sites["Registry.__getitem__"]
    assert [(g.expr, g.conversion) for t in missing.templates for g in t.segments] == [("uri", "r")]
    unresolvable = sites["Registry.lookup"]
    assert [(g.expr, g.conversion) for t in unresolvable.templates for g in t.segments] == [("ref", None)]
