"""A message raised through a class returned by a call (issue 17's ninetieth round, ``extract/returnedclass.py``).

codext 1.16.5's ``handle_error`` raises ``getattr(builtins, exc)(f"'{ename}' codec can't decode ...")`` with a
class made at run time (``PolybiusDecodeError``, in no catalog); its base-2^n codec raises its own
``Base2NDecodeError(f"'base{n}' codec can't decode character ...")``.  The generic site's template was the whole
expression, so ``'polybius' codec can't decode character 'B' in position 0`` went, confidently, to the base-2^n
raise (every word but ``base`` shared).  zope.tales 7.0 raises ``engine.getCompilerError()('Path element may not
be empty in %r' % path)``, its class ``CompilerError`` never named at the raise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from codecshape import BASE2N, COMMON
from errdex.catalog.base import Catalog
from errdex.match import explain
from talesshape import ENGINE

EXPRESSIONS = '''
class Kinds:
    SYNTAX = "syntax"


class SubPathExpr:
    def __init__(self, path, engine):
        for element in path.split("/"):
            if not element:
                raise engine.getCompilerError()(
                    'Path element may not be empty in %r' % path)
            if not element.isidentifier():
                raise engine.getCompilerError()('Invalid variable name "%s"' % element)
        self._path = path


class StringExpr:
    def __init__(self, text, engine):
        if text.count("'") % 2:
            raise engine.errorFor(Kinds.SYNTAX)("Unterminated string literal at %d" % text.index("'"))
        self._text = text
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "returned", "codekit", {
        "__init__.py": "", "common.py": COMMON, "base2n.py": BASE2N, "engine.py": ENGINE,
        "expressions.py": EXPRESSIONS})


@pytest.mark.parametrize("pasted", [
    "'polybius' codec can't decode character 'B' in position 0",
    "PolybiusDecodeError: 'polybius' codec can't decode character 'B' in position 0",
    "A1z26EncodeError: 'a1z26' codec can't encode character '1' in position 4",
])
def test_the_run_time_class_text_names_the_generic_raise(lib: Catalog, pasted: str) -> None:
    top = explain(lib, pasted).matches[0]
    assert (top.path, top.qualname) == ("codekit/common.py", "handle_error.<locals>._handle_error"), (
        top.path, top.template, top.score)


@pytest.mark.parametrize("pasted", [
    "codekit.engine.CompilerError: Path element may not be empty in 'ab//cd'",
    "Path element may not be empty in '/ab/cd '",
])
def test_the_returned_class_text_names_the_raise(lib: Catalog, pasted: str) -> None:
    found = explain(lib, pasted)
    top = found.matches[0]
    assert (top.path, top.line, top.method) == ("codekit/expressions.py", 10, "exact"), (top.path, top.line, top.template)
    assert found.confident


def test_a_returned_class_written_with_a_capitalised_argument_is_still_unknown(lib: Catalog) -> None:
    # `engine.errorFor(Kinds.SYNTAX)`: its last dotted part (`SYNTAX)`) is no class name; the class printed is
    # one the site may raise (``rank.class_known``), so the exact reading stays confident
    found = explain(lib, "codekit.engine.CompilerError: Unterminated string literal at 4")
    assert (found.matches[0].qualname, found.matches[0].method) == ("StringExpr.__init__", "exact")
    assert found.confident, found.matches[0].score
