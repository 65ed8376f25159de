"""``return typing.cast(T, value)`` returns the value: elementpath 5.1.4's ``XPathToken.missing_context``
returns ``cast(MissingContextError, self.error('XPDY0002', message))``, and ``raise self.missing_context()``
read as ``{self.missing_context()}`` while the factory's return was an unknown call (issue 17's
twenty-seventh round).  A ``cast`` that is not ``typing``'s is a call like any other."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

TOKENS = '''
    import typing as t
    from typing import cast

    from .local import cast as local_cast


    class Token:
        def error(self, message):
            return ValueError(f"bad token: {message}")

        def missing_context(self):
            return cast(ValueError, self.error("dynamic context required"))

        def wrong_type(self):
            return t.cast(ValueError, self.error("wrong type"))

        def cast_here(self):
            return local_cast(ValueError, self.error("not typing's"))

        def select(self, context):
            if context is None:
                raise self.missing_context()

        def check(self, value):
            if not isinstance(value, int):
                raise self.wrong_type()

        def other(self):
            raise self.cast_here()
'''

LOCAL = '''
    def cast(kind, value):
        return kind(f"recast: {value}")
'''


def test_a_typing_cast_returns_its_value(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "tokens.py").write_text(textwrap.dedent(TOKENS))
    (tmp_path / "pkg" / "local.py").write_text(textwrap.dedent(LOCAL))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "pkg/tokens.py", "Token.select").templates]
    assert texts == ["bad token: dynamic context required"]
    assert [t.render() for t in site_in(result, "pkg/tokens.py", "Token.check").templates] == ["bad token: wrong type"]
    assert "bad token: not typing's" not in [t.render() for t in site_in(result, "pkg/tokens.py", "Token.other").templates]
