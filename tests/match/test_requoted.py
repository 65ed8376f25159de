"""An error caught, its text rewritten around its own traceback's last line, and raised again from a
variable (glom 25.12.0's ``glom()``: ``err = copy.copy(e)`` or ``GlomError.wrap(e)``, ``err._finalize(...)``,
then ``raise err`` outside the ``except``): the printed text quotes ``glom.core.PathAccessError: could not
access ...`` on a later line.  The class fallback then names the raises of a caught error held in a variable
first (``scope.requotes``), and an args-tuple template of punctuation (``({e}, {path!r}, {i})``) does not
stand in its way.  The texts are captured from glom's test suite (``bench/data/glom-25.12.0.jsonl``); the
package is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.scope import requotes

CORE = '''
import copy


class GlomError(Exception):
    @classmethod
    def wrap(cls, exc):
        wrapper = type("GlomError.wrap(" + type(exc).__name__ + ")", (cls, type(exc)), {})
        return wrapper(*exc.args)

    def _finalize(self, lines):
        self._lines = lines

    def __str__(self):
        if getattr(self, "_lines", None):
            return "\\\\n".join(["error raised while processing, details below.", *self._lines])
        return self.get_message()


class PathAccessError(GlomError):
    def __init__(self, exc, path, part_idx):
        self.exc = exc
        self.path = path
        self.part_idx = part_idx

    def get_message(self):
        return "could not access %r, part %r of %r, got error: %r" % (
            self.path[self.part_idx], self.part_idx, self.path, self.exc)


def _access(target, path):
    for i, key in enumerate(path):
        try:
            target = target[key]
        except (KeyError, IndexError) as e:
            raise PathAccessError(e, path, i)
    return target


def glom(target, path):
    err = None
    try:
        ret = _access(target, path)
    except Exception as e:
        if isinstance(e, GlomError):
            err = copy.copy(e)
        else:
            err = GlomError.wrap(e)
        err._finalize([" - Target: %r" % (target,), "%s: %s" % (type(e).__name__, e)])
    if err:
        raise err
    return ret
'''

TEXT = ("error raised while processing, details below.\n Target-spec trace (most recent last):\n"
        " - Target: {'system': {'planets': [{'moons': 1, 'name': 'earth'}]}}\n"
        " - Spec: T['system']['comets'][-1].values()\n"
        "glom.core.PathAccessError: could not access 'comets', part 1 of T['system']['comets'][-1].values(), "
        "got error: KeyError('comets')")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "requoted", "glomini", {"__init__.py": "", "core.py": CORE})


def test_a_text_quoting_its_own_class_names_the_re_raise_first(lib: Catalog) -> None:
    r = explain(lib, f"glomini.core.PathAccessError: {TEXT}".replace("glom.core.", "glomini.core."))
    top = r.matches[0]
    assert (top.qualname, top.method, r.confident) == ("glom", "class", False)
    assert "_access" in [m.qualname for m in r.matches[1:]]  # where the quoted text was raised first: below


def test_the_message_alone_quoting_its_class_does_too(lib: Catalog) -> None:
    r = explain(lib, TEXT.replace("glom.core.", "glomini.core."))
    assert r.matches[0].qualname == "glom" and not r.confident


def test_requotes_reads_the_class_on_a_later_line_only() -> None:
    assert requotes("glom.core.PathAccessError", TEXT)
    assert not requotes("glom.core.PathAccessError", "glom.core.PathAccessError: could not access 'a'")
    assert not requotes("glom.core.BadSpec", TEXT)
