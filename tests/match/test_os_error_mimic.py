"""The interpreter's ``ImportError`` and the operating system's ``OSError`` texts, copied by a library
(plumbum 2.0.2, round 16).  ``from plumbum.cmd import non_exist`` fails with CPython's ``cannot import name
'non_exist' from 'plumbum.cmd' (/.../cmd.py)``, which plumbum's own ``ImportError(f"cannot import name
{clsname}")`` matched exactly and confidently; ``[Errno 17] File exists: 'p'`` from ``os.mkdir`` matched
``RemotePath.unlink``'s ``OSError(errno.EISDIR, os.strerror(errno.EISDIR), str(self))`` (its constants
unread, so ``[Errno {errno.EISDIR}] ...``).  Both wordings are the interpreter's (``origin.cpython_wording``):
from the message alone a library template that copies them is a guess.  And extraction reads the constants
(``stdlib_texts.os_error_value``): the template is ``[Errno 21] Is a directory: ...``, which an
``[Errno 17]`` text does not fit at all."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.extract.stdlib_texts import os_error_value
from errdex.match import explain
from errdex.match.origin import cpython_wording

REMOTE = '''
import errno
import os


class RemotePath:
    def unlink(self):
        if self.is_dir():
            raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), str(self))
        self._unlink()


class LocalCommand:
    def __getattr__(self, clsname):
        raise ImportError(f"cannot import name {clsname}")


def import_item(name):
    try:
        return __import__(name)
    except ImportError:
        raise ImportError("No module named %s" % name)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("oserr")
    db = str(root / "c.sqlite")
    index_package(root, "shellkit", {"__init__.py": "", "remote.py": REMOTE}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_the_constants_of_an_os_error_are_read(lib: Catalog) -> None:
    r = explain(lib, f"IsADirectoryError: [Errno 21] {os.strerror(21)}: '/srv/data'")
    assert r.matches and r.matches[0].qualname == "RemotePath.unlink"
    assert "[Errno 21] " in r.matches[0].template and "errno" not in r.matches[0].template
    assert not r.confident  # the operating system's own wording: any OSError prints it
    other = explain(lib, "FileExistsError: [Errno 17] File exists: '/tmp/a'")
    assert not other.confident and all(m.qualname != "RemotePath.unlink" or m.score < 0.5 for m in other.matches)


def test_pythons_import_error_is_no_confident_answer(lib: Catalog) -> None:
    r = explain(lib, "ImportError: cannot import name 'nothing' from 'shellkit.cmd' (/x/shellkit/cmd.py)")
    assert not r.confident


def test_pythons_missing_module_is_no_confident_answer(lib: Catalog) -> None:
    """`No module named 'x'` is what the import system itself raises (traitlets round 18: a
    ModuleNotFoundError from `__import__`, not its own `No module named %s`): only frames decide."""
    r = explain(lib, "No module named 'bad default'")
    assert r.matches and r.matches[0].qualname == "import_item" and not r.confident


def test_os_error_values_and_wordings() -> None:
    assert os_error_value("errno.EISDIR", []) == "21"
    assert os_error_value("os.strerror", ["errno.ENOENT"]) == os.strerror(2)
    assert os_error_value("errno.errorcode", []) is None and os_error_value("os.getcwd", []) is None
    assert cpython_wording("[Errno 2] No such file or directory: 'x'")
    assert cpython_wording("cannot import name 'x' from 'm' (unknown location)")
    assert cpython_wording("No module named 'rub'") and not cpython_wording("No module named rub in the registry")
    assert not cpython_wording("Errno 2 is not an error of ours")
