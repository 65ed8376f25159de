"""A class handed to a decorator factory and raised by the wrapper it builds (issue 17's eightieth round).
python-gitlab 8.6.0's ``exceptions.on_http_error(error)`` nests ``wrap(f)`` and ``wrapped_f(*args, **kwargs)``,
which raises ``error(e.error_message, e.response_code, e.response_body)`` of a caught ``GitlabHttpError``; the
managers apply it as ``@exc.on_http_error(exc.GitlabHookTestError)``.  The raise was the call as written, one
placeholder, its class unknown."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.model import ErrorSite

EXCEPTIONS = '''
    from __future__ import annotations

    import functools
    from typing import Any, Callable, TypeVar, cast


    class HubError(Exception):
        def __init__(self, error_message: str | bytes = "", response_code: int | None = None,
                     response_body: bytes | None = None) -> None:
            Exception.__init__(self, error_message)
            self.response_code = response_code
            self.response_body = response_body
            self.error_message = error_message

        def __str__(self) -> str:
            if self.response_code is not None:
                return f"{self.response_code}: {self.error_message}"
            return f"{self.error_message}"


    class HubHttpError(HubError):
        pass


    class HubParsingError(HubError):
        pass


    class HubOperationError(HubError):
        pass


    class HubGetError(HubOperationError):
        pass


    class HubHookTestError(HubOperationError):
        pass


    class HubDownloadError(HubOperationError):
        pass


    __F = TypeVar("__F", bound=Callable[..., Any])


    def on_http_error(error: type[Exception]) -> Callable[[__F], __F]:
        """Raise ``error`` of a failed request instead of HubHttpError."""

        def wrap(f: __F) -> __F:
            @functools.wraps(f)
            def wrapped_f(*args: Any, **kwargs: Any) -> Any:
                try:
                    return f(*args, **kwargs)
                except HubHttpError as e:
                    raise error(e.error_message, e.response_code, e.response_body) from e

            return cast(__F, wrapped_f)

        return wrap


    def on_parse_error(error: type[Exception]) -> Callable[[__F], __F]:
        def wrap(f: __F) -> __F:
            def wrapped_f(*args: Any, **kwargs: Any) -> Any:
                try:
                    return f(*args, **kwargs)
                except ValueError as e:
                    raise error(f"could not parse the response: {e}") from e

            return cast(__F, wrapped_f)

        return wrap


    def on_error_rewrapped(error: type[Exception]) -> Callable[[__F], __F]:
        def wrap(f: __F) -> __F:
            error = HubParsingError  # the wrapper's own class, not the factory's

            def wrapped_f(*args: Any, **kwargs: Any) -> Any:
                try:
                    return f(*args, **kwargs)
                except KeyError as e:
                    raise error(str(e)) from e

            return cast(__F, wrapped_f)

        return wrap
'''

HOOKS = '''
    from __future__ import annotations

    from typing import Any

    from hub import exceptions as exc
    from hub.exceptions import on_http_error, on_parse_error, on_error_rewrapped


    class HookManager:
        def __init__(self, client: Any) -> None:
            self.client = client

        @exc.on_http_error(exc.HubHookTestError)
        def test(self, hook_id: int, trigger: str) -> Any:
            return self.client.post(f"/hooks/{hook_id}/test/{trigger}")

        @exc.on_http_error(exc.HubGetError)
        def get(self, hook_id: int) -> Any:
            return self.client.get(f"/hooks/{hook_id}")

        @on_parse_error(exc.HubParsingError)
        def parse(self, text: str) -> Any:
            return int(text)

        @on_error_rewrapped(exc.HubGetError)
        def lookup(self, key: str) -> Any:
            return self.client.table[key]


    def _download(client: Any, path: str) -> bytes:
        return client.get(path)


    download = on_http_error(exc.HubDownloadError)(_download)
'''


def _package(root: Path) -> Path:
    (root / "hub").mkdir()
    (root / "hub" / "__init__.py").touch()
    (root / "hub" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (root / "hub" / "hooks.py").write_text(textwrap.dedent(HOOKS))
    return root


def _shown(site: ErrorSite) -> list[str]:
    return ["".join(seg.text + (f"{{{seg.expr}}}" if seg.expr else "") for seg in t.segments) for t in site.templates]


def test_the_classes_applied_to_the_factory_are_what_its_wrapper_raises(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "hub/exceptions.py", "on_http_error.<locals>.wrap.<locals>.wrapped_f")
    # three classes applied (two decorators and a plain call): their common base, the three picked
    assert site.exception_resolved == "hub.exceptions.HubOperationError"
    assert set(site.picked) == {f"hub.exceptions.{c}" for c in ("HubHookTestError", "HubGetError", "HubDownloadError")}
    shown = _shown(site)
    # the classes' own __str__ over the raise's arguments, then the builtin rule's tuple (a class from outside)
    assert shown[:2] == ["{e.response_code}: {e.error_message}", "{e.error_message}"], shown
    assert "({e.error_message}, {e.response_code}, {e.response_body})" in shown


def test_one_class_applied_is_the_class_of_the_raise(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "hub/exceptions.py", "on_parse_error.<locals>.wrap.<locals>.wrapped_f")
    assert site.exception_resolved == "hub.exceptions.HubParsingError"
    assert site.picked == ()
    assert "could not parse the response: {e}" in _shown(site)


def test_a_name_the_wrapper_rebinds_is_not_the_factorys_class(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "hub/exceptions.py",
                   "on_error_rewrapped.<locals>.wrap.<locals>.wrapped_f")
    # `error = HubParsingError` in `wrap` shadows the factory's parameter: the applied HubGetError is not bound
    assert "HubGetError" not in site.exception_resolved
    assert site.picked == ()
