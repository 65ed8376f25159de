"""A helper that raises the text it is passed, called for its value: h11 0.16.0's ``validate(regex, data,
msg, *format_args)`` returns the match's groups and raises ``LocalProtocolError(msg.format(*format_args))``
when there is none; its callers write ``matches = validate(status_line_re, line, "illegal status line:
{!r}", line)``.  An assigned call was not recorded as passing its text, and ``msg.format(*format_args)`` of
a parameter was one unknown value (issue 17's twenty-seventh round, 9 events).  Now an assigned call passes
its texts as a statement call does, and the fields of the caller's text become placeholders."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

UTIL = '''
    class LocalProtocolError(Exception):
        pass


    def validate(regex, data, msg="malformed data", *format_args):
        match = regex.fullmatch(data)
        if not match:
            if format_args:
                msg = msg.format(*format_args)
            raise LocalProtocolError(msg)
        return match.groupdict()
'''

READERS = '''
    from .util import validate


    def read_status(lines, status_line_re):
        matches = validate(status_line_re, lines[0], "illegal status line: {!r}", lines[0])
        return matches["code"]


    def check_method(method_re, method):
        validate(method_re, method, "Illegal method characters")
'''


def test_an_assigned_call_passes_its_text_to_the_helper(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "util.py").write_text(textwrap.dedent(UTIL))
    (tmp_path / "pkg" / "readers.py").write_text(textwrap.dedent(READERS))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "pkg/util.py", "validate").templates]
    assert "illegal status line: {0}" in texts  # the caller's text, its field a placeholder
    assert "Illegal method characters" in texts
    assert "malformed data" in texts
