"""A helper that raises the exception instance its callers build (pyproject-metadata 0.12.1's error
collector: ``def error(self, error): ... raise error``, handed ``ConfigurationTypeError(msg)`` and
``ConfigurationError(msg)`` by its callers) prints the texts one of those callers also raises itself.
The helper's class is no one class, so a printed ``ConfigurationTypeError`` does not rule it out: the
last line is a tie of the two sites, not a confident answer naming the direct raise; the traceback's
frames decide.  The input is the text captured from pyproject-metadata's test suite
(``bench/data/pyproject-metadata-0.12.1.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

ERRORS = '''
class ConfigurationError(Exception):
    def __init__(self, msg, *, key=None):
        super().__init__(msg)
        self._key = key


class ConfigurationTypeError(ConfigurationError):
    """A field of the wrong type."""


def unknown(name):
    raise ConfigurationError(f"Unknown field {name}", key=name)


class Collector:
    def finalize(self, msg):
        if self.errors:
            raise ExceptionGroup(msg, self.errors)

    def __init__(self, collect_errors):
        self.collect_errors = collect_errors
        self.errors = []

    def error(self, error):
        """Add an error to the list, or raise it immediately."""
        if self.collect_errors:
            self.errors.append(error)
        else:
            raise error

    def config_error(self, msg, *, key=None, **kwargs):
        msg = msg.format(key=f'"{key}"', **kwargs)
        self.error(ConfigurationError(msg, key=key))
'''

TABLE = '''
from pmeta.errors import Collector, ConfigurationError, ConfigurationTypeError


def get_name(t):
    return t.__name__


def cast_dict(cls, data, prefix):
    if not isinstance(data, dict):
        msg = f'Field "{prefix}" has an invalid type, expecting {get_name(cls)} (got {get_name(type(data))})'
        raise ConfigurationTypeError(msg, key=prefix)


def cast(type_hint, data, prefix, collector: Collector):
    if not isinstance(data, type_hint):
        msg = f'Field "{prefix}" has an invalid type, expecting {get_name(type_hint)} (got {get_name(type(data))})'
        collector.error(ConfigurationTypeError(msg, key=prefix))


def read(data, collector: Collector):
    if "project" not in data:
        collector.config_error('Section "project" missing in pyproject.toml')


def check_name(name, collector: Collector):
    if not name.isidentifier():
        collector.error(ConfigurationError(f"Invalid project name {name!r}", key="project.name"))
'''

TEXT = 'Field "project.name" has an invalid type, expecting str (got bool)'


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "raised", "pmeta",
                               {"__init__.py": "", "errors.py": ERRORS, "table.py": TABLE})


@pytest.mark.parametrize("text", [TEXT, f"pmeta.errors.ConfigurationTypeError: {TEXT}"])
def test_the_helper_raising_a_handed_instance_ties_with_the_direct_raise(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"cast_dict", "Collector.error"}
    assert not r.confident


def test_the_callers_text_alone_names_the_helper(lib: Catalog) -> None:
    r = explain(lib, "pmeta.errors.ConfigurationError: Invalid project name '1x'")
    assert r.matches[0].qualname == "Collector.error"


def test_a_text_from_the_callers_callers_falls_back_to_the_helper(lib: Catalog) -> None:
    # `config_error` rewrites its callers' text before handing it on: not followed, so the helper's text is
    # the bare value, and the class fallback names the helper among the raises of a value
    r = explain(lib, 'pmeta.errors.ConfigurationError: Section "project" missing in pyproject.toml')
    top = r.matches[0]
    assert top.qualname == "Collector.error" and top.method == "class" and not r.confident  # not a fuzzy guess

