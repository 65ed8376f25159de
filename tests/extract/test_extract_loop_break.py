"""A local bound in a loop's ``if`` that ends in ``break`` reaches the code after the loop (beartype 0.23.1's
``die_unless_object_isinstanceable``: ``message_clause_prefix = ''``, then in ``for obj_item_index, obj_item in
enumerate(obj_items): if not type_tester(obj_item): message_clause_prefix = f'{obj_item_prefix}{obj_item_index}
child type hint {repr(obj_item)} '; break``, then ``raise exception_cls(f'... uncheckable at runtime, as
{message_clause_prefix}metaclass ...')``; captured texts from its suite: ``... as tuple union item 1 child type
hint <class '...'> metaclass ...``).  The branch that breaks was dropped as if it left the function, so the
template read ``as metaclass`` and the text with a clause matched no template."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

CHECK = """
    def check(obj, exception_cls=TypeError):
        clause = ''
        for index, item in enumerate(obj):
            if not isinstance(item, type):
                clause = 'item ' + str(index) + ' '
                break
        raise exception_cls(f'{obj!r} uncheckable at runtime, as {clause}metaclass raises.')
"""


def test_binding_before_break_reaches_the_raise(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "check.py").write_text(textwrap.dedent(CHECK))
    texts = {t.render() for t in site_in(extract_dir(tmp_path), "pkg/check.py", "check").templates}
    # `as metaclass` alone would miss every text with a clause
    assert not any("as metaclass" in t for t in texts), texts
