"""An exception's ``__str__`` that keeps the base's text in a local and appends to it (multiaddr 0.2.0, round 32:
``StringParseError.__str__`` does ``base = super().__str__()`` then ``base += f" (string: {self.string})"`` under
ifs): the local is the text ``__init__`` handed its base, read with the raise's arguments, not a ``{base}`` value
that any text fills."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class Error(Exception):
        pass


    class ParseError(ValueError, Error):
        pass


    class StringParseError(ParseError):
        """MultiAddr string representation could not be parsed"""

        def __init__(self, message, string, protocol=None, original=None):
            self.message = message
            self.string = string
            self.protocol = protocol
            self.original = original

            if protocol:
                message = f"Invalid MultiAddr {string!r} protocol {protocol}: {message}"
            else:
                message = f"Invalid MultiAddr {string!r}: {message}"

            super().__init__(message)

        def __str__(self):
            base = super().__str__()
            if self.protocol is not None:
                base += f" (protocol: {self.protocol})"
            if self.string is not None:
                base += f" (string: {self.string})"
            return base


    class BinaryParseError(ParseError):
        def __init__(self, message, binary, protocol):
            self.binary = binary
            self.protocol = protocol
            super(BinaryParseError, self).__init__(f"Invalid binary MultiAddr protocol {protocol}: {message}")

        def __str__(self):
            text = super(BinaryParseError, self).__str__()
            text += f" (binary: {self.binary!r})"
            return text


    def from_string(addr):
        parts = addr.split("/")
        if not parts[0] == "":
            raise StringParseError("must begin with /", addr)
        for proto_name in parts[1:]:
            if not proto_name:
                raise StringParseError(f"missing value for protocol: {proto_name}", addr)
        return parts


    def flag_protocol(parts, idx, name):
        raise StringParseError(f"Protocol '{name}' does not take an argument", "/" + "/".join(parts[: idx + 1]), name)


    def cast(value):
        raise StringParseError("cannot cast", f"Cast {value!r} to multiaddr")


    def from_bytes(data, code):
        if not data:
            raise BinaryParseError("empty", data, code)
        return data
'''


def test_the_base_text_kept_in_a_local_is_each_raise_s_message(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.qualname in ("from_string", "from_bytes")),
                   key=lambda s: s.line)
    rendered = [sorted(t.render() for t in s.templates) for s in sites]
    # (the `if protocol:` branch of `__init__` is not pruned by a raise that leaves `protocol` out: both stay)
    assert rendered == [
        ["Invalid MultiAddr {addr} protocol {protocol}: must begin with /",
         "Invalid MultiAddr {addr} protocol {protocol}: must begin with / (string: {addr})",
         "Invalid MultiAddr {addr}: must begin with /",
         "Invalid MultiAddr {addr}: must begin with / (string: {addr})"],
        ["Invalid MultiAddr {addr} protocol {protocol}: missing value for protocol: {proto_name}",
         "Invalid MultiAddr {addr} protocol {protocol}: missing value for protocol: {proto_name} (string: {addr})",
         "Invalid MultiAddr {addr}: missing value for protocol: {proto_name}",
         "Invalid MultiAddr {addr}: missing value for protocol: {proto_name} (string: {addr})"],
        ["Invalid binary MultiAddr protocol {code}: empty (binary: {data})"],
    ]


def test_a_text_built_at_the_raise_shows_quoted_where_the_class_takes_its_repr(tmp_path: Path) -> None:
    """``{string!r}`` in ``__init__`` given ``"/" + "/".join(...)`` at the raise: a ``str``, its repr quoted."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    site = next(s for s in extract_dir(tmp_path).sites if s.qualname == "flag_protocol")
    rendered = {t.render() for t in site.templates}
    joined = '"/".join(parts[: idx + 1])'
    assert (f"Invalid MultiAddr '/{{{joined}}}' protocol {{name}}: Protocol '{{name}}' does not take an argument"
            f" (protocol: {{name}}) (string: /{{{joined}}})") in rendered
    assert not any(r.startswith("Invalid MultiAddr /") for r in rendered)


def test_a_text_that_may_hold_a_quote_is_given_either_quotes(tmp_path: Path) -> None:
    """``f"Cast {value!r} to multiaddr"`` may hold a quote (its repr then takes the other quotes): a ``str``'s repr
    is quoted all the same, so the text is either (issue 17's eighty-ninth round; it was left unquoted)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    site = next(s for s in extract_dir(tmp_path).sites if s.qualname == "cast")
    rendered = {t.render() for t in site.templates}
    assert "Invalid MultiAddr 'Cast {value} to multiaddr': cannot cast" in rendered
    assert 'Invalid MultiAddr "Cast {value} to multiaddr": cannot cast' in rendered
    assert "Invalid MultiAddr Cast {value} to multiaddr: cannot cast" not in rendered
