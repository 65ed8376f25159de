"""``raise tokens.error(text)`` where ``tokens`` is a parameter (``tokens: Tokens``, or unannotated) and
``error`` no method of the package: a class the instance holds (docopt-ng 0.9.0's ``Tokens.__init__``
keeps ``self.error = error``, ``DocoptExit`` or ``DocoptLanguageError``), the caller's.  The message follows
the builtin rule, the first argument is the text (captured: ``docopt.DocoptLanguageError: unmatched '('``),
where the site printed nothing but the call before.  A method of that name is still a factory whose
returned exception is the message, and ``self.retry_error_cls(fut)`` the instance's own (tenacity's
``Retrying``, left as written: ``match`` reads such raises of their own).  The package is written in its shape."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

PARSER = '''
    class DocoptLanguageError(Exception):
        """Error in construction of usage-message by developer."""


    class DocoptExit(SystemExit):
        usage = ""

        def __init__(self, message=""):
            SystemExit.__init__(self, (message + "\\\\n" + self.usage).strip())


    class Tokens(list):
        def __init__(self, source, error=DocoptExit):
            self += source.split()
            self.error = error

        def fail(self, message):
            return DocoptLanguageError("failed: " + message)


    def parse_atom(tokens: Tokens, options):
        token = tokens.pop(0)
        if token not in ")]":
            raise tokens.error("unmatched '%s'" % token)
        return options


    def parse_long(tokens, longer):
        if not tokens:
            raise tokens.error("%s requires argument" % longer)
        return tokens


    def parse_end(tokens: Tokens):
        if tokens:
            raise tokens.fail("extra tokens")


    class Retrying:
        def __init__(self, retry_error_cls):
            self.retry_error_cls = retry_error_cls

        def exc_check(self, fut):
            retry_exc = self.retry_error_cls(fut)
            raise retry_exc from fut.exception()
'''


def _sites(tmp_path: Path) -> dict[str, tuple[str, list[str]]]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "docopt.py").write_text(textwrap.dedent(PARSER))
    return {s.qualname: (s.exception, [t.render() for t in s.templates]) for s in extract_dir(tmp_path).sites}


def test_a_class_a_typed_parameter_holds_prints_its_first_argument(tmp_path: Path) -> None:
    assert _sites(tmp_path)["parse_atom"] == ("tokens.error", ["unmatched '{token}'"])


def test_a_class_an_untyped_parameter_holds_prints_its_first_argument(tmp_path: Path) -> None:
    assert _sites(tmp_path)["parse_long"] == ("tokens.error", ["{longer} requires argument"])


def test_a_method_of_that_name_is_still_a_factory(tmp_path: Path) -> None:
    assert _sites(tmp_path)["parse_end"][1] == ["failed: extra tokens"]


def test_a_class_self_holds_is_left_as_written(tmp_path: Path) -> None:
    assert _sites(tmp_path)["Retrying.exc_check"] == ("retry_exc", ["{retry_exc}"])
