"""``raise <x>.<attr>[i]`` of an attribute the package annotates as a sequence of one class raises that class
(pandera 0.35.0: ``raise error_handler.schema_errors[0]``, ``ErrorHandler.schema_errors`` a property returning
``list[SchemaError]``; ``raise err.schema_errors[0] from err``); the annotation forms read are a property's
return, ``self.<attr>: list[C] = ...``, a class body's ``<attr>: list[C]``, a parameter annotated so and kept as
``self.<attr>``, and ``tuple[C, ...]``, each perhaps ``| None``.  Annotations of one name that disagree, or a name no one annotates,
leave the class unnamed, as before (``itemtypes``)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.extract.itemtypes import element

ERRORS = '''
    class CheckError(Exception):
        pass


    class SchemaError(Exception):
        pass


    class Report:
        failures: tuple[CheckError, ...]

        def __init__(self, failures, schema_errors: list[SchemaError]):
            self.failures = failures
            self.schema_errors = schema_errors


    class Handler:
        def __init__(self):
            self._errors: list[SchemaError] = []
            self.others: list[SchemaError | CheckError] = []

        @property
        def errors(self) -> "list[SchemaError]":
            return self._errors

        @property
        def collected(self) -> list[SchemaError]:
            return self._errors


    class Other:
        collected: list[CheckError]
'''

BACKEND = '''
    from shapes.errors import Handler, Report


    def first(handler: Handler):
        raise handler.collected[0]


    def kept(report: Report):
        raise report.schema_errors[0] from None


    def in_tuple(report: Report):
        raise report.failures[-1]


    def unknown(thing):
        raise thing.pending[0]


    def disagreeing(handler: Handler):
        raise handler.others[0]
'''


def test_an_item_of_an_annotated_list_raises_its_class(tmp_path: Path) -> None:
    pkg = tmp_path / "shapes"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "errors.py").write_text(textwrap.dedent(ERRORS))
    (pkg / "backend.py").write_text(textwrap.dedent(BACKEND))
    result = extract_dir(tmp_path)
    # a property's return and the other class's `collected: list[CheckError]` disagree: no class named
    assert site_in(result, "shapes/backend.py", "first").exception_resolved == "handler.collected[0]"
    kept = site_in(result, "shapes/backend.py", "kept")
    assert kept.exception_resolved == "shapes.errors.SchemaError"
    assert kept.templates[0].normalized() == "{}"  # the item's own text, unknown here
    assert site_in(result, "shapes/backend.py", "in_tuple").exception_resolved == "shapes.errors.CheckError"
    assert site_in(result, "shapes/backend.py", "unknown").exception_resolved == "thing.pending[0]"
    assert site_in(result, "shapes/backend.py", "disagreeing").exception_resolved == "handler.others[0]"


def test_the_annotations_read_as_one_class_of_items() -> None:
    def of(text: str) -> str | None:
        return element(ast.parse(text, mode="eval").body)

    assert of("list[SchemaError]") == "SchemaError"
    assert of("typing.Sequence[errors.SchemaError]") == "errors.SchemaError"
    assert of("tuple[CheckError, ...]") == "CheckError"
    assert of("tuple[CheckError, SchemaError]") is None
    assert of("list[SchemaError | CheckError]") is None
    assert of("dict[str, SchemaError]") is None
    assert of("list[str]") is None
    assert of("list[GraphQLError] | None") == "GraphQLError"
    assert of("typing.Optional[list[GraphQLError]]") == "GraphQLError"
    assert of("list[GraphQLError] | list[str]") is None
