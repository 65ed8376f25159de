"""An error object's message rendered from its class's format template (frictionless 5.21.0's attrs
``Error``: ``template: ClassVar[str] = "{note}"``, ``self.message = helpers.safe_format(self.template,
descriptor)`` in ``__attrs_post_init__``, each subclass overriding ``template``; issue 17's sixty-third
round): the raise's keywords fill the template of the class it built (``classtemplate``), and a text passed
is made the error class the exception's ``__init__`` annotates (``coerced``)."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

_HELPERS = '''from typing import Any, Dict


def safe_format(text: str, data: Dict[str, Any]) -> str:
    return text.format_map(SafeFormatDict(data))


class SafeFormatDict(Dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""
'''

_ERRORS = '''from __future__ import annotations

from typing import ClassVar

import attrs

from . import helpers


@attrs.define(kw_only=True, repr=False)
class Error:
    type: ClassVar[str] = "error"
    template: ClassVar[str] = "{note}"

    message: str = attrs.field(init=False)
    note: str

    def __attrs_post_init__(self):
        descriptor = attrs.asdict(self)
        self.message = helpers.safe_format(self.template, descriptor)


class ResourceError(Error):
    type = "resource-error"
    template = "The data resource has an error: {note}"


@attrs.define(kw_only=True, repr=False)
class CellError(Error):
    type = "cell-error"
    template = 'Cell "{cell}" in row "{row_number}": {note}'

    cell: str
    row_number: int


class Issue:
    kind = "issue"
    text = "Issue: {note}"

    def __init__(self, note):
        self.message = self.text.format(note=note)

    def reword(self, message):
        self.message = message
'''

_PLATFORM = '''import importlib


class Platform:
    @property
    def tablekit(self):
        return importlib.import_module("tablekit.errors")


platform = Platform()
'''

_EXCEPTION = '''from __future__ import annotations

from typing import TYPE_CHECKING, Type, Union

from .platform import platform

if TYPE_CHECKING:
    from .errors import Error


class TablekitException(Exception):
    def __init__(self, error: Union[str, Error]):
        ErrorClass: Type[Error] = platform.tablekit.Error
        self.__error = error if isinstance(error, ErrorClass) else ErrorClass(note=error)
        super().__init__(f"[{self.error.type}] {self.error.message}")

    @property
    def error(self):
        return self.__error


class IssueException(Exception):
    def __init__(self, issue):
        self.issue = issue
        super().__init__(f"{self.issue.kind}: {self.issue.message}")
'''

_RESOURCE = '''from . import errors
from .exception import IssueException, TablekitException


class Resource:
    def open(self, path):
        if not path:
            raise TablekitException(errors.ResourceError(note="the path is empty"))
        note = f'file "{path}" is not readable'
        error = errors.ResourceError(note=note)
        raise TablekitException(error)

    def read_cell(self, row, value):
        raise TablekitException(errors.CellError(note="type is not integer", cell=value, row_number=row))

    def check(self):
        raise IssueException(errors.Issue("it was reworded"))

    def read(self, table):
        if table.header is None:
            raise TablekitException("a header row is required for reading")
        if not table.header.valid:
            error = table.header.errors[0]
            raise TablekitException(error)
'''


def _package(root: Path) -> Path:
    pkg = root / "tablekit"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text(_HELPERS)
    (pkg / "platform.py").write_text(_PLATFORM)
    (pkg / "errors.py").write_text(_ERRORS)
    (pkg / "exception.py").write_text(_EXCEPTION)
    (pkg / "resource.py").write_text(_RESOURCE)
    return root


def test_the_subclass_template_filled_with_the_note(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    site = site_in(result, "tablekit/resource.py", "Resource.open")
    assert [t.render() for t in site.templates] == ["[resource-error] The data resource has an error: the path is empty"]
    local = site_in(result, "tablekit/resource.py", "Resource.open", 1)
    assert [t.render() for t in local.templates] == [
        '[resource-error] The data resource has an error: file "{path}" is not readable']


def test_every_keyword_fills_its_field(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    site = site_in(result, "tablekit/resource.py", "Resource.read_cell")
    assert [t.render() for t in site.templates] == ['[cell-error] Cell "{value}" in row "{row}": type is not integer']


def test_a_message_set_otherwise_too_stays_a_placeholder(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    site = site_in(result, "tablekit/resource.py", "Resource.check")
    assert [t.render() for t in site.templates] == ["issue: {self.issue.message}"]


def test_a_text_passed_is_made_the_annotated_error_class(tmp_path: Path) -> None:
    # `ErrorClass: Type[Error] = platform.tablekit.Error`, then `ErrorClass(note=error)` of a text (``coerced``)
    result = extract_dir(_package(tmp_path))
    site = site_in(result, "tablekit/resource.py", "Resource.read")
    assert [t.render() for t in site.templates] == ["[error] a header row is required for reading"]


def test_a_value_of_unknown_kind_is_not_made_an_error(tmp_path: Path) -> None:
    # `error = table.header.errors[0]` may be an error object already: the placeholders stay
    result = extract_dir(_package(tmp_path))
    site = site_in(result, "tablekit/resource.py", "Resource.read", 1)
    assert [t.render() for t in site.templates] == ["[{self.error.type}] {self.error.message}"]
