"""One row per raise shape in tests/fixtures/extract_shapes: the templates it must produce."""

from __future__ import annotations

import pytest
from extract_helpers import site_in

from errdex.model import ExtractResult, Segment

P = "shapes/"

# (file, qualname, expected rendered templates, expected unresolved expressions)
CASES = [
    pytest.param("constants.py", "implicit_concat", ["implicit concatenation of literals"], (), id="implicit-concat"),
    pytest.param("constants.py", "no_args", [""], (), id="raise-class"),
    pytest.param("constants.py", "no_args_call", [""], (), id="raise-class-call"),
    pytest.param("constants.py", "with_cause", ["could not convert the value"], (), id="raise-from"),
    pytest.param("constants.py", "class_with_cause", [""], (), id="raise-class-from-none"),
    pytest.param("fstrings.py", "plain", ["unexpected argument {name}"], (), id="fstring"),
    pytest.param("fstrings.py", "conversion_and_spec", ["value {value} is too wide for {width} columns"], (),
                 id="fstring-conversion-spec"),
    pytest.param("fstrings.py", "nested_spec", ["cannot pad {value} to the requested width"], (), id="fstring-nested-spec"),
    pytest.param("fstrings.py", "attribute",
                 ["JAX tried to execute function {self.name}, but the no_execution config option is set"], (),
                 id="fstring-attribute-implicit-concat"),
    pytest.param("format_calls.py", "auto_numbered", ["expected {a} but got {b} instead"], (), id="format-auto"),
    pytest.param("format_calls.py", "positional_and_keyword", ["first {x} then {y} and {x}"], (), id="format-pos-kw"),
    pytest.param("format_calls.py", "field_attribute", ["object of type {obj.kind} has no length"], (), id="format-attr"),
    pytest.param("percent.py", "tuple_args", ["mismatch between {a} and {b} here"], (), id="percent-tuple"),
    pytest.param("percent.py", "dict_args", ["'unknown option {name} requested'"], (), id="percent-dict-keyerror-repr"),
    pytest.param("percent.py", "single_value", ["expected a count of {n} items"], (), id="percent-single"),
    pytest.param("percent.py", "percent_literal", ["progress {p}% exceeds the limit"], (), id="percent-escape"),
    pytest.param("concat.py", "plus", ["the argument {repr(x)} is not supported"], (), id="plus"),
    pytest.param("concat.py", "plus_fstring", ["prefix text: value {x} is bad"], (), id="plus-fstring"),
    pytest.param("joins.py", "newline_join", ["the first line of the message\nthe second line names {a}"], (),
                 id="join-list"),
    pytest.param("joins.py", "unknown_join", ['unknown items: {", ".join(items)}'], (), id="join-unknown"),
    pytest.param("dedents.py", "via_module", ["the dedented message\n  keeps relative indentation"], (), id="dedent"),
    pytest.param("dedents.py", "via_import", ["a dedented f-string about {x}"], (), id="dedent-import-strip"),
    pytest.param("locals_.py", "simple", ["local message about {x}"], (), id="local"),
    pytest.param("locals_.py", "built_up", ["base message text with detail {x}", "base message text"], (),
                 id="local-augassign-under-if"),
    pytest.param("locals_.py", "created_then_raised", ["created earlier for {x}"], (), id="exception-in-variable"),
    pytest.param("locals_.py", "branches", ["kind a is not allowed", "other kinds are not allowed"], (),
                 id="local-if-else"),
    pytest.param("locals_.py", "parameter", ["{msg}"], ("msg",), id="unresolved-parameter"),
    pytest.param("helpers.py", "local_message_helper", ["shapes {a} and {b} do not match"], (), id="helper-message"),
    pytest.param("helpers.py", "exception_helper", ["invalid input: empty batch"], (), id="helper-exception"),
    pytest.param("crossmod.py", "helper_in_other_module", ["shapes {a} and {b} do not match"], (),
                 id="helper-cross-module"),
    pytest.param("crossmod.py", "helper_via_module", ["shapes {a} and {b} do not match"], (), id="helper-module-attr"),
    pytest.param("errors.py", "shape", ["bad shape {name}"], (), id="class-super-init"),
    pytest.param("errors.py", "rank", ["bad shape rank-2"], (), id="class-inherited-init"),
    pytest.param("crossmod.py", "class_via_module", ["axis {a} has size 3"], (), id="class-explicit-base-init"),
    pytest.param("crossmod.py", "str_class", ["cannot handle {x} here"], (), id="class-str"),
    pytest.param("crossmod.py", "plain_class", ["plain message text"], (), id="class-no-init"),
    pytest.param("multi_args.py", "several", ["('bad value', {x})"], (), id="several-args-tuple"),
    pytest.param("warns.py", "with_category", ["the argument {x} is deprecated"], (), id="warn"),
    pytest.param("warns.py", "imported_warn", ["this call is slow and will be removed"], (), id="warn-imported"),
    pytest.param("warns.py", "instance", ["the default will change soon"], (), id="warn-instance"),
    pytest.param("asserts.py", "with_message", ["x must be positive, got {x}"], (), id="assert"),
    pytest.param("methods.py", "Checker.check", ["checker rejected a missing value"], (), id="method-helper"),
    pytest.param("methods.py", "local_init", ["the queue exceeded the limit of 5"], (), id="class-init-local-kwarg"),
    pytest.param("methods.py", "class_message", ["inconclusive comparison (this is a class-level help text)"], (),
                 id="class-constant-in-init"),
    pytest.param("errors.py", "documented",
                 ["a tracer leaked out of the transformation\nSee https://example.org/errors#TracerLeak"], (),
                 id="class-mixin-init-class-name-local-import"),
    pytest.param("errors.py", "pass_through", ["passed through to the base"], (), id="class-init-star-args"),
    pytest.param("errors.py", "starred", ["{*parts}"], ("*parts",), id="starred-argument"),
    pytest.param("odd_text.py", "surrogate", ["cannot decode byte \\udcff in the file name"], (),
                 id="lone-surrogate-kept-escaped"),
    pytest.param("i18n.py", "translated", ["Unknown color {value}"], (), id="gettext-format"),
    pytest.param("i18n.py", "plural", ["Takes {n} value.", "Takes {n} values."], (), id="ngettext-format"),
    pytest.param("i18n.py", "lazy", ["Enter a valid value: {value}"], (), id="gettext-lazy-percent-dict"),
    pytest.param("i18n.py", "themed", ["The {name} theme does not support this version of the builder"], (),
                 id="sphinx-double-underscore-percent"),
    pytest.param("reraise.py", "caught", ["{e}"], ("e",), id="reraise-caught"),
    pytest.param("reraise.py", "with_traceback", ["the resource was closed"], (), id="with-traceback"),
    pytest.param("reraise.py", "conditional", ["", "{reason}"], ("reason",), id="raise-ifexp"),
    pytest.param("methods.py", "module_constant", ["a module-level message constant"], (), id="module-constant"),
]

INDEXED = [
    pytest.param("helpers.py", "nested_helper", 0, ["grad_x_dims is not implemented for mode {mode}"],
                 id="nested-helper"),
    pytest.param("helpers.py", "nested_helper", 1, ["grad_y_dims is not implemented for mode {mode}"],
                 id="nested-helper-second-call"),
    pytest.param("methods.py", "Checker.check", 1, ["the value is too big for this checker"], id="imported-constant"),
    pytest.param("methods.py", "Checker.check", 2, ["invalid {x}: see the documentation of Checker for details"],
                 id="class-constant-in-fstring"),
]


@pytest.mark.parametrize(("file", "qualname", "index", "templates"), INDEXED)
def test_template_of_nth_site(shapes: ExtractResult, file: str, qualname: str, index: int,
                              templates: list[str]) -> None:
    assert [t.render() for t in site_in(shapes, P + file, qualname, index).templates] == templates


def test_combinations_are_capped_at_eight(shapes: ExtractResult) -> None:
    site = site_in(shapes, P + "methods.py", "many_branches")
    assert len(site.templates) == 8
    assert site.templates[0].render() == "start a-part b-part c-part d-part"
    assert len({t.render() for t in site.templates}) == 8


@pytest.mark.parametrize(("file", "qualname", "templates", "unresolved"), CASES)
def test_template(shapes: ExtractResult, file: str, qualname: str, templates: list[str],
                  unresolved: tuple[str, ...]) -> None:
    site = site_in(shapes, P + file, qualname)
    assert [t.render() for t in site.templates] == templates
    assert site.unresolved == unresolved


def test_fstring_keeps_conversion_and_format_spec(shapes: ExtractResult) -> None:
    site = site_in(shapes, P + "fstrings.py", "conversion_and_spec")
    assert site.template.placeholders == (
        Segment(expr="value", conversion="r", format_spec=">10"),
        Segment(expr="width", format_spec="d"),
    )


def test_nested_format_spec_is_its_source(shapes: ExtractResult) -> None:
    site = site_in(shapes, P + "fstrings.py", "nested_spec")
    assert site.template.placeholders == (Segment(expr="value", format_spec="{width}"),)


def test_format_fields_keep_conversion_and_spec(shapes: ExtractResult) -> None:
    site = site_in(shapes, P + "format_calls.py", "positional_and_keyword")
    assert site.template.placeholders[0] == Segment(expr="x", conversion="r", format_spec=">10")


def test_percent_conversions(shapes: ExtractResult) -> None:
    site = site_in(shapes, P + "percent.py", "tuple_args")
    assert [(p.expr, p.conversion) for p in site.template.placeholders] == [("a", None), ("b", "r")]
    assert site_in(shapes, P + "percent.py", "single_value").template.placeholders[0].format_spec == "d"


def test_kinds_and_exceptions(shapes: ExtractResult) -> None:
    warn = site_in(shapes, P + "warns.py", "with_category")
    assert (warn.kind, warn.exception_resolved) == ("warning", "DeprecationWarning")
    assert site_in(shapes, P + "warns.py", "imported_warn").exception_resolved == "UserWarning"
    assert site_in(shapes, P + "warns.py", "instance").exception_resolved == "FutureWarning"
    a = site_in(shapes, P + "asserts.py", "with_message")
    assert (a.kind, a.exception) == ("assertion", "AssertionError")
    err = site_in(shapes, P + "locals_.py", "created_then_raised")
    assert (err.exception, err.exception_resolved) == ("TypeError", "TypeError")
    helper = site_in(shapes, P + "helpers.py", "exception_helper")
    assert helper.exception_resolved == "ValueError"


def test_assert_without_message_and_bare_reraise_are_not_sites(shapes: ExtractResult) -> None:
    names = {(s.path, s.qualname) for s in shapes.sites}
    assert (P + "asserts.py", "without_message") not in names
    assert (P + "constants.py", "reraise") not in names


def test_cause_is_recorded(shapes: ExtractResult) -> None:
    assert site_in(shapes, P + "constants.py", "with_cause").cause == "e"
    assert site_in(shapes, P + "constants.py", "class_with_cause").cause == "None"


def test_reraised_exception_is_the_caught_class(shapes: ExtractResult) -> None:
    site = site_in(shapes, P + "reraise.py", "caught")
    assert (site.exception, site.exception_resolved) == ("KeyError", "KeyError")
    cond = site_in(shapes, P + "reraise.py", "conditional")
    assert (cond.exception, cond.exception_resolved) == ("TimeoutError", "TimeoutError")
