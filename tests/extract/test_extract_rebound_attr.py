"""A class constant that a method assigns again through ``self`` is no constant where the methods read it
through ``self``: simpleeval 1.0.8's ``SimpleEval`` has ``expr = ""`` in its body and ``eval(expr)`` sets
``self.expr = expr`` before evaluating, so ``raise OperatorNotDefined(node.op, self.expr)`` prints the
expression being evaluated (captured: ``Operator '<ast.Invert object at 0x7f80b160f450>' does not exist in
expression '~ 2'``), not ``''``.  A class constant no method assigns stays a constant.
The package is written in its shape."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

EVAL = '''
    class InvalidExpression(Exception):
        """Generic Exception"""


    class OperatorNotDefined(InvalidExpression):
        """operator does not exist"""

        def __init__(self, attr, expression):
            self.message = f"Operator '{attr}' does not exist in expression '{expression}'"
            self.attr = attr
            self.expression = expression
            super(InvalidExpression, self).__init__(self.message)


    class SimpleEval:
        expr = ""
        kind = "simple"

        def __init__(self, operators=None):
            self.operators = operators or {}

        def eval(self, expr):
            self.expr = expr
            return self._eval(expr)

        def _eval_unaryop(self, node):
            try:
                operator = self.operators[type(node.op)]
            except KeyError:
                raise OperatorNotDefined(node.op, self.expr)
            return operator(node.operand)

        def _check_kind(self, node):
            if node is None:
                raise OperatorNotDefined(node, self.kind)
'''


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "core.py").write_text(textwrap.dedent(EVAL))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_an_attribute_another_method_assigns_is_a_placeholder(tmp_path: Path) -> None:
    assert _templates(tmp_path)["SimpleEval._eval_unaryop"] == [
        "Operator '{node.op}' does not exist in expression '{self.expr}'"]


def test_an_attribute_only_init_assigns_stays_its_constant(tmp_path: Path) -> None:
    assert _templates(tmp_path)["SimpleEval._check_kind"] == ["Operator '{node}' does not exist in expression 'simple'"]
