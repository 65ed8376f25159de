"""A message that goes on with a formatted stack without a header: eliot 1.18.0's ``MemoryLogger.write``
records ``"{}: {}".format(e, "".join(traceback.format_stack(frame)))`` for a message that failed validation,
and ``validate`` re-raises the caught error's class with those records (``raise e.__class__("\\n\\n".join(
self._failed_validations))``), so the last line reads ``TypeError: Message ... doesn't encode to JSON: ...:
File "<frozen runpy>", line 198, in _run_module_as_main`` followed by the test run's frames.  The parser took
those frames for the exception's own (innermost: a test module) and the traceback's answer was the caught
error's site.  Frames after an exception's line are text of the message (Python prints a sentence and a
header before a chained traceback's frames); without a traceback, a site found in such a message is no
certainty (a handler composed it).  The package is written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain, parse

OUTPUT = '''
import json
import traceback


class MemoryLogger:
    def __init__(self):
        self.messages = []
        self._failed = []

    def write(self, dictionary):
        try:
            self._check(dictionary)
        except TypeError as e:
            self._failed.append("{}: {}".format(e, "".join(traceback.format_stack())))
        self.messages.append(dictionary)

    def _check(self, dictionary):
        try:
            json.dumps(dictionary)
        except Exception as e:
            raise TypeError("Message %s doesn't encode to JSON: %s" % (dictionary, e))

    def validate(self):
        for dictionary in self.messages:
            try:
                self._check(dictionary)
            except TypeError as e:
                raise e.__class__("\\n\\n".join(self._failed))
'''

INNER = "Message {'unserialisable': <object object at 0x7f2a>} doesn't encode to JSON: Type is not JSON serializable: object"
STACK = '''  File "<frozen runpy>", line 198, in _run_module_as_main
  File "/srv/venv/lib/python3.13/site-packages/_pytest/runner.py", line 184, in pytest_runtest_call
    item.runtest()
  File "/srv/tests/test_output.py", line 151, in test_custom_encoder
    logger.write(
'''
LAST_LINE = "TypeError: " + INNER + ": " + STACK
MESSAGE = INNER + ": " + STACK
TRACEBACK = f'''Traceback (most recent call last):
  File "/srv/venv/lib/python3.13/site-packages/mlog/output.py", line 27, in validate
    self._check(dictionary)
  File "/srv/venv/lib/python3.13/site-packages/mlog/output.py", line 22, in _check
    raise TypeError("Message %s doesn't encode to JSON: %s" % (dictionary, e))
TypeError: {INNER}

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/tests/test_output.py", line 160, in test_custom_encoder
    logger.validate()
  File "/srv/venv/lib/python3.13/site-packages/mlog/output.py", line 29, in validate
    raise e.__class__("\\n\\n".join(self._failed))
{LAST_LINE}'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "stack", "mlog", {"__init__.py": "", "output.py": OUTPUT})


def test_the_quoted_stack_is_message_text() -> None:
    p = parse(TRACEBACK)
    assert p.exception == "TypeError" and p.message.startswith(INNER + ":   File \"<frozen runpy>\"")
    assert p.message.endswith("logger.write(")
    assert [(f.path.rsplit("/", 1)[-1], f.line) for f in p.frames] == [("test_output.py", 160), ("output.py", 29)]
    last = parse(LAST_LINE)
    assert last.exception == "TypeError" and not last.frames and last.message.startswith(INNER)
    alone = parse(MESSAGE)
    assert alone.exception == "" and not alone.frames and alone.message.startswith(INNER)


def test_an_exception_line_followed_by_a_stack_on_its_own_lines() -> None:
    # `f"{e}:\n{''.join(traceback.format_tb(tb))}"`: the stack starts on the line after the exception's
    text = TRACEBACK.replace(LAST_LINE, "TypeError: " + INNER + ":\n" + STACK)
    p = parse(text)
    assert p.exception == "TypeError" and [f.line for f in p.frames] == [160, 29]


def test_the_re_raise_is_the_tracebacks_answer(lib: Catalog) -> None:
    r = explain(lib, TRACEBACK)
    assert r.matches and (r.matches[0].qualname, r.matches[0].line) == ("MemoryLogger.validate", 29)


@pytest.mark.parametrize("text", [LAST_LINE, MESSAGE])
def test_a_site_of_the_text_before_the_stack_is_no_certainty(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches and r.matches[0].line == 22 and not r.confident
