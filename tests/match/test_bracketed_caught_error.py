"""A message that quotes the error it caught in brackets at its end: formulaic 1.2.2 raises
``FactorEvaluationError(f"Unable to evaluate factor `{factor}`. [{type(e).__name__}: {e}]")``.  Pasted bare
(issue 17's round 20), ``Unable to evaluate factor `a`. [NameError: `a` is not present in the dataset or
evaluation context.]`` was read as a log line introducing a ``NameError``, whose text alone then named the
inner raise confidently.  A ``Type: text`` inside brackets that close the line is the message's own text
(``lines.enclosed``); a log line's ``[job 3] Type: text`` is unchanged.  The package is written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain, parse

MATERIALIZER = '''
class FactorEvaluationError(ValueError):
    pass


def lookup(name, context):
    if name not in context:
        raise NameError(f"`{name}` is not present in the dataset or evaluation context.")
    return context[name]


def evaluate_factor(factor, context):
    try:
        return lookup(factor, context)
    except Exception as e:
        raise FactorEvaluationError(
            f"Unable to evaluate factor `{factor}`. [{type(e).__name__}: {e}]"
        ) from e
'''

QUOTING = "Unable to evaluate factor `a`. [NameError: `a` is not present in the dataset or evaluation context.]"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "bracketed", "formlike",
                               {"__init__.py": "", "materializer.py": MATERIALIZER})


def test_an_error_quoted_in_closing_brackets_is_message_text() -> None:
    p = parse(QUOTING)
    assert (p.exception, p.message) == ("", QUOTING)
    p = parse("[job 3] NameError: name 'a' is not defined")  # a log line's tag: still the error's type
    assert (p.exception, p.message) == ("NameError", "name 'a' is not defined")


def test_the_raise_that_wrote_the_brackets_is_found(lib: Catalog) -> None:
    r = explain(lib, QUOTING)
    assert r.matches and r.matches[0].qualname == "evaluate_factor"
    assert not any(m.confident and m.qualname == "lookup" for m in r.matches)
