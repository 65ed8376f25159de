"""A standard-library class's own text raised by a package (configupdater 4.1.1 raises
``configparser.NoOptionError(option, section)``; its test suite also gets the same class and text from
``configparser`` itself): the text is the standard library's, so from the text alone the package's site is
the best reading but not a confident one (``match/index.py``, ``STDLIB``); a traceback through it decides.
Among several such sites the text still picks the one that fits (the scores are scaled, not capped)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

DOCUMENT = '''
from configparser import DuplicateSectionError, NoOptionError


class Document:
    def get(self, section, option):
        if option not in self._sections[section]:
            raise NoOptionError(option, section)
        return self._sections[section][option]

    def add_section(self, name):
        if name in self._sections:
            raise DuplicateSectionError(name)

    def read(self, fpname, lineno, name):
        if name in self._sections:
            raise DuplicateSectionError(name, fpname, lineno)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "stdlib_class_text", "cfgdoc",
                               {"__init__.py": "", "document.py": DOCUMENT})


def test_the_standard_library_text_is_not_a_confident_answer(lib: Catalog) -> None:
    top = explain(lib, "configparser.NoOptionError: No option 'x_license' in section: 'section'").matches[0]
    assert top.qualname == "Document.get" and top.method == "exact" and not top.confident


def test_the_text_still_ranks_the_sites_of_one_class(lib: Catalog) -> None:
    text = "configparser.DuplicateSectionError: While reading from '<string>' [line  5]: section 'a' already exists"
    assert explain(lib, text).matches[0].qualname == "Document.read"
    assert explain(lib, "Section 'a' already exists").matches[0].qualname == "Document.add_section"


def test_a_traceback_through_the_site_decides(lib: Catalog, tmp_path_factory: pytest.TempPathFactory) -> None:
    text = ('Traceback (most recent call last):\n  File "/x/site-packages/cfgdoc/document.py", line 8, in get\n'
            "    raise NoOptionError(option, section)\n"
            "configparser.NoOptionError: No option 'x_license' in section: 'section'")
    top = explain(lib, text).matches[0]
    assert top.qualname == "Document.get" and top.confident
