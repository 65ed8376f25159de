"""An exception whose ``__str__`` joins the pieces a generator method yields, which subclasses override
(cyclopts 4.23's ``CycloptsError``: ``__str__`` appends each ``(text, style)`` piece of ``self._segments()``
and joins them; ``UnknownOptionError._segments`` yields ``"Unknown option: "``, the value, ``"."``).  The
generator is read as the function returning its pieces joined, ``self._segments()`` as the raised class's
own method, ``yield from super()._segments()`` as the base's pieces of the same instance."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

LOOPED = '''
    class ToolError(Exception):
        def __init__(self, msg=None, verbose=False, tokens=None):
            self.msg = msg
            self.verbose = verbose
            self.tokens = tokens

        def _segments(self):
            if self.msg is not None:
                yield self.msg, ""
                return
            if not self.verbose:
                return
            yield f"{type(self).__name__}\\nTokens: {self.tokens}\\n", ""

        def __str__(self):
            parts = []
            for item in self._segments():
                if isinstance(item, tuple):
                    parts.append(item[0])
                else:
                    parts.append(item.plain)
            return "".join(parts)


    class UnknownOptionError(ToolError):
        def __init__(self, token, **kw):
            super().__init__(**kw)
            self.token = token

        def _segments(self):
            yield from super()._segments()
            yield "Unknown option: ", ""
            yield self.token, "bold red"
            yield ".", ""


    class MissingError(ToolError):
        def __init__(self, name, count, **kw):
            super().__init__(**kw)
            self.name = name
            self.count = count

        def _segments(self):
            if self.count == 0:
                required = "flag required"
            else:
                required = "requires an argument"
            yield from super()._segments()
            yield "Parameter ", ""
            yield self.name, "bold"
            yield f" {required}.", ""
'''

CORE = '''
    from pkg.errors import MissingError, UnknownOptionError


    def parse(token, name):
        if token.startswith("--"):
            raise UnknownOptionError(token)
        raise MissingError(name, 1)
'''


def _package(root: Path, errors: str, core: str) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").touch()
    (root / "pkg" / "errors.py").write_text(textwrap.dedent(errors))
    (root / "pkg" / "core.py").write_text(textwrap.dedent(core))


def test_the_subclass_pieces_after_the_base_preamble_are_the_text(tmp_path: Path) -> None:
    _package(tmp_path, LOOPED, CORE)
    result = extract_dir(tmp_path)
    unknown = [t.render() for t in site_in(result, "pkg/core.py", "parse", 0).templates]
    # the base's preamble yields nothing unless verbose: the subclass's pieces alone come first
    assert unknown[0] == "Unknown option: {token}.", unknown
    assert "UnknownOptionError\nTokens: {tokens}\nUnknown option: {token}." in unknown, unknown
    missing = {t.render() for t in site_in(result, "pkg/core.py", "parse", 1).templates}
    assert {"Parameter {name} flag required.", "Parameter {name} requires an argument."} <= missing, missing


ATTRS = '''
    from attrs import define
    from rich.text import Text


    @define
    class CliError(Exception):
        msg: str | None = None
        verbose: bool = False

        def _resolved_msg(self):
            if isinstance(self.msg, Text):
                return self.msg
            return Text(self.msg)

        def _segments(self):
            if self.msg is not None:
                yield self._resolved_msg()
                return
            if not self.verbose:
                return
            yield f"{type(self).__name__}\\n", ""

        def __str__(self):
            return "".join(text for text, _style in self._segments())


    @define(kw_only=True)
    class ConvertError(CliError):
        token: str | None = None

        def _segments(self):
            if self.msg is not None:
                yield self._resolved_msg()
                return
            yield from super()._segments()
            yield 'Invalid value "', ""
            yield self.token, "bold red"
            yield '".', ""
'''

ATTRS_CORE = '''
    from pkg.errors import ConvertError


    def convert(token, n):
        if n != 2:
            raise ConvertError(msg=f"Incorrect number of arguments: expected 2 but got {n}.")
        raise ConvertError(token=token)
'''


def test_a_decorated_subclass_passes_every_field_to_the_base_text(tmp_path: Path) -> None:
    """attrs' ``@define`` subclass: one generated ``__init__`` of the base's fields and its own, so
    ``msg=...`` reaches the base's ``__str__``; ``rich.text.Text(msg)`` prints the text it wraps."""
    _package(tmp_path, ATTRS, ATTRS_CORE)
    result = extract_dir(tmp_path)
    given = [t.render() for t in site_in(result, "pkg/core.py", "convert", 0).templates]
    assert given[0] == "Incorrect number of arguments: expected 2 but got {n}.", given
    plain = [t.render() for t in site_in(result, "pkg/core.py", "convert", 1).templates]
    assert plain[0] == 'Invalid value "{token}".', plain


NOT_JOINED = '''
    class Report(Exception):
        def lines(self):
            yield "first"
            yield "second"

        def __str__(self):
            return "report"


    def check(x):
        if x:
            raise Report()
'''


def test_a_generator_no_str_joins_stays_a_generator(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(NOT_JOINED))
    texts = [t.render() for t in site_in(extract_dir(tmp_path), "pkg/__init__.py", "check").templates]
    assert texts == ["report"], texts


OPTIONAL = '''
    class ToolError(Exception):
        def __init__(self, name, chain=None, quoted=False):
            self.name = name
            self.chain = chain
            self.quoted = quoted

        def __str__(self):
            return "".join(self._segments())

        def _segments(self):
            quoted = not self.name.startswith("-")
            if self.chain:
                yield 'Command "'
                yield self.chain
                yield '" parameter '
            else:
                yield "Parameter "
            yield '"' if quoted else ""
            yield self.name
            yield '"' if quoted else ""
            yield " is missing."


    def check(name):
        raise ToolError(name)
'''


def test_the_unset_attribute_path_leads_and_one_flag_decides_both_pieces(tmp_path: Path) -> None:
    """``if self.chain:`` (an attribute a raise may leave unset): the text without it comes first; a
    local flag read by two ``a if flag else b`` pieces (cyclopts' ``quoted``) decides both at once."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(OPTIONAL))
    texts = [t.render() for t in site_in(extract_dir(tmp_path), "pkg/__init__.py", "check").templates]
    assert texts[0].startswith("Parameter "), texts
    assert set(texts) == {'Parameter "{name}" is missing.', "Parameter {name} is missing.",
                          'Command "{chain}" parameter "{name}" is missing.',
                          'Command "{chain}" parameter {name} is missing.'}, texts


COLLECTED = '''
    class ToolError(Exception):
        def __init__(self, msg=None):
            self.msg = msg

        def __str__(self):
            return "".join(text for text, _ in self._segments())

        def _segments(self):
            if self.msg is not None:
                yield self.msg, ""


    class ValidationError(ToolError):
        def __init__(self, value, reason="", **kw):
            super().__init__(**kw)
            self.value = value
            self.reason = reason

        def _segments(self):
            body = []
            body.append(('Invalid value "', ""))
            body.append((self.value, "bold red"))
            body.append(('".', ""))
            preamble = list(super()._segments())
            yield from preamble
            yield from body
            if self.reason:
                yield " ", ""
                yield self.reason, ""


    def check(value):
        raise ValidationError(value=value, reason="Must be positive.")
'''


def test_pieces_collected_in_a_list_then_yielded_from(tmp_path: Path) -> None:
    """cyclopts' ``ValidationError._segments``: ``body.append((text, style))`` pieces, ``preamble =
    list(super()._segments())``, then ``yield from preamble`` and ``yield from body``."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(COLLECTED))
    texts = {t.render() for t in site_in(extract_dir(tmp_path), "pkg/__init__.py", "check").templates}
    assert texts >= {'Invalid value "{value}".', 'Invalid value "{value}". {reason}'}, texts
