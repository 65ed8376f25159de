"""Ties: the sites that raise text the input cannot tell apart from the top match's.

1,229 of jax's 5,321 error sites share their text with another site; the same
holds, less often, for every library (click's ``fail`` helpers, "Not a valid
integer." in several fields).  When a message or a last line reaches such a
template, picking one site and calling it confident is a guess: the top match
names the others in ``tied`` instead, and is not confident.  A traceback's
innermost frame pins one site (``pinned_by_frame``): then there is no tie.

A site is tied with the top match when its template has the very same
segments (literal text and placeholders; found through the posting list of
the template's rarest key, so however many sites share it, not only those
the retrieval kept) and the printed exception type agrees with it as well as
with the top's, or when it was verified exactly and scored as high as the top,
or when it was verified exactly and its template *generalizes* the top's: a
placeholder of it stands where the top's template has literal text
(``Unexpected character: {char} at line {line} col {col}`` against a factory
call's ``Unexpected character: '=' at line {line} col {col}``): the more literal
template scores higher, but the general one prints the very same text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from errdex.match import rank as R
from errdex.match import verify as V
from errdex.match.index import (
    BY_CAUGHT,
    S_EXC,
    S_EXC_NAME,
    S_ID,
    S_LINE,
    S_PATH,
    S_QUAL,
    S_SNAP,
    T_LITCHARS,
    T_SEGS,
    T_SITE,
    MatchIndex,
    template_keys,
)
from errdex.match.indexdata import ANY_CLASS, COPY, LOOKED_UP, LOOSE
from errdex.match.model import Tied

TIE_EPSILON = 1e-6  # scores this close are equal (the same template scores the same, bar rounding)
MAX_LISTED = 50  # tied sites named in the answer; a larger group is reported by its count


def tied_sites(
    idx: MatchIndex, top: R.Scored, scored: Mapping[int, R.Scored], exc_name: str, printed: str = ""
) -> tuple[R.Scored, list[int], int]:
    """The site to name first, the sites tied with it (in path/line order, all of them: the answer names
    at most ``MAX_LISTED``, ``labels.with_ties``) and how many there are in all.

    Values can pick among sites of one template: a placeholder holding the object itself
    (``{self}``, ``{type(self).__name__}``) prints its class first (SymPy's ``sin(x)``, a
    ``Foo(...)`` repr), so when the value starts with the name of the class whose method is
    the site (``sin.fdiff``), only the sites of that class remain; the first answer is then one of
    them even if retrieval ranked another first."""
    if top.pinned or top.method != "exact":
        return top, [], 0  # a frame pinned it, or the text was not verified exactly: nothing to tie
    group: dict[int, R.Scored] = {top.site: top}
    for site, c in scored.items():
        if site == top.site or c.method != "exact" or c.pinned or c.wraps == top.site:
            continue  # (a handler that edited the top's own text, ``edited.py``, is the same raise, no rival)
        if c.score >= top.score - TIE_EPSILON or (
                # a site raising an instance of a class it does not name (`raise error`, handed one by its
                # callers) printed this text as well as the top did: its type factor only says "cannot tell"
                exc_name and not R.class_known(idx.sites[site][S_EXC])
                and c.score >= top.score * R.UNKNOWN_CLASS - TIE_EPSILON) or (
                idx.sites[site][S_EXC_NAME] == idx.sites[top.site][S_EXC_NAME]
                and (generalizes(idx, c.template, top.template) or filled_once(idx, c.template, top.template))
                and not _specialized(idx, site, c.template)):
            group[site] = c
    # the sites of the very same text: the top's, and those of each site tied by its score (retrieval
    # verifies one template of a text and class, ``rank._distinct``: graphql's `Int cannot represent
    # non-integer value: {inspect(value)}` at two sites, the top's own placeholder named otherwise)
    for c in [top, *(c for s, c in group.items() if s != top.site and c.score >= top.score - TIE_EPSILON)]:
        for site, t in _same_template(idx, c, exc_name).items():
            group.setdefault(site, R.Scored(t, site, top.score, top.method, False, top.values, top.wraps))
    if not exc_name or exc_name == R.REPR_MESSAGE:
        # no class printed: a bare re-raise of the top's class (`raise InvalidMarker(str(e)) from e`
        # under `except ParserSyntaxError as e`) prints this very text, when its `try` body can raise it
        for t in idx.rewraps.get(BY_CAUGHT + idx.sites[top.site][S_EXC_NAME], ()):
            site = idx.templates[t][T_SITE]
            if encloses(idx, t, top.site) or _carries(idx, site, top.template):
                group.setdefault(site, R.Scored(t, site, top.score, top.method, False, top.values, top.wraps))
        for site in _loose_twins(idx, top):
            group.setdefault(site, twin(idx, top, site))
    else:
        # the printed class is the top's and the re-raise's own: `except OSError as e: raise OSError(e.args[0])
        # from None` (param's `Path._validate`) prints the caught text as the very class it caught
        own = idx.sites[top.site][S_EXC_NAME]
        for t in idx.rewraps.get(BY_CAUGHT + own, ()) if exc_name.rsplit(".", 1)[-1] == own else ():
            site = idx.templates[t][T_SITE]
            if idx.sites[site][S_EXC_NAME] == own:
                group.setdefault(site, R.Scored(t, site, top.score, top.method, False, top.values, top.wraps))
    for site in _catch_all_rewraps(idx, top, exc_name):
        group.setdefault(site, twin(idx, top, site))
    for site in _any_class_rewraps(idx, top, exc_name, printed):
        group.setdefault(site, twin(idx, top, site))
    for site in _copies(idx, top):
        group.setdefault(site, twin(idx, top, site))
    for site in _looked_up_twins(idx, top, group):
        group.setdefault(site, twin(idx, top, site))
    picked = _by_values(idx, top, group)
    first = top if top.site in picked else group[min(picked, key=lambda s: _order(idx, s))]
    rest = sorted((s for s in picked if s != first.site), key=lambda s: _order(idx, s))
    return first, rest, len(rest)


def encloses(idx: MatchIndex, rewrap: int, top: int) -> bool:
    """Whether the ``try`` body of a re-raise of a caught exception's text (template ``rewrap``, of
    ``rewraps[BY_CAUGHT + name]``, ``name`` the ``top`` site's class) can raise the top's text.

    - The class is the package's own (mutagen's ``except SpecError as e: raise ID3JunkFrameError(e)``
      around ``reader.read(...)``): only the package raises it, so the body raised it at one of the
      package's raises, perhaps the top's (through a call no one can follow: a tie);
    - the top's raise sits on the body's lines;
    - or the body's lines are not known (a catalog from before ``Guard.body``).

    A body that calls the top's function needs no rule here: extraction gave the re-raise the texts
    of the sites its body reaches (``extract/forwarded.py``), and those tie as the very same template.
    Any other body catching a builtin class raises it from elsewhere (the interpreter's ``TypeError`` of
    ``op(a, b)`` under elementpath's ``except TypeError as err: raise self.error('XPTY0004', err)``), and
    the message alone does not make it a tie of every raise of that class (30-40 of them in
    elementpath, each printing some other text)."""
    lines = idx.try_lines.get(rewrap)
    mine, its = idx.sites[idx.templates[rewrap][T_SITE]], idx.sites[top]
    if lines is None or its[S_EXC].split(".", 1)[0] == its[S_PATH].split("/", 1)[0]:
        return True
    return mine[S_PATH] == its[S_PATH] and mine[S_SNAP] == its[S_SNAP] and lines[0] <= its[S_LINE] <= lines[1]


def unruled(idx: MatchIndex, top: R.Scored, exc_name: str) -> int:
    """How many re-raises of a caught exception's text ``encloses`` left out of the top's tie (a builtin
    class caught, the top's raise not on the body's lines): their bodies may still reach the top through
    a call no one follows, so the top is not confident, though they are not named as its tie."""
    if top.pinned or top.method != "exact" or (exc_name and exc_name != R.REPR_MESSAGE):
        return 0
    return sum(1 for t in idx.rewraps.get(BY_CAUGHT + idx.sites[top.site][S_EXC_NAME], ())
               if not encloses(idx, t, top.site) and not _carries(idx, idx.templates[t][T_SITE], top.template))


_QUOTES = ("'", '"')


def _carries(idx: MatchIndex, site: int, template: int) -> bool:
    """Whether one of the site's templates is ``template``'s text, but for quotes around it all: the texts
    extraction gave a re-raise from the raises its ``try`` body reaches (``extract/forwarded.py``) are
    those raises' own, while a caught ``KeyError`` prints its text quoted (rdflib's ``__getattr__``:
    ``try: return self.term(name) except KeyError as e: raise AttributeError(e)``)."""
    want = _unquoted(idx.templates[template][T_SEGS])
    return any(u != template and _unquoted(idx.templates[u][T_SEGS]) == want for u in idx.site_templates[site])


def _unquoted(segs: tuple[tuple[bool, str], ...]) -> tuple[tuple[bool, str], ...]:
    if len(segs) < 2 or not (segs[0][0] and segs[-1][0]):
        return segs
    head, tail = segs[0][1], segs[-1][1]
    if head[:1] in _QUOTES and tail[-1:] == head[:1]:
        return ((True, head[1:]), *segs[1:-1], (True, tail[:-1]))
    return segs


def twin(idx: MatchIndex, top: R.Scored, site: int) -> R.Scored:
    """A raise with no text of its own that may print the top's (``_loose_twins`` and below), tied with it."""
    return R.Scored(idx.site_templates[site][0], site, top.score, top.method, False, (), -1)


_HALF = 0.5  # a general template keeps at least this share of the special one's literal text


def _specialized(idx: MatchIndex, site: int, general: int) -> bool:
    """Whether the site's own texts include a special case of its ``general`` one: its placeholder filled
    for the classes the package defines (elementpath's ``invalid type {type(obj)} for xs:{cls.name}`` is
    ``... for xs:base64Binary`` at ``Base64Binary.validate``).  The site's best candidate was the general
    text, so none of those fit the message: the site prints it only for a class the package does not
    know, and it is no tie of a special text raised elsewhere (19 sites around elementpath's
    ``xs:untypedAtomic`` once retrieval kept every copy of the general text, ``rank._distinct``)."""
    return any(u != general and generalizes(idx, general, u) for u in idx.site_templates[site])


def generalizes(idx: MatchIndex, general: int, special: int) -> bool:
    """Every message of template ``special`` is one of ``general`` too: ``general``'s literals are found in
    order in ``special``'s text (its placeholders standing where ``special`` has literal text or a value),
    at both ends where it has a literal there, and it keeps at least half of ``special``'s literal text
    (``{msg}`` alone generalizes everything and says nothing)."""
    g, s = idx.templates[general], idx.templates[special]
    if g[T_LITCHARS] >= s[T_LITCHARS] or g[T_LITCHARS] < s[T_LITCHARS] * _HALF:
        return False
    shown = "".join(text if lit else "\x00" for lit, text in s[T_SEGS])
    v = V.verify(g[T_SEGS], shown)
    segs = g[T_SEGS]
    return v.exact and (v.anchored_start or not segs[0][0]) and (v.anchored_end or not segs[-1][0])


def filled_once(idx: MatchIndex, general: int, special: int) -> bool:
    """Whether ``special`` is ``general`` with one placeholder written as a word: every literal of
    ``special`` is ``general``'s but one, and that one is the whole value of one of ``general``'s
    placeholders, without a blank (kajiki 1.0.2's i18n raises ``[<string>:{node.lineno}] {e}\n\t --> ...``
    where ``Template.from_ir`` raises ``[{e.filename}:{e.lineno}] {e.msg}\n\t --> ...``: a message of a
    template compiled from a string shows ``<string>`` as the filename either way).  Such a word is what a
    value happened to be, no evidence against the placeholder that takes it, however short the general
    template's own literal text (``generalizes``'s half); the general one needs two literals of its own,
    so that ``{msg}`` alone stays no rival of every word."""
    g, s = idx.templates[general], idx.templates[special]
    if g[T_LITCHARS] >= s[T_LITCHARS] or sum(1 for lit, _ in g[T_SEGS] if lit) < 2:
        return False
    shown = "".join(text if lit else "\x00" for lit, text in s[T_SEGS])
    v = V.verify(g[T_SEGS], shown)
    segs = g[T_SEGS]
    if not (v.exact and (v.anchored_start or not segs[0][0]) and (v.anchored_end or not segs[-1][0])):
        return False
    words = [value for _, value in V.values(segs, shown, v) if value.replace("\x00", "")]
    if len(words) != 1 or "\x00" in words[0] or any(ch.isspace() for ch in words[0]):
        return False
    return g[T_LITCHARS] + len(words[0]) >= s[T_LITCHARS]


_SELF_VALUES = frozenset({"self", "type(self).__name__", "self.__class__.__name__", "self.func", "cls.__name__"})
_HEAD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _by_values(idx: MatchIndex, top: R.Scored, group: Mapping[int, R.Scored]) -> set[int]:
    """The sites of ``group`` that the values leave (all of them when the values say nothing)."""
    heads = {m.group(0) for p, v in top.values if p.strip("{}") in _SELF_VALUES and (m := _HEAD.match(v.strip()))}
    if not heads or len(group) < 2:
        return set(group)
    named = {s for s in group if idx.sites[s][S_QUAL].split(".", 1)[0] in heads and "." in idx.sites[s][S_QUAL]}
    return named or set(group)


def _order(idx: MatchIndex, s: int) -> tuple[str, int, str]:
    return idx.sites[s][S_PATH], idx.sites[s][S_LINE], idx.sites[s][S_ID]


def _same_template(idx: MatchIndex, top: R.Scored, exc_name: str) -> dict[int, int]:
    """Sites whose template has the top template's segments and whose class agrees as well."""
    segs = idx.templates[top.template][T_SEGS]
    ks = set(template_keys(segs))
    if ks:
        rarest = min(ks, key=idx.df)
        pool = [int(t) for t in idx.posting(rarest)]
    else:
        text = "".join(x for _, x in segs).strip().lower()
        pool = list(idx.exact.get(text, ()))
    mine = idx.sites[top.site]
    agree = R.type_factor(exc_name, mine[S_EXC_NAME], mine[S_EXC])
    snap = mine[S_SNAP]
    out: dict[int, int] = {}  # site -> its template
    for t in pool:
        if t == top.template or idx.templates[t][T_SEGS] != segs:
            continue
        s = idx.templates[t][T_SITE]
        row = idx.sites[s]
        if row[S_SNAP] == snap and R.type_factor(exc_name, row[S_EXC_NAME], row[S_EXC]) >= agree:
            out.setdefault(s, t)
    return out


def as_tied(idx: MatchIndex, sites: list[int]) -> tuple[Tied, ...]:
    """The JSON entries of tied sites: id, repo-relative path, line, qualname, raised class."""
    out: list[Tied] = []
    for s in sites:
        row = idx.sites[s]
        prefix = idx.snaps[row[S_SNAP]][3]
        out.append(Tied(id=row[S_ID], path=f"{prefix}{row[S_PATH]}", line=row[S_LINE], qualname=row[S_QUAL],
                        exception=row[S_EXC]))
    return tuple(out)


def apart(top_path: str, top_qualname: str, top_exception: str, tied: tuple[Tied, ...], count: int) -> str:
    """What tells the tied sites apart, in one sentence for the CLI and the web page."""
    n = count + 1
    places = {(t.path, t.qualname) for t in tied} | {(top_path, top_qualname)}
    files = {p for p, _ in places}
    # (`raise self._error` raises an object kept on the instance, of the class its setter was handed: no class)
    classes = {c for c in ({t.exception for t in tied} | {top_exception}) if not c.startswith("self.")}
    parts = [f"{n} places raise this exact message"]
    if len(classes) > 1:
        parts.append(f"as {len(classes)} exception classes ({', '.join(sorted(c.rsplit('.', 1)[-1] for c in classes))})")
    where = f"in {len(files)} file{'s' if len(files) != 1 else ''}"
    funcs = len({q for _, q in places})
    parts.append(f"{where} and {funcs} function{'s' if funcs != 1 else ''}")
    return (" ".join(parts) + "; the text cannot tell them apart, only where it was raised does:"
            " paste the full traceback and its innermost frame decides.")


def _loose_twins(idx: MatchIndex, top: R.Scored) -> list[int]:
    """The loose raises (``raise error``, ``indexdata.LOOSE``) of the top's package, when the top's text begins
    with a sentence it did not write: a placeholder whose value has three words or more
    (jsonschema's ``raise SchemaError.create_from(error)`` prints ``{message}`` of the error it was given,
    then its class's ``Failed validating ...``).  That error, built elsewhere, is raised as it is by
    ``for error in self.iter_errors(...): raise error`` too, and the message alone cannot tell them apart."""
    segs = idx.templates[top.template][T_SEGS]
    if not segs or segs[0][0] or not top.values or len(top.values[0][1].split()) < 3:
        return []
    pkg = idx.sites[top.site][S_PATH].split("/", 1)[0]
    out = []
    for t in idx.rewraps.get(LOOSE, ()):
        site = idx.templates[t][T_SITE]
        if site != top.site and idx.sites[site][S_PATH].split("/", 1)[0] == pkg:
            out.append(site)
    return out


def _copies(idx: MatchIndex, top: R.Scored) -> list[int]:
    """The raises of the top's package that copy an exception value as its own class with its own arguments
    (``indexdata.COPY``: simpy's ``type(event._value)(*event._value.args)``): they print the top's text as the
    top's class, so neither the text nor the class tells them apart; the innermost frame does."""
    pkg = idx.sites[top.site][S_PATH].split("/", 1)[0]
    sites = (idx.templates[t][T_SITE] for t in idx.rewraps.get(COPY, ()))
    return [s for s in sites if s != top.site and idx.sites[s][S_PATH].split("/", 1)[0] == pkg]


def _any_class_rewraps(idx: MatchIndex, top: R.Scored, exc_name: str, printed: str) -> list[int]:
    """The re-raises of the top's package that print a caught exception's text as a class looked up at run
    time (``indexdata.ANY_CLASS``: dnspython's ``ExceptionWrapper.__exit__`` raises
    ``self.exception_class(str(exc_val))`` around whatever its ``with`` block raised), when the input does
    not rule them out: no class printed (the message alone), or a qualified class that is not the top
    site's own (``dns.exception.SyntaxError: parameters in AliasMode`` where the site raises the builtin
    ``SyntaxError``: the site did not print that class, a re-raise did)."""
    wrappers = idx.rewraps.get(ANY_CLASS, ())
    if not wrappers:
        return []
    own = idx.sites[top.site][S_EXC]
    if exc_name and exc_name != R.REPR_MESSAGE and ("." not in printed or printed == own):
        return []
    pkg = idx.sites[top.site][S_PATH].split("/", 1)[0]
    sites = (idx.templates[t][T_SITE] for t in wrappers)
    return [s for s in sites if s != top.site and idx.sites[s][S_PATH].split("/", 1)[0] == pkg]


def _looked_up_twins(idx: MatchIndex, top: R.Scored, group: Mapping[int, R.Scored]) -> list[int]:
    """The raises of the top's package of a class looked up at run time with no text of their own
    (werkzeug's ``abort(404)``: ``raise self.mapping[code](*args, **kwargs)``), when the top's group
    raises one class: that raise may take the very class from its mapping and print its text (werkzeug's
    ``NotFound().description`` in ``404 Not Found: The requested URL was not found ...``), so the input
    cannot tell it apart and the top is not confident."""
    if len({idx.sites[s][S_EXC] for s in group}) != 1:
        return []
    pkg, snap = idx.sites[top.site][S_PATH].split("/", 1)[0], idx.sites[top.site][S_SNAP]
    sites = (idx.templates[t][T_SITE] for t in idx.rewraps.get(LOOKED_UP, ()))  # (``index.build``)
    return [s for s in sites if s not in group and idx.sites[s][S_SNAP] == snap
            and idx.sites[s][S_PATH].split("/", 1)[0] == pkg]


_CATCH_ALL = ("Exception", "BaseException")


def _catch_all_rewraps(idx: MatchIndex, top: R.Scored, exc_name: str) -> list[int]:
    """The re-raises of the top's package that catch everything and raise the top's own class around the
    caught text alone (pyserde 0.34.0's ``from_obj``: ``except Exception as e: raise SerdeError(e) from None``
    around every deserializer, whose ``SerdeError`` it catches too), when the input prints that class or
    none: the text and the class are the top's either way, and only the innermost frame tells them apart
    (``from None`` leaves the re-raise's frames alone in the traceback)."""
    own = idx.sites[top.site][S_EXC_NAME]
    if exc_name and exc_name != R.REPR_MESSAGE and exc_name.rsplit(".", 1)[-1] != own:
        return []
    snap = idx.sites[top.site][S_SNAP]
    pkg = idx.sites[top.site][S_PATH].split("/", 1)[0]
    sites = (idx.templates[t][T_SITE] for name in _CATCH_ALL for t in idx.rewraps.get(BY_CAUGHT + name, ()))
    return [s for s in sites if s != top.site and idx.sites[s][S_EXC_NAME] == own and idx.sites[s][S_SNAP] == snap
            and idx.sites[s][S_PATH].split("/", 1)[0] == pkg]
