"""An exception class whose ``__str__`` formats its first argument with the others
(``self.args[0] % self.args[1:]``): the raise's first argument is the format, its fields the
message's values (python-dateutil's ``ParserError``, whose printed text
``Unknown string format: AM`` was captured from its own test suite)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.model import ErrorSite

PARSER = '''
    class ParserError(ValueError):
        """Failure to parse a datetime string."""

        def __str__(self):
            try:
                return self.args[0] % self.args[1:]
            except (TypeError, IndexError):
                return super().__str__()


    def parse(timestr, res):
        if res is None:
            raise ParserError("Unknown string format: %s", timestr)
        if len(res) == 0:
            raise ParserError("String does not contain a date: %s", timestr)
        try:
            return res.build()
        except ValueError as e:
            raise ParserError(str(e) + ": %s", timestr) from e


    def between(lo, hi, value):
        raise ParserError("%s is not between %d and %r", value, lo, hi)


    def literal_percent(value):
        raise ParserError("100%% sure: %s", value)
'''


def _sites(tmp_path: Path) -> list[ErrorSite]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "parser.py").write_text(textwrap.dedent(PARSER))
    return sorted((s for s in extract_dir(tmp_path).sites if s.exception_name == "ParserError"), key=lambda s: s.line)


def test_the_first_argument_is_the_format_of_the_others(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    unknown, empty, wrapped, between, percent = ([t.render() for t in s.templates] for s in sites)
    assert unknown[0] == "Unknown string format: {self.args[1:][0]}"
    assert empty[0] == "String does not contain a date: {self.args[1:][0]}"
    assert wrapped[0] == "{e}: {self.args[1:][0]}"  # the caught message, then the value
    # fields are numbered across the literal runs; conversions and specs are kept
    assert between[0] == "{self.args[1:][0]} is not between {self.args[1:][1]} and {self.args[1:][2]}"
    fields = [(g.format_spec, g.conversion) for g in sites[3].templates[0].segments if not g.is_literal]
    assert fields == [(None, None), ("d", None), (None, "r")]
    assert percent[0] == "100% sure: {self.args[1:][0]}"
