"""Test expectations: the shapes of pytest.raises / assertRaises and how their patterns resolve."""

from __future__ import annotations

import ast
import re

import pytest

from errdex.extract.facts import collect_facts
from errdex.model import TestExpectation


def _tests(source: str) -> list[TestExpectation]:
    options, tests = collect_facts(ast.parse(source), "tests/x_test.py", source, True)
    assert options == []
    return tests


@pytest.mark.parametrize(("body", "style", "exc", "pattern"), [
    ("with pytest.raises(ValueError, match='bad value'):\n        f()", "pytest.raises", "ValueError", "bad value"),
    ("with pytest.raises(ValueError):\n        f()", "pytest.raises", "ValueError", None),
    ("pytest.raises(KeyError, f, 1)", "pytest.raises", "KeyError", None),
    ("with self.assertRaises(TypeError):\n        f()", "assertRaises", "TypeError", None),
    ("self.assertRaises(TypeError, f, 1)", "assertRaises", "TypeError", None),
    ("with self.assertRaisesRegex(RuntimeError, 'no_tracing'):\n        f()", "assertRaisesRegex",
     "RuntimeError", "no_tracing"),
    ("self.assertRaisesRegex(TypeError, 'Expected a callable.*', f, 3)", "assertRaisesRegex", "TypeError",
     "Expected a callable.*"),
    ("with pytest.warns(UserWarning, match='careful'):\n        f()", "pytest.warns", "UserWarning", "careful"),
    ("with pytest.raises(ValueError, match=re.escape('a (b)')):\n        f()", "pytest.raises", "ValueError",
     re.escape("a (b)")),
    ("with pytest.raises(ValueError, match=f'got {n} items'):\n        f()", "pytest.raises", "ValueError",
     "got .* items"),
    ("msg = 'shape mismatch'\n    with self.assertRaisesRegex(ValueError, msg):\n        f()", "assertRaisesRegex",
     "ValueError", "shape mismatch"),
    ("with self.assertRaisesWithLiteralMatch(ValueError, 'x (y)'):\n        f()",
     "assertRaisesWithLiteralMatch", "ValueError", re.escape("x (y)")),
    ("with pytest.raises(jax.errors.ConcretizationTypeError):\n        f()", "pytest.raises",
     "jax.errors.ConcretizationTypeError", None),
])
def test_expectation_shapes(body: str, style: str, exc: str, pattern: str | None) -> None:
    src = f"import re\nimport pytest\n\ndef test_it(self=None):\n    {body}\n"
    (t,) = _tests(src)
    assert (t.style, t.exception, t.pattern, t.test_name, t.path) == (style, exc, pattern, "test_it", "tests/x_test.py")


def test_tuple_of_types_gives_one_expectation_each() -> None:
    src = "def test_it():\n    with pytest.raises((KeyError, IndexError)):\n        f()\n"
    assert [t.exception for t in _tests(src)] == ["KeyError", "IndexError"]


def test_code_and_imports_are_what_an_example_needs() -> None:
    src = ("import jax\nimport os\n\n\nclass T:\n    def test_x(self):\n        '''Doc.'''\n        y = jax.f(1)\n"
           "        with self.assertRaisesRegex(RuntimeError, 'boom'):\n            jax.g(y)\n")
    (t,) = _tests(src)
    assert t.test_name == "T.test_x" and t.line == 9
    assert t.code == "y = jax.f(1)\nwith self.assertRaisesRegex(RuntimeError, 'boom'):\n    jax.g(y)"
    assert t.imports == ("import jax",)


def test_pytest_raises_alone_is_not_an_expectation_and_library_files_have_none() -> None:
    assert _tests("def test_it():\n    r = pytest.raises(ValueError)\n") == []
    src = "def test_it():\n    with pytest.raises(ValueError):\n        f()\n"
    assert collect_facts(ast.parse(src), "pkg/mod.py", src, False) == ([], [])
