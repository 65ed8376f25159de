"""A message built from the raised class's docstring through the local holding the class
(``extract/classdocs.py``): rarfile 4.5's ``check_returncode`` picks ``exc = errmap[code]`` (the caller's
table) or ``exc = RarUserBreak`` / ``RarSignalExit`` / ``RarUnknownError`` and raises
``exc("%s [%d]" % (exc.__doc__, code))`` (issue 17's fifty-fifth round)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    class Error(Exception):
        """Base class for unpack errors."""


    class ToolError(Error):
        """Problem reported by the unpack tool."""


    class ToolWarning(ToolError):
        """Non-fatal error"""


    class ToolFatalError(ToolError):
        """Fatal error"""


    class ToolUserBreak(ToolError):
        """User stop"""


    class ToolUnknownError(ToolError):
        """Unknown exit code"""


    class ToolSignalExit(ToolError):
        """Tool exited with signal"""
'''

TOOL = '''
    from unpack.errors import ToolSignalExit, ToolUnknownError, ToolUserBreak


    def check_returncode(code, out, errmap):
        """Raise the exception the tool's exit code names."""
        if code == 0:
            return
        if 0 < code < len(errmap):
            exc = errmap[code]
        elif code == 255:
            exc = ToolUserBreak
        elif code < 0:
            exc = ToolSignalExit
        else:
            exc = ToolUnknownError
        if out:
            msg = "%s [%d]: %s" % (exc.__doc__, code, out)
        else:
            msg = "%s [%d]" % (exc.__doc__, code)
        raise exc(msg)


    def named_only(code):
        exc = ToolUserBreak if code == 255 else ToolUnknownError
        raise exc("%s [%d]" % (exc.__doc__, code))


    def no_doc(code, errmap):
        if code == 255:
            exc = ToolUserBreak
        else:
            exc = errmap[code]
        raise exc("exit code %d" % code)
'''


def _package(tmp_path: Path) -> Path:
    pkg = tmp_path / "unpack"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "errors.py").write_text(textwrap.dedent(ERRORS))
    (pkg / "tool.py").write_text(textwrap.dedent(TOOL))
    return tmp_path


def test_each_class_docstring_and_the_callers_kin(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "unpack/tool.py", "check_returncode")
    texts = {t.render() for t in site.templates}
    for doc in ("User stop", "Tool exited with signal", "Unknown exit code", "Fatal error", "Non-fatal error"):
        assert f"{doc} [{{code}}]" in texts
        assert f"{doc} [{{code}}]: {{out}}" in texts
    assert not any("__doc__" in t for t in texts)
    assert site.exception_resolved == "unpack.errors.ToolError"
    assert {"unpack.errors.ToolFatalError", "unpack.errors.ToolUserBreak"} <= set(site.picked)


def test_named_classes_read_their_own_docstrings(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "unpack/tool.py", "named_only")
    assert {t.render() for t in site.templates} == {"User stop [{code}]", "Unknown exit code [{code}]"}


def test_no_docstring_read_leaves_the_callers_class_unknown(tmp_path: Path) -> None:
    site = site_in(extract_dir(_package(tmp_path)), "unpack/tool.py", "no_doc")
    assert site.exception_resolved == "exc"
    assert {t.render() for t in site.templates} == {"exit code {code}"}
