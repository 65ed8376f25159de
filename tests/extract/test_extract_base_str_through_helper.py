"""A ``__str__`` handing the base's text to a method of its own that returns it with detail lines around
(zope.configuration 7.1's ``ConfigurationError``: ``def __str__(self): s = super().__str__(); return
self._with_details(s, str)``, whose ``_with_details(opening, detail_formatter)`` builds ``lines = ['    ' +
detail_formatter(detail) for detail in self._details]``, appends ``opening``, reverses them and returns
``'\\n'.join(lines)``; ``add_details`` fills ``_details`` later).  With no detail the text is the raise's own
(``raise ConfigurationError('%r included more than once' % path)`` printed ``'/path' included more than once``
in its test suite); with some, lines follow it (``INFO\\n    ValueError: XXX``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from zopeconfshape import EXCEPTIONS

CONFIG = '''
    from conf.exceptions import ConfigurationError
    from conf.exceptions import ConfigurationWrapperError


    class ConfigurationContext:
        def __init__(self):
            self._seen_files = set()

        def checkDuplicate(self, filename):
            path = self.path(filename)
            if path in self._seen_files:
                raise ConfigurationError('%r included more than once' % path)
            self._seen_files.add(path)

        def path(self, filename):
            return filename

        def execute(self, callable, info):
            try:
                callable()
            except Exception as ex:
                raise ConfigurationWrapperError(info, ex)
'''


def _extract(tmp_path: Path) -> dict[str, list[str]]:
    pkg = tmp_path / "conf"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    for name, text in (("exceptions", EXCEPTIONS), ("config", CONFIG)):
        (pkg / f"{name}.py").write_text(textwrap.dedent(text))
    result = extract_dir(tmp_path)
    return {q: [t.render() for t in site_in(result, "conf/config.py", f"ConfigurationContext.{q}").templates]
            for q in ("checkDuplicate", "execute")}


def test_the_base_text_through_a_helper_adding_detail_lines(tmp_path: Path) -> None:
    texts = _extract(tmp_path)
    assert texts["checkDuplicate"][:2] == ["{path} included more than once",
                                           "{path} included more than once\n    {detail_formatter(detail)}"]
    # the wrapper's `info`, then the wrapped exception's lines
    assert "{info}\n    {detail_formatter(detail)}" in texts["execute"]


def test_several_arguments_print_their_tuple(tmp_path: Path) -> None:
    config = CONFIG + '''
        def contained(self, name):
            raise ConfigurationError('Invalid directive', name)
    '''
    pkg = tmp_path / "conf"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    for mod, text in (("exceptions", EXCEPTIONS), ("config", config)):
        (pkg / f"{mod}.py").write_text(textwrap.dedent(text))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "conf/config.py", "ConfigurationContext.contained").templates]
    assert texts[0] == "('Invalid directive', {name})"
