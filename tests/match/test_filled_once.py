"""A literal word that one template shows where another's placeholder takes it is no evidence against that
placeholder (kajiki 1.0.2, round 24: i18n's ``[<string>:{node.lineno}] {e}\\n\\t --> {line}`` outscored
``Template.from_ir``'s ``[{filename}:{lineno}] {msg}\\n\\t --> {line}`` for a template compiled from a string,
whose filename is ``<string>``).  The general template is tied with the top, not confident
(``ties.filled_once``); a text whose literal part is more than a word stays the top's alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

TEMPLATE = '''
class TemplateSyntaxError(Exception):
    pass


def from_source(source, filename, lineno, msg, line):
    if not source:
        raise TemplateSyntaxError(f"[{filename}:{lineno}] {msg}\\n\\t --> {line}\\n")
    return source
'''

I18N = '''
from .template import TemplateSyntaxError


def extract(node, e, line):
    raise TemplateSyntaxError(f"[<string>:{node.lineno}] {e}\\n\\t --> {line}\\n")


def check(node, line):
    raise TemplateSyntaxError(f"[<string>:{node.lineno}] unknown message tag\\n\\t --> {line}\\n")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("filled")
    db = str(root / "c.sqlite")
    index_package(root, "tmplkit", {"__init__.py": "", "template.py": TEMPLATE, "i18n.py": I18N}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_a_word_a_placeholder_takes_is_a_tie(lib: Catalog) -> None:
    r = explain(lib, "tmplkit.template.TemplateSyntaxError: [<string>:4] invalid syntax\n\t -->   for i i range(2):\n")
    top = r.matches[0]
    assert sorted([top.qualname, *(t.qualname for t in top.tied)]) == ["extract", "from_source"]
    assert not r.confident


def test_more_than_a_word_stays_the_tops(lib: Catalog) -> None:
    r = explain(lib, "tmplkit.template.TemplateSyntaxError: [<string>:4] unknown message tag\n\t -->   <x/>\n")
    top = r.matches[0]
    assert top.qualname == "check" and top.tied_count == 0
