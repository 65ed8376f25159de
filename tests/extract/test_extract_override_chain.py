"""A method called on an object of unknown class whose name an override chain defines
(``factories.resolve_by_name`` with the classes' bases): the chain's root, whose texts the overrides
start from; methods of unrelated classes stay unresolved."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from extract_helpers import extract_dir, site_in

from errdex.extract.factories import by_name, resolve_by_name
from errdex.model import ExtractResult

TDOP = '''\
class ParseError(SyntaxError):
    """Error raised by the parser."""


class Token:
    symbol = "(name)"
    label = "symbol"

    def __str__(self):
        return f"{self.symbol!r} {self.label}"

    def wrong_syntax(self, message=None):
        if message:
            return ParseError(message)
        elif self.symbol == "(end)":
            return ParseError("unexpected end of source")
        return ParseError("unexpected %s" % self)


class Parser:
    def __init__(self, tokens):
        self.tokens = iter(tokens)
        self.next_token = next(self.tokens)

    def advance(self, *symbols, message=None):
        if symbols and self.next_token.symbol not in symbols:
            raise self.next_token.wrong_syntax(message)
        self.next_token = next(self.tokens)
'''

XPATH = '''\
from .tdop import ParseError, Parser, Token


class XPathError(ParseError):
    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        self.code = code


class XPathToken(Token):
    def wrong_syntax(self, message=None, code="XPST0003"):
        if message:
            return XPathError(message, code)
        error = super().wrong_syntax(message)
        return XPathError(str(error), code)


class XPathParser(Parser):
    def expected_next(self, *symbols, message=None):
        if self.next_token.symbol in symbols:
            return
        raise self.next_token.wrong_syntax(message)
'''

UNRELATED = '''\
class Reader:
    def complain(self, what):
        return ValueError(f"cannot read {what}")


class Writer:
    def complain(self, what):
        return OSError(f"cannot write {what}")


class Pipe:
    def __init__(self, end):
        self.end = end

    def close(self):
        raise self.end.complain("pipe")
'''


def _package(tmp_path: Path) -> ExtractResult:
    pkg = tmp_path / "xpathlib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tdop.py").write_text(dedent(TDOP))
    (pkg / "xpath.py").write_text(dedent(XPATH))
    (pkg / "pipes.py").write_text(dedent(UNRELATED))
    return extract_dir(tmp_path, repo="acme/xpathlib")


def test_an_override_chains_method_on_an_unknown_receiver_is_the_roots(tmp_path: Path) -> None:
    """`self.next_token.wrong_syntax(message)`: Token's and XPathToken's `wrong_syntax` are one chain,
    the root's texts are the site's (the messages every token's error starts from)."""
    result = _package(tmp_path)
    site = site_in(result, "xpathlib/xpath.py", "XPathParser.expected_next")
    assert site.exception_resolved == "xpathlib.tdop.ParseError"
    texts = [t.render() for t in site.templates]
    assert texts == ["unexpected end of source", "unexpected {self.symbol} symbol", "{message}"]
    site = site_in(result, "xpathlib/tdop.py", "Parser.advance")
    assert "unexpected end of source" in [t.render() for t in site.templates]


def test_methods_of_unrelated_classes_stay_unresolved(tmp_path: Path) -> None:
    site = site_in(_package(tmp_path), "xpathlib/pipes.py", "Pipe.close")
    assert site.exception_resolved not in ("builtins.ValueError", "ValueError", "OSError", "builtins.OSError")


def test_resolve_by_name_takes_the_root_of_one_chain_only() -> None:
    classes = {"p.A": 1, "p.B": 1, "p.C": 1, "p.D": 1}
    functions = {"p.A.err": 1, "p.B.err": 1, "p.C.err": 1, "p.f": 1}
    bases = {"p.A": (), "p.B": ("p.A",), "p.C": ("p.B", "p.A"), "p.D": ()}
    chain = {k: v for k, v in functions.items() if k != "p.C.err"}
    assert resolve_by_name(by_name("err", "p.f"), chain, classes, lambda c: bases[c]) == "p.A.err"
    assert resolve_by_name(by_name("err", "p.f"), functions, classes, lambda c: bases[c]) == "p.A.err"
    assert resolve_by_name(by_name("err", "p.f"), chain, classes) is None  # no bases known
    forked = {"p.B.err": 1, "p.D.err": 1}
    assert resolve_by_name(by_name("err", "p.f"), forked, classes, lambda c: bases[c]) is None
