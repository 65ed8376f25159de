"""A message whose detail line quotes another error: omegaconf 2.4.0 frames every error it re-raises as
``f"{msg}\\n    full_key: {full_key}\\n    object_type={object_type_str}"``, and when the key cannot be
computed the detail line reads ``full_key: <unresolvable due to ConfigCycleDetectedException: Cycle when
iterating over parents of key `x`>``.  Pasted bare (round 15, a ``RecursionError``), the parser took the
class named inside that indented line for the error's type and the rest of the line for its message, so the
cycle's own raise was the confident answer while the frame that printed the text was the truth.  A class
named inside an indented line under a first line of text is the message's text; a log line that introduces
an error sits at the margin and is unchanged.  The package is written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain, parse

ERRORS = '''
class CycleDetectedError(Exception):
    pass


class ConfigKeyError(KeyError):
    pass
'''

NODE = '''
from .errors import CycleDetectedError


class Node:
    def __init__(self, key, parent=None):
        self.key = key
        self.parent = parent

    def full_key(self):
        seen = {id(self)}
        cur = self
        while cur.parent is not None:
            cur = cur.parent
            if id(cur) in seen:
                raise CycleDetectedError(f"Cycle when iterating over parents of key `{self.key!s}`")
            seen.add(id(cur))
        return self.key


def format_and_raise(node, msg, exception_type):
    try:
        full_key = node.full_key()
    except Exception as exc:
        full_key = f"<unresolvable due to {type(exc).__name__}: {exc}>"
    object_type_str = type(node).__name__
    message = f"{msg}\\n    full_key: {full_key}\\n    object_type={object_type_str}"
    raise exception_type(message)
'''

QUOTED = ("maximum recursion depth exceeded\n"
          "    full_key: <unresolvable due to CycleDetectedError: Cycle when iterating over parents of key `x`>\n"
          "    object_type=Node")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "detail", "cfgtree",
                               {"__init__.py": "", "errors.py": ERRORS, "node.py": NODE})


def test_a_class_inside_an_indented_detail_line_is_message_text() -> None:
    p = parse(QUOTED)
    assert (p.exception, p.message) == ("", QUOTED)


def test_a_log_line_at_the_margin_still_names_the_error() -> None:
    p = parse("worker started\n2026-12-05 12:00:01 ERROR CycleDetectedError: Cycle when iterating over parents")
    assert (p.exception, p.message) == ("CycleDetectedError", "Cycle when iterating over parents")
    p = parse("  [job 3] CycleDetectedError: Cycle when iterating over parents")  # the first line: a log line
    assert (p.exception, p.message) == ("CycleDetectedError", "Cycle when iterating over parents")


def test_the_frame_that_printed_it_is_found_and_the_quoted_raise_is_not_confident(lib: Catalog) -> None:
    r = explain(lib, QUOTED)
    assert r.matches and r.matches[0].qualname == "format_and_raise"
    assert not any(m.confident and m.qualname == "Node.full_key" for m in r.matches)
    # the quoted error pasted alone is still its own raise's
    alone = explain(lib, "CycleDetectedError: Cycle when iterating over parents of key `x`")
    assert alone.matches[0].qualname == "Node.full_key"
