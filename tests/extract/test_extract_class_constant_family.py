"""A caller's argument in the class's own text (issue 17's thirty-seventh round): xmlschema 4.3.2's
``GlobalMaps.__getitem__`` builds ``msg = _('global {} {!r} not found').format(self.label, qname)`` and
raises ``XMLSchemaKeyError(msg)``.  ``label`` is a class constant each subclass sets (``'attribute'``,
``'element'``...), and a ``KeyError`` prints the repr of its one argument: ``"global attribute 'wrong' not
found"``, double-quoted since the name shown with ``!r`` is a string.  The site read only the base's
``'global component {qname} not found'``."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

EXCEPTIONS = '''
    class SchemaError(Exception):
        pass


    class SchemaKeyError(SchemaError, KeyError):
        pass
'''

BUILDERS = '''
    from .exceptions import SchemaKeyError


    class GlobalMap:
        label = 'component'

        def __init__(self):
            self._store = {}
            self.kind = 'map'

        def __getitem__(self, qname):
            try:
                return self._store[qname]
            except KeyError:
                msg = 'global {} {!r} not found'.format(self.label, qname)
                raise SchemaKeyError(msg) from None

        def lookup(self, name):
            if name not in self._store:
                raise SchemaKeyError(f"no {self.kind} named {name}")


    class AttributeMap(GlobalMap):
        label = 'attribute'


    class ElementMap(GlobalMap):
        label = 'element'
'''


def _result(tmp_path: Path) -> object:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (tmp_path / "pkg" / "builders.py").write_text(textwrap.dedent(BUILDERS))
    return extract_dir(tmp_path)


def _texts(result: object, qualname: str) -> list[str]:
    return [t.render() for t in site_in(result, "pkg/builders.py", qualname).templates]  # type: ignore[arg-type]


def test_the_subclasses_constants_and_the_key_repr_quotes(tmp_path: Path) -> None:
    assert _texts(_result(tmp_path), "GlobalMap.__getitem__") == [
        '"global component {qname} not found"',
        '"global attribute {qname} not found"',
        '"global element {qname} not found"',
    ]


def test_an_instance_attribute_stays_a_placeholder_in_single_quotes(tmp_path: Path) -> None:
    # an instance attribute set in __init__, no class constant: the placeholder as before; nothing shown with
    # !r and no `'` in the text: the repr quotes with `'`
    assert _texts(_result(tmp_path), "GlobalMap.lookup") == ["'no {self.kind} named {name}'"]
