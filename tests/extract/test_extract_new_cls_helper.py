"""``raise cls._invalid_value(value)`` in ``__new__``: Python hands ``__new__`` the class first, as it hands a
``@classmethod`` its ``cls`` (elementpath 5.1.4's ``Float.__new__`` and ``DecimalProxy.__new__``, round 15:
``invalid value 'nan' for xs:float``), so the helper is the class's (or a base's) method, read as in a class
method (``stmts.classmethod_alias``, ``IMPLICIT_CLASS``)."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.extract.stmts import classmethod_alias

TYPES = '''\
class AnyAtomicType:
    name = ''

    @classmethod
    def _invalid_value(cls, obj):
        if cls.name:
            return ValueError('invalid value {!r} for xs:{}'.format(obj, cls.name))
        return ValueError('invalid value {!r} for {!r}'.format(obj, cls))


class Float(float, AnyAtomicType):
    name = 'float'

    def __new__(cls, value):
        if isinstance(value, str) and value.lower() in ('inf', 'nan'):
            raise cls._invalid_value(value)
        return super().__new__(cls, value)

    @classmethod
    def validate(cls, value):
        if isinstance(value, str) and value.lower() in ('inf', 'nan'):
            raise cls._invalid_value(value)


class Meta(type):
    def __init_subclass__(cls, **kwargs):
        raise cls._invalid_value(kwargs)

    def plain(self, value):
        raise self.missing(value)
'''


def test_a_helper_of_cls_in_new_is_the_class_method(tmp_path: Path) -> None:
    pkg = tmp_path / "atoms"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "types.py").write_text(TYPES)
    result = extract_dir(tmp_path, repo="acme/atoms")
    new = site_in(result, "atoms/types.py", "Float.__new__")
    validate = site_in(result, "atoms/types.py", "Float.validate")
    assert new.exception_resolved == validate.exception_resolved == "ValueError"
    assert [t.render() for t in new.templates] == [t.render() for t in validate.templates]
    assert new.templates[0].render() == "invalid value {value} for xs:float"


def test_implicit_class_methods_alias_their_first_parameter() -> None:
    import ast

    tree = ast.parse(TYPES)
    funcs = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    assert classmethod_alias(funcs["__new__"]) == "cls"
    assert classmethod_alias(funcs["__init_subclass__"]) == "cls"
    assert classmethod_alias(funcs["validate"]) == "cls"
    assert classmethod_alias(funcs["plain"]) == ""
