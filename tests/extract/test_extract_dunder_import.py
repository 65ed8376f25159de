"""A class reached through ``__import__`` at the raise (dynaconf 3.3.5's ``nodes.py``:
``raise __import__("dynaconf.utils.parse_conf").DynaconfFormatError("Circular reference detected in lazy
formatting. ...")``, avoiding an import cycle; captured in its suite).  ``__import__("pkg.mod")`` returns the
top package, so the raise is ``pkg.Error(...)``: its class resolves and its message is read."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

INIT = '''
    from conf.utils.parse import FormatError

    __all__ = ["FormatError"]
'''

PARSE = '''
    class FormatError(Exception):
        """Error to raise when formatting a lazy value fails."""
'''

NODES = '''
    def evaluate(value, stack):
        if id(value) in stack:
            raise __import__("conf.utils.parse").FormatError(
                "Circular reference detected in lazy formatting."
            )
        return value
'''


def test_a_class_through_dunder_import_is_read(tmp_path: Path) -> None:
    (tmp_path / "conf" / "utils").mkdir(parents=True)
    (tmp_path / "conf" / "__init__.py").write_text(textwrap.dedent(INIT))
    (tmp_path / "conf" / "utils" / "__init__.py").touch()
    (tmp_path / "conf" / "utils" / "parse.py").write_text(textwrap.dedent(PARSE))
    (tmp_path / "conf" / "nodes.py").write_text(textwrap.dedent(NODES))
    site = site_in(extract_dir(tmp_path), "conf/nodes.py", "evaluate")
    assert [t.render() for t in site.templates] == ["Circular reference detected in lazy formatting."]
    assert site.exception_resolved == "conf.utils.parse.FormatError", site.exception_resolved
