"""The match index: every template's literal text, an inverted index over its words, and
where each site sits in its file, built once per catalog generation.

The index is plain tuples, dicts and ``bytes``; it is written by errdex itself
beside the catalog (``<db>.match.<generation>``, see ``store.py``: a SQLite
file whose parts are read lazily, so a lookup loads only what it touches) and
holds no object from indexed code.  A posting list is the ``array('I')`` bytes
of the template numbers that contain a word, so reading one does not build a
million small ints.  This module is on ``errdex explain``'s start-up path:
the catalog package and the data model are imported only to build an index.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Iterable, Iterator

from errdex.match import store
from errdex.match.argstuple import (
    ARGS_TUPLE,
    JSON_SHOWN,
    LIST_SHOWN,
    args_tuple_fields,
    json_shown,
    list_shown,
)
from errdex.match.honesty import class_text, constant_class_text
from errdex.match.indexdata import ANY_CLASS as ANY_CLASS
from errdex.match.indexdata import BY_CAUGHT as BY_CAUGHT
from errdex.match.indexdata import (
    CATCHES,
    CLASS_TEXT,
    COPY,
    EDITED,
    GATED,
    HELD_CLASS,
    KEY_ERROR,
    KEYVALUE,
    KEYWORD,
    LOOKED_UP,
    LOOSE,
    MAX_SHAPED,
    MAX_WORDLESS_OF,
    NO_TEXT,
    PICKED_CLASS,
    RECEIVED,
    REGISTERED,
    SHAPED,
    STDLIB,
    WORDLESS_OF,
    any_class_rewrap,
    builtin_catches,
    caught,
    caught_classes,
    caught_name,
    class_copy,
    edited_reraise,
    foreign_module,
    held_class_call,
    imported_class,
    looked_up_class,
    loose_raise,
    printed_name,
    prints_as_key_error,
    raise_keywords,
    raises_name,
    received_value,
    shaped,
    traceback_locals,
    try_body,
    version_gated,
)
from errdex.match.indexdata import FOREIGN as FOREIGN
from errdex.match.indexdata import S_END as S_END
from errdex.match.indexdata import S_EXC as S_EXC
from errdex.match.indexdata import S_EXC_NAME as S_EXC_NAME
from errdex.match.indexdata import S_ID as S_ID
from errdex.match.indexdata import S_KIND as S_KIND
from errdex.match.indexdata import S_LINE as S_LINE
from errdex.match.indexdata import S_PATH as S_PATH
from errdex.match.indexdata import S_QUAL as S_QUAL
from errdex.match.indexdata import S_SNAP as S_SNAP
from errdex.match.indexdata import T_LITCHARS as T_LITCHARS
from errdex.match.indexdata import T_RENDER as T_RENDER
from errdex.match.indexdata import T_SEGS as T_SEGS
from errdex.match.indexdata import T_SITE as T_SITE
from errdex.match.indexdata import T_WEIGHT as T_WEIGHT
from errdex.match.indexdata import MatchIndex as MatchIndex
from errdex.match.indexdata import Segs as Segs
from errdex.match.indexdata import SiteRow as SiteRow
from errdex.match.indexdata import TemplateRow as TemplateRow
from errdex.match.indexdata import keys as keys
from errdex.match.indexdata import placeholder as placeholder
from errdex.match.indexdata import template_keys as template_keys
from errdex.match.indexdata import template_words as template_words
from errdex.match.indexdata import words as words
from errdex.match.verify import normalize
from errdex.stdlib_errors import TEXTS as STDLIB_TEXTS

TYPE_CHECKING = False
if TYPE_CHECKING:  # no ``typing`` at run time (``errdex explain``'s start-up)
    from errdex.catalog.base import Catalog
    from errdex.model import ErrorSite, Snapshot

def _raise_line(site: ErrorSite) -> str:
    """The source line a site raises on (from its stored snippet; empty when the snippet does not hold it)."""
    lines = site.snippet.splitlines()
    i = site.line - site.snippet_start
    return lines[i] if 0 <= i < len(lines) else ""


def _handler_lines(site: ErrorSite) -> list[str]:
    """The lines of the innermost ``except`` around a site from that line to the raise (what its snippet holds)."""
    start = next((g.line for g in reversed(site.guards) if g.kind == "except" and not g.negated), 0)
    if not start:
        return []
    lines = site.snippet.splitlines()
    return lines[max(0, start - site.snippet_start):max(0, site.line - site.snippet_start)]


def build(entries: Iterable[tuple[Snapshot, ErrorSite]]) -> MatchIndex:
    """Index ``(snapshot, site)`` pairs: templates, posting lists and site locations."""
    snaps: list[tuple[str, str, str, str, str, str]] = []
    snap_no: dict[str, int] = {}
    sites: list[SiteRow] = []
    templates: list[TemplateRow] = []
    site_templates: list[tuple[int, ...]] = []
    post: dict[str, list[int]] = {}
    locs: dict[str, list[tuple[int, int, int]]] = {}
    exact: dict[str, list[int]] = {}
    rewraps: dict[str, list[int]] = {}
    try_lines: dict[int, tuple[int, int]] = {}
    bases: dict[str, dict[str, None]] = {}
    foreign: list[tuple[int, str]] = []  # (lone template, the top-level module of its site's class)
    for snap, site in entries:
        if snap.key not in snap_no:
            snap_no[snap.key] = len(snaps)
            snaps.append((snap.repo, snap.pin, snap.url_base, snap.path_prefix, snap.commit or "",
                          "1" if approximate_links(snap) else ""))
        sno = len(sites)
        resolved = site.exception_resolved or site.exception
        sites.append((site.error_id, site.kind, resolved, printed_name(resolved, site.exception_name), site.path,
                      site.line, site.end_line, site.qualname, snap_no[snap.key]))
        locs.setdefault(site.path, []).append((site.line, max(site.end_line, site.line), sno))
        if site.exception_bases:  # (two classes of one printed name: their bases together)
            mine_bases = bases.setdefault(sites[sno][S_EXC_NAME], {})
            for b in site.exception_bases:
                mine_bases.setdefault(printed_name(b, b.rsplit(".", 1)[-1]), None)
        mine: list[int] = []
        seen: set[Segs] = set()
        gated = version_gated(site.guards)
        # a standard-library class whose own __init__ makes the text (configparser.NoOptionError): the standard
        # library raises the very same text itself, so the text alone never names this site confidently
        stdlib = (site.exception_resolved or site.exception) in STDLIB_TEXTS
        key_error = prints_as_key_error(site.exception_name, site.exception_bases)
        raise_line = _raise_line(site)
        held = traceback_locals(_handler_lines(site)) if ".with_traceback(" in raise_line else frozenset()
        whole = class_text(site)
        catches = builtin_catches(site.guards)
        # a site with texts of both kinds (pyramid's `getattr(request, 'authdebug_message', 'Unauthorized: ...')`
        # beside its class's `Access was denied to this resource.`): the class's own texts, each by itself
        each = not whole and len(site.templates) > 1
        for tmpl in site.templates or ():
            segs = _edges_stripped(tuple((s.is_literal, normalize(s.text) if s.is_literal
                                          else placeholder(s.expr or "", s.conversion))
                                         for s in tmpl.segments), key_error)
            if segs in seen:
                continue
            seen.add(segs)
            tno = len(templates)
            tkeys = set(template_keys(segs))
            for w in tkeys:
                post.setdefault(w, []).append(tno)
            litchars = sum(len(t.strip()) for lit, t in segs if lit)
            if not tkeys and litchars >= NO_TEXT and not all(lit for lit, _ in segs) and not shaped(segs):
                of = rewraps.setdefault(WORDLESS_OF + site.exception_name, [])  # checked by the printed class
                if len(of) < MAX_WORDLESS_OF:
                    of.append(tno)
            if all(lit for lit, _ in segs) and segs:
                exact.setdefault("".join(t for _, t in segs).strip().lower(), []).append(tno)
            templates.append((sno, segs, tmpl.render(), litchars, 0.0))
            mine.append(tno)
            if each and constant_class_text(site, tmpl.segments):
                rewraps.setdefault(CLASS_TEXT, []).append(tno)
            if gated:
                rewraps.setdefault(GATED, []).append(tno)
            if stdlib:
                rewraps.setdefault(STDLIB, []).append(tno)
            if shaped(segs):
                rewraps.setdefault(SHAPED, []).append(tno)
            if (fields := args_tuple_fields(segs)) is not None:  # `({a}, {b})`: the arguments' tuple (``argstuple``)
                rewraps.setdefault(f"{ARGS_TUPLE}{fields}", []).append(tno)
            if list_shown(segs):  # `[{errors}]`: a list raised as it is (``argstuple``)
                rewraps.setdefault(LIST_SHOWN, []).append(tno)
            if not tkeys and json_shown(segs):  # `{status} {json.dumps(data)}`: a payload printed (``argstuple``)
                rewraps.setdefault(JSON_SHOWN, []).append(tno)
            if edited_reraise(raise_line, segs, held, caught_name(site.guards)):
                rewraps.setdefault(EDITED, []).append(tno)
            if any(not lit and caught(x, site.cause, caught_name(site.guards)) for lit, x in segs):
                rewraps.setdefault(site.exception_name, []).append(tno)
                for name in catches:  # `except ValueError as e`: what `{e}` holds was one (``wrap.find_wraps``)
                    rewraps.setdefault(CATCHES + name, []).append(tno)
                if len(segs) == 1:  # raise B(str(e)) from e: the caught message alone, by the class caught
                    for name in caught_classes(site.guards):
                        rewraps.setdefault(BY_CAUGHT + name, []).append(tno)
                    body = try_body(site.guards)
                    if body != (0, 0):
                        try_lines[tno] = body
        # (one placeholder, or no text at all where the raise names the value itself: funcy's `raise
        # exception_or_class`, a parameter that may hold a class raised bare, with no argument, or an instance;
        # not `raise self._exception(...)`, a helper's returned value extraction writes by its local's name)
        bare = [t for t in mine if (len(templates[t][1]) == 1 and not templates[t][1][0][0])
                or (not templates[t][1] and raises_name(site.exception, raise_line))]
        if loose_raise(site.exception, site.guards) and bare:
            # (a bare value: glom's `raise err`, err a copy of the caught error or its wrapper; or among the
            # texts of the instances its callers hand it, one they build from a text of their own callers)
            rewraps.setdefault(LOOSE, []).append(bare[0])
            if received_value(site.exception, raise_line, site.snippet, site.snippet_start, site.line):
                rewraps.setdefault(RECEIVED, []).append(bare[0])  # (``honesty.received_elsewhere``)
        if len(mine) == 1 and class_copy(site.exception, templates[mine[0]][1]):
            rewraps.setdefault(COPY, []).append(mine[0])
            rewraps.setdefault(LOOSE, []).append(mine[0])  # a value raised as it is, of any class
        if any_class_rewrap(site.exception, site.cause) and len(mine) == 1:
            rewraps.setdefault(ANY_CLASS, []).append(mine[0])
        if looked_up_class(sites[sno][2]) and mine and all(templates[t][3] < NO_TEXT for t in mine):
            rewraps.setdefault(LOOKED_UP, []).append(mine[0])
        if mine and all(templates[t][3] < NO_TEXT for t in mine) and held_class_call(site.exception, raise_line):
            rewraps.setdefault(HELD_CLASS, []).append(mine[0])
        for name in dict.fromkeys(c.rsplit(".", 1)[-1] for c in site.picked):  # one of a table's classes
            if mine and name != site.exception_name:
                rewraps.setdefault(PICKED_CLASS + name, []).append(mine[0])
        if mine and key_error and site.exception_name != "KeyError":
            rewraps.setdefault(KEY_ERROR + site.exception_name, []).append(mine[0])
        if mine and whole:
            rewraps.setdefault(CLASS_TEXT, []).extend(mine)
            for name in raise_keywords(site):  # the keywords a class printing its **kwargs shows (``keywords.py``)
                rewraps.setdefault(KEYWORD + name, []).extend(mine)
        for key in site.keyword_values if mine else ():  # `platform=universal` / `value` (``keyvalues.py``)
            rewraps.setdefault(KEYVALUE + key, []).append(mine[0])
        for key in site.registered if mine else ():  # `@method(axis('ancestor'))` (``registered.py``)
            rewraps.setdefault(REGISTERED + key, []).append(mine[0])
        lone = templates[mine[0]][1] if len(mine) == 1 and len(templates[mine[0]][1]) == 1 else ()
        if lone and imported_class(site.exception, resolved) and not (
                not lone[0][0] and caught(lone[0][1], site.cause, caught_name(site.guards))):  # (not `raise err`)
            foreign.append((mine[0], resolved.split(".", 1)[0]))
        site_templates.append(tuple(mine))
    for key in [k for k in rewraps if k.startswith((ARGS_TUPLE, LIST_SHOWN, JSON_SHOWN)) and len(rewraps[k]) > MAX_SHAPED]:
        rewraps[key] = rewraps[key][:MAX_SHAPED]  # alike: the first ones, in the catalog's order
    if len(rewraps.get(SHAPED, ())) > MAX_SHAPED:  # the most literal text: the likeliest to verify only where right
        rewraps[SHAPED] = sorted(sorted(rewraps[SHAPED], key=lambda t: -templates[t][3])[:MAX_SHAPED])
    own_tops = {p.split("/", 1)[0] for p in locs}
    if mine_foreign := [t for t, head in foreign if foreign_module(head, own_tops)]:
        rewraps[FOREIGN] = mine_foreign
    n = len(templates)
    postings = {w: array("I", ids).tobytes() for w, ids in post.items()}
    # each template's total word weight, the denominator of its retrieval score
    weighted: list[TemplateRow] = []
    for t in templates:
        wset = set(template_keys(t[T_SEGS]))
        weight = sum(math.log(1.0 + n / (1 + len(post[w]))) for w in wset)
        weighted.append((t[0], t[1], t[2], t[3], weight))
    return MatchIndex(
        snaps=tuple(snaps),
        sites=tuple(sites),
        templates=tuple(weighted),
        postings=postings,
        locations={p: tuple(sorted(v)) for p, v in locs.items()},
        tops=frozenset(p.split("/", 1)[0] for p in locs),
        site_templates=tuple(site_templates),
        exact={k: tuple(v) for k, v in exact.items()},
        rewraps={k: tuple(v) for k, v in rewraps.items()},
        try_lines=try_lines,
        bases={k: tuple(v) for k, v in bases.items()},
    )


def approximate_links(snap: Snapshot) -> bool:
    """A package read from a wheel or an installation with no ``path_prefix``: where it sits in the
    repository is assumed (its root), and a ``src/`` layout's links 404 (``--repo-path-prefix``)."""
    return bool(snap.url_base) and not snap.path_prefix and snap.source_kind in ("wheel", "pypi", "installed")


def _edges_stripped(segs: Segs, key_error: bool = False) -> Segs:
    """Whitespace at the template's very start or end: the message is compared stripped.

    A KeyError (or a subclass of it) prints the ``repr`` of its message; the extractor writes that as
    quotes around the template, but which quote ``repr`` picks depends on the
    value.  The match stage compares the unquoted text instead (``reading.unrepr``).
    """
    out = list(segs)
    if key_error and out and out[0][0] and out[-1][0] and out[0][1][:1] in ("'", '"'):
        q = out[0][1][0]
        if out[-1][1].rstrip().endswith(q) and (len(out) > 1 or len(out[0][1].strip()) > 1):
            out[0] = (True, out[0][1][1:])
            last = out[-1][1].rstrip()
            out[-1] = (True, last[:-1])
    if out and out[0][0]:
        out[0] = (True, out[0][1].lstrip())
    if out and out[-1][0]:
        out[-1] = (True, out[-1][1].rstrip())
    return tuple(s for s in out if not s[0] or s[1])


def catalog_entries(catalog: Catalog, repo: str | None = None) -> Iterator[tuple[Snapshot, ErrorSite]]:
    """The latest snapshot of each repo (or of ``repo``), with its sites."""
    done: set[str] = set()
    for snap in catalog.snapshots(repo):
        if snap.repo in done:
            continue
        done.add(snap.repo)
        for site in catalog.sites(snapshot_key=snap.key):
            yield snap, site


# --------------------------------------------------------------------------- cache

_MEMORY: dict[tuple[str, str, str], MatchIndex] = {}
_MEMORY_MAX = 4  # (catalog, generation, repo filter) entries kept in a process


def index_for(catalog: Catalog, repo: str | None = None) -> MatchIndex:
    """The index of ``catalog`` at its current generation: from memory, disk, or built now."""
    gen = catalog.generation()
    db = getattr(catalog, "path", None)
    key = (str(db) if db else f"mem:{id(catalog)}", gen, repo or "")
    hit = _MEMORY.get(key)
    if hit is not None:
        return hit
    cache = _cache_path(db, gen, repo)
    idx = _load(cache, gen) if cache is not None else None
    if idx is None:
        idx = build(catalog_entries(catalog, repo))
        if cache is not None:
            store.save(cache, gen, idx)
            idx = _load(cache, gen) or idx  # the stored form: lookups read rows, the built one is dropped
    for old in [k for k in _MEMORY if k[0] == key[0] and k[1] != gen]:
        del _MEMORY[old]  # an older generation of this catalog is never asked for again
    while len(_MEMORY) >= _MEMORY_MAX:
        del _MEMORY[next(iter(_MEMORY))]
    _MEMORY[key] = idx
    return idx


def stored_index(db: str, repo: str | None = None) -> MatchIndex | None:
    """The stored index of the SQLite catalog at ``db``, if one exists for its current generation.

    ``errdex explain``'s fast path: the catalog's generation is read from its
    ``meta`` table directly, so neither the catalog package nor the data model
    is imported when the index is already on disk.
    """
    gen = store.catalog_generation(db)
    if gen is None:
        return None
    key = (db, gen, repo or "")
    hit = _MEMORY.get(key)
    if hit is not None:
        return hit
    cache = _cache_path(db, gen, repo)
    idx = _load(cache, gen) if cache is not None else None
    if idx is not None:
        _MEMORY[key] = idx
    return idx


def _cache_path(db: object, gen: str, repo: str | None) -> str | None:
    if not db or str(db) == ":memory:":
        return None
    safe_gen = re.sub(r"[^A-Za-z0-9_-]", "_", gen)
    safe_repo = re.sub(r"[^A-Za-z0-9_-]", "_", repo or "all")
    return f"{db}.match.{safe_gen}.{safe_repo}"


def _load(path: str | object, gen: str | None = None) -> MatchIndex | None:
    """The index stored at ``path`` (for generation ``gen``, read from the file name when None)."""
    return store.load(str(path), gen)
