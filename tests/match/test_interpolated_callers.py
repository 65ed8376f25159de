"""A helper raising its callers' text interpolated among its own: imapclient 4.1.0's ``_int_or_error(value,
error_text)`` raises ``ProtocolError("%s: %s" % (error_text, repr(value)))`` and is called with "invalid message
ID" and "invalid UID".  The site's template was ``{error_text}: {repr(value)}``, a frame of no word, and
``invalid message ID: b'abc'`` went to the class fallback; with the callers' texts it is read exactly
(``resolve.Resolver._interpolated_callers``).  The package is written in that shape (a response parser)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

PARSER = '''
class IMAPClientError(Exception):
    pass


class ProtocolError(IMAPClientError):
    """The server sent a response this client cannot parse."""


def parse_fetch_response(response, uid_is_key=True):
    msg_id = _int_or_error(next(response), "invalid message ID")
    items = next(response)
    if not isinstance(items, tuple):
        raise ProtocolError("bad response type: %s" % repr(items))
    for word, value in zip(items[::2], items[1::2]):
        if word == b"UID":
            uid = _int_or_error(value, "invalid UID")
            if uid_is_key:
                msg_id = uid
    return msg_id


def _int_or_error(value, error_text):
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ProtocolError("%s: %s" % (error_text, repr(value)))
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "interp", "imapish", {"__init__.py": "", "response_parser.py": PARSER})


@pytest.mark.parametrize("text", [
    "imapish.response_parser.ProtocolError: invalid message ID: b'abc'",
    "invalid UID: (b'UID', b'X')",
])
def test_the_callers_text_finds_the_helpers_raise(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches and r.matches[0].qualname == "_int_or_error"
    assert r.matches[0].method == "exact"
    assert r.matches[0].template != "{error_text}: {repr(value)}"
