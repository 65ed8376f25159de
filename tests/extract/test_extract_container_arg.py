"""A tuple, list or dict display passed as an exception argument prints as its ``repr``, not as a quoted string
(udsoncan 1.26.1, round 29: ``InvalidResponseException(response, 'The server returned two set of data for the same
DTC (0x%06X) and same record number (%d)', (dtc.id, record_number))`` passes its extra arguments to ``Exception``,
which prints ``('... (%d)', (1193046, 51))``; read as ``"({dtc.id}, '51')"`` before)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

EXCEPTIONS = '''
    class InvalidResponseException(Exception):
        def __init__(self, response, *args, **kwargs):
            self.response = response
            msg = "%s service returned an invalid response." % response.service
            if len(args) > 0:
                msg += " " + str(args[0])
                args = tuple(list(args)[1:])
            super().__init__(msg, *args, **kwargs)
'''

SERVICES = '''
    from pkg.exceptions import InvalidResponseException


    def interpret_response(response, dtc, record_number):
        if dtc.id in response.seen:
            raise InvalidResponseException(
                response, 'Two records for the same DTC (0x%06X) and record number (%d)', (dtc.id, record_number))
        if record_number > 0xFF:
            raise ValueError("Record number out of range", (record_number, 255))


    def lookup(table, name, index):
        if (name, index) not in table:
            raise KeyError((name, index))
        raise ValueError("no such entries", [name, None], {"name": name, 'index': 2})
'''


def _sites(tmp_path: Path) -> dict[tuple[str, int], list[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (tmp_path / "pkg" / "services.py").write_text(textwrap.dedent(SERVICES))
    found: dict[tuple[str, int], list[str]] = {}
    for s in extract_dir(tmp_path).sites:
        found[(s.qualname, s.line)] = [t.render() for t in s.templates]
    return found


def test_tuple_argument_prints_unquoted(tmp_path: Path) -> None:
    found = _sites(tmp_path)
    assert found[("interpret_response", 7)] == [
        "('{response.service} service returned an invalid response. Two records for the same DTC (0x%06X) and "
        "record number (%d)', ({dtc.id}, {record_number}))"]
    assert found[("interpret_response", 10)] == ["('Record number out of range', ({record_number}, 255))"]


def test_key_and_containers_print_their_repr(tmp_path: Path) -> None:
    found = _sites(tmp_path)
    assert found[("lookup", 15)] == ["({name}, {index})"]  # KeyError's text is its key's repr: the tuple
    assert found[("lookup", 16)] == ["('no such entries', [{name}, None], {'name': {name}, 'index': 2})"]
