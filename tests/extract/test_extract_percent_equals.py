"""``msg %= args`` on a local message reads as ``msg = msg % args``: pyModbusTCP 0.3.1's ``utils.get_2comp`` does
``err_msg = 'could not compute two\\'s complement for %i on %i bits'`` then ``err_msg %= (val_int, val_size)``
then ``raise ValueError(err_msg)``, and errdex held ``{}`` for that site (three class fallbacks in round 42).
A number's ``%=`` stays a number (no ``%`` in its text)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

MOD = '''
    def get_2comp(val_int, val_size=16):
        """Get the 2's complement of Python int val_int."""
        if not (-1 << val_size - 1) <= val_int < (1 << val_size):
            err_msg = 'could not compute two\\'s complement for %i on %i bits'
            err_msg %= (val_int, val_size)
            raise ValueError(err_msg)
        return val_int


    def counted(items):
        total = 4
        total %= len(items)
        raise ValueError(total)
'''


def test_a_message_local_follows_its_percent_equals(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "utils.py").write_text(textwrap.dedent(MOD))
    result = extract_dir(tmp_path)
    by_func = {s.qualname: [t.render() for t in s.templates] for s in result.sites}
    assert "could not compute two's complement for {val_int} on {val_size} bits" in by_func["get_2comp"]
    assert not any("%" in t for t in by_func["counted"]), by_func["counted"]
