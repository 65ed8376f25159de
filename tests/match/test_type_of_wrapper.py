"""A caught error raised again as its own class with an edited text, ``raise type(exc)(msg)`` (pydicom
3.0.2, round 18): ``tag_in_exception`` raises ``type(exc)(f"With tag {tag} got exception: {exc}\\n{stack_trace}")``
with ``stack_trace = traceback.format_exc()``, and ``DataElement.value`` raises ``type(exc)(f"Invalid buffer for
{self.tag} '{self.name}': {exc}")``.  The raise's callee is a call, ``type(exc)``: its message was not read
(the template was ``{type(exc)}``), and the inner site answered with its own text.  The message is now the
call's argument (``msgraise.type_of``); the printed text quotes the inner traceback on the lines after its
first, which the parser keeps as the message's text (``traceback._quotes_traceback``), and the wrapper's own
text opening the message still counts although the quoted last line names the printed class
(``scope.opens``).  ``self.name`` is a property returning text or ``dictionary_description(self.tag)``: that
call's value is one of its texts (``walkclasses._record``), not dropped.  Texts as captured from pydicom's test suite (``bench/data/pydicom-3.0.2.jsonl``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.traceback import parse

TAG = '''
import traceback
from contextlib import contextmanager


def check_buffer(buffer):
    if buffer.closed:
        raise ValueError("the buffer has been closed")


@contextmanager
def tag_in_exception(tag):
    try:
        yield
    except Exception as exc:
        stack_trace = traceback.format_exc()
        msg = f"With tag {tag} got exception: {exc}\\n{stack_trace}"
        raise type(exc)(msg) from exc


def dictionary_description(tag):
    return DICTIONARY[tag][2]


class DataElement:
    @property
    def name(self):
        if self.is_private:
            return "Private Creator"
        if self.tag in DICTIONARY:
            return dictionary_description(self.tag)
        return ""

    def set_value(self, val):
        try:
            check_buffer(val)
        except Exception as exc:
            raise type(exc)(f"Invalid buffer for {self.tag} '{self.name}': {exc}")


def write_element(elem):
    if elem.is_undefined_length:
        raise ValueError(
            f"The {elem.tag} '{elem.name}' element value hasn't been encapsulated as required for a "
            "compressed transfer syntax"
        )
'''

INNER = ("The (7FE0,0010) 'Pixel Data' element value hasn't been encapsulated as required for a compressed "
         "transfer syntax")
QUOTED = (f"With tag (7FE0,0010) got exception: {INNER}\n"
          "Traceback (most recent call last):\n"
          '  File "/venv/lib/python3.13/site-packages/dicomkit/dicomkit/tag.py", line 14, in tag_in_exception\n'
          "    yield\n"
          '  File "/venv/lib/python3.13/site-packages/dicomkit/dicomkit/tag.py", line 33, in write_element\n'
          "    raise ValueError(\n"
          f"ValueError: {INNER}\n")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("typeof")
    db = str(root / "c.sqlite")
    index_package(root, "dicomkit", {"__init__.py": "", "tag.py": TAG}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


def test_the_message_of_a_caught_errors_own_class_is_read(lib: Catalog) -> None:
    r = explain(lib, "ValueError: Invalid buffer for (0040,A123) 'Person Name': the buffer has been closed")
    assert (r.matches[0].qualname, r.matches[0].method) == ("DataElement.set_value", "exact")
    assert r.matches[0].template == "Invalid buffer for {self.tag} '{dictionary_description(self.tag)}': {exc}"


@pytest.mark.parametrize("typed", [True, False])
def test_a_text_quoting_the_inner_traceback_names_the_wrapper(lib: Catalog, typed: bool) -> None:
    r = explain(lib, ("ValueError: " if typed else "") + QUOTED)
    assert r.matches[0].qualname == "tag_in_exception", [(m.qualname, m.method) for m in r.matches]
    assert r.matches[0].method == "exact"


def test_the_parser_keeps_the_quoted_traceback_in_the_message() -> None:
    p = parse("ValueError: " + QUOTED)
    assert (p.exception, p.message.split("\n", 1)[0]) == ("ValueError", QUOTED.split("\n", 1)[0])
    alone = parse(QUOTED)
    assert alone.message.startswith("With tag (7FE0,0010) got exception") and not alone.exception


def test_a_log_record_before_its_traceback_is_not_a_quote() -> None:
    # `logging.exception(f"failed: {e}")`: the record's line, then the traceback of the error itself
    log = ("ERROR:root:failed: boom\nTraceback (most recent call last):\n"
           '  File "/app/run.py", line 3, in main\n    go()\nValueError: boom\n')
    p = parse(log)
    assert (p.exception, p.message) == ("ValueError", "boom")
