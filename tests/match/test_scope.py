"""Scope (the library the input names comes first) and the class fallback, on a catalog of two
small packages indexed by the real CLI."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

ALPHA = '''
class WidgetError(Exception):
    """A widget failed."""


def check(x):
    if x < 0:
        raise WidgetError("the widget is broken")


def load(name):
    raise WidgetError(name)


def find(name):
    if not name:
        raise WidgetError(name)


class ArgIndexError(ValueError):
    pass


class Sin:
    def fdiff(self, i):
        raise ArgIndexError(f"no argument number {i} for function {self}")


class Cos:
    def fdiff(self, i):
        raise ArgIndexError(f"no argument number {i} for function {self}")
'''

BETA = '''
class WidgetError(Exception):
    pass


def run():
    raise WidgetError("the widget is broken beyond repair")
'''


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("scope")
    db = str(root / "c.sqlite")
    for name, code in (("alpha", ALPHA), ("beta", BETA)):
        index_package(root, name, {"__init__.py": code}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_the_named_library_comes_first(two: Catalog) -> None:
    text = "the widget is broken beyond repair"
    unscoped = explain(two, f"WidgetError: {text}")
    assert unscoped.matches[0].repo == "ex/beta"  # its template explains the whole text
    scoped = explain(two, f"alpha.WidgetError: {text}")
    assert scoped.matches[0].repo == "ex/alpha"
    assert any(m.repo == "ex/beta" for m in scoped.matches[1:])  # still listed, below
    assert explain(two, f"beta.WidgetError: {text}").matches[0].repo == "ex/beta"


def test_class_fallback_when_no_text_fits(two: Catalog) -> None:
    r = explain(two, "alpha.WidgetError: some-widget-name")
    top = r.matches[0]
    assert top.method == "class" and not top.confident and not r.confident
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"load", "find"}  # not `check`: its text is known
    assert top.tied_count == 1 and top.repo == "ex/alpha"
    assert top.tie_note.startswith("No template's text is in the message: this is a fallback to the exception class.")
    assert "2 places raise WidgetError" in top.tie_note


def test_an_empty_message_is_explained_by_its_type(two: Catalog) -> None:
    r = explain(two, "alpha.WidgetError")
    assert r.parsed.exception == "alpha.WidgetError" and r.parsed.message == ""
    assert r.matches[0].method == "class" and r.matches[0].tie_note.startswith("The message is empty")


def test_no_fallback_for_an_unscoped_builtin_or_with_a_traceback(two: Catalog) -> None:
    assert all(m.method != "class" for m in explain(two, "ValueError: x").matches)
    tb = ('Traceback (most recent call last):\n  File "/app/main.py", line 3, in <module>\n    load("w")\n'
          "alpha.WidgetError: w\n")
    assert all(m.method != "class" for m in explain(two, tb).matches)


def test_a_value_that_names_the_class_picks_among_tied_sites(two: Catalog) -> None:
    r = explain(two, "alpha.ArgIndexError: no argument number 2 for function Cos(x)")
    top = r.matches[0]
    assert top.qualname == "Cos.fdiff" and top.tied == () and top.confident
    tied = explain(two, "alpha.ArgIndexError: no argument number 2 for function <object at 0x1>")
    assert tied.matches[0].tied_count == 1 and not tied.confident


def _tb(*frames: tuple[str, int, str], last: str) -> str:
    body = "".join(f'  File "{p}", line {n}, in {f}\n    x()\n' for p, n, f in frames)
    return f"Traceback (most recent call last):\n{body}{last}\n"


def test_cython_frames_are_the_librarys_compiled_code(two: Catalog) -> None:
    text = _tb(("/app/main.py", 3, "<module>"), ("/venv/lib/python3.13/site-packages/alpha/__init__.py", 13, "load"),
               ("alpha/_speed.pyx", 10, "alpha._speed.go"), last="alpha.WidgetError: the widget is broken")
    r = explain(two, text)
    assert r.no_site is not None and r.no_site.origin == "native"
    assert r.no_site.reason.startswith("raised in the library's compiled code (Cython, alpha/_speed.pyx)")
    assert not r.confident  # the Python template with the same text is only a guess now


def test_a_dependencys_error_raised_through_the_library(two: Catalog) -> None:
    text = _tb(("/app/main.py", 3, "<module>"), ("/venv/lib/python3.13/site-packages/alpha/__init__.py", 13, "load"),
               ("/venv/lib/python3.13/site-packages/urllib3/connection.py", 5, "connect"),
               last="urllib3.exceptions.NewConnectionError: failed to connect")
    r = explain(two, text)
    assert r.no_site is not None and r.no_site.origin == "other-library"
    assert r.no_site.reason == "raised in urllib3, called from ex/alpha (alpha/__init__.py:13)"
