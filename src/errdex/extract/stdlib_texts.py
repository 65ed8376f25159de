"""The texts of standard-library exception classes a package raises with its own arguments.

configupdater 4.1.1 raises ``configparser``'s own classes: ``NoOptionError(option, section)`` prints
``No option 'x' in section: 'y'``, not the tuple of its arguments that the builtin rule (``str()`` of an
exception with two arguments) gave (``('{}', {})``).  Each class below builds its text in its
``__init__`` from named arguments (CPython 3.13 ``Lib/configparser.py``, ``Lib/json/decoder.py``,
``Lib/subprocess.py``): the text is a template of those arguments, ``{name!r}`` their ``repr``, a field
the class computes (``json``'s line and column) a placeholder.  A class with forms that depend on
whether an argument is given (``DuplicateSectionError(section, source=None, lineno=None)``) lists the
form for the argument given first.  Language knowledge: it holds for any package raising these classes.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable

from errdex.extract.ir import EMPTY, Alt, Cat, Hole, Lit, Node
from errdex.stdlib_errors import TEXTS

_FIELD = re.compile(r"\{(\w+)(!r)?\}")
_TEXT_FIELDS = frozenset(("msg", "message"))  # fields that are message text (the others: values shown)


def stdlib_text(cls: str, args: list[Node], kwargs: dict[str, Node], as_text: Callable[[Node], Node],
                as_repr: Callable[[Node], Node]) -> Node | None:
    """The text ``cls(*args, **kwargs)`` prints when ``cls`` is one of ``TEXTS``, else None (also when
    more arguments are passed than the class takes, or an unknown keyword)."""
    entry = TEXTS.get(cls)
    if entry is None:
        return None
    params, forms = entry
    if len(args) > len(params) or any(k not in params for k in kwargs) or any(
            isinstance(a, Hole) and a.expr.startswith("*") for a in args):
        return None  # `DuplicateOptionError(*args)` of a tuple not known: which argument is where is not known
    bound = {**dict(zip(params, args, strict=False)), **kwargs}
    for needs, form in forms:
        if needs and (needs not in bound or bound[needs] == EMPTY):
            continue  # not given, or given as None (`ArgumentError(None, message)`: the message alone)
        parts: list[Node] = []
        pos = 0
        for m in _FIELD.finditer(form):
            parts.append(Lit(form[pos:m.start()]))
            value = bound.get(m[1])
            if value is None:
                parts.append(Hole(m[1]))  # computed by the class (json's line and column)
            else:
                parts.append(as_repr(value) if m[2] else as_text(value) if m[1] in _TEXT_FIELDS else value)
            pos = m.end()
        parts.append(Lit(form[pos:]))
        return Cat(tuple(parts))
    return None


def os_error_value(dotted: str, args: list[str]) -> str | None:
    """The text of ``errno.EISDIR`` (its number) or ``os.strerror(errno.EISDIR)`` (the operating system's
    words for it, as ``OSError`` prints them: ``Is a directory``): plumbum's ``RemotePath`` raises
    ``OSError(errno.EISDIR, f"[Errno {errno.EISDIR}] {os.strerror(errno.EISDIR)}: {self}")``.  ``dotted``
    is the resolved name (``errno.EISDIR``, ``os.strerror``), ``args`` the resolved names of a call's
    arguments; None for anything else.  The values are this interpreter's (the same on every POSIX system
    for the common codes)."""
    if dotted.startswith("errno.") and not args:
        code = getattr(errno, dotted[6:], None)
        return str(code) if type(code) is int and dotted[6:].isupper() else None
    if dotted == "os.strerror" and len(args) == 1:
        code = os_error_value(args[0], [])
        return os.strerror(int(code)) if code is not None else None
    return None


# OSError and its builtin subclasses (and its old names): what ``str()`` of one prints is below
OS_ERRORS = frozenset({
    "OSError", "IOError", "EnvironmentError", "BlockingIOError", "ChildProcessError", "ConnectionError",
    "BrokenPipeError", "ConnectionAbortedError", "ConnectionRefusedError", "ConnectionResetError",
    "FileExistsError", "FileNotFoundError", "InterruptedError", "IsADirectoryError", "NotADirectoryError",
    "PermissionError", "ProcessLookupError", "TimeoutError",
})


def os_error_texts(name: str) -> list[list[Node]]:
    """The texts ``str(e)`` of an ``OSError`` ``e`` raised by the operating system prints (CPython's
    ``OSError.__str__``): ``[Errno 2] No such file or directory: 'a.txt'`` with a file name, without one
    ``[Errno 2] No such file or directory``."""
    head: list[Node] = [Lit("[Errno "), Hole(f"{name}.errno"), Lit("] "), Hole(f"{name}.strerror")]
    return [[*head, Lit(": "), Hole(f"{name}.filename", conversion="r")], head]



def unicode_error_text(cls: str, args: list[Node], as_text: Callable[[Node], Node]) -> Node | None:
    """What ``str()`` of a ``UnicodeDecodeError``/``UnicodeEncodeError``/``UnicodeTranslateError`` built
    from its five (four) arguments prints (CPython's ``Objects/exceptions.c``), None for another class or
    count.  One offending unit gives the first form, a run of them the second; which one depends on the
    values, so both are kept: ``'utf-8' codec can't decode byte 0xff in position 0: invalid start byte``,
    ``'ascii' codec can't decode bytes in position 2-4: ordinal not in range(128)``.  The encoding is shown
    quoted as text (``'%U'``), not as its ``repr``.  pyramid's ``URLDecodeError(e.encoding, e.object,
    e.start, e.end, e.reason)``: a subclass that re-raises a caught decoding error as its own."""
    shape = _UNICODE_ERRORS.get(cls)
    if shape is None or len(args) != len(shape[0]):
        return None
    params, verb, one, many = shape
    bound = dict(zip(params, args, strict=True))
    head: list[Node] = [Lit("'"), as_text(bound["encoding"]), Lit("' codec ")] if "encoding" in bound else []
    single = Cat((Lit(f"can't {verb} {one}"), Hole("object[start]"), Lit(" in position "), bound["start"]))
    run = Cat((Lit(f"can't {verb} {many} in position "), bound["start"], Lit("-"), Hole("end - 1")))
    return Cat((*head, Alt((single, run)), Lit(": "), as_text(bound["reason"])))


# class -> (its arguments, the verb, one unit as shown before its value, a run of units)
_UNICODE_ERRORS: dict[str, tuple[tuple[str, ...], str, str, str]] = {
    "UnicodeDecodeError": (("encoding", "object", "start", "end", "reason"), "decode", "byte 0x", "bytes"),
    "UnicodeEncodeError": (("encoding", "object", "start", "end", "reason"), "encode", "character ", "characters"),
    "UnicodeTranslateError": (("object", "start", "end", "reason"), "translate", "character ", "characters"),
}


CODEC_ERRORS = frozenset(_UNICODE_ERRORS)


def codec_error_texts(cls: str, name: str) -> list[Node]:
    """The texts ``str(e)`` of a caught codec error ``e`` of class ``cls`` prints (``unicode_error_text``
    over its attributes ``e.encoding``, ``e.start``, ``e.reason``): ``'utf-8' codec can't decode byte 0xe9
    in position 0: invalid continuation byte``."""
    params = _UNICODE_ERRORS[cls][0]
    text = unicode_error_text(cls, [Hole(f"{name}.{p}") for p in params], lambda n: n)
    return [text] if text is not None else []
