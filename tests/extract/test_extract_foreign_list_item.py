"""A class of another package handed a one-item list of text (simplesqlite 1.5.4's ``raise ValidationError(
["null name"], reason=ErrorReason.NULL_NAME)``, pathvalidate's class, which unpacks the list and prints
``[PV1001] the value must not be an empty string: null name``): the site keeps the list's repr and also reads the
item's own text; a package's own class, a standard-library one and a list of two items stay as they were."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

VALIDATOR = '''
    from pathvalidate.error import ErrorReason, ValidationError

    from .error import OwnError


    def validate_sqlite_table_name(name: str) -> None:
        if not name:
            raise ValidationError(["null name"], reason=ErrorReason.NULL_NAME)

        name = name.upper()
        if name in ("TABLE", "INDEX"):
            raise ValidationError(
                [f"'{name}' is a reserved keyword by sqlite"],
                reason=ErrorReason.RESERVED_NAME,
                reusable_name=False,
            )


    def validate_own(name: str) -> None:
        if not name:
            raise OwnError(["null name"])


    def validate_two(name: str) -> None:
        if not name:
            raise ValidationError(["null name", "empty"], reason=ErrorReason.NULL_NAME)


    def validate_stdlib(name: str) -> None:
        import json

        if not name:
            raise json.JSONDecodeError(["null name"], name, 0)
'''

FUNC = '''
    from pathvalidate.error import ValidationError
    from tabledata import NameValidationError

    from ._validator import validate_sqlite_table_name


    def validate_table_name(name: str) -> None:
        try:
            validate_sqlite_table_name(name)
        except ValidationError as e:
            raise NameValidationError(e)
'''


def _extract(tmp_path: Path) -> dict[str, list[str]]:
    pkg = tmp_path / "simplesql"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "error.py").write_text("class OwnError(Exception):\n    pass\n")
    for name, text in (("_validator", VALIDATOR), ("_func", FUNC)):
        (pkg / f"{name}.py").write_text(textwrap.dedent(text))
    result = extract_dir(tmp_path)
    out = {q: [t.render() for t in site_in(result, "simplesql/_validator.py", q).templates]
           for q in ("validate_own", "validate_two", "validate_stdlib")}
    out["null"] = [t.render() for t in site_in(result, "simplesql/_validator.py", "validate_sqlite_table_name").templates]
    out["reserved"] = [t.render() for t in site_in(result, "simplesql/_validator.py", "validate_sqlite_table_name",
                                                    1).templates]
    out["func"] = [t.render() for t in site_in(result, "simplesql/_func.py", "validate_table_name").templates]
    return out


def test_the_item_of_a_foreign_class_list_is_read_too(tmp_path: Path) -> None:
    texts = _extract(tmp_path)
    assert texts["null"] == ["['null name']", "null name"]
    assert "'{name}' is a reserved keyword by sqlite" in texts["reserved"]


def test_the_caught_foreign_error_wrapped_again_carries_the_items(tmp_path: Path) -> None:
    assert {"null name", "'{name}' is a reserved keyword by sqlite"} <= set(_extract(tmp_path)["func"])


def test_own_stdlib_and_two_item_lists_keep_the_repr_only(tmp_path: Path) -> None:
    texts = _extract(tmp_path)
    assert "null name" not in texts["validate_own"]
    assert "null name" not in texts["validate_two"]
    assert "null name" not in texts["validate_stdlib"]
