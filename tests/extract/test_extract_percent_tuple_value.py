"""A ``%`` format of two positional fields or more filled by one name (pyvisa 1.16.2's ``register_subclass``:
``key = cls.interface_type, cls.resource_class`` then ``raise ValueError("Class already registered for %s and
%s" % key)``): the name must hold a tuple of that many items, or ``%`` raises ``TypeError``; each field is one
item (issue 17's sixty-eighth round).  One field keeps taking the whole value."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

RNAME = '''
_SUBCLASSES = {}


def register_subclass(cls):
    key = cls.interface_type, cls.resource_class
    if key in _SUBCLASSES:
        raise ValueError("Class already registered for %s and %s" % key)
    _SUBCLASSES[key] = cls
    return cls


def parse_resource_name(name):
    parts = name.split("::")
    if len(parts) < 2:
        raise ValueError("Not a resource name: %r" % name)
    return parts
'''


def _text(root: Path, qualname: str) -> list[str]:
    (root / "visapkg").mkdir()
    (root / "visapkg" / "__init__.py").write_text("")
    (root / "visapkg" / "rname.py").write_text(textwrap.dedent(RNAME))
    return [t.render() for t in site_in(extract_dir(root), "visapkg/rname.py", qualname).templates]


def test_each_field_is_an_item_of_the_tuple(tmp_path: Path) -> None:
    assert _text(tmp_path, "register_subclass") == ["Class already registered for {key[0]} and {key[1]}"]


def test_one_field_takes_the_whole_value(tmp_path: Path) -> None:
    assert _text(tmp_path, "parse_resource_name") == ["Not a resource name: {name}"]
