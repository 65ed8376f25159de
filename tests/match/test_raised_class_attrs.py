"""pyspnego 0.12.4's errors, each raise's own keyword text and its class's ``_BASE_MESSAGE`` printed by a property the
base's ``__init__`` hands on (``extract/instancetext.py``, ``extract/raisedattrs.py``): the raise whose keyword text
a message shows is found, the class's own text tells the subclasses apart with no class name, and two raises that
print the same text tie.  The texts are captured from pyspnego's test suite (``bench/data/pyspnego-0.12.4.jsonl``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTIONS = '''
import enum


class ErrorCode(enum.IntEnum):
    no_context = 8
    unavailable = 16


class SpnegoError(Exception):
    def __init__(self, error_code=None, base_error=None, context_msg=None):
        self.base_error = base_error
        self._error_code = error_code
        self._context_message = context_msg

        super(SpnegoError, self).__init__(self.message)

    @property
    def message(self) -> str:
        error_code = self._error_code if self._error_code is not None else 0xFFFFFFFF

        if self.base_error:
            base_message = str(self.base_error)
        else:
            base_message = getattr(self, "_BASE_MESSAGE", "Unknown error code")

        msg = "SpnegoError (%d): %s" % (error_code, base_message)
        if self._context_message:
            msg += ", Context: %s" % self._context_message

        return msg


class NoContextError(SpnegoError):
    ERROR_CODE = ErrorCode.no_context

    _BASE_MESSAGE = "No context has been established, or invalid handled passed in"


class OperationNotAvailableError(SpnegoError):
    ERROR_CODE = ErrorCode.unavailable

    _BASE_MESSAGE = "Operation not supported or available"
'''

CREDSSP = '''
from .exceptions import NoContextError, OperationNotAvailableError


class CredSSPProxy:
    @property
    def session_key(self) -> bytes:
        raise OperationNotAvailableError(context_msg="CredSSP does not have a session key to share")

    def query_message_sizes(self):
        if not self._auth_context:
            raise NoContextError(context_msg="Cannot get message sizes until context has been established")
        return self._auth_context.query_message_sizes()

    def wrap_iov(self, iov, encrypt=True, qop=None):
        raise OperationNotAvailableError(context_msg="CredSSP does not offer IOV wrapping")

    def unwrap_iov(self, iov):
        raise OperationNotAvailableError(context_msg="CredSSP does not offer IOV wrapping")
'''

NTLM = '''
from .exceptions import NoContextError, OperationNotAvailableError


class NTLMProxy:
    def query_message_sizes(self):
        if not self._context_established:
            raise NoContextError(context_msg="Cannot get message sizes until context has been established")
        return 16

    def sign(self, data):
        if not self._integrity:
            raise OperationNotAvailableError(context_msg="Signing without integrity.")
        return data
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "spnego", "authlib",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "credssp.py": CREDSSP, "ntlm.py": NTLM})


def test_the_raise_whose_keyword_text_is_shown(lib: Catalog) -> None:
    r = explain(lib, "authlib.exceptions.OperationNotAvailableError: SpnegoError (16): Operation not supported or "
                     "available, Context: CredSSP does not have a session key to share")
    top = r.matches[0]
    assert (top.qualname, top.tied_count) == ("CredSSPProxy.session_key", 0)
    assert r.matches[1].score < top.score  # (not confident: the class builds its text, any raise of it prints it)


def test_the_class_s_own_text_with_no_class_name(lib: Catalog) -> None:
    r = explain(lib, "SpnegoError (16): Operation not supported or available, Context: Signing without integrity.")
    top = r.matches[0]
    assert (top.qualname, top.tied_count) == ("NTLMProxy.sign", 0)


def test_raises_printing_the_same_text_tie(lib: Catalog) -> None:
    r = explain(lib, "SpnegoError (16): Operation not supported or available, Context: CredSSP does not offer IOV "
                     "wrapping")
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"CredSSPProxy.wrap_iov", "CredSSPProxy.unwrap_iov"}
    assert not r.confident
    r = explain(lib, "authlib.exceptions.NoContextError: SpnegoError (8): No context has been established, or "
                     "invalid handled passed in, Context: Cannot get message sizes until context has been established")
    top = r.matches[0]
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"CredSSPProxy.query_message_sizes",
                                                                "NTLMProxy.query_message_sizes"}
    assert not r.confident
