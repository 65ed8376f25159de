"""A message read with a default (pyramid 2.1's ``viewderivers.secured_view``: ``msg = getattr(request,
'authdebug_message', 'Unauthorized: %s failed permission check' % view_name)``, then ``raise
HTTPForbidden(msg, result=result)``) is the attribute's value or the default's text: both are the site's
templates.  Its tests print ``Unauthorized: <lambda> failed permission check`` (captured from pyramid's test
suite, ``bench/data/pyramid-2.1.jsonl``); a mapping's ``.get(key, "text")`` is the same read."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

VIEWDERIVERS = '''
    class HTTPForbidden(Exception):
        def __init__(self, detail=None, result=None):
            super().__init__(detail)
            self.result = result


    REASONS = {401: "Unauthorized", 403: "Forbidden"}


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


    def denied(code):
        raise HTTPForbidden(REASONS.get(code, f"Denied with status {code}"))


    def attribute_text(request):
        raise HTTPForbidden(getattr(request, "message", request.default_message))
'''


def _texts(tmp_path: Path, qualname: str) -> list[str]:
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "viewderivers.py").write_text(textwrap.dedent(VIEWDERIVERS))
    site = next(s for s in extract_dir(tmp_path).sites if s.qualname == qualname)
    return [t.render() for t in site.templates]


def test_a_getattr_default_text_held_in_a_local_is_a_template(tmp_path: Path) -> None:
    texts = _texts(tmp_path, "secured_view")
    assert "Unauthorized: {view_name} failed permission check" in texts
    assert any(t.startswith("{getattr(") for t in texts)  # the attribute's value, any text


def test_a_mapping_get_default_text_is_a_template(tmp_path: Path) -> None:
    assert "Denied with status {code}" in _texts(tmp_path, "denied")


def test_a_default_that_is_no_text_adds_nothing(tmp_path: Path) -> None:
    assert _texts(tmp_path, "attribute_text") == ['{getattr(request, "message", request.default_message)}']
