"""A caught or handed exception raised again as its very class with its very text, so that neither the
printed class nor the text tells it from the raise that built the text (round 18).  param 2.4.2's
``Path._validate``: ``except OSError as e: raise OSError(e.args[0]) from None`` around ``resolve_path``'s
``raise OSError(... + " was not found in the following place(s): " + ...)`` (a class whose ``__new__``
calls ``__call__``: no call edge reaches it, so the re-raise carries no copy of that text), answered confidently with
the inner raise (3 of 7 events were the re-raise's).  simpy 4.1.2's ``Environment.step``: ``exc =
type(event._value)(*event._value.args)``, ``raise exc``, a copy of whatever failed inside a process,
``Negative delay -1`` answered confidently with ``Timeout.__init__``.  ``e.args[0]`` is the caught text
(``indexdata.caught``), a re-raise of the caught text as the caught class ties with the top when that
class is printed (``ties.tied_sites``), and a copy of a value as its own class (``indexdata.class_copy``)
ties with any text of its package and is a raise of a value for the class fallback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.indexdata import caught, class_copy

PARAMS = '''
import os


class ParameterizedFunction:
    def __new__(cls, *args, **params):
        inst = object.__new__(cls)
        return inst.__call__(*args, **params)


class resolve_path(ParameterizedFunction):
    def __call__(self, path, search_paths):
        paths_tried = []
        for prefix in search_paths:
            try_path = os.path.join(prefix, path)
            if os.path.exists(try_path):
                return try_path
            paths_tried.append(try_path)
        raise OSError("File " + os.path.split(path)[1] + " was not found in the following place(s): "
                      + str(paths_tried) + ".")


class Path:
    def _validate(self, val):
        try:
            resolve_path(val, self.search_paths)
        except OSError as e:
            if self.check_exists:
                raise OSError(e.args[0]) from None
'''

CORE = '''
class Timeout:
    def __init__(self, env, delay):
        if delay < 0:
            raise ValueError(f"Negative delay {delay}")
        self.env = env


class Environment:
    def step(self):
        event = self.pop()
        if not event._ok:
            exc = type(event._value)(*event._value.args)
            exc.__cause__ = event._value
            raise exc
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("copies")
    db = str(root / "c.sqlite")
    index_package(root, "paramkit", {"__init__.py": "", "parameters.py": PARAMS}, db)
    index_package(root, "simkit", {"__init__.py": "", "core.py": CORE}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_a_re_raise_of_the_caught_text_as_the_caught_class_ties(lib: Catalog) -> None:
    r = explain(lib, "OSError: File data.csv was not found in the following place(s): ['/tmp/x/data.csv'].",
                repo="ex/paramkit")
    names = [r.matches[0].qualname, *(t.qualname for t in r.matches[0].tied)]
    assert sorted(names) == ["Path._validate", "resolve_path.__call__"] and not r.confident


def test_a_copy_of_a_value_as_its_own_class_ties(lib: Catalog) -> None:
    r = explain(lib, "ValueError: Negative delay -1", repo="ex/simkit")
    names = [r.matches[0].qualname, *(t.qualname for t in r.matches[0].tied)]
    assert sorted(names) == ["Environment.step", "Timeout.__init__"] and not r.confident


def test_a_text_no_site_wrote_falls_back_to_the_copy(lib: Catalog) -> None:
    r = explain(lib, "AttributeError: spam", repo="ex/simkit")
    assert r.matches[0].qualname == "Environment.step" and not r.confident


def test_what_a_copy_is() -> None:
    assert caught("e.args[0]", None) and caught("exc.args[0]", "exc")
    assert class_copy("type(event._value)", ((False, "*event._value.args"),))
    assert class_copy("err.__class__", ((False, "str(err)"),))
    assert not class_copy("type(exc)", ((True, "With tag "), (False, "exc")))  # a wrapper: its own text
    assert not class_copy("type(exc)", ((False, "msg"),))  # another value's text
