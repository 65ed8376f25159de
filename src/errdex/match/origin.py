"""Where an error came from when no raise statement of an indexed library produced it.

Two kinds of errors have no raise site: those raised inside native code that
Python called (XLA's C++ behind ``execute_sharded(...)`` raises
``JaxRuntimeError: INVALID_ARGUMENT: …``) and those the interpreter raises
itself (``TypeError: 'int' object is not iterable``).  The classification
uses the exception type, the shape of the message and the source line of the
frame where the error surfaced, all fixed patterns (none come from the
catalog).
"""

from __future__ import annotations

import re

from errdex.match.lines import BUILTIN_EXCEPTIONS
from errdex.match.model import Origin

_STATUS = re.compile(r"^(?:[A-Z][A-Z_]{2,}): ")  # absl::Status codes: "INVALID_ARGUMENT: "
_NATIVE_TYPES = ("XlaRuntimeError", "JaxRuntimeError", "InternalError", "RuntimeError_")
_NATIVE_MODULES = ("jaxlib", "_jax", "numpy.core._exceptions", "tensorflow.python.framework.errors")

# Messages that CPython itself produces (Objects/*.c, Python/ceval.c, ...).
_INTERPRETER = (
    "object is not iterable",
    "object is not subscriptable",
    "object is not callable",
    "unsupported operand type",
    "object has no attribute",
    "has no attribute",
    "positional argument",
    "unexpected keyword argument",
    "required positional argument",
    "required keyword-only argument",
    "index out of range",
    "division by zero",
    "modulo by zero",
    "not supported between instances of",
    "can't multiply sequence",
    "cannot unpack non-iterable",
    "too many values to unpack",
    "not enough values to unpack",
    "does not support item assignment",
    "object doesn't support item deletion",
    "unhashable type",
    "is not defined",
    "referenced before assignment",
    "maximum recursion depth exceeded",
    "can only concatenate",
    "cannot be interpreted as an integer",
    "must be real number, not",
    "argument must be",
    "object of type",
    "invalid literal for int()",
    "could not convert string to float",
    "math domain error",
    "got multiple values for argument",
    "takes no arguments",
    "bad operand type for",
    "too large to convert to C",
    "int too big to convert",  # int.to_bytes (asn1crypto's Python 2 `int_to_bytes` copies it)
    "to extended slice of size",  # list slice assignment (omegaconf's ListConfig copies it)
    "cannot import name '",  # `from m import x` (plumbum's `cannot import name {clsname}` copies it)
    "No module named '",  # `import m` of a missing module (traitlets' `No module named %s` copies it)
    "attribute name must be string",  # `setattr(obj, 1, v)` (pyOpenSSL's `X509Name.__setattr__` copies it)
)
# the operating system's error as OSError prints it: `[Errno 2] No such file or directory: 'x'`
# (plumbum's RemotePath raises `[Errno {errno.EISDIR}] {os.strerror(errno.EISDIR)}: {self}` like it)
_OS_ERROR = re.compile(r"\[Errno \d+\] [A-Z]")


def cpython_wording(message: str) -> bool:
    """Whether ``message`` reads like one the interpreter itself produces."""
    head = message[:500]  # CPython's messages are short; a huge paste is not scanned 40 times
    return any(p in head for p in _INTERPRETER) or bool(_OS_ERROR.match(head))


def classify(exception: str, message: str, code: str = "") -> Origin:
    """``native`` | ``interpreter`` | ``unknown`` for an error no raise site explains."""
    name = exception.rsplit(".", 1)[-1]
    module = exception.rsplit(".", 1)[0] if "." in exception else ""
    if name in _NATIVE_TYPES or module.startswith(_NATIVE_MODULES) or _STATUS.match(message):
        return "native"
    if not exception or name in BUILTIN_EXCEPTIONS:
        if name in ("KeyError", "StopIteration", "RecursionError", "NameError", "UnboundLocalError"):
            return "interpreter"
        if cpython_wording(message):
            return "interpreter"
        if code and "(" in code and not code.lstrip().startswith("raise"):
            return "native"  # a builtin exception out of a call into compiled code
    if code and "(" in code and not code.lstrip().startswith(("raise", "assert")) and exception:
        return "native"
    return "unknown"
