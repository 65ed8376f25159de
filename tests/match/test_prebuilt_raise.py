"""A message whose exception was built in one place and raised in another (issue 17's thirty-ninth round):
hl7apy 1.3.5's ``validate`` collects ``ValidationError("Missing required child {}.{}".format(...))`` in a list
its nested checks append to and raises ``errors[0]``.  With the constructor's text on the raise
(``extract/prebuilt.py``), the message alone names that raise; before, no template held it and the answer
was a guess at an unrelated raise of the class."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain

ERRORS = '''
class ValidationError(Exception):
    pass
'''

VALIDATION = '''
from .errors import ValidationError


def _check_repetitions(el, children, name, errs):
    if not children:
        errs.append(ValidationError("Missing required child {}.{}".format(el.name, name)))
    elif len(children) > 1:
        errs.append(ValidationError("Child limit exceeded {}.{}".format(el.name, name)))


def validate(element):
    def _is_valid(el, errs):
        for name, children in el.groups():
            _check_repetitions(el, children, name, errs)

    errors = []
    _is_valid(element, errors)
    if errors:
        raise errors[0]
    return True


def check_version(version):
    try:
        major = int(version)
    except ValueError as e:
        raise ValidationError(e) from None
    if major < 2:
        raise ValidationError(f"Unsupported version {version}: required 2 or later")
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root: Path = tmp_path_factory.mktemp("prebuilt")
    db = str(root / "c.sqlite")
    index_package(root, "hlkit", {"__init__.py": "", "errors.py": ERRORS, "validation.py": VALIDATION}, db)
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


@pytest.mark.parametrize("text", ["Missing required child PID_3.CX_4", "Child limit exceeded MSH.MSH_9"])
def test_the_collected_constructors_text_names_the_raise(lib: Catalog, text: str) -> None:
    for pasted in (text, f"hlkit.errors.ValidationError: {text}"):
        top = explain(lib, pasted).matches[0]
        assert top.qualname == "validate", (pasted, top.qualname, top.template)
