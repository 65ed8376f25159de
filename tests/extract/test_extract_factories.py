"""Exception factories (tests/fixtures/extract_forms/formlib/factories.py): the class a factory
instantiates speaks, with the factory's arguments bound (``extract/factories.py``)."""

from __future__ import annotations

import pytest
from extract_helpers import FIXTURES, extract_dir, site_in

from errdex.extract.factories import PACK, bind_with_rest, by_name, resolve_by_name, spread
from errdex.extract.ir import Lit, Param, Ref
from errdex.model import ExtractResult, Segment

P = "formlib/factories.py"


@pytest.fixture(scope="module")
def forms() -> ExtractResult:
    return extract_dir(FIXTURES / "extract_forms", repo="acme/forms")


@pytest.mark.parametrize(("qualname", "cls", "templates"), [
    pytest.param("Reader.read_char", "UnexpectedChar",
                 ["Unexpected character: {char} at line {self.line} col {self.col}"],
                 id="delegated-method-with-star-args"),
    pytest.param("Reader.read_escape", "InvalidEscape",
                 ["Invalid escape {seq} in a basic string at line {self.line} col {self.col}"],
                 id="star-kwargs-forwarded"),
    pytest.param("Reader.read_default", "ParseError",
                 ["{message} at line {self.line} col {self.col}", "parse error at line {self.line} col {self.col}"],
                 id="class-parameter-default"),
    pytest.param("check_name", "builtins.ValueError", ["invalid value for name: {name}"], id="helper-returns-exception"),
    pytest.param("direct", "UnexpectedChar", ["Unexpected character: {char} at line 1 col 2"],
                 id="text-passed-drops-the-none-default"),
    pytest.param("Front.lex", "ParseError", ["lexer stopped at {char} at line 0 col 0"],
                 id="attribute-typed-in-init"),
    pytest.param("by_annotation", "InvalidEscape", ["Invalid escape {seq} in a grammar at line 0 col 0"],
                 id="parameter-typed-by-annotation"),
])
def test_factory_sites(forms: ExtractResult, qualname: str, cls: str, templates: list[str]) -> None:
    site = site_in(forms, P, qualname)
    expected = cls.removeprefix("builtins.") if cls.startswith("builtins.") else f"formlib.factories.{cls}"
    assert site.exception_resolved == expected
    assert [t.render() for t in site.templates] == templates


def test_conversion_of_the_class_argument_survives(forms: ExtractResult) -> None:
    """`{char!r}` of UnexpectedChar's own text, bound through two factories."""
    seg = site_in(forms, P, "Reader.read_char").templates[0].segments[1]
    assert seg == Segment(expr="char", conversion="r")


def test_method_of_a_parameter_gets_its_callers_texts(forms: ExtractResult) -> None:
    """`tokens.syntax_error("...")`: the callers' texts first, the site's own template kept."""
    site = site_in(forms, P, "Tokens.syntax_error")
    assert [t.render() for t in site.templates] == [
        "Expected a comma between items\n    {self.source}", "Expected at most 99 items\n    {self.source}",
        "{message}\n    {self.source}"]


def test_by_name_leaves_out_the_caller_and_refuses_two_candidates() -> None:
    classes = {"p.A": 1, "p.B": 1, "p.C": 1}
    functions = {"p.A.err": 1, "p.B.err": 1, "p.f": 1}
    assert resolve_by_name(by_name("err", "p.A.err"), functions, classes) == "p.B.err"
    assert resolve_by_name(by_name("err", "p.f"), functions, classes) is None  # two candidates
    assert resolve_by_name(by_name("err", "p.C.g"), functions, classes) is None
    assert resolve_by_name(by_name("f", "p.A.g"), functions, classes) is None  # not a method


def test_star_arguments_bind_the_surplus_and_spread() -> None:
    bound = bind_with_rest(("exc",), "args", "kwargs", [Lit("E"), Lit("a"), Lit("b")], {"where": Lit("w")})
    assert bound["exc"] == Lit("E")
    pack = bound["*args"]
    assert isinstance(pack, Ref) and pack.callee == PACK and pack.args == (Lit("a"), Lit("b"))
    args, kwargs = spread((Lit("x"), pack), (("**", bound["**kwargs"]),))
    assert args == (Lit("x"), Lit("a"), Lit("b")) and kwargs == (("where", Lit("w")),)
    unbound = (("**", Param("**kwargs")),)
    assert spread((Param("*args"),), unbound) == ((Param("*args"),), unbound)


def test_a_method_name_of_two_classes_on_an_untyped_receiver_stays_unresolved(forms: ExtractResult) -> None:
    """`thing.fail(seq)`: Lexer and Grammar both have `fail`; nothing says which, so no class is guessed."""
    site = site_in(forms, P, "untyped")
    assert site.exception == "thing.fail(seq)" and site.unresolved
