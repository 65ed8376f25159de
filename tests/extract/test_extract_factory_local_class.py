"""A factory that picks the class into a local through an ``if``/``elif`` chain and returns its call, and a package
attribute named like its submodule (pygithub 2.10.0, round 36: ``Requester.createException`` does ``exc =
GithubException.GithubException``, another class under each of five branches, ``return exc(status, output, headers,
msg)``; ``__check`` raises ``self.createException(status, responseHeaders, data)``.  The raise was the value as
written, catalogued as the args tuple ``({status}, {data}, {responseHeaders}, {msg})``, 15 of 51 events.
``raise github.GithubException(400, data, message=...)`` named the submodule ``github.GithubException`` that the
package's ``from .GithubException import GithubException`` rebinds to the class: the args tuple again)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.model import ErrorSite

INIT = '''
    from .HubException import BadCredentialsException, HubException, NotFoundException

    __all__ = ["BadCredentialsException", "HubException", "NotFoundException"]
'''

EXCEPTIONS = '''
    from __future__ import annotations

    import json
    from typing import Any


    class HubException(Exception):
        def __init__(self, status: int, data: Any = None, headers: dict[str, str] | None = None,
                     message: str | None = None):
            super().__init__()
            self.__status = status
            self.__data = data
            self.__headers = headers
            self.__message = message
            self.args = (status, data, headers, message)

        @property
        def status(self) -> int:
            return self.__status

        @property
        def data(self) -> Any:
            return self.__data

        def __str__(self) -> str:
            if self.__message:
                msg = f"{self.__message}: {self.status}"
            else:
                msg = f"{self.status}"
            if self.data is not None:
                msg += " " + json.dumps(self.data)
            return msg


    class BadCredentialsException(HubException):
        """A 401 for bad credentials."""


    class TwoFactorException(HubException):
        """A 401 asking for a one-time password."""


    class BadUserAgentException(HubException):
        """A 403 for a missing user agent."""


    class RateLimitExceededException(HubException):
        """A 403 for the rate limit."""


    class NotFoundException(HubException):
        """A 404."""
'''

REQUESTER = '''
    from __future__ import annotations

    from typing import Any

    import hub.HubException
    import hub.HubException as HubException


    class Requester:
        @classmethod
        def createException(cls, status: int, headers: dict[str, Any], output: Any) -> HubException.HubException:
            message = output.get("message") if output else None
            lc_message = message.lower() if message else ""
            msg = None
            exc = HubException.HubException
            if status == 401 and lc_message == "bad credentials":
                exc = HubException.BadCredentialsException
            elif status == 401 and "X-Hub-OTP" in headers:
                exc = HubException.TwoFactorException
            elif status == 403 and lc_message.startswith("missing or invalid user agent string"):
                exc = HubException.BadUserAgentException
            elif status == 403 and lc_message.startswith("api rate limit exceeded"):
                exc = HubException.RateLimitExceededException
            elif status == 404 and "not found" in lc_message:
                exc = HubException.NotFoundException
            else:
                msg = message
            return exc(status, output, headers, msg)

        def check(self, status: int, headers: dict[str, Any], data: Any) -> Any:
            if status >= 400:
                raise self.createException(status, headers, data)
            return data

        def node(self, data: Any, kind: str, actual: str) -> None:
            if actual != kind:
                raise hub.HubException(400, data, message=f"Retrieved {kind} object is of different type: {actual}")
'''


def _package(root: Path) -> Path:
    (root / "hub").mkdir()
    (root / "hub" / "__init__.py").write_text(textwrap.dedent(INIT))
    (root / "hub" / "HubException.py").write_text(textwrap.dedent(EXCEPTIONS))
    (root / "hub" / "Requester.py").write_text(textwrap.dedent(REQUESTER))
    return root


def _shown(site: ErrorSite) -> set[str]:
    return {"".join(seg.text + (f"{{{seg.expr}}}" if seg.expr else "") for seg in t.segments)
            for t in site.templates}


def test_a_factory_returning_a_call_of_a_local_class_prints_the_classes_str(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "hub/Requester.py", "Requester.check")
    shown = _shown(site)
    # the `+=` built __str__: the status alone, then a space and the data as `json.dumps` prints it
    assert "{status} {json.dumps(self.data)}" in shown
    assert "{status}" in shown
    assert not any(s.startswith("(") for s in shown), shown  # no args tuple
    # the site names the classes' common base, the others are picked (a printed subclass agrees with it)
    assert site.exception_resolved == "hub.HubException.HubException"
    assert set(site.picked) == {f"hub.HubException.{c}" for c in (
        "BadCredentialsException", "TwoFactorException", "BadUserAgentException", "RateLimitExceededException",
        "NotFoundException")}


def test_a_called_package_attribute_is_the_class_the_package_rebinds_it_to(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "hub/Requester.py", "Requester.node")
    assert site.exception_resolved == "hub.HubException.HubException"
    shown = _shown(site)
    assert "Retrieved {kind} object is of different type: {actual}: 400 {json.dumps(self.data)}" in shown
    assert "400" in shown


def test_a_local_holding_a_class_on_one_path_only_is_no_factory(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent('''
        class ApiError(Exception):
            pass


        def make(status, build):
            exc = ApiError
            if status == 500:
                exc = build
            return exc(f"status {status}")


        def check(status, build):
            raise make(status, build)
    '''))
    site = site_in(extract_dir(tmp_path), "pkg/errors.py", "check")
    assert site.picked == ()  # the caller's `build` is no class this code names
