"""An exception class that builds its text with a helper which edits the caller's text: hjson 3.1.0's
``HjsonDecodeError.__init__`` calls ``errmsg(msg, doc, pos)``, which does ``msg = msg.replace('%r',
repr(doc[pos:pos + 1]))`` and returns ``'%s: line %d column %d (char %d)' % (msg, ...)``.  The local
rebound to ``msg.replace(...)`` was read as an opaque value, so every raise of the class had the frame
alone (``{}: line {} column {} (char {})``) and twenty sites tied on any message.  ``text.replace(old,
new)`` with a literal ``old`` is now the text with ``old`` replaced (``new`` a placeholder, or its literal
text).  The package is written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.extract.ir import REPLACE_SEP, REPLACED, Piece
from errdex.extract.textops import transform
from errdex.match import explain
from errdex.model import Segment

SCANNER = '''
class DecodeError(ValueError):
    """A document that does not parse."""

    def __init__(self, msg, doc, pos, end=None):
        ValueError.__init__(self, errmsg(msg, doc, pos, end=end))
        self.msg = msg
        self.doc = doc
        self.pos = pos


def linecol(doc, pos):
    lineno = doc.count('\\n', 0, pos) + 1
    if lineno == 1:
        colno = pos + 1
    else:
        colno = pos - doc.rindex('\\n', 0, pos)
    return lineno, colno


def errmsg(msg, doc, pos, end=None):
    lineno, colno = linecol(doc, pos)
    msg = msg.replace('%r', repr(doc[pos:pos + 1]))
    if end is None:
        fmt = '%s: line %d column %d (char %d)'
        return fmt % (msg, lineno, colno, pos)
    endlineno, endcolno = linecol(doc, end)
    fmt = '%s: line %d column %d - line %d column %d (char %d - %d)'
    return fmt % (msg, lineno, colno, endlineno, endcolno, pos, end)
'''

DECODER = '''
from qjson.scanner import DecodeError


def scanstring(s, end, strict=True):
    chunks = []
    while 1:
        if end >= len(s):
            raise DecodeError("Unterminated string starting at", s, end - 1)
        ch = s[end]
        if ch == '"':
            return ''.join(chunks), end + 1
        if ch < ' ' and strict:
            msg = "Invalid control character %r at"
            raise DecodeError(msg, s, end)
        if ch == '\\\\' and s[end + 1:end + 2] == 'u' and len(s[end + 2:end + 6]) != 4:
            msg = "Invalid \\\\uXXXX escape sequence"
            raise DecodeError(msg, s, end)
        chunks.append(ch)
        end += 1


def key_name(s, end):
    if end >= len(s):
        raise DecodeError("Bad key name (eof)", s, end)
    return s[end:]


def decode(s):
    if not s.strip():
        raise DecodeError("Expecting value", s, 0)
    return scanstring(s, 1)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "replaced", "qjson",
                               {"__init__.py": "", "scanner.py": SCANNER, "decoder.py": DECODER})


@pytest.mark.parametrize(("text", "qualname"), [
    ("qjson.scanner.DecodeError: Bad key name (eof): line 1 column 5 (char 4)", "key_name"),
    ("Bad key name (eof): line 1 column 5 (char 4)", "key_name"),
    ("Invalid control character '\\n' at: line 1 column 2 (char 1)", "scanstring"),
    ("Invalid \\uXXXX escape sequence: line 1 column 3 (char 2)", "scanstring"),
    ("Unterminated string starting at: line 1 column 1 (char 0)", "scanstring"),
])
def test_each_raise_keeps_the_text_it_passed(lib: Catalog, text: str, qualname: str) -> None:
    r = explain(lib, text)
    assert r.matches[0].qualname == qualname
    assert r.matches[0].method == "exact"
    assert not r.matches[0].template.startswith("{")  # the caller's text, not the helper's frame alone


def test_the_marker_is_a_placeholder_and_literal_text_is_text() -> None:
    v = (Piece(Segment(text="Invalid character %r at %r")), Piece(Segment(expr="pos")), Piece(Segment(text="%r")))
    out = transform(v, f"{REPLACED}%r{REPLACE_SEP}{{repr(c)")
    assert [(p.segment.text if p.segment.is_literal else None, p.segment.expr) for p in out] == [
        ("Invalid character ", None), (None, "repr(c)"), (" at ", None), (None, "repr(c)"), (None, "pos"),
        (None, "repr(c)")]
    lit = transform(v, f"{REPLACED} at{REPLACE_SEP}= near")
    assert [p.segment.text if p.segment.is_literal else p.segment.expr for p in lit] == [
        "Invalid character %r near %r", "pos", "%r"]
