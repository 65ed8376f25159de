"""Exception factories that pick the class from a table (``extract/classtables.py``): hvac 2.4.0's
``VaultError.from_status(cls, status_code, *args, **kwargs)`` returns ``_STATUS_EXCEPTION_MAP.get(status_code,
UnexpectedError)(*args, **kwargs)`` over a local dict display of classes, amqp 5.4.2's ``error_for_code(code, text,
method, default)`` returns ``ERROR_MAP[code](text, method, reply_code=code)`` over a module-level one.  The raise
read as the factory call's arguments (``({status_code}, {message})``, issue 17's forty-sixth round); it now reads the
picked classes' own ``__str__`` with the forwarded arguments, and names their common base.  A table of functions
(a dispatch table) is no choice of classes."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.extract.classtables import common_base, returns_table_call, table_classes

EXCEPTIONS = '''
    class VaultError(Exception):
        def __init__(self, message=None, errors=None, method=None, url=None, text=None, json=None):
            if errors:
                message = ", ".join(errors)
            self.errors = errors
            self.method = method
            self.url = url
            super().__init__(message)

        def __str__(self):
            return f"{self.args[0]}, on {self.method} {self.url}"

        @classmethod
        def from_status(cls, status_code: int, *args, **kwargs):
            _STATUS_EXCEPTION_MAP = {
                400: InvalidRequest,
                404: InvalidPath,
                503: VaultDown,
            }
            return _STATUS_EXCEPTION_MAP.get(status_code, UnexpectedError)(*args, **kwargs)


    class InvalidRequest(VaultError):
        pass


    class InvalidPath(VaultError):
        pass


    class VaultDown(VaultError):
        pass


    class UnexpectedError(VaultError):
        pass


    class ChannelError(Exception):
        def __init__(self, reply_text=None, method_sig=None, reply_code=None):
            self.reply_text = reply_text
            self.reply_code = reply_code
            super().__init__(reply_text, method_sig)

        def __str__(self):
            return f"({self.reply_code}) {self.reply_text}"


    class NotFound(ChannelError):
        pass


    class AccessRefused(ChannelError):
        pass


    ERROR_MAP = {
        403: AccessRefused,
        404: NotFound,
    }


    def error_for_code(code, text, method):
        return ERROR_MAP[code](text, method, reply_code=code)


    def _shout(text):
        return text.upper()


    HANDLERS = {"shout": _shout}


    def handle_error(kind, text):
        return HANDLERS[kind](text)
'''

UTILS = '''
    from pkg import exceptions


    def raise_for_error(method, url, status_code, message=None, errors=None):
        raise exceptions.VaultError.from_status(status_code, message, errors=errors, method=method, url=url)


    def on_close(reply_code, reply_text, method):
        raise exceptions.error_for_code(reply_code, reply_text, method)


    def on_handled(kind, message):
        raise exceptions.handle_error(kind, message)
'''


def _package(root: Path) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").touch()
    (root / "pkg" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (root / "pkg" / "utils.py").write_text(textwrap.dedent(UTILS))


def test_a_factory_picking_its_class_from_a_table_reads_the_classes_own_text(tmp_path: Path) -> None:
    _package(tmp_path)
    result = extract_dir(tmp_path)
    site = site_in(result, "pkg/utils.py", "raise_for_error")
    assert [t.render() for t in site.templates] == ["{message}, on {method} {url}"]
    # the table's classes' common base; the factory call as written (any of its subclasses may print)
    assert site.exception_resolved == "pkg.exceptions.VaultError"
    assert site.exception == "exceptions.VaultError.from_status"
    coded = site_in(result, "pkg/utils.py", "on_close")  # a module-level table, a module function
    assert [t.render() for t in coded.templates] == ["({reply_code}) {reply_text}"]
    assert coded.exception_resolved == "pkg.exceptions.ChannelError"


def test_a_table_of_functions_is_no_choice_of_classes(tmp_path: Path) -> None:
    _package(tmp_path)
    site = site_in(extract_dir(tmp_path), "pkg/utils.py", "on_handled")
    assert site.exception_resolved == "exceptions.handle_error(kind, message)"  # a value this code cannot name
    assert [t.render() for t in site.templates] == ["{exceptions.handle_error(kind, message)}"]


def _func(src: str) -> ast.expr:
    value = ast.parse(src, mode="eval").body
    assert isinstance(value, ast.Call)
    return value.func


def test_table_classes_reads_a_display_of_classes_and_its_default() -> None:
    table = ast.parse("{1: A, 2: mod.B, 3: A}", mode="eval").body
    assert table_classes(_func("T.get(code, Fallback)(x)"), {"T": table}.get) == ["A", "mod.B", "Fallback"]
    assert table_classes(_func("T[code](x)"), {"T": table}.get) == ["A", "mod.B"]
    assert table_classes(_func("T.get(code, default)(x)"), {"T": table}.get) is None  # a value, not a class
    merged = ast.parse("{**OTHER, 1: A}", mode="eval").body
    assert table_classes(_func("T[code](x)"), {"T": merged}.get) is None
    assert table_classes(_func("T[code](x)"), {}.get) is None


def test_returns_table_call_and_common_base() -> None:
    assert returns_table_call(ast.parse("try:\n    return T[k](x)\nexcept KeyError:\n    pass\n").body)
    assert not returns_table_call(ast.parse("return T[k]\n").body)
    chains = {"A": ("Base", "Exception"), "B": ("Base", "Exception"), "C": ("Exception",)}
    assert common_base(["A", "B"], lambda c: chains.get(c, ())) == "Base"
    assert common_base(["A", "C"], lambda c: chains.get(c, ())) == "Exception"
