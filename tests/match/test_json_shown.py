"""A message that ends with a JSON payload (``match/argstuple.json_shown``, ``printed_json``; issue 17's
eighty-sixth round): a web-API client's error prints the HTTP status and the response's body, pygithub's
``GithubException.__str__`` being ``f"{self.status}"`` then ``msg += " " + json.dumps(data)``.  Its templates
(``{status} {json.dumps(data)}``, ``{msg}: {status} {json.dumps(data)}``) have no word, so from the message alone
retrieval never found them.  A text ending with a JSON document reaches them, they verify only where the
``json.dumps`` holds one, and the sites printing that shape are one tied lead, never confident."""

from __future__ import annotations

import pytest
from sitekit import lit, ph, site

from errdex.match import explain_parsed, parse_safely
from errdex.match.argstuple import ARGS_CAP, json_shown, printed_json
from errdex.match.index import MatchIndex, build
from errdex.model import Snapshot

SNAP = Snapshot(repo="example/hub", ref="v2", url_base="https://github.com/example/hub/blob/v2")

CHECK = "c000000000000031"
RETRY = "c000000000000032"
TOLD = "c000000000000033"
AGENT = "c000000000000034"

SITES = [
    # Requester.__check: `raise self.createException(status, headers, data)`, the class's `__str__`
    site("hub/Requester.py", 897, "hub.HubException.HubException", ph("status"), lit(" "), ph("json.dumps(data)"),
         eid=CHECK),
    # GithubRetry.increment: `raise HubException(response.status, content, response.headers)`
    site("hub/Retry.py", 142, "hub.HubException.HubException", ph("response.status"), lit(" "),
         ph("json.dumps(data)"), eid=RETRY),
    # the factory's message given: `f"{self.__message}: {self.status}"` then the payload
    site("hub/Retry.py", 215, "hub.HubException.HubException", ph("msg"), lit(": "), ph("status"), lit(" "),
         ph("json.dumps(data)"), eid=TOLD),
    site("hub/Requester.py", 446, "hub.HubException.BadUserAgentException",
         lit("hub now requires a user-agent, see the documentation"), eid=AGENT),
]


@pytest.fixture(scope="module")
def idx() -> MatchIndex:
    return build((SNAP, s) for s in SITES)


def test_a_status_and_its_payload_find_the_sites_printing_them(idx: MatchIndex) -> None:
    for text in ('403 {"message": "API rate limit exceeded for 10.0.0.1"}', '403 "NOT GOOD"',
                 '404 {"message": "Not Found", "documentation_url": "https://docs.example.com/rest"}'):
        top = explain_parsed(idx, parse_safely(text), top=3).matches[0]
        assert {top.id, *(t.id for t in top.tied)} == {CHECK, RETRY}, text
        assert top.method == "exact" and not top.confident and top.score <= ARGS_CAP


def test_the_message_before_the_status(idx: MatchIndex) -> None:
    text = 'Max number of login attempt exceeded: 403 {"message": "Max number of login attempt exceeded"}'
    top = explain_parsed(idx, parse_safely(text), top=3).matches[0]
    assert top.id == TOLD and top.method == "exact" and not top.confident


def test_no_payload_no_lead(idx: MatchIndex) -> None:
    for text in ("403 Forbidden", "403 {not json}", "a user-agent is required"):
        ids = {m.id for m in explain_parsed(idx, parse_safely(text), top=3).matches if m.method == "exact"}
        assert not ids & {CHECK, RETRY, TOLD}, text


def test_the_shapes() -> None:
    assert json_shown(((False, "status"), (True, " "), (False, "json.dumps(data)")))
    assert json_shown(((False, "code"), (True, ": "), (False, "simplejson.dumps(body, indent=2)")))
    assert not json_shown(((False, "status"), (True, " "), (False, "data")))
    assert not json_shown(((False, "json.dumps(data)"),))
    assert printed_json('404 {"message": "Not Found"}') and printed_json('403 "NOT GOOD"')
    assert printed_json("500 [1, 2]")
    assert not printed_json("403 Forbidden") and not printed_json("403 {a: b}") and not printed_json('{"a": 1}')
