"""A message that is a list's ``repr`` (``match/argstuple.list_shown``, ``printed_list``; issue 17's fifty-seventh
round): pyOpenSSL's ``raise exception_type(errors)`` of a list built by ``append`` prints ``[('SSL routines', '',
'no cipher match')]``.  Its template ``[{errors}]`` has no word, so retrieval never found it, and from the message
alone a template sharing one word of it answered (``Invalid cipher name``, fuzzy 0.04).  A text printed as one
list reaches the templates that are a placeholder between brackets: two characters of punctuation are a lead,
never a confident answer."""

from __future__ import annotations

import pytest
from sitekit import lit, ph, site

from errdex.match import explain_parsed, parse_safely
from errdex.match.argstuple import ARGS_CAP, list_shown, printed_list
from errdex.match.index import MatchIndex, build
from errdex.model import Snapshot

SNAP = Snapshot(repo="example/ossl", ref="v1", url_base="https://github.com/example/ossl/blob/v1")

QUEUE = "c000000000000021"
CIPHER = "c000000000000022"
NAMED = "c000000000000023"

SITES = [
    site("ossl/_util.py", 59, "exception_type", lit("["), ph("errors"), lit("]"), eid=QUEUE),
    site("ossl/crypto.py", 1751, "ValueError", lit("Invalid cipher name"), eid=CIPHER),
    site("ossl/crypto.py", 640, "ValueError", lit("unknown routine ["), ph("name"), lit("]"), eid=NAMED),
]


@pytest.fixture(scope="module")
def idx() -> MatchIndex:
    return build((SNAP, s) for s in SITES)


def test_a_printed_list_finds_the_list_raised_as_it_is(idx: MatchIndex) -> None:
    for text in ("[('SSL routines', '', 'no cipher match')]",
                 "[('rsa routines', '', 'p not prime'), ('bignum routines', '', 'no inverse')]"):
        top = explain_parsed(idx, parse_safely(text), top=3).matches[0]
        assert top.id == QUEUE and top.method == "exact", text
        assert not top.confident and top.score <= ARGS_CAP


def test_other_texts_do_not_reach_it(idx: MatchIndex) -> None:
    for text in ("no cipher match", "[a] and [b]", "['x'", "unknown routine [rsa]"):
        assert QUEUE not in {m.id for m in explain_parsed(idx, parse_safely(text), top=3).matches}, text


def test_the_shapes() -> None:
    assert list_shown(((True, "["), (False, "errors"), (True, "]")))
    assert not list_shown(((True, "["), (False, "a"), (True, ", "), (False, "b"), (True, "]")))
    assert not list_shown(((True, "("), (False, "errors"), (True, ")")))
    assert printed_list("[('a', ']', 'b')]") and printed_list("[1]") and printed_list("[[1, 2], [3]]")
    assert not printed_list("[]") and not printed_list("[a] and [b]") and not printed_list("[a]]")
    assert not printed_list("['a]") and not printed_list("x [1]")
