"""A ``%`` format built as a literal plus a hint that an ``if``/``elif``/``else`` picks (pyramid 2.1's
``viewresult_to_response``: ``msg = ('Could not convert ... %s into a response object. The value returned was
%r.' + append)`` then ``raise ValueError(msg % (view_description(view), result))``) is each whole format
filled; a part of a caller's text leaves the raise one placeholder (issue 17's sixty-eighth round)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

DERIVERS = '''
def view_description(view):
    return getattr(view, '__text__', 'view')


def viewresult_to_response(view, result):
    if result is None:
        append = (
            ' You may have forgotten to return a value from '
            'the view callable.'
        )
    elif isinstance(result, dict):
        append = (
            ' You may have forgotten to define a '
            'renderer in the view configuration.'
        )
    else:
        append = ''

    msg = (
        'Could not convert return value of the view '
        'callable %s into a response object. '
        'The value returned was %r.' + append
    )

    raise ValueError(msg % (view_description(view), result))


def with_callers_hint(value, hint):
    raise ValueError(('Bad value %r.' + hint) % (value,))
'''

HEAD = "Could not convert return value of the view callable {} into a response object. The value returned was {}."


def _texts(root: Path, qualname: str) -> list[str]:
    (root / "viewpkg").mkdir()
    (root / "viewpkg" / "__init__.py").write_text("")
    (root / "viewpkg" / "derivers.py").write_text(textwrap.dedent(DERIVERS))
    site = site_in(extract_dir(root), "viewpkg/derivers.py", qualname)
    return sorted(t.render() for t in site.templates)


def test_each_hint_the_branches_pick_fills_the_format(tmp_path: Path) -> None:
    texts = [t.replace("{view_description(view)}", "{}").replace("{result!r}", "{}").replace("{result}", "{}")
             for t in _texts(tmp_path, "viewresult_to_response")]
    assert texts == [HEAD, HEAD + " You may have forgotten to define a renderer in the view configuration.",
                     HEAD + " You may have forgotten to return a value from the view callable."]


def test_a_callers_hint_leaves_the_format_unknown(tmp_path: Path) -> None:
    assert _texts(tmp_path, "with_callers_hint") == ["{('Bad value %r.' + hint) % (value,)}"]
