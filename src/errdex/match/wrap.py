"""Wrapped messages: one template's placeholder holds the whole message of another.

Libraries catch an error and raise a new one whose message embeds the old
one's, as JAX's ``check_jaxpr`` does::

    except JaxprTypeError as e:
        msg = "\\n\\n".join([e.args[0], "while checking jaxpr:", jaxpr_str])
        raise JaxprTypeError(msg) from None

The message then starts with the inner error's text, so the inner template
(``Value for variable '{v}' inconsistently typed as ...``) verifies exactly
and, having more literal text, outscores the wrapper (``{msg} while checking
jaxpr: {jaxpr_str}``); but the site that threw is the wrapper.

Among the exactly verified candidates of one message, template A *wraps*
template B when the value one of A's placeholders absorbed is itself exactly
and wholly B's message: every literal of B is found in order inside that
value, and B is anchored at both of its ends, at least one of them by a
literal of B (a template with a placeholder at each end could sit anywhere,
so it proves nothing). Both must have real literal text of their own
(``MIN_LITERAL`` characters): a template that is only ``{msg}`` never wraps,
and a ``{msg}`` site is never said to be wrapped. When A wraps B, A is the
better explanation of the text (its literals *and* B's are explained as
literals, where B alone explains A's literal text as part of a value), so A
is scored with the literal text of both and B is kept just below it, as the
wrapped cause.

Only the candidates already retrieved and verified are compared, at most
``POOL`` of them, and each test is a ``startswith``/``endswith`` and one
``verify`` of B on the value: linear in the message, no regular expression.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Sequence

from errdex.match import verify as V
from errdex.match.index import T_LITCHARS, T_SEGS, T_SITE, MatchIndex, Segs
from errdex.match.indexdata import CATCHES, CAUGHT, REPR, S_EXC_NAME
from errdex.record import dataclass

_NAME_EXPR = re.compile(r"__name__|__qualname__")  # a placeholder that prints a class's (or function's) name
_NAME = re.compile(r"[A-Za-z_][\w.]*")
MIN_LITERAL = 8  # characters of literal text a template needs to wrap or be wrapped
POOL = 8  # the best exactly verified candidates compared pairwise
_BLOCKS = 4  # readings of one value by its lines (``_line_blocks``)
_NESTED = 3  # levels of wraps read inside a wrapped message (``_nested``)
# the titles pydantic (v2) puts before a validator's own text in an error's `msg` (a `ValueError`, an
# `AssertionError`): the validator's text follows whole
VALIDATION_TITLES = ("Value error, ", "Assertion failed, ")
FRAME_LETTERS = 3  # letters and digits a short wrapper's leading literal needs (``_framed``)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A verified candidate of one message: its template, text score and placeholder values."""

    template: int
    score: float
    exact: bool
    values: tuple[tuple[str, str], ...]


def find_wraps(idx: MatchIndex, cands: Sequence[Candidate], text: str = "",
               breaks: Sequence[int] = ()) -> dict[int, int]:
    """``{outer template: inner template}`` for the candidates of which one wraps another; ``breaks``:
    where the text's line breaks were (``verify.line_breaks``).

    Each outer template names the inner template with the most literal text
    (ties: the better score). A pair that would wrap each other both ways is
    dropped: the text does not say which one is outside.
    """
    ranked = sorted((c for c in cands if c.exact and c.score > 0.0
                     and (_literal(idx, c.template) >= MIN_LITERAL or _rewraps(idx, c.template)
                          or _framed(idx, c.template))),
                    key=lambda c: -c.score)
    # one template text raised at several sites is compared once (typeguard raises its union error's
    # text at three): twins take their representative's wrap, and leave room in the pool for others
    pool: list[Candidate] = []
    rep: dict[Segs, int] = {}
    twins: dict[int, int] = {}
    for c in ranked:
        segs = idx.templates[c.template][T_SEGS]
        if segs in rep:
            twins[c.template] = rep[segs]
        elif len(pool) < POOL:
            rep[segs] = c.template
            pool.append(c)
    found: dict[int, int] = {}
    via: dict[int, str] = {}  # the value of each outer that is its inner's whole message
    catches = _catches(idx, {c.template for c in pool})
    cut: set[int] = set()  # outers whose wrapped value cuts a line of the text (``_cuts_lines``)
    for a in pool:
        if not a.values:
            continue
        a_site = idx.templates[a.template][T_SITE]
        best: tuple[int, float, int, str] | None = None
        readings = _wrapped_values(idx, a, text, breaks)
        for b in pool:
            if b.template == a.template or idx.templates[b.template][T_SITE] == a_site \
                    or _literal(idx, b.template) < MIN_LITERAL \
                    or (a.template in catches and not _caught_as(idx, catches[a.template], b.template)):
                continue
            value = next((v for v, line in readings if wholly(idx.templates[b.template][T_SEGS], v, line)), None)
            if value is not None:
                key = (_literal(idx, b.template), b.score, b.template, value)
                if best is None or key[:2] > best[:2]:
                    best = key
        if best is not None:
            found[a.template] = best[2]
            via[a.template] = best[3]
            if _cuts_lines(best[3], text, breaks):
                cut.add(a.template)
    for t in _in_cycles(found, idx) & cut:
        # a chain of wraps that closes on itself (yamale: `Schema error in file {path}\n{e}` around
        # `Invalid schema expression: '{v}'. {e}` around `{e} at node '{path}'`, whose `{e}`, read as all
        # the text before ` at node`, holds the header's text): the reading whose value starts or ends
        # inside a line is not the wrap; the one over whole lines is
        del found[t]
    _nested(idx, pool, found, via)
    found.update({t: found[r] for t, r in twins.items() if r in found and idx.templates[found[r]][T_SITE] != (
        idx.templates[t][T_SITE])})
    return {a: b for a, b in found.items() if found.get(b) != a}


def _catches(idx: MatchIndex, tnos: set[int]) -> dict[int, list[str]]:
    """Template -> the builtin classes the ``except`` around it catches (``indexdata.CATCHES``), for ``tnos``."""
    out: dict[int, list[str]] = {}
    for key, held in idx.rewraps.items():
        if key.startswith(CATCHES):
            for t in held:
                if t in tnos:
                    out.setdefault(t, []).append(key[len(CATCHES):])
    return out


def _caught_as(idx: MatchIndex, catches: Sequence[str], tno: int) -> bool:
    """Whether the class template ``tno``'s site raises may be one of the builtin classes ``catches``: that
    class or a base of it (the bases the index knows) is one of them or a subclass of one; a class whose
    bases are not known may be anything.  ZConfig's ``except ValueError as e: raise DataConversionError(e, ...)``
    never held its parser's ``ConfigurationSyntaxError`` (a ``ConfigurationError``, an ``Exception``)."""
    printed = idx.sites[idx.templates[tno][T_SITE]][S_EXC_NAME]
    chain = (printed, *idx.bases.get(printed, ()))
    if not printed or (len(chain) == 1 and not _builtin(printed)):
        return True
    return any(_builtin_subclass(n.rsplit(".", 1)[-1], c) for n in chain for c in catches)


def _builtin(name: str) -> bool:
    cls = getattr(builtins, name, None)
    return isinstance(cls, type) and issubclass(cls, BaseException)


def _builtin_subclass(name: str, of: str) -> bool:
    cls, base = getattr(builtins, name, None), getattr(builtins, of, None)
    return name == of or (isinstance(cls, type) and isinstance(base, type) and issubclass(cls, base))


def _nested(idx: MatchIndex, pool: Sequence[Candidate], found: dict[int, int], via: dict[int, str]) -> None:
    """Wraps inside a wrapped message, read off that message rather than the whole text: yamale's
    ``Schema error in file {path}\n{e}`` wraps ``Invalid schema expression: '{v}'. {e}``, which wraps
    ``{e} at node '{path}'``, which wraps a validator's own text; read on the whole text, that last
    ``{e}`` holds everything before ` at node`, no other message, and the validator's text stayed a
    rival above the chain.  Each inner template not yet an outer is read on the value it was found in,
    and a candidate no wrap names yet that one of its values wholly is becomes its inner (a few levels)."""
    named = set(found) | set(found.values())
    for _ in range(_NESTED):
        added = False
        for a, b in list(found.items()):
            if b in found or a not in via:
                continue
            segs = idx.templates[b][T_SEGS]
            v = V.verify(segs, via[a])
            if not v.exact:
                continue
            values = [x for _, x in V.values(segs, via[a], v)]
            site = idx.templates[b][T_SITE]
            best: tuple[int, int, str] | None = None
            for c in pool:
                if c.template in named or idx.templates[c.template][T_SITE] == site \
                        or _literal(idx, c.template) < MIN_LITERAL:
                    continue
                value = next((x for x in values if wholly(idx.templates[c.template][T_SEGS], x)), None)
                if value is not None and (best is None or _literal(idx, c.template) > best[0]):
                    best = (_literal(idx, c.template), c.template, value)
            if best is not None:
                found[b], via[b] = best[1], best[2]
                named.add(best[1])
                added = True
        if not added:
            return


def wrapped_pairs(idx: MatchIndex, cands: Sequence[Candidate], wraps: dict[int, int],
                  text: str) -> list[tuple[int, int]]:
    """``(outer, inner)`` for every wrap, and for every candidate with the very text of a wrapped template
    (``find_wraps`` compares one representative of a text raised at several sites): the text cannot say
    which of them the wrapper caught, so each ranks below it.  omegaconf raises ``MissingMandatoryValue
    while resolving interpolation: {exc}`` at two sites; its frame ``{msg}\\n    full_key: ...`` wrapped the
    one compared, and the other, left above the frame, was the answer.  Only a wrapper that explains the
    whole text (anchored at both ends) extends so: jinja's ``{name!r} is undefined`` is found in ``none of
    the templates given were found: 'x' is undefined, y`` with text after it, no frame around the rest."""
    pairs = list(wraps.items())
    inners: dict[Segs, list[int]] = {}
    for outer, inner in wraps.items():
        v = V.verify(idx.templates[outer][T_SEGS], text)
        if v.exact and v.anchored_start and v.anchored_end:
            inners.setdefault(idx.templates[inner][T_SEGS], []).append(outer)
    for c in cands:
        for outer in inners.get(idx.templates[c.template][T_SEGS], ()):
            if c.template != outer and (outer, c.template) not in pairs and wraps.get(c.template) != outer \
                    and idx.templates[c.template][T_SITE] != idx.templates[outer][T_SITE]:
                pairs.append((outer, c.template))
    return pairs


def wholly(segs: Segs, value: str, first_line: int | None = None) -> bool:
    """Whether ``value`` is exactly and wholly a message of the template ``segs``.

    At least one end of the template must be a literal found at that end of
    the value (cheap to test first); the rest is ``verify`` anchored at both
    ends.  ``first_line``: the length of the value's first line when the value
    is whole lines of the text (``_line_blocks``): a template with a
    placeholder at each end is then a message of it when its first literal is
    on that line (the caught text starts the line, it is not any part of it).
    """
    if not segs:
        return False
    starts_lit, ends_lit = segs[0][0], segs[-1][0]
    if starts_lit:
        if not value.startswith(segs[0][1]):
            return False
    elif ends_lit:
        if not value.endswith(segs[-1][1]):
            return False
    elif first_line is not None and len(segs) > 1 and segs[1][0]:
        if not 0 < value.find(segs[1][1]) < first_line:
            return False
    elif not (len(segs) > 1 and _NAME_EXPR.search(segs[0][1]) and segs[1][0]
              and _NAME.fullmatch(value.split(segs[1][1], 1)[0])):
        # a placeholder at both ends: it could be any part of the value, unless the first is a class's name
        # (`{type(exc).__name__} raised while resolving interpolation: {exc}`, omegaconf) and the value starts
        # with one word before the template's first literal
        return False
    v = V.verify(segs, value)
    return v.exact and v.anchored_start and v.anchored_end


def _wrapped_values(idx: MatchIndex, a: Candidate, text: str,
                    breaks: Sequence[int] = ()) -> list[tuple[str, int | None]]:
    """The values of ``a``'s placeholders, and for ``{e} <literal> ...`` the caught message read up to
    the literal's *last* occurrence (``find`` stops at the first " in " of the caught message), and the
    lines a value at an end of the text holds (``_line_blocks``)."""
    out: list[tuple[str, int | None]] = [(v, None) for _, v in a.values]
    # pydantic's `ValidationError.errors()` gives each `msg` as its error type's title before the text the
    # validator raised (`Value error, Failed to validate ...`): a package joining those msgs
    # (ical's `ComponentModel.__init__`) wraps the text after that title
    out.extend((v[len(p):], None) for _, v in a.values for p in VALIDATION_TITLES if v.startswith(p))
    segs = idx.templates[a.template][T_SEGS]
    if text and len(segs) > 1 and not segs[0][0] and segs[1][0] and CAUGHT.fullmatch(segs[0][1].removesuffix(REPR)):
        cut = text.rfind(segs[1][1])
        if cut > 0:
            out.append((text[:cut].strip(), None))
    if text and breaks and segs and a.values:
        out.extend(_line_blocks(segs, a.values, text, breaks))
    return out


def _cuts_lines(value: str, text: str, breaks: Sequence[int]) -> bool:
    """Whether a wrapped value holds a line break of the text but starts or ends inside a line."""
    at = text.find(value)
    if at < 0 or not breaks:
        return False
    end = at + len(value)
    if not any(at <= b < end for b in breaks):
        return False
    return not ((at == 0 or at - 1 in breaks) and (end == len(text) or end in breaks))


def _in_cycles(found: dict[int, int], idx: MatchIndex | None = None) -> set[int]:
    """The outers of ``found`` on a chain of wraps that comes back to itself, or (with ``idx``) to
    another template of its own site (nibabel's ``{e}; Is it possible ...`` and its variant with a hint
    after it, both around the text they are wrapped in)."""
    def site(t: int) -> int:
        return int(idx.templates[t][T_SITE]) if idx is not None else t

    out: set[int] = set()
    for start in found:
        t, seen = start, {start}
        while t in found:
            t = found[t]
            if site(t) == site(start):
                out.add(start)
                break
            if t in seen:
                break
            seen.add(t)
    return out


def _line_blocks(segs: Segs, values: Sequence[tuple[str, str]], text: str,
                 breaks: Sequence[int]) -> list[tuple[str, int | None]]:
    """The whole lines of a template's value at an end of the text, with the length of their first line.

    A value that starts a line after the template's last literal (``Parser key "{dest}":\n{ex}``) or
    ends one before its first (``{e}\nwhile setting ...``) is whole lines of the text: a message
    written on lines of its own.  And a header written over the caught message on a line of its own
    (yamale's ``"Schema error in file %s\n" % path`` then ``+= str(e)``) is a template ``Schema error in
    file {path}\n{e}`` whose newline, a space once normalized, ended ``{path}`` at its first space: when
    only whitespace stands between two placeholders, the caught message starts at a later line break,
    the lines before it the first placeholder's.  Only a value at an end of the text: there its place
    is known without the literals' reading."""
    out: list[tuple[str, int | None]] = []
    n = len(text)
    if not segs[-1][0]:
        last = values[-1][1]
        start = n - len(last) if last and text.endswith(last) else n
        split = _between_values(segs, -2)
        at = [k for k, b in enumerate(breaks) if (b == start - 1 or (split and start <= b)) and b < n - 1]
        for k in at[:_BLOCKS]:  # the first lines a caught message may start at
            b = breaks[k]
            out.append((text[b + 1:], (breaks[k + 1] if k + 1 < len(breaks) else n) - b - 1))
    if not segs[0][0]:
        first = values[0][1]
        end = len(first) if first and text.startswith(first) else 0
        split = _between_values(segs, 1)
        ends = [b for b in breaks if b > 0 and (b == end or (split and b < end))]
        out.extend((text[:b], breaks[0]) for b in ends[-_BLOCKS:])  # the last lines it may end at
    return [(v, line) for v, line in out if v.strip()]


def _between_values(segs: Segs, i: int) -> bool:
    """Whether ``segs[i]`` is a literal of whitespace alone between two placeholders (a newline)."""
    j = i - 1 if i < 0 else i + 1
    return len(segs) >= 3 and segs[i][0] and not segs[i][1].strip() and not segs[j][0]


def _rewraps(idx: MatchIndex, tno: int) -> bool:
    """A template with some literal text and a placeholder that holds a caught exception (``{e}``); one
    character of it is enough after a leading class name: prophy 1.2.5's ``except ProphyError as e: raise
    ProphyError("{}: {}".format(self.__class__.__name__, e))`` puts the caught text after its struct's name
    (pyrad's ``{type(err).__name__}: {err}`` too), and ``wholly`` reads that name as one word."""
    segs = idx.templates[tno][T_SEGS]
    named = bool(segs) and not segs[0][0] and _NAME_EXPR.search(segs[0][1]) is not None
    return _literal(idx, tno) >= (1 if named else 2) \
        and any(not lit and CAUGHT.fullmatch(x.removesuffix(REPR)) for lit, x in segs)


def _framed(idx: MatchIndex, tno: int) -> bool:
    """A template that is one value between two literals, the first with a word of its own
    (``DBC: "{e_dbc}"``: cantools 45.1.0 raises the caught text of each format's loader inside its name
    and quotes): short, but anchored at both ends, so a value of it that is wholly another message says
    it wrapped that message (a frame of quotes or brackets alone, ``'{x}'``, says nothing)."""
    segs = idx.templates[tno][T_SEGS]
    return len(segs) == 3 and segs[0][0] and not segs[1][0] and segs[2][0] \
        and sum(ch.isalnum() for ch in segs[0][1]) >= FRAME_LETTERS


def _literal(idx: MatchIndex, tno: int) -> int:
    return int(idx.templates[tno][T_LITCHARS])


def wrap_groups(wraps: dict[int, int]) -> dict[int, int]:
    """Each template tied to others by wraps -> one representative of its group (a wrap is no rival)."""
    parent: dict[int, int] = {}

    def root(t: int) -> int:
        while parent.get(t, t) != t:
            t = parent[t]
        return t

    for outer, inner in wraps.items():
        a, b = root(outer), root(inner)
        if a != b:
            parent[a] = b
    return {t: root(t) for t in parent.keys() | set(parent.values())}
