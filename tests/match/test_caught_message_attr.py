"""A handler passing the caught exception's text through the attribute its class keeps it in: pyhanko 0.38.0's
``ValueErrorWithMessage.__init__`` sets ``self.failure_message = str(failure_message)``, and
``validate_sig_integrity`` catches ``CMSAlgorithmProtectionError`` from ``validate_algorithm_protection`` and raises
``SignatureValidationError(e.failure_message, ades_subindication=AdESIndeterminate.GENERIC)``, whose ``__init__``
appends `` [{ades_subindication}]``.  The caught sites' texts are spliced where the site's templates hold
``e.failure_message`` as they are for ``str(e)``, so the printed ``Digest algorithm does not match CMS algorithm
protection attribute. [AdESIndeterminate.GENERIC]`` is the re-raise's, not the bare text of the site that raised
it first (confident, and wrong, before).  The input is in the shape captured from pyhanko's test suite
(``bench/data/pyhanko-0.38.0.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

GENERAL = '''
class ValueErrorWithMessage(ValueError):
    def __init__(self, failure_message):
        self.failure_message = str(failure_message)
        super().__init__(failure_message)


class CMSStructuralError(ValueErrorWithMessage):
    """Structural error in a CMS object."""
'''

ERRORS = '''
import enum

from sigkit.general import ValueErrorWithMessage


class AdESIndeterminate(enum.Enum):
    GENERIC = 1
    NO_POE = 2


class SignatureValidationError(ValueErrorWithMessage):
    def __init__(self, failure_message, ades_subindication=None):
        self.ades_subindication = ades_subindication
        if ades_subindication:
            msg = f"{failure_message} [{ades_subindication}]"
        else:
            msg = failure_message
        super().__init__(msg)


class CMSAlgorithmProtectionError(ValueErrorWithMessage):
    pass
'''

CMS = '''
from sigkit import errors
from sigkit.errors import AdESIndeterminate


def validate_algorithm_protection(attrs, claimed_digest, claimed_signature):
    protection = attrs.get("cms_algorithm_protection")
    if protection is not None:
        if protection["digest_algorithm"] != claimed_digest:
            raise errors.CMSAlgorithmProtectionError(
                "Digest algorithm does not match CMS algorithm protection attribute."
            )
        if protection["signature_algorithm"] != claimed_signature:
            raise errors.CMSAlgorithmProtectionError(
                "Signature mechanism does not match CMS algorithm protection attribute."
            )


def validate_sig_integrity(signer_info, digest, signature):
    try:
        validate_algorithm_protection(signer_info["signed_attrs"], digest, signature)
    except errors.CMSAlgorithmProtectionError as e:
        raise errors.SignatureValidationError(
            e.failure_message, ades_subindication=AdESIndeterminate.GENERIC
        )
    return True
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "msgattr", "sigkit", {
        "__init__.py": "", "general.py": GENERAL, "errors.py": ERRORS, "cms.py": CMS})


TEXT = "Digest algorithm does not match CMS algorithm protection attribute. [AdESIndeterminate.GENERIC]"


@pytest.mark.parametrize("text", [TEXT, f"sigkit.errors.SignatureValidationError: {TEXT}"])
def test_the_re_raise_with_the_classes_suffix_wins(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches[0].qualname == "validate_sig_integrity"


def test_the_bare_text_is_still_the_first_raise(lib: Catalog) -> None:
    r = explain(lib, "sigkit.errors.CMSAlgorithmProtectionError: "
                     "Signature mechanism does not match CMS algorithm protection attribute.")
    assert r.matches[0].qualname == "validate_algorithm_protection" and r.matches[0].line == 14
