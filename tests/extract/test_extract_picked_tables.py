"""Exceptions chosen from a table and raised through a local (issue 17's forty-eighth round, ``extract/classtables.py``).

minimalmodbus 2.1.1's ``_check_response_slaveerrorcode`` keeps a local dict display of prebuilt exception objects,
``SLAVE_ERRORS = {1: IllegalRequestError("Slave reported illegal function"), ...}``, binds ``error =
SLAVE_ERRORS.get(code, SlaveReportedException("Slave reported error code " + str(code)))`` and raises ``error``: the
raise's texts are every object's and the default's, and it names their common base.  asyncssh 2.24.1's
``SFTPError.construct`` binds ``exc = _sftp_error_map[code](reason, lang)`` (a module-level display of classes) in a
``try`` whose ``except KeyError`` binds ``exc = SFTPError(code, f'{reason} (error {code})', lang)``, returns ``exc``,
and ``_process_status`` raises what it returns: the raise keeps the classes it may raise (``ErrorSite.picked``)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.extract.classtables import table_instances
from sftpshape import SFTP

MODBUS = '''
    class ModbusException(IOError):
        """Base class for Modbus communication exceptions."""


    class SlaveReportedException(ModbusException):
        """Base class for exceptions that the slave (instrument) reports."""


    class SlaveDeviceBusyError(SlaveReportedException):
        """The slave is busy processing some command."""


    class IllegalRequestError(SlaveReportedException):
        """The slave has received an illegal request."""


    def _check_response_slaveerrorcode(response):
        NON_ERRORS = [5]
        SLAVE_ERRORS = {
            1: IllegalRequestError("Slave reported illegal function"),
            2: IllegalRequestError("Slave reported illegal data address"),
            4: SlaveReportedException("Slave reported device failure"),
            6: SlaveDeviceBusyError("Slave reported device busy"),
        }
        if len(response) < 3:
            return
        slave_error_code = response[2]
        if slave_error_code in NON_ERRORS:
            return
        error = SLAVE_ERRORS.get(
            slave_error_code,
            SlaveReportedException("Slave reported error code " + str(slave_error_code)),
        )
        raise error


    def _check_label(label):
        LABELS = {1: "one", 2: "two"}
        error = LABELS.get(label, "none")
        raise ValueError(error)
'''

def _package(root: Path) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").touch()
    (root / "pkg" / "modbus.py").write_text(textwrap.dedent(MODBUS))
    (root / "pkg" / "sftp.py").write_text(textwrap.dedent(SFTP))


def test_a_table_of_prebuilt_objects_gives_each_objects_text_and_the_common_base(tmp_path: Path) -> None:
    _package(tmp_path)
    site = site_in(extract_dir(tmp_path), "pkg/modbus.py", "_check_response_slaveerrorcode")
    assert [t.render() for t in site.templates] == [
        "Slave reported illegal function", "Slave reported illegal data address", "Slave reported device failure",
        "Slave reported device busy", "Slave reported error code {slave_error_code}"]
    assert site.exception_resolved == "pkg.modbus.SlaveReportedException"
    assert site.exception == "error"  # a value: a printed subclass does not contradict it
    assert set(site.picked) == {"pkg.modbus.IllegalRequestError", "pkg.modbus.SlaveDeviceBusyError"}


def test_a_table_of_texts_is_no_choice_of_objects(tmp_path: Path) -> None:
    _package(tmp_path)
    site = site_in(extract_dir(tmp_path), "pkg/modbus.py", "_check_label")
    assert site.exception_resolved == "ValueError"
    assert site.picked == ()


def test_a_class_picked_on_one_path_of_a_returned_local_is_kept_by_the_raise(tmp_path: Path) -> None:
    _package(tmp_path)
    site = site_in(extract_dir(tmp_path), "pkg/sftp.py", "SFTPClientHandler._process_status")
    assert site.exception_resolved == "pkg.sftp.SFTPError"
    assert set(site.picked) == {"pkg.sftp.SFTPEOFError", "pkg.sftp.SFTPNoSuchFile"}
    assert {t.render() for t in site.templates} == {"{reason}", "{reason} (error {code})"}


def test_table_instances_reads_a_display_of_constructor_calls() -> None:
    table = ast.parse("{1: A('one'), 2: mod.B('two')}", mode="eval").body

    def expr(src: str) -> ast.expr:
        return ast.parse(src, mode="eval").body

    got = table_instances(expr("T.get(code, C('other'))"), {"T": table}.get)
    assert got is not None and [ast.unparse(g) for g in got] == ["A('one')", "mod.B('two')", "C('other')"]
    got = table_instances(expr("T[code]"), {"T": table}.get)
    assert got is not None and len(got) == 2
    assert table_instances(expr("T.get(code)"), {"T": table}.get) is None  # may be None
    texts = ast.parse("{1: 'one'}", mode="eval").body
    assert table_instances(expr("T[code]"), {"T": texts}.get) is None
    assert table_instances(expr("T.get(code, default)"), {"T": table}.get) is None  # a value, not a class
