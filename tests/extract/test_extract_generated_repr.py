"""A decorated exception class (``@attr.s(auto_exc=True)``, ``@dataclass``) whose ``__str__`` returns
``self.__repr__()``: ``str()`` is the repr the decorator generates, ``Name(field=value!r, ...)`` (a
value whose type is not known renders as a bare placeholder, as the class's own ``__repr__`` does) (service-identity
26.1.0's ``VerificationError``; captured from its test suite: ``VerificationError(errors=[DNSMismatch(
mismatched_id=DNS_ID(hostname=b'google.com'))])``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

EXCEPTIONS = '''
    from typing import Sequence

    import attr


    @attr.s(auto_exc=True)
    class VerificationError(Exception):
        """
        Service identity verification failed.
        """

        errors: Sequence[str] = attr.ib()

        def __str__(self) -> str:
            return self.__repr__()


    @attr.s(auto_exc=True, repr=False)
    class HiddenError(Exception):
        errors: Sequence[str] = attr.ib()

        def __str__(self) -> str:
            return self.__repr__()


    @attr.s
    class PatternError(Exception):
        pattern: str = attr.ib()
        note: str = "untyped"
        secret: str = attr.ib(repr=False)

        def __str__(self):
            return repr(self)
'''

HAZMAT = '''
    from identity.exceptions import HiddenError, PatternError, VerificationError


    def verify_service_identity(cert_patterns, obligatory_ids):
        errors = [i for i in obligatory_ids if i not in cert_patterns]
        if errors:
            raise VerificationError(errors=errors)
        return cert_patterns


    def verify_hidden(cert_patterns, obligatory_ids):
        errors = [i for i in obligatory_ids if i not in cert_patterns]
        if errors:
            raise HiddenError(errors)


    def parse_pattern(pattern, key):
        if "*" in pattern:
            raise PatternError(pattern, key)
'''

DATACLASS = '''
    from dataclasses import dataclass, field


    @dataclass
    class VerificationError(Exception):
        errors: list
        hint: str = field(default="", repr=False)

        def __str__(self):
            return repr(self)


    class HiddenError(Exception):
        pass


    class PatternError(Exception):
        pass
'''


def _extract(tmp_path: Path, exceptions: str = EXCEPTIONS) -> dict[str, list[str]]:
    pkg = tmp_path / "identity"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    for name, text in (("exceptions", exceptions), ("hazmat", HAZMAT)):
        (pkg / f"{name}.py").write_text(textwrap.dedent(text))
    result = extract_dir(tmp_path)
    return {q: [t.render() for t in site_in(result, "identity/hazmat.py", q).templates]
            for q in ("verify_service_identity", "verify_hidden", "parse_pattern")}


def test_str_returning_the_attrs_repr_prints_the_fields(tmp_path: Path) -> None:
    texts = _extract(tmp_path)
    assert texts["verify_service_identity"] == ["VerificationError(errors={errors})"]


def test_plain_attr_s_shows_its_ib_fields_only_and_not_a_hidden_one(tmp_path: Path) -> None:
    assert _extract(tmp_path)["parse_pattern"] == ["PatternError(pattern={pattern})"]


def test_repr_false_keeps_the_base_reading(tmp_path: Path) -> None:
    assert not any(t.startswith("HiddenError(errors=") for t in _extract(tmp_path)["verify_hidden"])


def test_a_dataclass_repr_reads_the_same(tmp_path: Path) -> None:
    texts = _extract(tmp_path, DATACLASS)
    assert texts["verify_service_identity"] == ["VerificationError(errors={errors})"]
