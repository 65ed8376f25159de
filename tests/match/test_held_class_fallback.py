"""A class fallback made only of raises of a class a value holds yields to a site naming the printed class whose
text shares words with the message (issue 17's seventy-first round).  acme 5.9.0's ``ClientNetwork._check_response``
raises ``messages.Error.from_json(jobj)`` (a classmethod of an outside base, josepy's, that the extractor cannot
name: a held class call, any class); ``ClientV2.renewal_time`` raises ``errors.ARIError(error_msg, now +
default_retry_after)``, printed as a tuple with a ``datetime`` repr that its template does not read exactly.  The
last line was captured from acme's test suite (``bench/data/acme-5.9.0.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

ERRORS = '''
class Error(Exception):
    """Generic ACME error."""


class ClientError(Error):
    """Network error."""


class ARIError(ClientError):
    """An error occurred during an ARI request and we want to suggest a Retry-After time."""

    def __init__(self, message, retry_after):
        super().__init__(message, retry_after)
        self.retry_after = retry_after
'''

MESSAGES = '''
import josepy as jose

from . import errors


class Error(jose.JSONObjectWithFields, errors.Error):
    """ACME error."""
'''

CLIENT = '''
import datetime

from . import errors
from . import messages


class ClientNetwork:
    def _check_response(self, response):
        jobj = response.json()
        if not response.ok:
            raise messages.Error.from_json(jobj)
        return response


class ClientV2:
    def __init__(self, net, directory):
        self.net = net
        self.directory = directory

    def renewal_time(self, cert):
        now = datetime.datetime.now()
        default_retry_after = datetime.timedelta(seconds=6 * 60 * 60)
        ari_url = self.directory["renewalInfo"] + "/" + cert
        try:
            resp = self.net.get(ari_url, content_type="application/json")
        except Exception as e:
            error_msg = f"failed to fetch renewal_info URL {ari_url}"
            raise errors.ARIError(error_msg, now + default_retry_after) from e
        return resp
'''

LAST_LINE = ("acmeclient.errors.ARIError: ('failed to fetch renewal_info URL "
             "https://www.letsencrypt-demo.org/acme/renewal-info/MTIzNA.AN3V', datetime.datetime(2025, 3, 15, 6, 0))")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "heldfallback", "acmeclient", {
        "__init__.py": "", "errors.py": ERRORS, "messages.py": MESSAGES, "client.py": CLIENT})


def test_the_site_naming_the_class_answers_before_the_held_class_call(lib: Catalog) -> None:
    top = explain(lib, LAST_LINE).matches[0]
    assert (top.qualname, top.method) == ("ClientV2.renewal_time", "fuzzy")


def test_a_class_no_site_names_still_falls_back_to_the_held_class_call(lib: Catalog) -> None:
    """A class only the held call may raise (the outside base's factory builds ``messages.Error``): the fallback,
    unconfident."""
    top = explain(lib, "acmeclient.messages.Error: urn:ietf:params:acme:error:serverInternal :: boom").matches[0]
    assert (top.qualname, top.method, top.confident) == ("ClientNetwork._check_response", "class", False)
