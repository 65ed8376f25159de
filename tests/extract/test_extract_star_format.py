"""``str.format`` with star-unpacked positional arguments (falcon 4.4.0's router: ``'Cannot use converter
"{1}" of variable "{0}" in a template that includes other characters or variables.'.format(*cpc)``, ``cpc`` a
``(field, converter)`` pair a helper returns; ``_NO_CHILDREN_ERR.format(uri_template, *cpc)``; captured from
its test suite: ``Cannot use converter "path" of variable "bar" in a template that includes other characters
or variables.``): the format string is the template, each field an item of the unpacked value, a placeholder
when its length is unknown, the items themselves when it is a tuple or list display."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ROUTER = '''
    class UnacceptableRouteError(ValueError):
        """Raised when a route is not acceptable to the router."""


    _NO_CHILDREN_ERR = (
        'Cannot add route with template "{0}". Field name "{1}" '
        'uses the converter "{2}" that will consume all the path.'
    )


    class Router:
        def find_cmp_converter(self, node):
            value = [(field, conv) for field, conv in node.converters if conv == 'path']
            return value[0] if value else None

        def add_route(self, uri_template, node):
            cpc = self.find_cmp_converter(node)
            if cpc:
                raise UnacceptableRouteError(
                    'Cannot use converter "{1}" of variable "{0}" in a template '
                    'that includes other characters or variables.'.format(*cpc)
                )

        def add_child(self, uri_template, node):
            cpc = self.find_cmp_converter(node)
            if cpc:
                raise UnacceptableRouteError(_NO_CHILDREN_ERR.format(uri_template, *cpc))

        def add_pair(self, field, conv):
            raise UnacceptableRouteError('Field "{}" uses "{}"'.format(*(field, conv)))
'''


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "router").mkdir()
    (tmp_path / "router" / "__init__.py").touch()
    (tmp_path / "router" / "compiled.py").write_text(textwrap.dedent(ROUTER))
    result = extract_dir(tmp_path)
    return {q: [t.render() for t in site_in(result, "router/compiled.py", f"Router.{q}").templates]
            for q in ("add_route", "add_child", "add_pair")}


def test_fields_of_an_unpacked_value_are_its_items(tmp_path: Path) -> None:
    texts = _templates(tmp_path)
    assert texts["add_route"] == ['Cannot use converter "{cpc[1]}" of variable "{cpc[0]}" in a template '
                                  'that includes other characters or variables.']
    assert texts["add_child"] == ['Cannot add route with template "{uri_template}". Field name "{cpc[0]}" '
                                  'uses the converter "{cpc[1]}" that will consume all the path.']


def test_an_unpacked_display_spreads_its_items(tmp_path: Path) -> None:
    assert _templates(tmp_path)["add_pair"] == ['Field "{field}" uses "{conv}"']
