"""A message that is the ``repr`` of an exception's arguments: ``(a, b)``.

An exception built with several arguments prints their tuple: ``str(BaseException('abc', 1))`` is
``('abc', 1)``. rule-engine 5.0.2's ``EngineError.__init__`` never calls ``BaseException.__init__``, so
``raise errors.AttributeResolutionError(name, object_type, thing=thing)`` prints
``('abc', <_MappingDataTypeDef name=MAPPING ...>)``; the extractor gives such a raise the template
``({name}, {object_type})`` (issue 17's forty-fourth round). That template has no word, so word retrieval
never found it, and from the message alone the class fallback (a raise of a bare value) answered.

The text's shape is what it has: an opening parenthesis, N values separated by ``, `` at the top level
(outside quotes and brackets) and a closing one. A template that is exactly that frame around N placeholders
(``args_tuple_fields``) is kept in the index under ``ARGS_TUPLE`` + N and is a candidate for a text that
prints N values so (``printed_fields``), its values read at the top-level separators (``tuple_values``: in
``(('one', 'two'), 100)`` the first ``, `` is inside the first value). Its literal text is three characters of
punctuation, so its exact match is a lead, never a confident answer alone: at most ``ARGS_CAP``, the class
fallback's score, so that a template whose words the message shares ranks above it even when found loosely
(rule-engine's ``('syntax error (illegal character {t.value[0]})', {t})``, whose text Python printed with
double quotes around a value holding a quote: fuzzy, 0.34).

A list raised as it is prints the same way between brackets: ``errors = []; ... errors.append(...); raise
E(errors)`` (pyOpenSSL's ``exception_from_error_queue``) prints ``[('SSL routines', '', 'no cipher match')]``.
The extractor gives the raise the template ``[{errors}]`` (``extract/messages.grown_list``); such a template
(``list_shown``) is kept under ``LIST_SHOWN`` and is a candidate for a text printed as one list
(``printed_list``), a lead at most ``ARGS_CAP`` like the tuple's frame (issue 17's fifty-seventh round).

A web-API client's error prints its status and the response's payload as JSON: pygithub's
``GithubException.__str__`` is ``f"{self.status}"`` then ``msg += " " + json.dumps(data)``, so a template of no
word, ``{status} {json.dumps(data)}``. Such a template (``json_shown``: its last part a ``json.dumps(...)``) is
kept under ``JSON_SHOWN`` and is a candidate for a text that ends with a JSON document (``printed_json``); it
verifies only when the value of its ``json.dumps`` is one (``json_value``), a lead at most ``ARGS_CAP`` too
(issue 17's eighty-sixth round).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

ARGS_TUPLE = "<args-tuple>"  # ``MatchIndex.rewraps`` key prefix, followed by the number of values
LIST_SHOWN = "<list-repr>"  # ``MatchIndex.rewraps`` key: templates that are a list shown as itself, ``[{errors}]``
# the most an exact match of such a template scores: a lead, as the class fallback is (0.3), and below a
# template whose words the message shares, however loosely its text was found
ARGS_CAP = 0.3
MAX_ARGS = 8  # values of a printed tuple read (a longer one is no exception's arguments list worth a shape)
MAX_TEXT = 4000  # characters of a text scanned for its top-level values
_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
JSON_SHOWN = "<json-shown>"  # ``MatchIndex.rewraps`` key: templates of no word ending with a ``json.dumps(...)``
_DUMPS = re.compile(r"(?:\w+\.)*\w*json\.dumps\(", re.IGNORECASE)  # `json.dumps(`, `simplejson.dumps(`, `_json.dumps(`
JSON_STEP = 0.01  # below ``ARGS_CAP``, shared by a JSON payload's readings as their literal parts are fewer
MAX_JSON_STARTS = 8  # places a text's JSON document is looked for at (after a space, opening a document)


def json_shown(segs: Sequence[tuple[bool, str]]) -> bool:
    """Whether the template ends with a ``json.dumps(...)`` after some literal text (``{status} {json.dumps(data)}``):
    the caller checks that it has no word."""
    return len(segs) >= 2 and not segs[-1][0] and _DUMPS.match(segs[-1][1]) is not None \
        and any(lit for lit, _ in segs)


def json_value(value: str) -> bool:
    """Whether a value is a JSON document as ``json.dumps`` prints an object, an array or a string."""
    if not value or value[0] not in '{["' or len(value) > MAX_TEXT:
        return False
    try:
        json.loads(value)
    except ValueError:
        return False
    return True


def json_start(text: str) -> int | None:
    """Where the JSON document that ends a text begins, after a space (``403 {"message": "Not Found"}``: 4);
    None when the text ends with none."""
    if len(text) > MAX_TEXT:
        return None
    starts = [i + 1 for i, c in enumerate(text[:-1]) if c == " " and text[i + 1] in '{["']
    return next((i for i in starts[:MAX_JSON_STARTS] if json_value(text[i:].rstrip())), None)


def printed_json(text: str) -> bool:
    """Whether a text ends with a JSON document after a space (``json_start``)."""
    return json_start(text) is not None


def json_values(segs: Sequence[tuple[bool, str]], text: str,
                verify: Callable[[Sequence[tuple[bool, str]], str], list[tuple[str, str]] | None],
                ) -> tuple[tuple[str, str], ...] | None:
    """The placeholders' values of a ``json_shown`` template in a text ending with a JSON document: the document
    is the ``json.dumps``'s, the text before it (less the literal before the placeholder) the rest's, read by
    ``verify`` (values, or None when it does not hold them); None when the text does not fit.  (A whole reading
    finds the ` ` before the payload inside the `: ` of `{msg}: {status} {json.dumps(data)}`.)"""
    start = json_start(text)
    if start is None or len(segs) < 2 or not segs[-2][0]:
        return None
    head, sep = text[:start], segs[-2][1]
    if not head.endswith(sep) and not head.rstrip().endswith(sep.strip()):
        return None
    cut = len(head) - len(sep) if head.endswith(sep) else len(head.rstrip()) - len(sep.strip())
    got = verify(segs[:-2], head[:cut]) if len(segs) > 2 else []
    if got is None or any(not v for _, v in got):
        return None
    return (*got, ("{" + segs[-1][1] + "}", text[start:].rstrip()))


def args_tuple_fields(segs: Sequence[tuple[bool, str]]) -> int | None:
    """N when the template is ``(`` N placeholders separated by ``, `` ``)``, N >= 2; else None."""
    if len(segs) < 5 or not (segs[0] == (True, "(") and segs[-1] == (True, ")")):
        return None
    inner = segs[1:-1]
    holes = inner[0::2]
    seps = inner[1::2]
    if len(inner) % 2 != 1 or any(lit for lit, _ in holes) or any(s != (True, ", ") for s in seps):
        return None
    n = len(holes)
    return n if 2 <= n <= MAX_ARGS else None


def list_shown(segs: Sequence[tuple[bool, str]]) -> bool:
    """Whether the template is one placeholder between brackets: a list built by ``append`` and raised as it is
    (pyOpenSSL's ``errors = []; ... errors.append((lib, func, reason)); raise exception_type(errors)``)."""
    return len(segs) == 3 and segs[0] == (True, "[") and not segs[1][0] and segs[2] == (True, "]")


def printed_list(text: str) -> bool:
    """Whether a text is printed as one list of at least one item, ``[v1, ...]``: its first bracket closes at its
    end (not ``[a] and [b]``), outside quotes."""
    return _one_bracketed(text, "[")


def printed_container(text: str) -> bool:
    """Whether a text is one list or dict printed whole, ``[v1, ...]`` or ``{k: v, ...}`` (a value raised as it is:
    eliot's ``raise UnflushedTracebacks(logger.tracebackMessages)``, a validator's ``raise Error(errors)``)."""
    return _one_bracketed(text, "[") or _one_bracketed(text, "{")


def _one_bracketed(text: str, opener: str) -> bool:
    """A text of at least one item between ``opener`` and its closer, the first bracket closing at its end."""
    t = text.strip()
    if len(t) < 3 or len(t) > MAX_TEXT or t[0] != opener or t[-1] != _OPEN[opener]:
        return False
    closers: list[str] = []
    quote = ""
    i = 0
    while i < len(t):
        c = t[i]
        i += 1
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in ("'", '"'):
            quote = c
        elif c in _OPEN:
            closers.append(_OPEN[c])
        elif closers and c == closers[-1]:
            closers.pop()
            if not closers and i < len(t):
                return False  # the first list closed before the end
        elif c in ")]}":
            return False
    return not quote and not closers


def printed_fields(text: str) -> int | None:
    """The number of values of a text printed as a tuple, ``(v1, v2, ...)`` (``printed_values``)."""
    vals = printed_values(text)
    return len(vals) if vals is not None else None


def printed_values(text: str) -> list[str] | None:
    """The values of a text printed as a tuple, ``(v1, v2, ...)``, split at the ``, `` outside quotes and
    brackets; None for any other text, a tuple of one value, or one of more than ``MAX_ARGS``."""
    t = text.strip()
    if len(t) < 5 or len(t) > MAX_TEXT or t[0] != "(" or t[-1] != ")":
        return None
    closers: list[str] = []
    quote = ""
    cuts = [0]
    i = 0
    body = t[1:-1]
    while i < len(body):
        c = body[i]
        i += 1
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
            continue
        if c in ("'", '"'):
            quote = c
        elif c in _OPEN:
            closers.append(_OPEN[c])
        elif closers and c == closers[-1]:
            closers.pop()
        elif c in ")]}" and not closers:
            return None  # `(a) and (b)`: not one tuple
        elif c == "," and not closers and body[i : i + 1] == " ":
            cuts.append(i + 1)
    if quote or closers or not 2 <= len(cuts) <= MAX_ARGS:
        return None
    ends = [c - 2 for c in cuts[1:]] + [len(body)]
    return [body[a:b] for a, b in zip(cuts, ends, strict=True)]


def tuple_values(segs: Sequence[tuple[bool, str]], text: str,
                 values: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The placeholders' values of an arguments-tuple template read at the text's top-level separators
    (``(('one', 'two'), 100)`` holds ``('one', 'two')`` and ``100``, where the first ``, `` found would
    cut inside the first value); ``values`` as they are for any other template or text."""
    n = args_tuple_fields(segs)
    got = printed_values(text) if n is not None else None
    if got is None or len(got) != n or len(values) != n:
        return values
    return tuple((ph, v) for (ph, _), v in zip(values, got, strict=True))
