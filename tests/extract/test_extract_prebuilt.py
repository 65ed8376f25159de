"""An exception object built in one place and raised in another (issue 17's thirty-ninth round): hl7apy 1.3.5's
``validate`` hands its ``errors`` list to nested checks that ``errs.append(ValidationError("Missing required
child {}.{}".format(...)))`` and then ``raise errors[0]``; responses-like classes assign
``self.failure = HTTPError(...)`` in ``__init__`` and ``raise self.failure`` in another method.  The site's
texts are the constructor calls that built the object (``extract/prebuilt.py``)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.extract.prebuilt import assigned, collected

ERRORS = '''
    class ValidationError(Exception):
        pass


    class ChildNotFound(ValidationError):
        pass
'''

VALIDATION = '''
    from .errors import ChildNotFound, ValidationError


    def _check_repetitions(el, children, name, errs):
        if not children:
            errs.append(ValidationError("Missing required child {}.{}".format(el.name, name)))
        elif len(children) > 1:
            errs.append(ValidationError("Child limit exceeded {}.{}".format(el.name, name)))


    class Validator:
        @staticmethod
        def validate(element, strict=True):
            def _is_valid(el, errs):
                if el.is_unknown():
                    errs.append(ValidationError("Unknown element found: {}".format(el)))
                    return
                for name, children in el.groups():
                    _check_repetitions(el, children, name, errs)

            errors = []
            warnings = []
            _is_valid(element, errors)
            for w in element.warnings:
                warnings.append(UserWarning(w))
            if errors:
                raise errors[0]
            return True


    def first_missing(names, present):
        missing = []
        for n in names:
            if n not in present:
                missing.append(ChildNotFound(f"no child named {n}"))
        if missing:
            raise missing[0]


    def reraised(items):
        failures = []
        for item in items:
            try:
                item.check()
            except ValueError as e:
                failures.append(e)
        if failures:
            raise failures[0]


    def callers_list(errors):
        if errors:
            raise errors[0]


    def closure(values):
        problems = []

        def check(v):
            if v < 0:
                problems.append(ValidationError(f"negative value {v}"))

        for v in values:
            check(v)
        if problems:
            raise problems[0]


    def handed_to_a_method(checker, values):
        problems = []
        checker.run(values, problems)
        problems.append(ValidationError("checks failed"))
        raise problems[0]


    class Reply:
        def __init__(self, status, body=None):
            self.status = status
            self.failure = None
            if status >= 400:
                self.failure = ValidationError(f"HTTP status {status}")

        def check(self):
            if self.failure is not None:
                raise self.failure


    class Passed:
        def __init__(self, body):
            self.body = body

        def get(self):
            raise self.body
'''


def _result(tmp_path: Path) -> object:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "pkg" / "validation.py").write_text(textwrap.dedent(VALIDATION))
    return extract_dir(tmp_path)


def _site(result: object, qualname: str) -> tuple[str, list[str]]:
    s = site_in(result, "pkg/validation.py", qualname)  # type: ignore[arg-type]
    return s.exception_resolved, sorted(t.render() for t in s.templates)


def test_a_list_handed_to_helpers_gives_the_texts_appended_there(tmp_path: Path) -> None:
    result = _result(tmp_path)
    assert _site(result, "Validator.validate") == ("pkg.errors.ValidationError", [
        "Child limit exceeded {el.name}.{name}",
        "Missing required child {el.name}.{name}",
        "Unknown element found: {el}",
    ])
    # a local list appended to in the raise's own function, or in a function nested in it
    assert _site(result, "first_missing") == ("pkg.errors.ChildNotFound", ["no child named {n}"])
    assert _site(result, "closure") == ("pkg.errors.ValidationError", ["negative value {v}"])


def test_caught_exceptions_and_a_callers_list_stay_values(tmp_path: Path) -> None:
    result = _result(tmp_path)
    assert _site(result, "reraised")[1] == ["{failures[0]}"]
    assert _site(result, "callers_list")[1] == ["{errors[0]}"]
    # handed to a method this module does not show: it may hold anything
    assert _site(result, "handed_to_a_method")[1] == ["{problems[0]}"]


def test_an_attribute_the_class_assigns_a_constructor(tmp_path: Path) -> None:
    result = _result(tmp_path)
    assert _site(result, "Reply.check") == ("pkg.errors.ValidationError", ["HTTP status {status}"])
    # a caller's object kept in an attribute: not this module's to know
    assert _site(result, "Passed.get")[1] != ["HTTP status {status}"]


def _exc(source: str) -> tuple[ast.Module, ast.expr]:
    tree = ast.parse(textwrap.dedent(source))
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Raise))
    assert node.exc is not None
    return tree, node.exc


def test_other_raised_expressions_give_nothing() -> None:
    tree, exc = _exc('''
        def f(table, k):
            errors = []
            errors.append(ValueError("x"))
            raise table[k]
    ''')
    assert collected(tree, ("f",), exc) == []
    tree, exc = _exc('''
        class C:
            def m(self):
                self.err = make_error("x")

            def n(self):
                raise self.err
    ''')
    assert assigned(tree, ("C", "n"), exc) is None


def test_a_nested_function_with_a_list_of_its_own_is_not_read() -> None:
    tree, exc = _exc('''
        def f(values):
            problems = []

            def check(v):
                problems = []
                problems.append(TypeError("its own"))
                return problems

            check(values)
            problems.append(ValueError("the raised one"))
            raise problems[0]
    ''')
    assert [ast.unparse(c) for c in collected(tree, ("f",), exc)] == ["ValueError('the raised one')"]
