"""A class handed to a decorator factory and raised by its wrapper (issue 17's eightieth round): python-gitlab
8.6.0's ``@exc.on_http_error(exc.GitlabHookTestError)`` on a manager's method, whose ``wrapped_f`` raises
``error(e.error_message, e.response_code, e.response_body)``; the user sees ``GitlabHookTestError: 422:
<html>error</html>`` (``GitlabError.__str__``: ``f"{self.response_code}: {self.error_message}"``).  No site named
the class, so the fallback went to another class's raise."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

EXCEPTIONS = textwrap.dedent('''
    import functools


    class HubError(Exception):
        def __init__(self, error_message="", response_code=None, response_body=None):
            Exception.__init__(self, error_message)
            self.response_code = response_code
            self.response_body = response_body
            self.error_message = error_message

        def __str__(self):
            if self.response_code is not None:
                return f"{self.response_code}: {self.error_message}"
            return f"{self.error_message}"


    class HubAuthenticationError(HubError):
        pass


    class HubHttpError(HubError):
        pass


    class HubOperationError(HubError):
        pass


    class HubGetError(HubOperationError):
        pass


    class HubHookTestError(HubOperationError):
        pass


    def on_http_error(error):
        def wrap(f):
            @functools.wraps(f)
            def wrapped_f(*args, **kwargs):
                try:
                    return f(*args, **kwargs)
                except HubHttpError as e:
                    raise error(e.error_message, e.response_code, e.response_body) from e

            return wrapped_f

        return wrap
''')

CLIENT = textwrap.dedent('''
    from hubkit import exceptions


    class Client:
        def request(self, result):
            if result.status_code == 401:
                raise exceptions.HubAuthenticationError(
                    response_code=result.status_code, error_message=result.reason, response_body=result.content)
            if result.status_code >= 400:
                raise exceptions.HubHttpError(
                    response_code=result.status_code, error_message=result.reason, response_body=result.content)
            return result

        def check_url(self, url, base_url):
            if url != base_url:
                raise exceptions.HubError(f"The base URL in the server response differs ({url} -> {base_url})")
''')

HOOKS = textwrap.dedent('''
    from hubkit import exceptions as exc


    class HookManager:
        def __init__(self, client):
            self.client = client

        @exc.on_http_error(exc.HubHookTestError)
        def test(self, hook_id, trigger):
            return self.client.request(self.client.post(f"/hooks/{hook_id}/test/{trigger}"))

        @exc.on_http_error(exc.HubGetError)
        def get(self, hook_id):
            return self.client.request(self.client.get(f"/hooks/{hook_id}"))
''')


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "decofactory", "hubkit",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "client.py": CLIENT, "hooks.py": HOOKS})


@pytest.mark.parametrize("name", ["HubHookTestError", "HubGetError"])
def test_a_class_applied_to_the_factory_falls_back_to_its_wrappers_raise(lib: Catalog, name: str) -> None:
    matches = explain(lib, f"hubkit.exceptions.{name}: 422: <html>error</html>").matches
    assert matches, "no site for the class"
    top = matches[0]
    assert top.qualname == "on_http_error.<locals>.wrap.<locals>.wrapped_f", (top.qualname, top.template)
    assert top.confident is False


def test_a_class_not_applied_keeps_its_own_raise(lib: Catalog) -> None:
    top = explain(lib, "hubkit.exceptions.HubAuthenticationError: 401: Unauthorized").matches[0]
    assert top.qualname == "Client.request"
