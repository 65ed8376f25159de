"""Which exceptions of a parsed input are scored, and how their printed text is read.

``explain_parsed`` scores the reported exception and a few of its chain or group (``exceptions``,
``group_first``), pins sites with the frames that go deepest (``frames_for_pinning``), and compares
the text a class printed, unquoted when it printed a ``repr`` (``unrepr``, ``printed_type``).  These
read only the parsed input (and, for ``KeyError`` subclasses, the index's rewraps), never score a
candidate: they are apart from the scoring (``candidates.py``) and the answer's labels (``labels.py``),
which both read the text this way.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from errdex.match import rank as R
from errdex.match.frames import reaches_library
from errdex.match.index import MatchIndex
from errdex.match.indexdata import KEY_ERROR
from errdex.match.model import Frame, Parsed, ParsedException
from errdex.record import replace

SECONDARY = 0.9  # a cause or context of the reported exception, or a message another one wraps
_SELF_NAMED = 0.95  # "Type: text" read whole, as the message of a class whose str() starts with its name
CHAINED = ("cause", "context")  # exceptions the reported one was raised from or while handling


def exceptions(parsed: Parsed, grouped: bool = False) -> Iterable[tuple[ParsedException, float]]:
    """The reported exception first, then up to three others of its chain or group (``grouped``: the
    group is the reported one, ``group_first``, and its members are what it collected)."""
    chain = parsed.chain or (ParsedException(parsed.exception, parsed.message, parsed.frames),)
    primary = [e for e in chain if e.exception == parsed.exception and e.message == parsed.message][:1]
    yield (primary[0] if primary else chain[-1]), 1.0
    others = [e for e in reversed(chain) if e.role not in ("wrapper",) and e not in primary]
    for e in others[:3]:
        yield e, (1.0 if e.role == "group-member" and not grouped else SECONDARY)
    if parsed.format == "message" and parsed.exception and "." not in parsed.exception and not parsed.frames:
        # `str(exc)` pasted alone, of a class that prints its own name first (SymPy's
        # "SympifyError: '1'"): the "Type: " is part of the message too (a printed last line
        # names a library's class with its module, so a dotted one is no such message)
        yield ParsedException(parsed.exception, f"{parsed.exception}: {parsed.message}"), _SELF_NAMED


def self_named(exc: ParsedException) -> str:
    """The ``Type`` of a lone ``Type: text`` read whole (``exceptions``' last reading), else ``""``."""
    name = exc.exception
    if name and "." not in name and not exc.frames and exc.message.startswith(f"{name}: "):
        return name
    return ""


def opens_with(segs: tuple[tuple[bool, str], ...], name: str) -> bool:
    """Whether a template's text starts with the literal ``Name:`` that the paste printed as a class:
    pydantic-settings' ``raise SettingsError(f'Error: {model_cls.__name__} is not subclass of ...')`` prints
    ``Error: NotModel is not ...``, where ``Error`` is the site's own text, no class (a tag, not a type)."""
    return bool(name) and bool(segs) and segs[0][0] and segs[0][1].startswith(f"{name}:")


def group_first(idx: MatchIndex, parsed: Parsed) -> tuple[Parsed, bool]:
    """An exception group raised by the library is the reported exception, not its first member.

    The parser reports a group's first member (``traceback._primary``): a group the user's code raised
    (``raise ExceptionGroup("checks failed", errs)`` around the library's errors) says no more than
    what it collected.  When the group's own frames reach the library (its files, or code it
    generated), the library raised the group (cattrs' ``IterableValidationError``): that raise is
    the answer, and the members, collected before, are answered as a cause is (capped below it)."""
    group = next((e for e in parsed.chain if e.role == "group"), None)
    if group is None or (parsed.exception == group.exception and parsed.message == group.message) \
            or not reaches_library(idx, group.frames):
        return parsed, False
    return replace(parsed, exception=group.exception, message=group.message, frames=group.frames,
                   notes=group.notes), True


def printed_type(exc: ParsedException) -> str:
    """The exception's name as printed, or what a typeless message says of it (``rank.REPR_MESSAGE``)."""
    if exc.exception_name:
        return exc.exception_name
    msg = exc.message
    if len(msg) >= 3 and msg[0] == msg[-1] and msg[0] in "'\"" and unrepr(exc) != msg:
        return R.REPR_MESSAGE
    return ""


def unrepr(exc: ParsedException, idx: MatchIndex | None = None) -> str:
    """A KeyError prints ``repr`` of its argument: ``KeyError: "Invalid name: 'x'"`` -> the text inside.
    So does a package's subclass of it that the index knows (``BoxKeyError: "'a' is not in the Box"``),
    whose templates lost their quotes as ``KeyError``'s did (``index._edges_stripped``)."""
    msg = exc.message
    keyerror = exc.exception_name in ("KeyError", "") or (
        idx is not None and (KEY_ERROR + exc.exception_name) in idx.rewraps)
    if keyerror and len(msg) >= 2 and msg[0] == msg[-1] and msg[0] in "'\"":
        q = msg[0]
        # the text inside the quotes, its escapes kept but the quote's own (``\\'``): templates of a
        # ``KeyError`` are its ``repr`` too (``'a\\nb'`` for a newline, ``classmessage._repr_escaped``)
        inner = msg[1:-1].replace("\\" + q, q)
        # a message without its type is read so only when it is one quoted string as ``repr`` prints it
        # ("'x' is invalid for 'name'" is text with quoted values, not a repr)
        if exc.exception_name or _is_repr(msg):
            return inner
    return msg


def _is_repr(msg: str) -> bool:
    """``msg`` is ``repr`` of a ``str``, as ``KeyError`` prints it (escapes and all)."""
    try:
        value = ast.literal_eval(msg)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return False
    return isinstance(value, str) and repr(value) == msg


def frames_for_pinning(parsed: Parsed) -> list[Frame]:
    """The reported exception's frames, or a wrapper's unfiltered ones (JAX) when they go deeper."""
    frames = list(parsed.frames)
    for e in parsed.chain:
        same = e.message.split("\n", 1)[0] == parsed.message.split("\n", 1)[0]
        if e.role == "wrapper" and same and len(e.frames) > len(frames):
            frames = list(e.frames)
    return frames
