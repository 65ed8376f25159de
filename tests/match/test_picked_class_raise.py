"""Exceptions picked from a table and raised through a local (issue 17's forty-eighth round): asyncssh 2.24.1's
``_process_status`` raises what ``SFTPError.construct`` returns, ``exc = _sftp_error_map[code](reason, lang)`` (or
``SFTPError(code, f"{reason} (error {code})", lang)`` for a code the table lacks); the server's text is a value, so
the class fallback must name the raise for ``SFTPNoSuchFile: No such file`` although its site names ``SFTPError``.
minimalmodbus 2.1.1 raises ``error = SLAVE_ERRORS.get(code, SlaveReportedException(...))`` of a local table of
prebuilt objects: their texts name that raise."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from sftpshape import SFTP

MODBUS = textwrap.dedent('''
    class ModbusException(IOError):
        pass


    class SlaveReportedException(ModbusException):
        pass


    class SlaveDeviceBusyError(SlaveReportedException):
        pass


    class IllegalRequestError(SlaveReportedException):
        pass


    def _check_response_slaveerrorcode(response):
        SLAVE_ERRORS = {
            1: IllegalRequestError("Slave reported illegal function"),
            4: SlaveReportedException("Slave reported device failure"),
            6: SlaveDeviceBusyError("Slave reported device busy"),
        }
        error = SLAVE_ERRORS.get(response[2], SlaveReportedException("Slave reported error code " + str(response[2])))
        raise error


    def _check_functioncode(functioncode):
        if functioncode not in (1, 2, 3):
            raise ValueError("Wrong function code: {}".format(functioncode))
''')


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "picked", "sshkit",
                               {"__init__.py": "", "sftp.py": SFTP, "modbus.py": MODBUS})


def test_a_class_of_the_table_falls_back_to_the_raise_that_picks_it(lib: Catalog) -> None:
    top = explain(lib, "sshkit.sftp.SFTPNoSuchFile: No such file").matches[0]
    assert (top.qualname, top.method, top.confident) == ("SFTPClientHandler._process_status", "class", False)


@pytest.mark.parametrize("text", ["Slave reported device busy", "Slave reported error code 49"])
def test_a_prebuilt_objects_text_names_the_raise(lib: Catalog, text: str) -> None:
    for pasted in (text, f"sshkit.modbus.SlaveDeviceBusyError: {text}"):
        top = explain(lib, pasted).matches[0]
        assert (top.qualname, top.method) == ("_check_response_slaveerrorcode", "exact"), (pasted, top.template)
        assert top.template.startswith("Slave reported")  # the object's own text, not the value `{error}`
