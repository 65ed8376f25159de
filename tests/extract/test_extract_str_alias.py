"""A class body that aliases ``__str__`` to another of its methods (``__str__ = __repr__``): ``str()`` of the
instance is that method's text (falcon 4.4.0's ``HTTPError``: ``def __repr__(self): return '<%s: %s>' %
(self.__class__.__name__, self.status)`` then ``__str__ = __repr__``; its subclasses pass a status constant of
the package, ``status.HTTP_400``; captured from its test suite: ``<HTTPInvalidParam: 400 Bad Request>``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

STATUS = '''
    from typing import Final

    HTTP_400: Final[str] = '400 Bad Request'
    HTTP_BAD_REQUEST: Final[str] = HTTP_400
    HTTP_404: Final[str] = '404 Not Found'
'''

HTTP_ERROR = '''
    class HTTPError(Exception):
        """Represents a generic HTTP error."""

        __slots__ = ('status', 'title', 'description')

        def __init__(self, status, *, title=None, description=None):
            self.status = status
            self.title = title or status
            self.description = description

        def __repr__(self) -> str:
            return '<%s: %s>' % (self.__class__.__name__, self.status)

        __str__ = __repr__

        def to_dict(self):
            return {'title': self.title}
'''

ERRORS = '''
    from shop.http_error import HTTPError
    import shop.status_codes as status


    class HTTPBadRequest(HTTPError):
        """400 Bad Request."""

        def __init__(self, *, title=None, description=None, **kwargs):
            super().__init__(status.HTTP_400, title=title, description=description, **kwargs)


    class HTTPNotFound(HTTPError):
        """404 Not Found."""

        def __init__(self, **kwargs):
            super().__init__(status.HTTP_404, **kwargs)


    class HTTPInvalidParam(HTTPBadRequest):
        """A parameter in the request is invalid."""

        def __init__(self, msg, param_name, **kwargs):
            description = 'The "{0}" parameter is invalid. {1}'
            description = description.format(param_name, msg)
            super().__init__(title='Invalid parameter', description=description, **kwargs)
'''

REQUEST = '''
    from shop import errors


    class Request:
        def get_param_as_int(self, name, params):
            try:
                return int(params[name])
            except ValueError:
                msg = 'The value must be an integer.'
                raise errors.HTTPInvalidParam(msg, name)

        def get_page(self, pages, name):
            if name not in pages:
                raise errors.HTTPNotFound()
            return pages[name]

        def get_any(self, code, status):
            raise errors.HTTPError(status)
'''


def _extract(tmp_path: Path, error_body: str = HTTP_ERROR) -> dict[str, list[str]]:
    pkg = tmp_path / "shop"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    for name, text in (("status_codes", STATUS), ("http_error", error_body), ("errors", ERRORS),
                       ("request", REQUEST)):
        (pkg / f"{name}.py").write_text(textwrap.dedent(text))
    result = extract_dir(tmp_path)
    return {q: [t.render() for t in site_in(result, "shop/request.py", f"Request.{q}").templates]
            for q in ("get_param_as_int", "get_page", "get_any")}


def test_str_aliased_to_repr_prints_the_class_name_and_status(tmp_path: Path) -> None:
    texts = _extract(tmp_path)
    assert texts["get_param_as_int"] == ["<HTTPInvalidParam: 400 Bad Request>"]
    assert texts["get_page"] == ["<HTTPNotFound: 404 Not Found>"]
    assert texts["get_any"] == ["<HTTPError: {status}>"]


def test_a_later_def_of_str_overrides_the_alias(tmp_path: Path) -> None:
    body = HTTP_ERROR.replace("        def to_dict(self):", "        def __str__(self):\n"
                              "            return self.title\n\n        def to_dict(self):")
    texts = _extract(tmp_path, body)
    assert texts["get_page"] != ["<HTTPNotFound: 404 Not Found>"]
