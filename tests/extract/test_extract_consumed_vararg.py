"""An exception whose ``__init__(self, response, *args)`` appends its first surplus argument to its text and
passes on the rest (``msg += " " + str(args[0])`` then ``args = tuple(list(args)[1:])`` before
``super().__init__(msg, *args)``): udsoncan 1.26.1's ``InvalidResponseException`` (issue 17's round 29:
every site read as the tuple ``('{}service execution returned an invalid response.{} {}', {})``, 97 sites
tied).  The item read and the shifted pack are bound to the raise's arguments (``packitems``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class InvalidResponseException(Exception):
        def __init__(self, response, *args, **kwargs):
            self.response = response
            msg = self.make_msg(response)
            if len(args) > 0:
                msg += " " + str(args[0])
                args = tuple(list(args)[1:])
            super().__init__(msg, *args, **kwargs)

        def make_msg(self, response):
            servicename = response.service.get_name() + " " if response.service is not None else ""
            reason = "" if response.valid else " Reason : %s" % (response.invalid_reason)
            return "%sservice execution returned an invalid response.%s" % (servicename, reason)


    class ConfigError(Exception):
        def __init__(self, key, *args):
            first, *args = args
            super().__init__(f"Bad key {key}: {first}", *args)
'''

SERVICES = '''
    from .exceptions import ConfigError, InvalidResponseException


    def interpret_response(response):
        if len(response.data) < 2:
            raise InvalidResponseException(response, "Response data must be at least 2 bytes")
        if response.data[0] in response.seen:
            raise InvalidResponseException(response, "Record %d repeated", response.data[0])
        raise InvalidResponseException(response)


    def configure(key):
        raise ConfigError(key, "must be a string")
'''


def test_first_surplus_argument_joins_the_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "exceptions.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "pkg" / "services.py").write_text(textwrap.dedent(SERVICES))
    sites = sorted(extract_dir(tmp_path).sites, key=lambda s: (s.path, s.line))
    found = [(s.qualname, [t.render() for t in s.templates]) for s in sites]
    text = "{servicename}service execution returned an invalid response.{reason}"
    assert found == [
        ("interpret_response", [text + " Response data must be at least 2 bytes"]),
        ("interpret_response", [f"('{text} Record %d repeated', {{response.data[0]}})"]),
        ("interpret_response", [text]),  # no surplus argument: the text alone
        ("configure", ["Bad key {key}: must be a string"]),
    ]
