"""An exception class whose ``__str__`` frames its arguments: ``'\\n'.join(spaces + str(i) for i in
self.args)`` (``spaces = '  ' * indent``) then ``'\\nPath: ' + path``.  typedload 2.41's
``TypedloadException`` prints that way (captured: ``Got 1 of type int, expected str\\nPath: .``); its raises
had lost their own text (the join over a generator was unread) and were left with the frame alone.  Two
raises of one first line whose frames differ score level with a pasted message: neither is named
confidently (in typedload; not reproduced in this package).  The package is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTIONS = '''
class LoadError(Exception):
    def __init__(self, description, value=None, trace=None, exceptions=None):
        super().__init__(description)
        self.value = value
        self.trace = trace or []
        self.exceptions = exceptions or []

    def _path(self):
        path = [str(t) for t in self.trace]
        if not path:
            return '.'
        return '.'.join(path)

    def _firstline(self, indent):
        spaces = '  ' * indent
        return '\\n'.join(spaces + str(i) for i in self.args)

    def __str__(self):
        msg = self._firstline(0)
        msg += '\\nPath: ' + self._path()
        if self.exceptions:
            msg += '\\nExceptions:\\n' + '\\n'.join(str(e) for e in self.exceptions)
        return msg


class LoadTypeError(LoadError, TypeError):
    """A value of the wrong type."""
'''

LOADER = '''
from tload.exceptions import LoadTypeError


def basic(value, type_):
    if type(value) is not type_:
        raise LoadTypeError('Got %s of type %s, expected %s' % (repr(value), type(value).__name__, type_.__name__),
                            value=value)
    return value


def fields(value, needed):
    missing = needed - set(value)
    if missing:
        raise LoadTypeError('Value does not contain fields: %s' % missing, value=value)
    return value


def other(value, type_):
    raise LoadTypeError('Got %s of type %s, expected %s' % (repr(value), type(value).__name__, type_.__name__),
                        value=value, trace=[type_], exceptions=[ValueError(type_)])
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "framed", "tload",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "loader.py": LOADER})


@pytest.mark.parametrize("text", ["tload.exceptions.LoadTypeError: Value does not contain fields: {'a'}\nPath: .",
                                  "Value does not contain fields: {'a'}\nPath: ."])
def test_the_raise_keeps_its_own_text_inside_the_frame(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches[0].qualname == "fields"
    assert r.matches[0].template.startswith("Value does not contain fields: ")  # no indentation hole before it

