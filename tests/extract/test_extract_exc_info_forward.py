"""A raise of the exception being handled, spelled ``sys.exc_info()[1]`` or through a package helper that
returns it (Mako 1.4.3's ``raise exceptions.TemplateLookupException(str(compat.exception_as())) from e`` in
``except exceptions.TopLevelLookupException``; captured from its test suite: ``Can't locate template for
uri 'eefs.html'``): the site prints the caught class's texts, as ``str(e)`` does; a helper called with no
argument that returns anything else forwards nothing."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

COMPAT = '''
    import sys


    def exception_as():
        return sys.exc_info()[1]


    def default_name():
        return "template"
'''

LOOKUP = '''
    import sys

    from pkg import compat


    class TopLevelLookupException(Exception):
        pass


    class TemplateLookupException(Exception):
        pass


    def get_template(uri, known):
        if uri not in known:
            raise TopLevelLookupException("Can't locate template for uri %r" % uri)
        return known[uri]


    def lookup_template(uri, known):
        try:
            return get_template(uri, known)
        except TopLevelLookupException as e:
            raise TemplateLookupException(str(compat.exception_as())) from e


    def lookup_plain(uri, known):
        try:
            return get_template(uri, known)
        except TopLevelLookupException:
            raise TemplateLookupException(str(sys.exc_info()[1]))


    def lookup_named(uri, known):
        try:
            return get_template(uri, known)
        except TopLevelLookupException:
            raise TemplateLookupException(str(compat.default_name()))
'''


def test_the_handled_exception_forwards_its_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "compat.py").write_text(textwrap.dedent(COMPAT))
    (tmp_path / "pkg" / "lookup.py").write_text(textwrap.dedent(LOOKUP))
    sites = {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}
    caught = "Can't locate template for uri {uri}"  # (render() shows the placeholder, not its !r)
    assert caught in sites["lookup_template"] and caught in sites["lookup_plain"]
    assert caught not in sites["lookup_named"]  # a helper returning something else forwards nothing
