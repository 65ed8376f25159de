"""``raise self.X`` where the class's methods assign ``self.X`` only instances of one class (or ``None``):
the raise is that class, and its text is what the class prints.  Arpeggio 2.0.3's ``Parser`` keeps its
furthest failure (``self.nm = NoMatch([rule], position, parser)``) and raises it (``raise self.nm``);
``NoMatch.__str__`` builds the text (captured: ``Expected 'two' at position (1, 4) => 'one* two three'.``),
which the site lost as an untyped ``self.nm``.  An attribute assigned two classes stays untyped.
The package is written in its shape."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

PARSER = '''
    class NoMatch(Exception):
        def __init__(self, rules, position, parser):
            self.rules = rules
            self.position = position
            self.parser = parser

        def eval_attrs(self):
            if not self.rules:
                self.message = "Not expected input"
            else:
                self.message = "Expected {}".format(" or ".join(r.name for r in self.rules))
            self.line, self.col = self.parser.pos_to_linecol(self.position)

        def __str__(self):
            self.eval_attrs()
            return "{} at position {} => '{}'.".format(self.message, (self.line, self.col),
                                                       self.parser.context(self.position))


    class Parser:
        def __init__(self):
            self.nm = None
            self.last = None

        def _nm_raise(self, rule, position, parser):
            if self.nm is None or position > self.nm.position:
                self.nm = NoMatch([rule], position, parser)
            else:
                self.nm.rules.append(rule)
            raise self.nm

        def remember(self, err):
            self.last = ValueError(str(err)) if err else KeyError(err)

        def fail(self):
            self.last = TypeError("bad")
            raise self.last

        def fail_again(self):
            raise self.last
'''


def _sites(tmp_path: Path) -> dict[str, tuple[str, list[str]]]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "parser.py").write_text(textwrap.dedent(PARSER))
    return {s.qualname: (s.exception_resolved, [t.render() for t in s.templates])
            for s in extract_dir(tmp_path).sites}


def test_a_raised_attribute_is_the_class_its_methods_assign(tmp_path: Path) -> None:
    assert _sites(tmp_path)["Parser._nm_raise"] == (
        "pkg.parser.NoMatch", ["{self.message} at position ({self.line}, {self.col}) => '{self.parser.context(self.position)}'."])


def test_an_attribute_assigned_two_classes_stays_untyped(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    assert sites["Parser.fail_again"] == ("self.last", [""])
    # assigned right before the raise (issue 17's fifty-ninth round, ``prebuilt.just_assigned``): that object
    assert sites["Parser.fail"] == ("TypeError", ["bad"])
