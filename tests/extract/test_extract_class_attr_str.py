"""An exception whose ``__str__`` prints class attributes each subclass sets (werkzeug 3.1.9's
``HTTPException``: ``f"{code} {self.name}: {self.description}"`` with ``code`` and ``description`` class
attributes of ``NotFound``, ``Gone``, ...; captured texts from its test suite: ``404 Not Found: The requested
URL was not found on the server. ...``): a raise of a subclass has that subclass's text, an ``__init__``
argument the raise leaves out keeps the class attribute."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

EXCEPTIONS = '''
    class HTTPException(Exception):
        code: int | None = None
        description: str | None = None

        def __init__(self, description=None, response=None):
            super().__init__()
            if description is not None:
                self.description = description
            self.response = response

        @property
        def name(self):
            return "Unknown Error"

        def __str__(self):
            code = self.code if self.code is not None else "???"
            return f"{code} {self.name}: {self.description}"


    class NotFound(HTTPException):
        code = 404
        description = "The requested URL was not found on the server."


    class Gone(HTTPException):
        code = 410
        description = "The requested URL is no longer available on this server."
'''

ROUTING = '''
    from pkg.exceptions import Gone, NotFound


    def route(path):
        if path == "old":
            raise Gone()
        if path == "custom":
            raise NotFound("no such page")
        raise NotFound()
'''


def test_subclass_attributes_fill_the_base_str(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (tmp_path / "pkg" / "routing.py").write_text(textwrap.dedent(ROUTING))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path.endswith("routing.py")), key=lambda s: s.line)
    gone, custom, bare = ([t.render() for t in s.templates] for s in sites)
    assert "{code} Unknown Error: The requested URL is no longer available on this server." in gone
    assert "{code} Unknown Error: no such page" in custom  # given: the argument, not the class attribute
    assert "{code} Unknown Error: The requested URL was not found on the server." in bare
    # (``code`` stays a value: only text class attributes are kept)
