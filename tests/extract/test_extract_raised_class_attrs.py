"""An exception whose ``__init__`` keeps its keyword texts on ``self`` and hands its base a property that prints
them, beside a class attribute each subclass sets (pyspnego 0.12.4's ``SpnegoError``: ``super(SpnegoError,
self).__init__(self.message)``, the ``message`` property reading ``self._context_message`` and ``getattr(self,
"_BASE_MESSAGE", "Unknown error code")``; captured from its test suite: ``SpnegoError (16): Operation not supported
or available, Context: CredSSP does not offer IOV wrapping``): each raise's own keyword text and its class's own
attribute are in its templates (``extract/instancetext.py``, ``extract/raisedattrs.py``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

EXCEPTIONS = '''
    import enum
    import typing


    class ErrorCode(enum.IntEnum):
        no_context = 8
        invalid_token = 9
        unavailable = 16


    class _ErrorRegistry(type):
        __registry: typing.Dict[int, typing.Type] = {}

        def __init__(cls, *args, **kwargs):
            error_code = getattr(cls, "ERROR_CODE", None)
            if error_code is not None and error_code not in cls.__registry:
                cls.__registry[error_code] = cls

        def __call__(cls, error_code=None, base_error=None, *args, **kwargs):
            error_code = error_code if error_code is not None else getattr(cls, "ERROR_CODE", None)
            new_cls = cls.__registry.get(error_code or 0, cls)
            return super(_ErrorRegistry, new_cls).__call__(error_code, base_error, *args, **kwargs)


    class AuthError(Exception, metaclass=_ErrorRegistry):
        def __init__(self, error_code=None, base_error=None, context_msg=None):
            self.base_error = base_error
            self._error_code = error_code
            self._context_message = context_msg

            super(AuthError, self).__init__(self.message)

        @property
        def message(self) -> str:
            error_code = self._error_code if self._error_code is not None else 0xFFFFFFFF

            if self.base_error:
                base_message = str(self.base_error)
            else:
                base_message = getattr(self, "_BASE_MESSAGE", "Unknown error code")

            msg = "AuthError (%d): %s" % (error_code, base_message)
            if self._context_message:
                msg += ", Context: %s" % self._context_message

            return msg


    class NoContextError(AuthError):
        ERROR_CODE = ErrorCode.no_context

        _BASE_MESSAGE = "No context has been established, or invalid handled passed in"


    class InvalidTokenError(AuthError):
        ERROR_CODE = ErrorCode.invalid_token

        _BASE_MESSAGE = "A token was invalid, or the logon was denied"


    class OperationNotAvailableError(AuthError):
        ERROR_CODE = ErrorCode.unavailable

        _BASE_MESSAGE = "Operation not supported or available"
'''

PROXY = '''
    from .exceptions import AuthError, ErrorCode, InvalidTokenError, NoContextError, OperationNotAvailableError


    class CredProxy:
        @property
        def session_key(self) -> bytes:
            raise OperationNotAvailableError(context_msg="CredSSP does not have a session key to share")

        def wrap_iov(self, iov):
            raise OperationNotAvailableError(context_msg="CredSSP does not offer IOV wrapping")

        def query_message_sizes(self):
            if not self.complete:
                raise NoContextError(context_msg="Cannot get message sizes until context has been established")

        def step(self, token):
            if token[0] != 0x30:
                raise InvalidTokenError(context_msg="Expecting a sequence, got %d" % token[0])
            raise AuthError(ErrorCode.invalid_token, context_msg="Unknown token")
'''


def _templates(tmp_path: Path, exceptions: str = EXCEPTIONS) -> dict[str, list[str]]:
    pkg = tmp_path / "authproto"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "exceptions.py").write_text(textwrap.dedent(exceptions))
    (pkg / "proxy.py").write_text(textwrap.dedent(PROXY))
    out: dict[str, list[str]] = {}
    for site in extract_dir(tmp_path).sites:
        if site.path.endswith("proxy.py"):
            out.setdefault(site.qualname.rsplit(".", 1)[-1], []).extend(t.render() for t in site.templates)
    return out


def test_the_keyword_text_kept_on_self_prints_through_the_property(tmp_path: Path) -> None:
    t = _templates(tmp_path)
    assert any(x.endswith(", Context: CredSSP does not offer IOV wrapping") for x in t["wrap_iov"])
    assert any(x.endswith(", Context: CredSSP does not have a session key to share") for x in t["session_key"])
    assert any(x.endswith(", Context: Expecting a sequence, got {token[0]}") for x in t["step"])
    assert not any("{context_msg}" in x for ts in t.values() for x in ts)


def test_the_raised_class_s_own_attribute(tmp_path: Path) -> None:
    t = _templates(tmp_path)
    assert "AuthError ({error_code}): Operation not supported or available, Context: CredSSP does not offer IOV " \
           "wrapping" in t["wrap_iov"]
    assert "AuthError ({error_code}): No context has been established, or invalid handled passed in, Context: " \
           "Cannot get message sizes until context has been established" in t["query_message_sizes"]
    assert not any("A token was invalid" in x or "Unknown error code" in x for x in t["wrap_iov"])


def test_a_class_that_sets_none_prints_the_default_or_an_unknown(tmp_path: Path) -> None:
    # the base itself raised: no class of its chain sets `_BASE_MESSAGE` (the metaclass may pick a subclass
    # at run time: the attribute's placeholder stays beside the default)
    base = _templates(tmp_path)["step"]
    assert "AuthError ({error_code}): Unknown error code, Context: Unknown token" in base
    assert "AuthError ({error_code}): {self._BASE_MESSAGE}, Context: Unknown token" in base


def test_the_attribute_read_through_self(tmp_path: Path) -> None:
    exceptions = EXCEPTIONS.replace('getattr(self, "_BASE_MESSAGE", "Unknown error code")', "self._BASE_MESSAGE")
    t = _templates(tmp_path, exceptions)
    assert "AuthError ({error_code}): A token was invalid, or the logon was denied, Context: Expecting a sequence, " \
           "got {token[0]}" in t["step"]
    assert "AuthError ({error_code}): {base_message}, Context: Unknown token" in t["step"]  # the base's own raise
