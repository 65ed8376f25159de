"""An exception wrapping an error object (frictionless 5.21.0's ``FrictionlessException(error, *,
reasons=[])``, issue 17's sixty-second round): ``f"[{self.error.type}] ..."`` reads the class constant of
the error object the raise passes (``wrappedattrs``), and the join over ``reasons`` may be empty when the
raise leaves it out (``joinedparts.over_own_param``)."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

_EXCEPTION = '''from __future__ import annotations

from typing import List, Union

from .errors import Error


class TabkitException(Exception):
    """Main exception: wraps an error object."""

    def __init__(self, error: Union[str, Error], *, reasons: List[Error] = []):
        self.__error = error if isinstance(error, Error) else Error(note=error)
        self.__reasons = reasons
        message = f"[{self.error.type}] {self.error.message}"
        message += " " + " ".join(f"({reason.message})" for reason in reasons)
        super().__init__(message)

    @property
    def error(self) -> Error:
        return self.__error

    @property
    def reasons(self) -> List[Error]:
        return self.__reasons
'''

_ERRORS = '''class Error:
    type = "error"
    template = "{note}"

    def __init__(self, *, note: str):
        self.note = note
        self.message = self.template.format(note=note)


class PackageError(Error):
    type = "package-error"
    template = "The data package has an error: {note}"


class SchemaError(Error):
    type = "schema-error"
    template = "Schema is not valid: {note}"
'''

_PACKAGE = '''from . import errors
from .exception import TabkitException


class Package:
    def __init__(self, resources):
        self.resources = resources

    def get_resource(self, name):
        for resource in self.resources:
            if resource.name == name:
                return resource
        error = errors.PackageError(note=f'resource "{name}" does not exist')
        raise TabkitException(error)

    def validate(self, found):
        if found:
            raise TabkitException(errors.SchemaError(note="descriptor is not valid"), reasons=found)

    def read(self, text):
        if not text:
            raise TabkitException("nothing to read")
'''


def _package(root: Path) -> Path:
    pkg = root / "tabkit"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .exception import TabkitException\n")
    (pkg / "exception.py").write_text(_EXCEPTION)
    (pkg / "errors.py").write_text(_ERRORS)
    (pkg / "package.py").write_text(_PACKAGE)
    return root


def test_the_wrapped_error_class_constant_and_the_empty_reasons(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    texts = [t.render() for t in site_in(result, "tabkit/package.py", "Package.get_resource").templates]
    # the error object's message is its class's template filled with the note (``classtemplate``)
    assert '[package-error] The data package has an error: resource "{name}" does not exist ' in texts
    assert '[package-error] The data package has an error: resource "{name}" does not exist ({reason.message})' \
        in texts


def test_a_passed_reasons_list_and_another_error_class(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    texts = [t.render() for t in site_in(result, "tabkit/package.py", "Package.validate").templates]
    assert "[schema-error] Schema is not valid: descriptor is not valid ({reason.message})" in texts
    assert not any(t.startswith("[package-error]") for t in texts)


def test_a_text_passed_is_made_the_base_error(tmp_path: Path) -> None:
    # `Error(note=error)` of the `isinstance` fallback (``coerced``, the sixty-third round)
    result = extract_dir(_package(tmp_path))
    texts = [t.render() for t in site_in(result, "tabkit/package.py", "Package.read").templates]
    assert "[error] nothing to read " in texts
