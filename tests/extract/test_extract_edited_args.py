"""A caught exception raised again after its handler rewrote ``e.args`` (asn1crypto 1.5.1, round 22:
seventeen ``except (ValueError, TypeError) as e: e.args = (e.args[0] + '\\n    while constructing %s' %
type_name(self),) + args; raise e``).  The raise prints the text the handler wrote, not a bare ``{e}``:
read as ``{e}``, each handler tied with every ``ValueError`` of the package (``tied_count: 18``)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract.edited import edited_text

FILES = '''
    def type_name(value):
        return value.__class__.__name__


    class Asn1Value:
        def __init__(self, contents=None):
            try:
                self.set(contents)
            except (ValueError, TypeError) as e:
                args = e.args[1:]
                e.args = (e.args[0] + '\\n    while constructing %s' % type_name(self),) + args
                raise e

        def parse(self):
            try:
                self._parse()
            except ValueError as exc:
                exc.args = (f"while parsing {type_name(self)}: {exc.args[0]}", *exc.args[1:])
                raise exc

        def load(self):
            try:
                self._load()
            except ValueError as e:
                raise e
'''


def test_the_handlers_text_is_the_re_raises(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "core.py").write_text(textwrap.dedent(FILES))
    found = {s.qualname: sorted({t.render() for t in s.templates}) for s in extract_dir(tmp_path).sites}
    assert found["Asn1Value.__init__"] == ["{e.args[0]}\n    while constructing {type_name(self)}"]
    assert found["Asn1Value.parse"] == ["while parsing {type_name(self)}: {exc.args[0]}"]
    assert found["Asn1Value.load"] == ["{e}"]  # nothing edited: the caught text, unknown


def _handler(code: str) -> ast.ExceptHandler:
    tree = ast.parse(textwrap.dedent(code))
    return next(n for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler))


def test_which_assignments_are_an_edit() -> None:
    one = _handler("try:\n    f()\nexcept ValueError as e:\n    e.args = ('x: ' + e.args[0],)\n    raise e\n")
    got = edited_text(one, "e")
    assert got is not None and ast.unparse(got) == "'x: ' + e.args[0]"
    assert edited_text(one, "err") is None  # another name's args
    grown = _handler("try:\n    f()\nexcept ValueError as e:\n    e.args += ('more',)\n    raise e\n")
    assert edited_text(grown, "e") is None  # an extra argument: str(e) prints a tuple
    made = _handler("try:\n    f()\nexcept ValueError as e:\n    e.args = make(e)\n    raise e\n")
    assert edited_text(made, "e") is None
    two = _handler("try:\n    f()\nexcept ValueError as e:\n    if c:\n        e.args = ('a',)\n"
                   "    else:\n        e.args = ('b',)\n    raise e\n")
    assert edited_text(two, "e") is None  # two texts: neither is sure
    inner = _handler("try:\n    f()\nexcept ValueError as e:\n    def g():\n        e.args = ('a',)\n    raise e\n")
    assert edited_text(inner, "e") is None  # a function defined there may never run
