"""A raise of an item of a list the package annotates with one class (pandera 0.35.0's non-lazy validation:
``raise error_handler.schema_errors[0]``, ``ErrorHandler.schema_errors`` a property returning
``list[SchemaError]``; ``except SchemaErrors as err: raise err.schema_errors[0] from err``, kept by
``SchemaErrors.__init__(self, schema, schema_errors: list[SchemaError], data)``) raises that class, its text
the item's own.  Read as a raise of a class no one can name, it tied with every exact text of the package
whatever the printed class: pandera's ``When drop_invalid_rows is True, lazy must be set to True.``
(``SchemaDefinitionError`` at 7 sites) grew to a group of 11, past what the tie rule lets count as an answer.
The texts are those captured from pandera's test suite (``bench/data/pandera-0.35.0.jsonl``); the library
is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

ERRORS = '''
class SchemaDefinitionError(Exception):
    """Raised when a schema is defined wrongly."""


class SchemaError(Exception):
    def __init__(self, schema, data, message):
        super().__init__(message)
        self.schema = schema
        self.data = data


class SchemaErrors(Exception):
    def __init__(self, schema, schema_errors: list[SchemaError], data):
        self.schema = schema
        self.schema_errors = schema_errors
        self.data = data
        super().__init__(f"{len(schema_errors)} errors")
'''

HANDLER = '''
from typing import Any

from vframe.errors import SchemaError


class ErrorHandler:
    def __init__(self, lazy: bool = True) -> None:
        self._lazy = lazy
        self._collected_errors: list[dict[str, Any]] = []
        self._schema_errors: list[SchemaError] = []

    def collect_error(self, reason, schema_error: SchemaError) -> None:
        if not self._lazy:
            raise schema_error from None
        self._schema_errors.append(schema_error)

    @property
    def schema_errors(self) -> list[SchemaError]:
        return self._schema_errors
'''


def _backend(kind: str) -> str:
    return f'''
from vframe.errors import SchemaDefinitionError, SchemaError, SchemaErrors
from vframe.handler import ErrorHandler


class {kind}Backend:
    def validate(self, check_obj, schema, lazy=False, drop_invalid_rows=False):
        if drop_invalid_rows and not lazy:
            raise SchemaDefinitionError("When drop_invalid_rows is True, lazy must be set to True.")
        error_handler = ErrorHandler(lazy)
        if check_obj is None:
            error_handler.collect_error("no_data", SchemaError(schema, check_obj, "{kind.lower()} frame is empty"))
        if lazy and error_handler.schema_errors:
            raise SchemaErrors(schema, error_handler.schema_errors, check_obj)
        elif error_handler.schema_errors:
            raise error_handler.schema_errors[0]
        return check_obj

    def coerce(self, check_obj, schema):
        try:
            return self.validate(check_obj, schema, lazy=True)
        except SchemaErrors as err:
            raise err.schema_errors[0] from err
'''


def _checks(n: int) -> str:
    return "".join(f'''

def less_than_{n}_{i}(data, max_value=None):
    if max_value is None:
        raise ValueError("max_value must not be None")
    return data < max_value
''' for i in range(n))


LAZY = "When drop_invalid_rows is True, lazy must be set to True."


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    modules = {"__init__.py": "", "errors.py": ERRORS, "handler.py": HANDLER, "checks.py": _checks(2)}
    modules.update({f"{kind.lower()}.py": _backend(kind) for kind in ("Pandas", "Polars", "Ibis")})
    yield from indexed_catalog(tmp_path_factory, "listed", "vframe", modules)


def _group(lib: Catalog, text: str) -> set[tuple[str, str]]:
    top = explain(lib, text).matches[0]
    return {(top.path, top.qualname), *((t.path, t.qualname) for t in top.tied)}


@pytest.mark.parametrize("text", [LAZY, f"vframe.errors.SchemaDefinitionError: {LAZY}"])
def test_an_item_of_another_class_does_not_join_a_texts_group(lib: Catalog, text: str) -> None:
    # the three direct raises only: not the three `schema_errors[0]` nor the three `err.schema_errors[0]`
    assert _group(lib, text) == {(f"vframe/{k}.py", f"{k.title()}Backend.validate") for k in ("pandas", "polars", "ibis")}


def test_a_builtin_class_text_stays_with_its_own_sites(lib: Catalog) -> None:
    assert {q for _, q in _group(lib, "ValueError: max_value must not be None")} == {"less_than_2_0", "less_than_2_1"}
