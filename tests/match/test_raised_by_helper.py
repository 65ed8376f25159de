"""An exception built in one function and raised by a helper it is handed to, in the shape of omegaconf
2.4.0 (captured texts from its test suite: ``Missing mandatory value: a\\n    full_key: a\\n
object_type=dict``).  ``format_and_raise`` catches every error, frames its text with ``string.Template``
(``$MSG / full_key: $FULL_KEY / object_type=$OBJECT_TYPE``), builds ``exception_type(f"{message}")`` with
``exception_type`` a local holding the caught class (``type(cause)``) or another, and hands it to
``_raise(ex, cause)``, which raises its parameter.  ``_raise``'s site was ``{ex}`` and the caught error's own
site was named confidently for the framed text (96 of omegaconf's 502 last lines).  Three rules make it the
frame: the ``string.Template`` text (``extract/msgtemplate.py``), a local holding a built instance recorded as
the argument of the helper that raises it (``walkcalls._built_instance``), and a call of a local class this
code cannot name read by the builtin rule (``msgraise``: its one argument is the text).  The frame then wraps
the caught text (``match/wrap.py``) and is the answer; the caught site is the wrapped cause."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

UTILS = '''
import string
from textwrap import dedent


class ConfBaseException(Exception):
    def __init__(self, *args):
        super().__init__(*args)
        self._initialized = False


class ConfTypeError(ConfBaseException, TypeError):
    """A value of the wrong type."""


class MissingValueError(ConfBaseException):
    """A mandatory value is missing."""


def _raise(ex, cause):
    ex.__cause__ = None
    try:
        raise ex.with_traceback(None) from None
    finally:
        del ex


def format_and_raise(node, key, value, msg, cause, type_override=None):
    if isinstance(cause, ConfBaseException) and cause._initialized:
        ex = cause
        if type_override is not None:
            ex = type_override(str(cause))
        _raise(ex, cause)
        return
    full_key = node.full_key(key)
    object_type_str = type(node).__name__
    msg = string.Template(msg).safe_substitute(KEY=key, FULL_KEY=full_key, VALUE=value)
    template = dedent("""\\
        $MSG
            full_key: $FULL_KEY
            object_type=$OBJECT_TYPE""")
    s = string.Template(template=template)
    message = s.substitute(OBJECT_TYPE=object_type_str, MSG=msg, FULL_KEY=full_key)
    exception_type = type(cause) if type_override is None else type_override
    if exception_type == TypeError:
        exception_type = ConfTypeError
    ex = exception_type(f"{message}")
    ex._initialized = True
    _raise(ex, cause)
'''

NODES = '''
from cfg._utils import MissingValueError, format_and_raise


class Node:
    def full_key(self, key):
        return str(key)

    def _get(self, key):
        raise MissingValueError(f"Missing mandatory value: {key}")

    def get(self, key):
        try:
            return self._get(key)
        except Exception as e:
            format_and_raise(node=self, key=key, value=None, msg=str(e), cause=e)
'''

FRAMED = "Missing mandatory value: a\n    full_key: a\n    object_type=Node"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "raised_by_helper", "cfg",
                               {"__init__.py": "", "_utils.py": UTILS, "nodes.py": NODES})


@pytest.mark.parametrize("text", [FRAMED, "cfg._utils.MissingValueError: " + FRAMED])
def test_the_helper_raising_the_framed_instance_is_the_answer(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname == "_raise" and top.method == "exact"
    assert top.template.startswith("{msg}\n    full_key: ")
    # the caught site's text is inside the frame: the wrapped cause, ranked below it
    assert "Node._get" in [m.qualname for m in r.matches[1:]]


def test_the_unframed_text_is_still_the_raise_of_its_own(lib: Catalog) -> None:
    top = explain(lib, "Missing mandatory value: a").matches[0]
    assert top.qualname == "Node._get" and top.method == "exact"
