"""Exact verification of one template against a message, in time linear in the message.

A template is a sequence of literal and placeholder segments.  The message
matches when every literal occurs in order; placeholders absorb whatever lies
between.  This is done with a chain of ``str.find`` calls (and one ``rfind``
for the last literal, so that the placeholder before it takes the longest
value), never with a regular expression built from the template, so a
hostile message cannot trigger backtracking.  Literals that are not found are
skipped, which gives the coverage the fuzzy stage scores.
"""

from __future__ import annotations

import re

from errdex.record import dataclass

_WS = re.compile(r"\s+")

# Messages longer than this are matched on their head and tail only: the
# literal text of a template sits around the values, and a megabyte of
# array repr in the middle would only slow every ``find`` down.
MAX_TEXT = 64 * 1024
_HEAD = 48 * 1024
_TAIL = 16 * 1024


def normalize(text: str) -> str:
    """Every run of whitespace as one space: re-wrapped messages and dedented templates agree."""
    return _WS.sub(" ", text)


def line_breaks(text: str, most: int = 64) -> tuple[int, ...]:
    """Where ``normalize(text).strip()`` has a space that stood for a line break of ``text``: the
    normalized message keeps no newline (templates and re-wrapped messages agree), but a text over
    several lines says where one message ends and another's begins (``wrap._line_blocks``).  The first
    and the last ``most`` of them (a value's lines are read at an end of the text), counted line by
    line from each end: the normalized text is the words of its lines, one space apart."""
    lines = list(filter(str.strip, text.split("\n")))  # the lines with words: the rest is whitespace
    if len(lines) < 2:
        return ()
    head: list[int] = []
    pos = -1  # where the words so far end (-1: none yet)
    for line in lines:
        words = line.split()
        if pos >= 0:
            if len(head) == most:
                break
            head.append(pos)
            pos += 1
        pos = max(pos, 0) + sum(map(len, words)) + len(words) - 1
    else:
        return tuple(head)
    tail: list[int] = []
    end = len(" ".join(text.split()))
    for line in reversed(lines):
        words = line.split()
        start = end - (sum(map(len, words)) + len(words) - 1)
        if start - 1 <= head[-1] or len(tail) == most:
            break
        tail.append(start - 1)
        end = start - 1
    return (*head, *reversed(tail))


def clip(text: str) -> str:
    """Head and tail of an over-long message, joined by a space (see ``MAX_TEXT``)."""
    if len(text) <= MAX_TEXT:
        return text
    return text[:_HEAD] + " " + text[-_TAIL:]


@dataclass(frozen=True, slots=True)
class Verification:
    """Where each literal was found (``None``: not found) and what that implies."""

    spans: tuple[tuple[int, int] | None, ...]
    covered: int  # characters of literal text found in order
    total: int  # characters of literal text in the template
    anchored_start: bool  # the template's first segment is found at the message's start
    anchored_end: bool  # the template's last segment is found at the message's end

    @property
    def exact(self) -> bool:
        return all(s is not None for s in self.spans)

    @property
    def coverage(self) -> float:
        return self.covered / self.total if self.total else 0.0

    @property
    def literal_spans(self) -> list[tuple[int, int]]:
        """Where each non-empty literal lies when the template is exactly verified; [] otherwise: the text a
        template explains as its own, which the rivalry rules (``rank``'s nested messages, ``absorbed``'s
        edge values) weigh against the others' literals."""
        return [s for s in self.spans if s is not None and s[1] > s[0]] if self.exact else []


def verify(segments: tuple[tuple[bool, str], ...], text: str, share_spaces: bool = True,
           empty_lead: bool = True) -> Verification:
    """Match ``segments`` (``(is_literal, text_or_expr)``, literals normalized) against ``text``.

    Without ``share_spaces``, a literal of spaces alone is looked for after a value before it is read as
    sharing the space of an empty one; without ``empty_lead``, a template that opens with a placeholder is
    not read as printing it empty because the message starts with its first literal's words (``{x} AA
    {type(v).__name__} AA`` printed ``AA AA AA AA``): ``rank.score_template``'s second readings."""
    lits = [s for lit, s in segments if lit]
    # the literals right after a printed class (`{type(root)} {root}`): its `<class 'NoneType'>` is read whole
    after_class = [i > 0 and not segments[i - 1][0] and bool(_CLASS_VALUE.fullmatch("{" + segments[i - 1][1] + "}"))
                   for i, (lit, _) in enumerate(segments) if lit]
    starts_lit = bool(segments) and segments[0][0]
    ends_lit = bool(segments) and segments[-1][0]
    spans: list[tuple[int, int] | None] = []
    pos = 0
    covered = 0
    last = len(lits) - 1
    for k, lit in enumerate(lits):
        if after_class[k] and text.startswith("<class '", pos) and (close := text.find("'>", pos + 8)) > 0:
            pos = close + 2  # the class's repr has a space of its own: the literal after it comes after it all
        if pos and lit[:1] == " " and text[pos - 1] == " " and (
                share_spaces or lit.strip(" ") or text.find(lit, pos) < 0):
            pos -= 1  # an empty value between two spaces left one space after normalize(): share it
        size = len(lit)
        if k == last and ends_lit and ((k == 0 and not starts_lit) or (k > 0 and None not in spans)):
            idx = text.rfind(lit, pos)
        elif (k == 0 and not starts_lit and empty_lead and lit[:1] == " " and lit.strip(" ")
              and text.startswith(lit.lstrip(" "))):
            # an empty leading value: the stripped message starts with the literal, its earliest place
            idx, size = 0, len(lit.lstrip(" "))
        else:
            idx = text.find(lit, pos)
        if idx != 0 and k == 0 and not starts_lit and (idx < 0 or k < last) and _capitalized(lit, text):
            # an empty leading value (`f"{prefix}type hint ..."`) and the message's first letter upper-cased
            # by its class (beartype's `message[0].upper()`); the earliest place, before the literal's own
            # lower-case text later in the message (`... not PEP 484 or 585 callable type hint (i.e., ...`)
            idx = 0
        if idx < 0:
            idx, size = _at_stripped_edge(lit, text, pos, k == 0 and not starts_lit, k == last and not ends_lit)
        if idx < 0:
            spans.append(None)
            continue
        spans.append((idx, idx + size))
        pos = idx + size
        covered += len(lit)
    total = sum(len(x) for x in lits)
    first = spans[0] if spans else None
    final = spans[-1] if spans else None
    anchored_start = (not starts_lit) or (first is not None and first[0] == 0)
    anchored_end = (not ends_lit) or (final is not None and final[1] == len(text))
    return Verification(tuple(spans), covered, total, anchored_start, anchored_end)


def other_readings(segments: tuple[tuple[bool, str], ...], text: str) -> list[Verification]:
    """The second readings of a template, after ``verify``'s first: the values first where the first reading
    gave a value nothing (a literal of spaces sharing the space of an empty value before it; a leading
    placeholder read as empty because the text starts with the first literal's words).  ``rank`` turns to
    them when the first reading leaves a value implausible, ``earned`` when it leaves a rival's value
    holding a blank that another reading splits into words (codext's ``... in {item} {position}`` read
    with an empty item and ``position 22`` as one value)."""
    out: list[Verification] = []
    if any(lit and not x.strip(" ") for lit, x in segments[1:]):
        out.append(verify(segments, text, share_spaces=False))
    if segments and not segments[0][0]:
        out.append(verify(segments, text, empty_lead=False))
    return out


def _capitalized(lit: str, text: str) -> bool:
    """The message starts with the template's first literal, its first letter upper-cased: a class
    that capitalizes what it is given (``f"{message[0].upper()}{message[1:]}"``) prints ``Type hint ...
    invalid`` for ``f"{prefix}type hint ... invalid"`` with an empty prefix.  Only after a leading
    placeholder: a template that starts with its own lower-case text (``port out of range``) is not the
    capitalized text of another (CPython's ``Port out of range 0-65535``)."""
    head = lit[:1]
    return head.isalpha() and head.islower() and text[:1] == head.upper() and text.startswith(lit[1:], 1)


def _at_stripped_edge(lit: str, text: str, pos: int, first: bool, final: bool) -> tuple[int, int]:
    """Find ``lit`` without the space that an empty leading/trailing value took with it.

    ``"{prefix} rest"`` with an empty prefix was printed as ``" rest"`` and the
    message was stripped: ``rest`` at the very start still matches (and the
    same at the end for an empty suffix).
    """
    if first and lit[:1] == " ":
        core = lit.lstrip(" ")
        if core and text.startswith(core, pos) and pos == 0:
            return 0, len(core)
    if final and lit[-1:] == " ":
        core = lit.rstrip(" ")
        if core and text.endswith(core) and len(text) - len(core) >= pos:
            return len(text) - len(core), len(core)
    if first and final:
        core = lit.strip(" ")
        if core and core == text:
            return 0, len(core)
    return -1, 0


def values(segments: tuple[tuple[bool, str], ...], text: str, v: Verification) -> list[tuple[str, str]]:
    """``("{expr}", value)`` for each placeholder, when every literal was found."""
    if not v.exact:
        return []
    out: list[tuple[str, str]] = []
    k = 0  # index of the next literal
    prev_end = 0
    for i, (is_lit, s) in enumerate(segments):
        if is_lit:
            span = v.spans[k]
            assert span is not None
            prev_end = span[1]
            k += 1
            continue
        nxt = len(text)
        if k < len(v.spans):
            span = v.spans[k]
            assert span is not None
            nxt = span[0]
        # two placeholders in a row cannot be told apart: the first gets it all
        if i + 1 < len(segments) and not segments[i + 1][0]:
            out.append(("{" + s + "}", text[prev_end:nxt].strip()))
            prev_end = nxt
            continue
        out.append(("{" + s + "}", text[prev_end:nxt].strip()))
    return out


_NAME_VALUE = re.compile(r"\{[^{}]*\.__(?:qualname|name)__(?:![rs])?\}")  # a class's or function's name
# dotted, with `<locals>` or `<lambda>`, quoted by `!r` (param's `{self.__class__.__name__!r}`): no blank, no
# punctuation
_NAME = re.compile(r"(?:'[\w.<>]*'|\"[\w.<>]*\"|[\w.<>]*)\Z")
_CLASS_VALUE = re.compile(r"\{(?:type\([\w.]+\)|[\w.]+\.__class__)(?:![rs])?\}")


def reprs_plausible(values: tuple[tuple[str, str], ...] | list[tuple[str, str]], open_end: bool = False) -> bool:
    """Every value of a ``{x!r}`` placeholder that starts with a quote is one quoted string, as
    ``repr`` of a ``str`` prints it (``'f' found`` is not: the template's literal text was found, but
    in the wrong place).  With ``open_end`` (the template ends with that placeholder) the last value
    also holds whatever the exception appended (``\n[SQL: ...]``): it need only start with one.
    A class printed (``{type(value)}``, ``{self.__class__}``) is ``<class '...'>``."""
    last = len(values) - 1
    for i, (ph, value) in enumerate(values):
        if _CLASS_VALUE.fullmatch(ph) and not (value.startswith("<class '") and (
                value.endswith("'>") or (open_end and i == last))):
            return False  # `{type(value)}` prints `<class 'str'>`, nothing else
        if not ph.endswith("!r}") or value[:1] not in ("'", '"'):
            continue
        if open_end and i == last:
            if value.find(value[0], 1) < 0:
                return False
        elif len(value) < 2 or value[-1] != value[0]:
            return False
    return True


def names_plausible(segments: tuple[tuple[bool, str], ...], values: tuple[tuple[str, str], ...]) -> bool:
    """Every value of a placeholder printing a name (``{self.__class__.__name__}``, ``{f.__qualname__}``)
    is a dotted name, never a sentence: the literal after it was then found in a text that wraps this
    one (ofxtools' ``Can't set X.y to None: SubAggregate: Value is required`` is no class name followed by
    ``: Value is required``).  A placeholder followed by another one or ending the template may hold
    more than its own value (``values`` gives the first of two in a row everything)."""
    holes = [i for i, (is_lit, _) in enumerate(segments) if not is_lit]
    for i, (ph, value) in zip(holes, values, strict=False):
        if i + 1 >= len(segments) or not segments[i + 1][0]:
            continue
        if _NAME_VALUE.fullmatch(ph) and not _NAME.fullmatch(value):
            return False
    return True


# ``str()`` of an exception raised with a list or dict of messages (``raise ValidationError(errors)``):
# ``['Not a valid URL.']``, ``{'name': ['Missing data.']}``, ``defaultdict(<class 'dict'>, {1: ...})``
_CONTAINER_HEAD = re.compile(r"(?:[A-Za-z_][\w.]*\((?:<class '[\w.]+'>, )?)?[\[{(]")
_CLOSE = {"[": "]", "{": "}", "(": ")"}


def container_repr(text: str) -> bool:
    """Whether ``text`` is the ``repr`` of a list, dict, tuple or set holding quoted text."""
    m = _CONTAINER_HEAD.match(text)
    if m is None or ("'" not in text and '"' not in text):
        return False
    start = m.end() - 1
    end = _closing(text, start)  # the bracket that closes the first one, quotes skipped
    if end < 0:
        return False
    return end == len(text) - 1 if start == 0 else text[end + 1:] == ")"


def _closing(text: str, start: int) -> int:
    """Where the bracket at ``start`` closes (skipping quoted strings), or -1."""
    depth, quote, i, n = 0, "", start, min(len(text), 1 << 16)
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def element_of(segments: tuple[tuple[bool, str], ...], text: str) -> bool:
    """A template found inside a container's ``repr`` without reaching its brackets: its text is one of
    the container's elements (the message of some other raise), not what this exception printed."""
    if not segments or not (segments[0][0] or segments[-1][0]):
        return False
    v = verify(segments, text)
    return v.exact and not (v.anchored_start and v.anchored_end)


_TRUNCATED_MIN = 12  # characters of a template's own text a cut paste must hold to be read as its beginning


def truncated(segments: tuple[tuple[bool, str], ...], text: str) -> bool:
    """Whether ``text`` is the beginning of a message of this template, cut inside its literal text (a
    paste that lost its closing sentence): every literal found in order from the start, values between,
    and the text ending part way into a literal, after at least ``_TRUNCATED_MIN`` characters of them."""
    if not segments or not segments[0][0]:
        return False
    pos = 0
    seen = 0
    for i, (is_lit, s) in enumerate(segments):
        rest = text[pos:]
        if not is_lit:
            continue
        lit = s if i else s.lstrip(" ")
        if i and not segments[i - 1][0]:  # a value before it: the literal's first place after the value
            at = rest.find(lit)
            if at > 0:
                pos += at + len(lit)
                seen += len(lit)
                continue
            cut = max((k for k in range(1, len(lit)) if rest.endswith(lit[:k])), default=0)
            return bool(cut) and seen + cut >= _TRUNCATED_MIN
        if rest.startswith(lit):
            pos += len(lit)
            seen += len(lit)
            continue
        return len(rest) > 0 and lit.startswith(rest) and seen + len(rest) >= _TRUNCATED_MIN
    return False
