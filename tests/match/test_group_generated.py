"""Exception groups the library raises, and errors raised in code the library generated with ``exec``.

The shapes are cattrs 26.2.1's (``bench/data/cattrs-26.2.1.jsonl``, paths shortened): its
``IterableValidationError`` is a subclass of ``ExceptionGroup`` raised around the errors it collected
(one of them built and never raised), and the structuring functions it generates with ``exec`` raise
``ClassValidationError`` from frames named ``<cattrs generated structure ...>``, of no file.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

ERRORS = '''
class ConvError(Exception):
    """Base error."""


class BaseValidationError(ExceptionGroup, ConvError):
    def __new__(cls, message, excs, cl):
        obj = super().__new__(cls, message, excs)
        obj.cl = cl
        return obj


class IterableValidationError(BaseValidationError):
    """Raised when structuring an iterable."""


class ClassValidationError(BaseValidationError):
    """Raised when structuring a class."""
'''

CONVERTERS = '''
from convlib.errors import ConvError, IterableValidationError


class Converter:
    def structure(self, obj, cl):
        return self._dispatch(cl)(obj, cl)

    def _structure_tuple(self, obj, tup, params):
        errors = []
        res = []
        for t, e in zip(params, obj):
            try:
                res.append(self.structure(e, t))
            except Exception as exc:
                errors.append(exc)
        if len(obj) != len(params):
            problem = "Not enough" if len(res) < len(params) else "Too many"
            exc = ValueError(f"{problem} values in {obj!r} to structure as {tup!r}")
            errors.append(exc)
        if errors:
            raise IterableValidationError(f"While structuring {tup!r}", errors, tup)
        return tuple(res)

    def _structure_literal(self, val, type):
        if val not in type.__args__:
            raise ConvError(f"{val} not in literal {type}")
        return val

    def _tuple_strict(self, obj, tup, params):
        if len(obj) != len(params):
            problem = "Not enough" if len(obj) < len(params) else "Too many"
            raise ValueError(f"{problem} values in {obj!r} to structure as {tup!r}")
        return tuple(obj)
'''

SITE = "/venv/lib/python3.13/site-packages/convlib/converters.py"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "groups", "convlib",
                               {"__init__.py": "", "errors.py": ERRORS, "converters.py": CONVERTERS})


GROUP_RAISED_BY_THE_LIBRARY = textwrap.dedent(f'''\
      + Exception Group Traceback (most recent call last):
      |   File "/src/tests/test_structure.py", line 160, in test_structuring_hetero_tuples
      |     converter.structure(vals2, t)
      |   File "{SITE}", line 7, in structure
      |     return self._dispatch(cl)(obj, cl)
      |   File "{SITE}", line 22, in _structure_tuple
      |     raise IterableValidationError(f"While structuring {{tup!r}}", errors, tup)
      | convlib.errors.IterableValidationError: While structuring typing.Tuple[float, float] (1 sub-exception)
      +-+---------------- 1 ----------------
        | ValueError: Too many values in [1.5, 2.5, None] to structure as typing.Tuple[float, float]
        +------------------------------------
    ''')

GROUP_RAISED_IN_GENERATED_CODE = textwrap.dedent(f'''\
      + Exception Group Traceback (most recent call last):
      |   File "/src/tests/test_structure_attrs.py", line 230, in test_structure_literal_error
      |     converter.structure({{"literal_field": 3}}, ClassWithLiteral)
      |   File "{SITE}", line 7, in structure
      |     return self._dispatch(cl)(obj, cl)
      |   File "<convlib generated structure tests.ClassWithLiteral>", line 10, in structure_ClassWithLiteral
      |     if errors: raise __c_cve('While structuring ' + 'ClassWithLiteral', errors, __cl)
      | convlib.errors.ClassValidationError: While structuring ClassWithLiteral (1 sub-exception)
      +-+---------------- 1 ----------------
        | Traceback (most recent call last):
        |   File "<convlib generated structure tests.ClassWithLiteral>", line 6, in structure_ClassWithLiteral
        |     res['literal_field'] = __c_structure_literal_field(o['literal_field'], __c_type_literal_field)
        |   File "{SITE}", line 27, in _structure_literal
        |     raise ConvError(f"{{val}} not in literal {{type}}")
        | convlib.errors.ConvError: 3 not in literal typing.Literal[4]
        +------------------------------------
    ''')


def test_a_group_the_library_raised_is_the_reported_exception(lib: Catalog) -> None:
    """Its frame pins its raise, whose text is the group's `msg (1 sub-exception)`; the member, built
    and never raised, prints the text of another site (`_tuple_strict`) and ranks below."""
    r = explain(lib, GROUP_RAISED_BY_THE_LIBRARY)
    top = r.matches[0]
    assert (top.qualname, top.pinned_by_frame, top.confident) == ("Converter._structure_tuple", True, True)
    assert r.parsed.exception == "convlib.errors.IterableValidationError"
    member = next(m for m in r.matches if m.exception == "ValueError")
    assert member.score < top.score


def test_a_group_raised_in_generated_code_has_no_confident_site(lib: Catalog) -> None:
    """The group was raised by code the library generated (no file): no site raised it, and the member's
    site, raised before and collected, is listed but not confident."""
    r = explain(lib, GROUP_RAISED_IN_GENERATED_CODE)
    assert not r.confident
    assert r.no_site is not None and r.no_site.origin == "generated"
    assert "<convlib generated structure tests.ClassWithLiteral>" in r.no_site.reason
    assert r.no_site.frame is not None and r.no_site.frame.function == "structure"
    assert r.matches[0].qualname == "Converter._structure_literal"


def test_a_plain_error_raised_in_generated_code(lib: Catalog) -> None:
    text = textwrap.dedent(f'''\
        Traceback (most recent call last):
          File "/src/tests/test_gen.py", line 3, in test_gen
            converter.structure({{}}, Klass)
          File "{SITE}", line 7, in structure
            return self._dispatch(cl)(obj, cl)
          File "<convlib generated structure Klass>", line 4, in structure_Klass
            raise ConvError('3 not in literal typing.Literal[4]')
        convlib.errors.ConvError: 3 not in literal typing.Literal[4]
        ''')
    r = explain(lib, text)
    assert not r.confident and r.no_site is not None and r.no_site.origin == "generated"


def test_code_run_from_a_string_by_the_user_is_not_the_librarys(lib: Catalog) -> None:
    """`python -c` / `exec` in the user's code: a `<string>` frame not called from a library frame."""
    text = textwrap.dedent('''\
        Traceback (most recent call last):
          File "<string>", line 1, in <module>
        ValueError: Too many values in [1] to structure as int
        ''')
    r = explain(lib, text)
    assert r.no_site is None or r.no_site.origin != "generated"
