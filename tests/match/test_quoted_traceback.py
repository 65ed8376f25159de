"""A message that quotes another program's traceback: python-crontab 3.4.0 raises
``IOError(f"Read crontab {self.user}: {process.stderr}")`` with the stderr of a ``crontab`` program that
itself died of a Python error, so the last line reads ``OSError: Read crontab error: Traceback (most
recent call last):`` followed by the child's frames and its ``ValueError: ...``.  The parser took the
child's last line for the error and the child's frames for the library's, and missed even with the full
traceback.  The frames and last line after a header that ends a message's line are text of the message.
The package is written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain, parse

TABLE = '''
import subprocess


class Table:
    def __init__(self, user=None):
        self.user = user
        self.lines = []

    def read(self):
        process = subprocess.run(["crontab", "-l", "-u", self.user], capture_output=True, text=True)
        if process.stderr and "no table for" not in process.stderr:
            raise IOError(f"Read table {self.user}: {process.stderr}")
        self.lines = process.stdout.split("\\n")

    def write(self):
        process = subprocess.run(["crontab", "-"], input="\\n".join(self.lines), capture_output=True, text=True)
        if process.returncode:
            raise IOError(f"Program Error: crontab returned {process.returncode}: {process.stderr}")
'''

CHILD = '''Traceback (most recent call last):
  File "/srv/tests/data/fakecron", line 49, in <module>
    main()
    ~~~~^^
  File "/srv/tests/data/fakecron", line 30, in main
    raise ValueError("Deliberate IO Error")
ValueError: Deliberate IO Error
'''

TRACEBACK = '''Traceback (most recent call last):
  File "/srv/tests/test_usage.py", line 143, in test_ioerror_read
    table.read()
    ~~~~~~~~~~^^
  File "/srv/venv/lib/python3.13/site-packages/qtab/table.py", line 13, in read
    raise IOError(f"Read table {self.user}: {process.stderr}")
OSError: Read table error: ''' + CHILD

LAST_LINE = "OSError: Read table error: " + CHILD
MESSAGE = "Read table error: " + CHILD


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "quoted", "qtab", {"__init__.py": "", "table.py": TABLE})


def test_the_quoted_traceback_is_message_text() -> None:
    p = parse(TRACEBACK)
    assert (p.exception, p.message.split("\n", 1)[0]) == ("OSError", "Read table error: Traceback (most recent call last):")
    assert p.message.endswith("ValueError: Deliberate IO Error")
    assert [(f.path.rsplit("/", 1)[-1], f.line) for f in p.frames] == [("test_usage.py", 143), ("table.py", 13)]
    assert parse(LAST_LINE).exception == "OSError" and not parse(LAST_LINE).frames
    alone = parse(MESSAGE)
    assert alone.exception == "" and alone.message.startswith("Read table error: Traceback") and not alone.frames


def test_a_log_prefix_before_a_traceback_is_not_a_message() -> None:
    # a log line's prefix ends in no colon and is no exception line: the traceback after it is the error's
    p = parse("[ERROR] worker died Traceback (most recent call last):\n" + CHILD.split("\n", 1)[1])
    assert (p.exception, p.message) == ("ValueError", "Deliberate IO Error")
    # and a chain's own header at the margin is unchanged
    assert parse(CHILD).exception == "ValueError"


@pytest.mark.parametrize("text", [TRACEBACK, LAST_LINE, MESSAGE])
def test_the_raise_that_quoted_it_is_found(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches and r.matches[0].qualname == "Table.read"
