"""A text of another package raised through the library: a handler of one class raises the caught text alone
as the library's own (textfsm 2.1.0's ``except re.error as exc: raise TextFSMTemplateError(str(exc)) from
exc``; distlib's ``tarfile.FilterError``, cmd2's ``shlex`` ``ValueError``, rlp's ``UnicodeDecodeError``: 12
libraries of six rounds, issue 17's thirty-sixth round), or raises an exception object built elsewhere
(``raise error``).  The message alone (``unbalanced parenthesis at
position 8``) is no template of the library: the handlers that raise a caught text are where it surfaced, as
one labelled, unconfident group, not a word-overlap guess at an unrelated raise."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

PARSER = '''
import re


class TemplateError(Exception):
    """Error while parsing a template."""


class Value:
    def __init__(self, name, regex):
        if not name.isidentifier():
            raise TemplateError(f"Invalid Value name '{name}'.")
        if not regex.startswith("(") or not regex.endswith(")"):
            raise TemplateError(f"Value '{name}' must be contained within a '()' pair.")
        try:
            self.compiled = re.compile(regex)
        except re.error as exc:
            raise TemplateError(str(exc)) from exc
        self.name = name


def check_hour(hh):
    if not 0 <= hh <= 24:
        raise TemplateError("Hour must be between 0..24 with 24 representing midnight.")
    return hh


class Parser:
    def __init__(self):
        self.errors = []

    def report(self, err):
        self.errors.append(err)

    def finish(self):
        if self.errors:
            error = self.errors[-1]
            del self.errors
            raise error


def parse_line(line):
    tokens = line.split()
    if len(tokens) < 3:
        raise TemplateError("Expect at least 3 tokens on line.")
    return Value(tokens[1], " ".join(tokens[2:]))
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("foreign")
    db = str(root / "c.sqlite")
    index_package(root, "fsmkit", {"__init__.py": "", "parser.py": PARSER}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_another_packages_text_falls_back_to_the_handler(lib: Catalog) -> None:
    r = explain(lib, "unbalanced parenthesis at position 8")
    top = r.matches[0]
    assert top.qualname == "Value.__init__" and top.method == "class" and not r.confident
    assert top.line == 18 and "did not write" in top.tie_note


def test_a_prebuilt_exception_raised_is_in_the_group(lib: Catalog) -> None:
    # parglare 0.22.0's `error = self.errors[-1]; raise error`: the text was built where the error was
    # reported (by a callback, a caller), and surfaced at the raise of the kept object
    r = explain(lib, "1:8: syntax error: unexpected token number")
    top = r.matches[0]
    group = [top.qualname, *(t.qualname for t in top.tied)]
    assert "Parser.finish" in group and top.method == "class" and not r.confident


def test_the_librarys_own_text_is_no_fallback(lib: Catalog) -> None:
    r = explain(lib, "Expect at least 3 tokens on line.")
    assert r.matches[0].qualname == "parse_line" and r.matches[0].method != "class"


def test_a_wording_of_a_templates_run_of_words_is_no_fallback(lib: Catalog) -> None:
    # a text the extraction missed but whose words run as a template's do (aniso8601's `Second must be between
    # 0..60 ...` beside `Hour must be between 0..24 ...`): that template's site is the better guess
    r = explain(lib, "Second must be between 0..60 with 60 representing a leap second.")
    assert r.matches[0].qualname == "check_hour" and r.matches[0].method != "class"
