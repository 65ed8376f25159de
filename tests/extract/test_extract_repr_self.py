"""An exception class whose ``__str__`` returns ``repr(self)`` (tlslite-ng 0.8.2's ``TLSError``): what prints is
``BaseException.__repr__``, the raised class's own name (a subclass's) and each argument's repr in parentheses,
``TLSInternalError('Public_key must be 64 bytes long')`` (``classmessage.exception_repr``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    class BaseTLSException(Exception):
        """Metaclass for TLS Lite exceptions."""


    class TLSError(BaseTLSException):
        """Base class for all TLS Lite exceptions."""

        def __str__(self):
            """At least print out the Exception time for str(...)."""
            return repr(self)


    class TLSInternalError(TLSError):
        """The internal state of object is unexpected or invalid."""


    class TLSAlert(TLSError):
        """An alert, with a text of its own."""

        def __repr__(self):
            return "TLSAlert(%s)" % self.description
'''

EXTENSIONS = '''
    from .errors import TLSAlert, TLSError, TLSInternalError


    def write(public_key, signature):
        if len(public_key) != 64:
            raise TLSInternalError("Public_key must be 64 bytes long")
        if signature is None:
            raise TLSError()
        raise TLSAlert("no signature")
'''


def _sites(tmp_path: Path):  # type: ignore[no-untyped-def]
    (tmp_path / "tlsx").mkdir()
    (tmp_path / "tlsx" / "__init__.py").touch()
    (tmp_path / "tlsx" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "tlsx" / "extensions.py").write_text(textwrap.dedent(EXTENSIONS))
    return extract_dir(tmp_path)


def test_a_subclass_prints_its_own_name_and_the_repr_of_its_argument(tmp_path: Path) -> None:
    result = _sites(tmp_path)
    site = site_in(result, "tlsx/extensions.py", "write", 0)
    assert [t.render() for t in site.templates] == ["TLSInternalError('Public_key must be 64 bytes long')"]
    assert [t.render() for t in site_in(result, "tlsx/extensions.py", "write", 1).templates] == ["TLSError()"]


def test_a_class_with_its_own_repr_is_not_read_so(tmp_path: Path) -> None:
    site = site_in(_sites(tmp_path), "tlsx/extensions.py", "write", 2)
    assert not any(t.render().startswith("TLSAlert('") for t in site.templates)
