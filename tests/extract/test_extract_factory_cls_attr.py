"""``cls.<name>`` in the text an exception factory classmethod returns, called through ``cls`` by classes that
each set ``name`` (elementpath 5.1.4, captured texts from its test suite: ``invalid type <class 'bool'> for
xs:integer``): ``AnyAtomicType._invalid_type(cls, obj)`` returns ``TypeError('invalid type {!r} for
xs:{}'.format(type(obj), cls.name))``, and each type's ``validate`` classmethod ``raise
cls._invalid_type(value)``.  Every site had ``invalid type {type(obj)} for xs:{cls.name}`` and twenty of them
tied on any text; the calling class's ``name`` (then the placeholder, then its subclasses') now fills it
(``extract/classattrs.py``, ``attrs_of_caller``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

TYPES = '''
    class AnyAtomicType:
        name = "anyAtomicType"

        @classmethod
        def _invalid_type(cls, obj):
            return TypeError("invalid type {!r} for xs:{}".format(type(obj), cls.name))


    class Integer(int, AnyAtomicType):
        name = "integer"

        @classmethod
        def validate(cls, value):
            if not isinstance(value, int):
                raise cls._invalid_type(value)


    class Long(Integer):
        name = "long"


    class Boolean(AnyAtomicType):
        name = "boolean"

        @classmethod
        def validate(cls, value):
            if not isinstance(value, bool):
                raise cls._invalid_type(value)
'''


def test_the_calling_class_names_the_type(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "types.py").write_text(textwrap.dedent(TYPES))
    sites = {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}
    integer = sites["Integer.validate"]
    assert integer[0] == "invalid type {type(obj)} for xs:integer"
    assert "invalid type {type(obj)} for xs:long" in integer  # a subclass inherits validate
    assert "invalid type {type(obj)} for xs:{cls.name}" in integer  # a class set at run time
    boolean = sites["Boolean.validate"]
    assert boolean[0] == "invalid type {type(obj)} for xs:boolean"
    assert not any("integer" in t for t in boolean)
