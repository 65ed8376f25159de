"""Line-level recognisers shared by the traceback parsers.

All regular expressions here are fixed (never built from catalog text) and
anchored per line, so each runs in time linear in the line's length.
"""

from __future__ import annotations

import re

from errdex.match.model import Frame

MAXLEN = 2000  # recognisers look at this many characters of a line (a frame line is far shorter)
MAX_TYPE = 200  # the longest exception type name considered
TYPE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
# a class defined in a function, as Python prints it (a test's own: `test_core.test_closed.<locals>.CustomException`)
LOCAL_TYPE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.(?:<locals>\.)?[A-Za-z_]\w*)*")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
# "  File "x.py", line 3, in f"  (the ", in f" part is missing for SyntaxError)
CPY_FRAME = re.compile(r'^\s*File "(?P<path>[^"]*)", line (?P<line>\d+)(?:, in (?P<func>.+?))?\s*$')
# IPython 8: "File ~/x/pjit.py:261, in cache_miss(*args)" and "Cell In[3], line 5"
IPY_FRAME = re.compile(r"^File (?P<path>.+?):(?P<line>\d+)(?:, in (?P<func>[\w.<>]+))?")
IPY_CELL = re.compile(r"^(?:Cell|Input) In ?\[(?P<cell>\d*)\], line (?P<line>\d+)(?:, in (?P<func>[\w.<>]+))?")
# IPython 7: "~/x/pjit.py in cache_miss(*args)" then "--> 261     ..."
IPY7_FRAME = re.compile(r"^(?P<path>\S.*?\.py|<ipython-input-[\w-]+>) in (?P<func>[\w.<>]+)")
IPY_ARROW = re.compile(r"^-+>\s*(?P<line>\d+)\s?(?P<code>.*)$")
IPY_HEADER = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)\s{2,}Traceback \(most recent call last\)")
# pytest: "x.py:6: in foo" (--tb=short), "x.py:6: ValueError" (--tb=long location line)
PYTEST_LOC = re.compile(r"^(?P<path>[^\s:][^:]*\.py):(?P<line>\d+):(?: in (?P<func>\S+)| (?P<type>[\w.]+))?\s*$")
PYTEST_SUMMARY = re.compile(r"^(?:FAILED|ERROR) \S+(?: - (?P<rest>.*))?$")
# "ValueError: msg", "jax.errors.ConcretizationTypeError: msg", "KeyboardInterrupt"
EXC_LINE = re.compile(r"^(?P<type>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?:: ?(?P<msg>.*))?$")
# An exception type somewhere in a log line: "... ERROR x: ValueError: bad"
EXC_IN_LINE = re.compile(r"(?:^|[\s\[(\"'])(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Group|Failure|Fault))(?:: (?P<msg>.*)|$)")
CARET = re.compile(r"^\s*[~^]+[~^\s]*$")
CHAIN_CAUSE = "The above exception was the direct cause of the following exception:"
CHAIN_CONTEXT = "During handling of the above exception, another exception occurred:"
# a formatted stack's first frame glued to a message's text: `text:   File "x.py", line 3, in f`
GLUED_FRAME = re.compile(r'\S\s+File "[^"]*", line \d+(?:, in \S.*)?$')
TB_HEAD = "Traceback (most recent call last):"
GROUP_HEAD = "Exception Group Traceback (most recent call last):"

# Names that look like exceptions although they do not end in Error/Exception.
BUILTIN_EXCEPTIONS = frozenset(
    ["BaseException", "Exception", "ArithmeticError", "AssertionError", "AttributeError", "BlockingIOError", "BrokenPipeError", "BufferError", "ChildProcessError", "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError", "EOFError", "FileExistsError", "FileNotFoundError", "FloatingPointError", "GeneratorExit", "ImportError", "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplementedError", "OSError", "OverflowError", "PermissionError", "ProcessLookupError", "RecursionError", "ReferenceError", "RuntimeError", "StopAsyncIteration", "StopIteration", "SyntaxError", "SystemError", "SystemExit", "TabError", "TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "ValueError", "ZeroDivisionError", "ExceptionGroup", "BaseExceptionGroup", "Warning", "UserWarning", "DeprecationWarning", "PendingDeprecationWarning", "SyntaxWarning", "RuntimeWarning", "FutureWarning", "ImportWarning", "UnicodeWarning", "BytesWarning", "ResourceWarning", "EncodingWarning", "PythonFinalizationError"]
)

_EXC_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Group", "Failure", "Fault",
                 "Transformation", "StackTrace")


def looks_like_exception(name: str) -> bool:
    """Whether ``name`` (maybe qualified) names an exception class rather than being prose.

    A builtin's name or one ending like an exception (``...Error``), or a
    class qualified by its module as Python prints every exception that is no
    builtin: lower-case module names, a capitalised class name
    (``networkx.exception.NetworkXNoPath``,
    ``jax.errors.InconclusiveDimensionOperation``); a package laid out one class per module names the
    module after its class (pygithub's ``github.GithubException.RateLimitExceededExceedsMaxWait``,
    udsoncan's, omegaconf's): capitalised module parts after a lower-case package.
    """
    module, _, last = name.rpartition(".")
    if not last or not (last[0].isupper() or last[0] == "_"):
        return False
    if last in BUILTIN_EXCEPTIONS or last.endswith(_EXC_SUFFIXES):
        return True
    return bool(module) and last[0].isupper() and not last.isupper() \
        and (module[:1].islower() or module[:1] == "_") \
        and all(part[:1].isalpha() or part[:1] == "_" or part == "<locals>" for part in module.split("."))


def exception_line(line: str, *, strict: bool = True) -> tuple[str, str] | None:
    """``(type, message)`` when ``line`` is an ``ExceptionType: message`` line.

    ``strict=False`` is for the line right after a traceback's frames, where
    any dotted name is the type (``struct.error: ...``).  The type is looked
    for in the line's first characters only, so a megabyte-long line costs
    one ``find``.
    """
    colon = line.find(":", 0, MAX_TYPE + 1)
    if colon < 0:
        if len(line) > MAX_TYPE:
            return None
        etype, msg = line, None
    else:
        etype, msg = line[:colon], line[colon + 1 :]
        msg = msg[1:] if msg.startswith(" ") else msg
    if not TYPE_NAME.fullmatch(etype) and not LOCAL_TYPE_NAME.fullmatch(etype):
        return None
    if strict and not looks_like_exception(etype):
        return None
    if not strict and msg is None and not looks_like_exception(etype):
        return None
    return etype, msg or ""


def exception_in_line(line: str) -> tuple[str, str] | None:
    """An exception type somewhere near the start of a log line, and the text after it."""
    m = EXC_IN_LINE.search(line[:MAXLEN])
    if m is None:
        return None
    if m.group("msg") is None and _prose_before(line, m.start("type")):
        # a class name closing a sentence, no text after it (pydantic-settings' `cannot use union with
        # CliMutuallyExclusiveGroup`, `... must derive from BaseException`): the sentence is the message
        return None
    start = m.start("msg") if m.group("msg") is not None else len(line)
    return m.group("type"), line[start:]


def _prose_before(line: str, start: int) -> bool:
    """Whether the word before ``start`` is prose (has a lower-case letter: ``with``, not ``ERROR`` or ``worker:``)."""
    before = line[:start].rstrip(" \t\"'[(")
    word = before.rsplit(None, 1)[-1] if before.strip() else ""
    return bool(word) and word[-1].isalnum() and any(ch.islower() for ch in word)


_CLOSERS = {"[": "]", "(": ")", "<": ">"}


def enclosed(line: str, msg: str) -> bool:
    """Whether the ``Type: msg`` that ``exception_in_line`` found in ``line`` (``msg`` its text to the end)
    sits in brackets that close the line (``... factor `a`. [NameError: name 'a' is not defined]``): text
    that quotes a caught error, where a log line introducing one has the type after a space or at the margin."""
    start = len(line) - len(msg)
    colon = line.rfind(":", 0, start)
    m = TYPE_NAME.search(line, max(0, colon - MAX_TYPE), colon) if colon > 0 else None
    while m is not None and m.end() != colon:
        m = TYPE_NAME.search(line, m.end(), colon)
    if m is None or m.start() == 0:
        return False
    closer = _CLOSERS.get(line[m.start() - 1])
    return closer is not None and line.rstrip().endswith(closer)


def frame_of(line: str) -> Frame | None:
    """A frame from a CPython ``File "...", line N, in f`` line."""
    m = CPY_FRAME.match(line[:MAXLEN])
    if m is None:
        return None
    return Frame(path=m.group("path"), line=int(m.group("line")), function=m.group("func") or "")


def quotes_stack(message: str) -> bool:
    """Whether a message goes on with a formatted stack (``traceback.format_stack``'s frames, no header):
    a frame's line below its first line, and its first line ends in a frame's text or the next is a frame."""
    first, _, rest = message.partition("\n")
    if not rest or not any(frame_of(ln) is not None for ln in rest.split("\n")):
        return False
    return GLUED_FRAME.search(first[:MAXLEN]) is not None or frame_of(rest.split("\n", 1)[0]) is not None


def is_e_line(line: str) -> bool:
    """pytest's ``E   `` lines (the exception and its message, as pytest shows them)."""
    return line == "E" or line.startswith("E ")


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)
