"""A helper that raises the message its callers pass (h11 0.16.0's ``validate(regex, data, msg="malformed
data", *format_args)``) raises its own default text whenever a caller leaves the message out, though every
caller in the package passes one (h11's tests call ``validate(my_re, b"...")``: ``malformed data``, captured
from its test suite, ``bench/data/h11-0.16.0.jsonl``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

UTIL = '''
    import re


    class LocalProtocolError(Exception):
        pass


    def validate(regex, data, msg="malformed data", *format_args):
        match = regex.fullmatch(data)
        if not match:
            if format_args:
                msg = msg.format(*format_args)
            raise LocalProtocolError(msg)
        return match.groupdict()


    _method_re = re.compile(rb"[A-Z]+")


    def check_method(method):
        validate(_method_re, method, "Illegal method characters")


    def check_name(name):
        validate(_method_re, name, "Illegal header name {!r}", name)
'''


def test_the_helpers_own_default_text_is_one_of_its_messages(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "_util.py").write_text(textwrap.dedent(UTIL))
    site = next(s for s in extract_dir(tmp_path).sites if s.qualname == "validate")
    texts = [t.render() for t in site.templates]
    assert "Illegal method characters" in texts
    assert "malformed data" in texts
