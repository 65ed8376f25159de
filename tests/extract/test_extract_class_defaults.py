"""An exception class whose text depends on how it is raised (dnspython 2.8.0's ``DNSException``, captured
texts from its test suite: ``newline in quoted string``, ``DNS message is malformed.``, ``The DNS operation
timed out.``): positional arguments are passed on as they are (``super().__init__(*args)``) and printed by the
base's ``__str__`` (``return super().__str__()``); with none, ``self.msg``, the class's docstring, is the
message; keyword arguments fill the format string a class attribute holds (``fmt``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

EXCEPTION = '''
    class DNSException(Exception):
        """Abstract base class shared by all dnspython exceptions."""

        msg: str | None = None
        supp_kwargs: set[str] = set()
        fmt: str | None = None

        def __init__(self, *args, **kwargs):
            if kwargs:
                self.kwargs = kwargs
                self.msg = str(self)
            else:
                self.kwargs = dict()
            if self.msg is None:
                self.msg = self.__doc__
            if args:
                super().__init__(*args)
            else:
                super().__init__(self.msg)

        def __str__(self):
            if self.kwargs and self.fmt:
                return self.fmt.format(**self.kwargs)
            else:
                return super().__str__()


    class FormError(DNSException):
        """DNS message is malformed."""


    class SyntaxError(DNSException):
        """Text input is malformed.

        More words on a second line."""


    class Timeout(DNSException):
        """The DNS operation timed out."""

        supp_kwargs = {"timeout"}
        fmt = "The DNS operation timed out after {timeout:.3f} seconds"
'''

TOKENIZER = '''
    from pkg.exception import FormError, SyntaxError, Timeout


    def get(c):
        if c == "\\\\n":
            raise SyntaxError("newline in quoted string")
        if c == "":
            raise FormError
        if c == "t":
            raise Timeout(timeout=3.0)
        raise SyntaxError()
'''


def test_args_docstring_and_format_attribute_make_the_texts(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "exception.py").write_text(textwrap.dedent(EXCEPTION))
    (tmp_path / "pkg" / "tokenizer.py").write_text(textwrap.dedent(TOKENIZER))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path.endswith("tokenizer.py")), key=lambda s: s.line)
    newline, malformed, timeout, bare = ([t.render() for t in s.templates] for s in sites)
    assert "newline in quoted string" in newline
    assert "DNS message is malformed." in malformed
    assert "The DNS operation timed out after {timeout} seconds" in timeout
    assert "The DNS operation timed out." in timeout
    # a docstring of several lines: dedented (as Python 3.13 keeps it; the matcher reads runs of whitespace as one)
    assert "Text input is malformed.\n\nMore words on a second line." in bare
