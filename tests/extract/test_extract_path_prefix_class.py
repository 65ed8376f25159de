"""An exception class that prefixes its text only when given a path, and a re-raise of a caught error's text
that reaches the raising helper through star imports (construct 2.10.70's shapes: ``ConstructError.__init__``
does ``if path is None: super().__init__(message)`` else ``"Error in path {}\\n".format(path) + message``;
``raise NamedTupleError("subcon is neither ...")`` passes no path and prints the bare text;
``except ValueError as e: raise IntegerError(str(e), path=path)`` around ``integer2bytes(...)``, which
``core.py`` has from ``from construct.lib import *`` and ``lib/__init__.py`` from ``lib/binary.py``, prints
``Error in path (building)\\nnumber -1 does not fit width 8, signed False``).  The package is written in
their shape."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir

FILES = {
    "__init__.py": "from pkg.core import *\n",
    "lib/__init__.py": "from pkg.lib.binary import *\n",
    "lib/binary.py": '''
def integer2bytes(number, width, signed=False):
    if width < 0:
        raise ValueError(f"width {width} must be positive")
    if not signed and number < 0:
        raise ValueError(f"number {number} does not fit width {width}, signed {signed}")
    return b""
''',
    "core.py": '''
from pkg.lib import *


class ConstructError(Exception):
    def __init__(self, message='', path=None):
        self.path = path
        if path is None:
            super().__init__(message)
        else:
            message = "Error in path {}\\n".format(path) + message
            super().__init__(message)


class IntegerError(ConstructError):
    pass


class NamedTupleError(ConstructError):
    pass


class BytesInteger:
    def _build(self, obj, stream, context, path):
        try:
            data = integer2bytes(obj, self.length, self.signed)
        except ValueError as e:
            raise IntegerError(str(e), path=path)
        return data


class NamedTuple:
    def __init__(self, subcon):
        if not isinstance(subcon, tuple):
            raise NamedTupleError("subcon is neither Struct Sequence Array GreedyRange")

    def _sizeof(self, context, path):
        raise IntegerError("cannot calculate size", path=path)
''',
}


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    for name, text in FILES.items():
        p = tmp_path / "pkg" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_a_raise_leaving_the_path_out_prints_the_branch_for_none(tmp_path: Path) -> None:
    got = _templates(tmp_path)
    assert got["NamedTuple.__init__"] == ["subcon is neither Struct Sequence Array GreedyRange"]
    assert got["NamedTuple._sizeof"] == ["Error in path {path}\ncannot calculate size"]


def test_a_caught_text_reaches_the_helper_through_star_imports(tmp_path: Path) -> None:
    assert "Error in path {path}\nnumber {number} does not fit width {width}, signed {signed}" in _templates(
        tmp_path)["BytesInteger._build"]
