"""A caught exception's text among the re-raise's own (imapclient 4.1.0's ``gen_parsed_response``:
``except ValueError:`` then ``_, err, _ = sys.exc_info()`` and ``raise ProtocolError("%s: %r" % (str(err),
token))``; issue 17's fifty-third round): ``err`` is what ``except ValueError as err`` names, the lexer's
``No closing '%s'`` sites that the ``try`` body reaches are spliced where the raise shows ``str(err)`` (the body
only loops ``for token in src``: the package's ``__iter__`` runs there, and the lexer's
``read_until = self.read_until`` alias is the method), so round 28's ``No closing '"': None`` names the re-raise
first.  The lexer and parser are written in the shape of imapclient's (``bench/data``'s round 28 event)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

LEXER = '''
class TokenSource:
    def __init__(self, text):
        self.lex = Lexer(text)
        self.src = iter(self.lex)

    def __iter__(self):
        return self.src


class Lexer:
    def __init__(self, text):
        self.text = text

    def read_until(self, stream_i, end_char):
        token = bytearray()
        for nextchar in stream_i:
            if nextchar == end_char:
                break
            token.append(nextchar)
        else:
            raise ValueError("No closing '%s'" % chr(end_char))
        token.append(end_char)
        return token

    def read_token_stream(self, stream_i):
        read_until = self.read_until
        for nextchar in stream_i:
            if nextchar == 34:
                yield read_until(stream_i, nextchar)
            else:
                yield bytearray([nextchar])

    def __iter__(self):
        for chunk in self.text:
            yield from self.read_token_stream(iter(chunk))
'''

PARSER = '''
import sys

from .lexer import TokenSource


class ProtocolError(Exception):
    pass


def gen_parsed_response(text):
    src = TokenSource(text)
    token = None
    try:
        for token in src:
            yield bytes(token)
    except ProtocolError:
        raise
    except ValueError:
        _, err, _ = sys.exc_info()
        raise ProtocolError("%s: %r" % (str(err), token))


def parse_size(text, lexer):
    try:
        return int(lexer.read_until(iter(text), 32))
    except ValueError as e:
        raise ProtocolError(f"{e} ({text!r})")


def parse_name(text, name):
    try:
        return text.decode("ascii")
    except ValueError:
        raise ProtocolError(f"bad name {name}: {text!r}")
'''

TEXT = "No closing '\"': None"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "caughtwithin", "imapish",
                               {"__init__.py": "", "lexer.py": LEXER, "response_parser.py": PARSER})


def _templates(lib: Catalog, qualname: str) -> list[str]:
    return [t.display() for s in lib.sites() if s.qualname == qualname for t in s.templates]


def test_the_caught_text_from_exc_info_is_spliced_into_the_message(lib: Catalog) -> None:
    assert _templates(lib, "gen_parsed_response") == ["{str(err)}: {token}", "No closing '{chr(end_char)}': {token}"]


def test_an_except_as_name_in_a_thin_frame_too(lib: Catalog) -> None:
    # (a frame with text of its own, `f"while loading: {exc}"`, is left to matching's wrap rule:
    # tests/extract/test_extract_forwarded.py)
    assert _templates(lib, "parse_size") == ["{e} ({text})", "No closing '{chr(end_char)}' ({text})"]


def test_a_raise_not_showing_the_caught_text_keeps_its_own(lib: Catalog) -> None:
    assert _templates(lib, "parse_name") == ["bad name {name}: {text}"]


def test_the_message_alone_names_the_re_raise(lib: Catalog) -> None:
    top = explain(lib, TEXT).matches[0]
    assert (top.path, top.qualname) == ("imapish/response_parser.py", "gen_parsed_response")
