"""A message that embeds another exception's traceback *indented* under its text: beartype 0.23.1 raises
``exception_cls(f'{exception_prefix}PEP 484 stringified forward reference type hint {hint!r} unresolvable
to its target referent:\\n{exception_traceback}') from exception`` where ``exception_traceback`` is the
caught error's ``format_exc()`` indented by four spaces.  The parser took the indented header for a
traceback of its own, and the quoted ``AssertionError: None not string.`` for the error: a confident wrong
answer from the message alone (an assert elsewhere in the library has that text), and the quoted frames
were taken for the reported exception's own in the last line.  Python prints a traceback's header at the
margin, so an indented one under a line of text ending in a colon is text of the message.  The package is
written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain, parse

RESOLVE = '''
from traceback import format_exc


class HintForwardRefException(Exception):
    pass


def label_exception_traceback(exception):
    return "".join("    " + line + "\\n" for line in format_exc().splitlines())


def resolve_hint(hint, scope, exception_prefix="", exception_cls=HintForwardRefException):
    try:
        return eval(hint, scope)
    except Exception as exception:
        exception_traceback = label_exception_traceback(exception)
        raise exception_cls(
            f"{exception_prefix}stringified forward reference type hint {hint!r} "
            f"unresolvable to its target referent:\\n"
            f"{exception_traceback}"
        ) from exception
'''

MAKE = '''
class WrapperException(Exception):
    pass


def make_func(func_name, func_code, func_label=None, exception_cls=WrapperException):
    try:
        func_code_compiled = compile(func_code, f"<@wrapper({func_name})>", "exec")
    except Exception as exception:
        raise exception_cls(
            f"{func_label or func_name} "
            f"unparseable, as @wrapper generated invalid code raising:\\n"
            f"\\t{type(exception).__name__}: {exception}\\n\\n"
            f"{func_code}"
        ) from exception
    return func_code_compiled
'''

UNPARSEABLE = ("Heroic sail_beyond() function unparseable, as @wrapper generated invalid code raising:\n"
               "\tbuiltins.SyntaxError: invalid syntax (<@wrapper(sail_beyond) at 0x7f2ad33d0300>, line 2)\n\n"
               "def sail_beyond(and_the_baths: str) -> str:\n    Of all the western stars, until I die.")

PROXY = '''
def proxy_hint(scope_name, hint_name):
    assert isinstance(scope_name, str), f"{repr(scope_name)} not string."
    return type(hint_name, (), {"__module__": scope_name})
'''

QUOTED = '''    Traceback (most recent call last):
      File "/srv/venv/lib/python3.13/site-packages/fwdref/resolve.py", line 15, in resolve_hint
        return eval(hint, scope)
      File "<string>", line 1, in <module>
      File "/srv/venv/lib/python3.13/site-packages/fwdref/proxy.py", line 3, in proxy_hint
        assert isinstance(scope_name, str), f"{repr(scope_name)} not string."
               ~~~~~~~~~~^^^^^^^^^^^^^^^^^
    AssertionError: None not string.
'''

MESSAGE = ("Function of_oceans() parameter \"waste\" stringified forward reference type hint 'ToMutualWar' "
           "unresolvable to its target referent:\n" + QUOTED)
LAST_LINE = "fwdref.resolve.HintForwardRefException: " + MESSAGE
TRACEBACK = '''Traceback (most recent call last):
  File "/srv/tests/test_decor.py", line 40, in test_unresolvable
    resolve_hint("ToMutualWar", scope, 'Function of_oceans() parameter "waste" ')
  File "/srv/venv/lib/python3.13/site-packages/fwdref/resolve.py", line 18, in resolve_hint
    raise exception_cls(
''' + LAST_LINE


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "indented", "fwdref",
                               {"__init__.py": "", "resolve.py": RESOLVE, "proxy.py": PROXY,
                                "make.py": MAKE})


def test_the_indented_traceback_is_message_text() -> None:
    alone = parse(MESSAGE)
    assert alone.exception == "" and alone.message.startswith("Function of_oceans()") and not alone.frames
    assert alone.message.endswith("AssertionError: None not string.")
    last = parse(LAST_LINE)
    assert last.exception == "fwdref.resolve.HintForwardRefException" and not last.frames
    full = parse(TRACEBACK)
    assert full.exception == "fwdref.resolve.HintForwardRefException"
    assert [(f.path.rsplit("/", 1)[-1], f.line) for f in full.frames] == [("test_decor.py", 40), ("resolve.py", 18)]


def test_a_pasted_indented_traceback_alone_is_still_a_traceback() -> None:
    # no line of text at the margin above it: the user's own indented paste, the error its last line
    p = parse(QUOTED)
    assert (p.exception, p.message) == ("AssertionError", "None not string.")
    # a log record's line above an indented traceback names a level: the traceback is the error's
    logged = parse("2026-01-02 10:00:01 ERROR worker crashed:\n" + QUOTED)
    assert (logged.exception, logged.message) == ("AssertionError", "None not string.")


@pytest.mark.parametrize("text", [MESSAGE, LAST_LINE, TRACEBACK])
def test_the_raise_that_embedded_it_is_found(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches and r.matches[0].qualname == "resolve_hint"


def test_an_indented_last_line_under_a_colon_is_message_text(lib: Catalog) -> None:
    # the caught error's `Type: text` quoted alone, indented under the message's first line
    p = parse(UNPARSEABLE)
    assert p.exception == "" and p.message.startswith("Heroic sail_beyond() function unparseable")
    r = explain(lib, UNPARSEABLE)
    assert r.matches and r.matches[0].qualname == "make_func"
    # a log record's line names a level: the indented line is the error it logged
    logged = parse("2026-01-02 10:00:01 ERROR compile failed:\n\tSyntaxError: invalid syntax")
    assert (logged.exception, logged.message) == ("SyntaxError", "invalid syntax")
