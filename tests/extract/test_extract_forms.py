"""Message text that only phase 2 knows (tests/fixtures/extract_forms): each site's templates."""

from __future__ import annotations

import pytest
from extract_helpers import FIXTURES, extract_dir, site_in

from errdex.model import ExtractResult, Segment

P = "formlib/validators.py"


@pytest.fixture(scope="module")
def forms() -> ExtractResult:
    return extract_dir(FIXTURES / "extract_forms", repo="acme/forms")


@pytest.mark.parametrize(("qualname", "templates"), [
    pytest.param("Length.__call__", ["Shorter than minimum length {min}.", "Length must be between {min} and {max}.",
                                     "{error}"], id="caller-text-formatted-in-helper"),
    pytest.param("Length.direct", ["Length must be between {min} and {max}.", "{error}"], id="or-receiver-of-format"),
    pytest.param("Range.__call__", ["Must be greater than or equal to {min}.", "Must be greater than {min}.", "{error}"],
                 id="class-attribute-formatted-in-init"),
    pytest.param("bounded", ["must be above {low}, got {value}", "must be at least {low}, got {value}"],
                 id="conditional-words-in-format"),
    pytest.param("no_such", ["No filter named {name}.", "No test named {name}."], id="local-literal-on-branches"),
    pytest.param("no_such_kind", ["No {kind} named {name}."], id="parameter-not-enumerated"),
])
def test_templates(forms: ExtractResult, qualname: str, templates: list[str]) -> None:
    assert [t.render() for t in site_in(forms, P, qualname).templates] == templates


def test_fields_of_deferred_text_are_placeholders(forms: ExtractResult) -> None:
    """`{min}` of the formatted class attribute is a placeholder (a value), not literal braces."""
    first = site_in(forms, P, "Range.__call__").templates[0]
    assert first.segments == (Segment(text="Must be greater than or equal to "), Segment(expr="min"),
                              Segment(text="."))


def test_every_return_of_an_exceptions_str_is_a_message(forms: ExtractResult) -> None:
    """`if self.context: return f"{self.message} in {self.context!r}"` / `return self.message`."""
    path = "formlib/contexts.py"
    assert [t.render() for t in site_in(forms, path, "check").templates] == [
        "Name {name} is not normalized in {context}", "Name {name} is not normalized"]
    # then the caught error's texts where the re-raise puts them (extract/forwarded.py)
    assert [t.render() for t in site_in(forms, path, "wrapped").templates] == [
        "{e} in {key}", "{e}", "Name {name} is not normalized in {context} in {key}", "Name {name} is not normalized in {key}",
        "Name {name} is not normalized in {context}", "Name {name} is not normalized"]


def test_a_class_raised_without_a_call_is_constructed_with_no_arguments(forms: ExtractResult) -> None:
    """`raise FrozenInstanceError` runs its base's `__init__`, which passes a fixed text on."""
    path = "formlib/frozen.py"
    assert [t.render() for t in site_in(forms, path, "setattr_").templates] == ["can't set attribute"]
    assert [t.render() for t in site_in(forms, path, "other").templates] == [""]


@pytest.mark.parametrize(("qualname", "templates"), [
    # repr() of text holding a single quote and no double quote is written in double quotes
    pytest.param("child", ['("validator child \'{validator}\' did not raise", {attr})'], id="tuple-repr-quotes"),
    pytest.param("plain", ["('no quote here', {attr})"], id="tuple-repr-literal"),
    pytest.param("finalize", ["data was invalid ({len(errors)} sub-exception)",
                              "data was invalid ({len(errors)} sub-exceptions)"], id="exception-group"),
    # a subclass of ExceptionGroup prints as the group, whatever else its __new__ takes
    pytest.param("structure_items", ["While structuring {cl} ({len(errors)} sub-exception)",
                                     "While structuring {cl} ({len(errors)} sub-exceptions)"], id="group-subclass"),
])
def test_several_arguments_and_groups(forms: ExtractResult, qualname: str, templates: list[str]) -> None:
    assert [t.render() for t in site_in(forms, "formlib/tuples.py", qualname).templates] == templates


def test_a_parameter_reassigned_only_when_none_keeps_what_the_caller_passed(forms: ExtractResult) -> None:
    """`if message is None: message = name`: on the other path the message is the caller's text."""
    site = site_in(forms, "formlib/defaults.py", "get_source")
    assert [t.render() for t in site.templates] == ["{template} not found in search path: {paths}", "{template}"]


def test_str_of_an_argument_in_an_exceptions_str_is_the_raised_text(forms: ExtractResult) -> None:
    """`" of ".join(self._path) + " " + str(self.args[0])`: the raise's text after the path (typeguard)."""
    site = site_in(forms, "formlib/typecheck.py", "check_list")
    assert [t.render() for t in site.templates] == ['{" of ".join(self._path)} is not a list', "is not a list"]


def test_a_helper_returning_its_parameter_unchanged_on_one_path(forms: ExtractResult) -> None:
    """`if not indices: return container`: the text passed is one of the texts the helper returns."""
    site = site_in(forms, "formlib/paths.py", "not_found")
    assert sorted(t.render() for t in site.templates) == [
        "nothing at instance", "nothing at instance[{']['.join(repr(index) for index in indices)}]"]


@pytest.mark.parametrize(("qualname", "templates"), [
    pytest.param("pop_scope", ["Failed to pop the scope from an empty stack."], id="attrs-private-field"),
    pytest.param("check_size", ["size exceeds {limit}"], id="dataclass-fields"),
])
def test_the_init_a_decorator_writes_binds_the_fields(forms: ExtractResult, qualname: str,
                                                      templates: list[str]) -> None:
    """`@define` / `@dataclass` exceptions: `str(self._cause)` is the raise's first argument (jsonschema's
    `_RefResolutionError`); attrs names a private field's parameter without its underscore."""
    assert [t.render() for t in site_in(forms, "formlib/records.py", qualname).templates] == templates
