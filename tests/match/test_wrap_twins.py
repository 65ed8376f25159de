"""A wrapper around a text that two sites raise (omegaconf 2.4.0: ``MissingMandatoryValue while resolving
interpolation: {exc}`` is raised by ``base.py`` and by ``omegaconf.py``, and ``format_and_raise`` frames it
with ``\\n    full_key: ...``).  ``wrap.find_wraps`` compares one representative of a text raised at several
sites; the other site, left unwrapped, scored above the frame and was the answer for the framed message.
``wrap.wrapped_pairs`` ranks every candidate with the wrapped text below its wrapper.  A wrapped template
with a placeholder at each end is wrapped when the first prints a class's name (``{type(exc).__name__} raised
while resolving interpolation: {exc}``) and the value starts with one word before its first literal
(``wrap.wholly``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

ERRORS = '''
class ConfError(Exception):
    """Any configuration error."""


class MissingValue(ConfError):
    """A mandatory value is missing."""


def frame(msg, key, node):
    raise ConfError(f"{msg}\\n    full_key: {key}\\n    object_type={type(node).__name__}")
'''

BASE = '''
from conf.errors import ConfError, MissingValue


def lookup(node, key):
    if key not in node:
        raise MissingValue(f"Missing mandatory value: {key}")
    return node[key]


def resolve(node, key):
    try:
        return lookup(node, key)
    except MissingValue as exc:
        raise ConfError(f"MissingValue while resolving interpolation: {exc}")
'''

SELECT = '''
from conf.base import lookup
from conf.errors import ConfError, MissingValue


def select(node, key):
    try:
        return lookup(node, key)
    except MissingValue as exc:
        raise ConfError(f"MissingValue while resolving interpolation: {exc}")


def evaluate(resolver, key):
    try:
        return resolver(key)
    except Exception as exc:
        raise ConfError(f"{type(exc).__name__} raised while resolving interpolation: {exc}")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "wrap_twins", "conf",
                               {"__init__.py": "", "errors.py": ERRORS, "base.py": BASE, "select.py": SELECT})


def test_the_frame_outranks_every_site_of_the_text_it_wraps(lib: Catalog) -> None:
    r = explain(lib, "MissingValue while resolving interpolation: Missing mandatory value: b\n"
                     "    full_key: a\n    object_type=dict")
    assert r.matches[0].qualname == "frame"
    below = [m.qualname for m in r.matches[1:]]
    assert "resolve" in below and "select" in below


def test_the_unframed_text_is_the_tie_of_its_two_sites(lib: Catalog) -> None:
    top = explain(lib, "MissingValue while resolving interpolation: Missing mandatory value: b").matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"resolve", "select"}
    assert not top.confident


def test_a_template_opening_with_a_class_name_is_wrapped(lib: Catalog) -> None:
    r = explain(lib, "ValueError raised while resolving interpolation: boom\n    full_key: a\n    object_type=dict")
    assert r.matches[0].qualname == "frame"
    assert "evaluate" in [m.qualname for m in r.matches[1:]]
    top = explain(lib, "ValueError raised while resolving interpolation: boom").matches[0]
    assert top.qualname == "evaluate"

