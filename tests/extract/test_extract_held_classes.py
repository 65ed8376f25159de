"""A class each subclass names in a class attribute, picked in a base's method and called (frictionless 5.21.0's
``Metadata``: ``metadata_Error: ClassVar[Optional[Type[Error]]] = None``, ``Package.metadata_Error =
errors.PackageError`` and sixteen more, and the base's ``Error = cls.metadata_Error or
platform.frictionless_errors.MetadataError`` then ``raise FrictionlessException(Error(note=note))``; issue 17's
seventy-third round): the error object is one of the classes the family names (``heldclasses``); its class's
text is what they all share around the raise's note, a tie of the subclasses' texts, never one of them alone."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

_ERRORS = '''from __future__ import annotations

from typing import ClassVar


class Error:
    type: ClassVar[str] = "error"
    template: ClassVar[str] = "{note}"

    def __init__(self, *, note):
        self.note = note
        self.message = self.template.format(note=note)


class MetadataError(Error):
    type = "metadata-error"
    template = "Metadata error: {note}"


class SchemaError(MetadataError):
    type = "schema-error"
    template = "Schema is not valid: {note}"


class PackageError(MetadataError):
    type = "package-error"
    template = "The data package has an error: {note}"
'''

_EXCEPTION = '''class TablekitException(Exception):
    def __init__(self, error):
        self.__error = error
        super().__init__(f"[{self.error.type}] {self.error.message}")

    @property
    def error(self):
        return self.__error
'''

_METADATA = '''from __future__ import annotations

import json
from typing import ClassVar, Optional, Type

from . import errors
from .exception import TablekitException


class Metadata:
    metadata_Error: ClassVar[Optional[Type[errors.Error]]] = None

    @classmethod
    def from_path(cls, path):
        try:
            with open(path) as file:
                return cls(**json.load(file))
        except Exception as exception:
            Error = cls.metadata_Error or errors.MetadataError
            note = f'cannot retrieve metadata "{path}" because "{exception}"'
            raise TablekitException(Error(note=note)) from exception

    def to_json(self, path, error_class=None):
        Error = error_class
        if not Error:
            Error = self.metadata_Error or errors.MetadataError
        if not path:
            raise TablekitException(Error(note="the path is empty"))
'''

_SCHEMA = '''from . import errors
from .metadata import Metadata


class Schema(Metadata):
    metadata_Error = errors.SchemaError
'''

_PACKAGE = '''from . import errors
from .metadata import Metadata


class Package(Metadata):
    metadata_Error = errors.PackageError
'''


def _package(root: Path) -> Path:
    pkg = root / "tablekit"
    pkg.mkdir()
    for name, text in (("__init__", ""), ("errors", _ERRORS), ("exception", _EXCEPTION), ("metadata", _METADATA),
                       ("schema", _SCHEMA), ("package", _PACKAGE)):
        (pkg / f"{name}.py").write_text(text)
    return root


def test_the_classes_the_subclasses_name_share_their_text_around_the_note(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    site = site_in(result, "tablekit/metadata.py", "Metadata.from_path")
    rendered = [t.render() for t in site.templates]
    # `[schema-error] Schema is not valid: ...`, `[package-error] The data package has an error: ...` and the
    # default's `[metadata-error] Metadata error: ...`: the type's `-error` and the note after the template's ": "
    assert rendered[0] == '[{self.error.type}-error] {self.error.message}: cannot retrieve metadata "{path}" because "{exception}"'
    assert not any(r.startswith(("[schema-error]", "[package-error]", "[metadata-error]")) for r in rendered)


def test_a_class_the_caller_may_hand_keeps_the_generic_text_too(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    site = site_in(result, "tablekit/metadata.py", "Metadata.to_json")
    rendered = {t.render() for t in site.templates}
    assert "[{self.error.type}-error] {self.error.message}: the path is empty" in rendered
    assert "[{self.error.type}] {self.error.message}" in rendered  # `error_class=` of the caller's: unknown
