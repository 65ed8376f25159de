"""An exception whose ``__str__`` joins the parts it has into one line (pykwalify 1.8.0's
``PyKwalifyException``: ``kwargs.append("error code ...")``, ``if self.msg: kwargs.append(self.msg)``,
``if kwargs: kwargs.insert(0, '')``, then ``"<{0}{1}>".format(name, ': '.join(kwargs))``; captured texts from
its suite: ``<CoreError: error code 3: No source file/data was loaded: Path: '/'>``).  The join inside a
``.format`` field is read as a join in text, ``insert(0, x)`` grows the list at its head, ``if kwargs:``
reads whether the list is empty (not its items), and the raise's non-empty message takes the branch that
prints it, so each raise gets its own text rather than ``<CoreError{': '.join(kwargs)}>``."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    retcodes = {1: 'unknownerror', 3: 'coreerror'}
    retnames = dict((v, k) for (k, v) in retcodes.items())


    class PyKwalifyException(RuntimeError):
        def __init__(self, msg=None, error_key=None, retcode=None, path=None):
            self.msg = msg or ""
            self.retcode = retcode or retnames['unknownerror']
            self.error_key = error_key
            self.path = path or "/"

        def __str__(self):
            kwargs = []
            if self.retcode != retnames['noerror']:
                kwargs.append("error code {0}".format(self.retcode))
            if self.msg:
                kwargs.append(self.msg)
            if kwargs:
                kwargs.insert(0, '')
            if self.path:
                kwargs.append("Path: '{0}'".format(self.path))
            return "<{0}{1}>".format(self.__class__.__name__, ': '.join(kwargs))


    class CoreError(PyKwalifyException):
        def __init__(self, *args, **kwargs):
            super(self.__class__, self).__init__(retcode=retnames["coreerror"], *args, **kwargs)
'''

CORE = '''
    from pkg.errors import CoreError


    def load(source, schema_files):
        if source is None:
            raise CoreError(u"No source file/data was loaded")
        if not isinstance(schema_files, list):
            raise CoreError(u"schema_files must be of list type")
'''


def test_joined_parts_of_str_give_each_raise_its_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "pkg" / "core.py").write_text(textwrap.dedent(CORE))
    result = extract_dir(tmp_path)
    first, second = site_in(result, "pkg/core.py", "load", 0), site_in(result, "pkg/core.py", "load", 1)
    texts = [t.render() for t in first.templates]
    # the head item '' (insert(0, '')) puts ': ' after the class name, the message sits between the parts
    assert texts[0].startswith("<CoreError: error code {") and texts[0].endswith(
        ": No source file/data was loaded: Path: '{path}'>"), texts
    # every template shows the message passed: none is shared by the two raises
    assert all("No source file/data was loaded" in t for t in texts), texts
    assert not set(texts) & {t.render() for t in second.templates}


CODED = '''
    class XPathError(Exception):
        def __init__(self, code, message=None):
            self.code = code
            self.message = message

        def __str__(self):
            if self.message:
                return f"{self.message}"
            return f"[{self.code}] unknown error"


    def error(code, message=None):
        return XPathError(code, message)


    def check(x):
        if x is None:
            raise error('XPTY0004', "invalid type for the argument")
        if x == 0:
            raise XPathError('FORG0001')
'''


def test_a_code_passed_first_is_not_the_message(tmp_path: Path) -> None:
    """elementpath's ``raise self.error('XPTY0004', msg)``: the first argument is a code (one word), not
    text the class must print; a factory's raise keeps every template its class gives."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(CODED))
    result = extract_dir(tmp_path)
    texts = {t.render() for t in site_in(result, "pkg/errors.py", "check", 0).templates}
    assert "invalid type for the argument" in texts, texts
    second = {t.render() for t in site_in(result, "pkg/errors.py", "check", 1).templates}
    assert "[FORG0001] unknown error" in second, second


FORMATTED = '''
    class DNSException(Exception):
        msg = None
        fmt = None

        def __init__(self, *args, **kwargs):
            self.kwargs = kwargs
            if kwargs:
                self.msg = None
            elif args:
                self.msg = args[0]
            super().__init__(*args)

        def __str__(self):
            if self.kwargs and self.fmt:
                return self.fmt.format(**self.kwargs)
            return super().__str__()


    class FormError(DNSException):
        pass


    def check(wire, byte_len):
        if len(wire) != byte_len:
            raise FormError(f"EUI{byte_len * 8} rdata has to have {byte_len} bytes")
'''


def test_a_template_of_no_text_of_its_own_stays(tmp_path: Path) -> None:
    """dnspython's ``DNSException.__str__`` prints ``self.fmt.format(**self.kwargs)`` when it has a format:
    a template of placeholders only says nothing against the passed text and is kept (dropping it left
    ``EUI{byte_len * 8} rdata has to have {byte_len} bytes`` alone, whose class default fills in wrongly)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "exception.py").write_text(textwrap.dedent(FORMATTED))
    texts = [t.render() for t in site_in(extract_dir(tmp_path), "pkg/exception.py", "check").templates]
    assert texts[0].startswith("EUI{") and len(texts) == 2, texts


NOT_TESTED = '''
    class Problem(Exception):
        def __init__(self, where=None, why=None):
            self.where = where
            self.why = why

        def __str__(self):
            parts = []
            if self.where:
                parts.append("at {0}".format(self.where))
            if self.why:
                parts.append(self.why)
            if not parts:
                parts.append("unknown problem")
            return "; ".join(parts)


    def check(x):
        if x is None:
            raise Problem(why="no value")
'''


def test_if_not_list_branch_only_holds_the_empty_list(tmp_path: Path) -> None:
    """``if not parts: parts.append(...)`` runs only when nothing was appended before: the default text is
    never joined after the others (Python's truth of a list splits the join's values by emptiness)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(NOT_TESTED))
    texts = {t.render() for t in site_in(extract_dir(tmp_path), "pkg/__init__.py", "check", 0).templates}
    assert not any("; unknown problem" in t for t in texts), texts
    assert any(t.endswith("no value") for t in texts), texts
