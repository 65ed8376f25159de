"""A caught error's text raised again inside a frame of the class's own: typedload 2.41 catches
``ValueError('Extra field: %s' % k)`` from a helper and raises ``TypedloadValueError(str(e), value=...)``,
whose ``__str__`` prints ``<text>\\nPath: .`` and, only when the error holds sub-errors, an ``Exceptions:``
list.  The caught ``ValueError`` was named confidently for the message alone (``Extra field:
value\\nPath: .``, its placeholder taking the ``Path`` line): the frame's variants (two paths times the
sub-error lists) passed the cap of eight before the plain one, printed when there are no sub-errors, was
reached.  ``variants.capped`` now keeps each option's first; with the plain frame the re-raise verifies
(``{e}\\nPath: .``) and wraps the caught text (``match/wrap.py``).  The package is written in typedload's shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.extract.ir import Piece
from errdex.extract.variants import MAX_TEMPLATES, capped
from errdex.match import explain
from errdex.model import Segment

EXCEPTIONS = '''
class TraceItem:
    def __init__(self, type_, annotation=None):
        self.type_ = type_
        self.annotation = annotation


class LoadException(Exception):
    def __init__(self, description, trace=None, value=None, type_=None, exceptions=None):
        super().__init__(description)
        self.trace = trace if trace else []
        self.value = value
        self.type_ = type_
        self.exceptions = exceptions if exceptions else []

    @staticmethod
    def _path(trace):
        path = []
        for i in trace:
            path.append(str(i.annotation[1]) if i.annotation else str(None))
        if len(path) == 1 and path[0] == str(None):
            return '.'
        elif len(path) > 1 and path[0] == str(None):
            path[0] = ''
        return '.'.join(path)

    def _subexceptions(self, indent, trace):
        spaces = '  ' * indent
        msg = spaces + 'Exceptions:\\n'
        for i in self.exceptions:
            msg += i._firstline(indent + 1) + '\\n'
            msg += spaces + '  ' 'Path: ' + self._path(self.trace + i.trace[1:]) + '\\n'
            if i.exceptions:
                msg += i._subexceptions(indent + 1, self.trace + i.trace[1:])
        return msg

    def _firstline(self, indent):
        spaces = '  ' * indent
        return '\\n'.join(spaces + str(i) for i in self.args)

    def __str__(self):
        msg = self._firstline(0)
        msg += '\\nPath: ' + self._path(self.trace)
        if self.exceptions:
            msg += '\\n' + self._subexceptions(0, self.trace).rstrip()
        return msg


class LoadValueError(LoadException, ValueError):
    """A value that does not fit."""
'''

LOADER = '''
from tload.exceptions import LoadValueError


def _mangle_names(namesmap, value, failonextra):
    r = {}
    for k, v in value.items():
        if k in namesmap.values() and k not in namesmap:
            if failonextra:
                raise ValueError('Extra field: %s' % k)
            continue
        r[namesmap.get(k, k)] = v
    return r


def load_fields(namesmap, value, type_):
    try:
        value = _mangle_names(namesmap, value, True)
    except ValueError as e:
        raise LoadValueError(str(e), value=value, type_=type_)
    return type_(**value)


def load_int(value):
    try:
        return int(value)
    except ValueError as e:
        raise LoadValueError(str(e), value=value, type_=int)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "rewrap", "tload",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "loader.py": LOADER})


def test_the_caught_text_is_not_named_confidently_for_its_rewrap(lib: Catalog) -> None:
    r = explain(lib, "Extra field: value\nPath: .")
    top = r.matches[0]
    named = {top.qualname, *(t.qualname for t in top.tied)}
    assert "load_fields" in named
    assert not (top.confident and top.qualname == "_mangle_names")


def test_the_frame_without_sub_errors_is_kept(lib: Catalog) -> None:
    r = explain(lib, "tload.exceptions.LoadValueError: Extra field: value\nPath: .")
    top = r.matches[0]
    assert top.method == "exact" and top.template.endswith("Path: .")  # the plain frame, no `Exceptions:`
    # both re-raises print `{e}\nPath: .`: the text does not say which caught it, the group does
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"load_fields", "load_int"}


def test_past_the_cap_each_option_keeps_its_first() -> None:
    def v(text: str) -> tuple[Piece, ...]:
        return (Piece(Segment(text=text)),)
    many = tuple(v(f"with list {i}") for i in range(MAX_TEMPLATES))
    out = capped([many, (v("plain"), v("plain 2"))])
    assert len(out) == MAX_TEMPLATES and out[0] == many[0] and v("plain") in out and v("plain 2") not in out
    few = capped([(v("a"), v("b")), (v("c"),)])
    assert few == (v("a"), v("b"), v("c"))
