"""A class of another package raised with one argument (authlib 1.7.2, round 22: ``from joserfc.errors import
InvalidClaimError``, ``raise InvalidClaimError("nonce")``, printed ``invalid_claim: Invalid claim: 'nonce'``; 14
message events answered by ``Invalid {structure_name}: `` found inside the text).  The wording is the other
package's, never indexed: a message quoting the argument ties the raises handed it (or, with no raise spelling
it out, those passing a value), unconfident; a template read over the whole message, or one spelling the quoted
value out, keeps its answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

UTIL = '''
class DecodeError(Exception):
    pass


def ensure_dict(s, structure_name):
    if not isinstance(s, dict):
        raise DecodeError(f"Invalid {structure_name}: ")
    return s


def check_option(name, known):
    if name not in known:
        raise ValueError(f"Unknown option {name!r}")
'''

CLAIMS = '''
from joserfc.errors import InvalidClaimError, MissingClaimError


class IDToken(dict):
    ESSENTIAL_CLAIMS = ["iss", "sub", "aud"]

    def validate(self, params):
        for k in self.ESSENTIAL_CLAIMS:
            if k not in self:
                raise MissingClaimError(k)
        self.validate_nonce(params)

    def validate_nonce(self, params):
        nonce_value = params.get("nonce")
        if nonce_value:
            if "nonce" not in self:
                raise MissingClaimError("nonce")
            if nonce_value != self["nonce"]:
                raise InvalidClaimError("nonce")

    def validate_schema(self, schema):
        from jsonschema import ValidationError, validate
        try:
            validate(dict(self), schema)
        except ValidationError as err:
            raise err

    def validate_uri(self, key):
        if not self.get(key, "").startswith("https://"):
            raise InvalidClaimError(key)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "foreign", "oidckit",
                               {"__init__.py": "", "util.py": UTIL, "claims.py": CLAIMS})


def _group(lib: Catalog, text: str) -> tuple[list[str], str, bool]:
    r = explain(lib, text)
    top = r.matches[0]
    lines = sorted(f"{t.qualname}:{t.line}" for t in top.tied)
    return [f"{top.qualname}:{top.line}", *lines], top.method, r.confident


def test_the_quoted_argument_names_the_raises_handed_it(lib: Catalog) -> None:
    group, method, confident = _group(lib, "invalid_claim: Invalid claim: 'nonce'")
    assert [g.split(":")[0] for g in group] == ["IDToken.validate_nonce"] * 2
    assert method == "class" and not confident


def test_a_value_no_raise_spells_out_goes_to_the_raises_passing_one(lib: Catalog) -> None:
    group, method, confident = _group(lib, "invalid_claim: Invalid claim: 'redirect_uris'")
    assert sorted(g.split(":")[0] for g in group) == ["IDToken.validate", "IDToken.validate_uri"]
    assert method == "class" and not confident


def test_a_template_over_the_whole_message_keeps_it(lib: Catalog) -> None:
    group, method, _ = _group(lib, "Unknown option 'nonce'")
    assert group[0].startswith("check_option") and method != "class"


def test_no_quoted_value_no_fallback(lib: Catalog) -> None:
    _, method, _ = _group(lib, "Invalid token: ")
    assert method != "class"


def test_a_caught_exception_raised_again_passes_no_argument(lib: Catalog) -> None:
    # `raise err` of an imported class re-raises what it caught: it hands no name on
    group, _, _ = _group(lib, "invalid_claim: Invalid claim: 'client_uri'")
    assert not any(g.startswith("IDToken.validate_schema") for g in group)


def test_a_quoted_path_is_no_name_handed_on(lib: Catalog) -> None:
    r = explain(lib, "[Errno 2] No such file or directory: '/tmp/tmpgbdyblvk/file.env'")
    assert not r.matches or "a class of another package" not in r.matches[0].tie_note
