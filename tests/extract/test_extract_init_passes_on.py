"""An ``__init__`` that passes its surplus arguments on (``super().__init__(*args, **kwargs)``) to a base
whose ``__str__`` prints the text: the raise prints that ``__str__`` with the surplus, not its own
arguments (werkzeug 3.1.9's ``BadRequestKeyError(key)``, a ``KeyError`` too, prints ``HTTPException``'s
``400 Bad Request: <description>``; ``KeyError.__init__(self, arg)`` only sets ``args``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

EXCEPTIONS = '''
    class HTTPException(Exception):
        code = None
        description = None

        def __init__(self, description=None, response=None):
            super().__init__()
            if description is not None:
                self.description = description
            self.response = response

        @property
        def name(self):
            return "Bad Request"

        def __str__(self):
            code = self.code if self.code is not None else "???"
            return f"{code} {self.name}: {self.description}"


    class BadRequest(HTTPException):
        code = 400
        description = "The browser sent a request that this server could not understand."


    class BadRequestKeyError(BadRequest, KeyError):
        def __init__(self, arg=None, *args, **kwargs):
            super().__init__(*args, **kwargs)
            if arg is None:
                KeyError.__init__(self)
            else:
                KeyError.__init__(self, arg)
'''

STRUCTURES = '''
    from .exceptions import BadRequestKeyError


    class MultiDict(dict):
        def __getitem__(self, key):
            if key in self:
                return dict.__getitem__(self, key)[0]
            raise BadRequestKeyError(key)
'''


def test_the_surplus_goes_to_the_base_that_prints(tmp_path: Path) -> None:
    pkg = tmp_path / "web"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (pkg / "structures.py").write_text(textwrap.dedent(STRUCTURES))
    site = site_in(extract_dir(tmp_path), "web/structures.py", "MultiDict.__getitem__")
    texts = [t.render() for t in site.templates]
    assert texts[0] == "{code} Bad Request: The browser sent a request that this server could not understand.", texts
