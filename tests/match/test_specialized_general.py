"""A general text at a site whose class-specific texts are known is no tie of a special text raised
elsewhere (elementpath 5.1.4, round 15: ``raise cls._invalid_type(value)`` in the ``validate`` classmethods of a
dozen datatypes, read as ``invalid type {type(obj)} for xs:{cls.name}`` and, for the site's own class,
``... for xs:base64Binary``).  Once retrieval verified every copy of a text (``rank._distinct``), each of those sites joined the
tie of ``UntypedAtomic``'s ``invalid type {type(obj)} for xs:untypedAtomic``, 8 sites becoming 19.  A site
whose own special texts did not fit prints the general one only for a class the package does not define,
so it stays out; a general text with no special case beside it (a base class's method, omegaconf's
``... type hint '{type_str(type_hint)}'``) is still a tie."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

TYPES = '''
class AnyAtomicType:
    name = None

    @classmethod
    def _invalid_type(cls, obj):
        return TypeError(f"invalid type {type(obj)} for xs:{cls.name}")

    @classmethod
    def check(cls, obj):
        if not isinstance(obj, str):
            raise TypeError(f"invalid type {type(obj)} for xs:{cls.name}")
        return obj


class Base64Binary(AnyAtomicType):
    name = "base64Binary"

    @classmethod
    def validate(cls, obj):
        if not isinstance(obj, bytes):
            raise cls._invalid_type(obj)
        return obj


class UntypedAtomic:
    def __init__(self, obj):
        if not isinstance(obj, (str, bytes)):
            raise TypeError(f"invalid type {type(obj)} for xs:untypedAtomic")
        self.obj = obj
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "specialized", "xtypes", {"__init__.py": "", "types.py": TYPES})


def test_a_general_text_with_known_special_cases_is_no_tie(lib: Catalog) -> None:
    r = explain(lib, "TypeError: invalid type <class 'int'> for xs:untypedAtomic")
    top = r.matches[0]
    assert top.qualname == "UntypedAtomic.__init__"
    tied = {t.qualname for t in top.tied}
    assert "AnyAtomicType.check" in tied  # the general text alone: it may print this
    assert "Base64Binary.validate" not in tied  # its own class prints `for xs:base64Binary`
