"""pyramid 2.1's ``secured_view`` raises ``HTTPForbidden(msg, result=result)`` with ``msg = getattr(request,
'authdebug_message', 'Unauthorized: %s failed permission check' % view_name)``; the class prints its own
``Access was denied to this resource.`` when the detail is None.  The default text is written at the raise:
found, it names the site; the class's text is any raise's of that class, and stays unconfident (a site with
texts of both kinds files its class's texts one by one, ``honesty.class_text``).  The messages are captured
from pyramid's test suite (``bench/data/pyramid-2.1.jsonl``); the library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

HTTPEXCEPTIONS = '''
class HTTPException(Exception):
    explanation = ""

    def __init__(self, detail=None, result=None):
        self.detail = detail
        self.result = result
        Exception.__init__(self, detail if detail is not None else self.explanation)


class HTTPForbidden(HTTPException):
    code = 403
    explanation = "Access was denied to this resource."
'''

VIEWDERIVERS = '''
from .httpexceptions import HTTPForbidden


def secured_view(view, context, request, policy):
    result = policy.permits(request, context)
    if result:
        return view(context, request)
    view_name = getattr(view, "__name__", view)
    msg = getattr(
        request,
        "authdebug_message",
        "Unauthorized: %s failed permission check" % view_name,
    )
    raise HTTPForbidden(msg, result=result)
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "readdefault", "pyrmd", {
        "__init__.py": "", "httpexceptions.py": HTTPEXCEPTIONS, "viewderivers.py": VIEWDERIVERS})


def test_the_default_text_names_the_site(lib: Catalog) -> None:
    top = explain(lib, "Unauthorized: <lambda> failed permission check").matches[0]
    assert (top.qualname, top.method) == ("secured_view", "exact")


def test_the_class_text_beside_it_is_no_certainty(lib: Catalog) -> None:
    top = explain(lib, "pyrmd.httpexceptions.HTTPForbidden: Access was denied to this resource.").matches[0]
    assert (top.qualname, top.confident) == ("secured_view", False)
    assert "builds this text itself" in top.tie_note
