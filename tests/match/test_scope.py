"""Scope (the library the input names comes first) and the class fallback, on a catalog of two
small packages indexed by the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

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
        (root / name / name).mkdir(parents=True)
        (root / name / name / "__init__.py").write_text(code)
        env = dict(os.environ, ERRDEX_HOME=str(root))
        done = subprocess.run([sys.executable, "-m", "errdex", "index", str(root / name), "--repo", f"ex/{name}",
                               "--db", db], capture_output=True, text=True, env=env, check=False, timeout=120)
        assert done.returncode == 0, done.stderr
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
