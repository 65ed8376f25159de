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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from errdex.links import source_url
from errdex.match import store
from errdex.match.verify import normalize

TYPE_CHECKING = False
if TYPE_CHECKING:  # no ``typing`` at run time (``errdex explain``'s start-up)
    from typing import Final

    from errdex.catalog.base import Catalog
    from errdex.model import ErrorSite, Snapshot

_WORD = re.compile(r"[A-Za-z0-9_]+")

Segs = tuple[tuple[bool, str], ...]  # (is_literal, normalized text or placeholder expression)
SiteRow = tuple[str, str, str, str, str, int, int, str, int]
TemplateRow = tuple[int, Segs, str, int, float]

# site tuple fields
S_ID: Final = 0
S_KIND: Final = 1
S_EXC: Final = 2
S_EXC_NAME: Final = 3
S_PATH: Final = 4
S_LINE: Final = 5
S_END: Final = 6
S_QUAL: Final = 7
S_SNAP: Final = 8
# template tuple fields
T_SITE: Final = 0
T_SEGS: Final = 1
T_RENDER: Final = 2
T_LITCHARS: Final = 3
T_WEIGHT: Final = 4


def words(text: str) -> list[str]:
    """The lower-cased words of ``text`` that the index knows (two characters or more)."""
    return [w for w in _WORD.findall(text.lower()) if len(w) > 1]


def keys(text: str) -> list[str]:
    """What a message is looked up by: its words and its pairs of adjacent words.

    A pair ("str target") is far rarer than either word, so messages made of
    common words still reach their template through a short posting list.
    """
    ws = words(text)
    return ws + [f"{a} {b}" for a, b in pairwise(ws)]


def template_keys(segs: tuple[tuple[bool, str], ...]) -> list[str]:
    """The words of a template and the pairs of adjacent words inside one literal."""
    out: list[str] = []
    for ws in _literal_words(segs):
        out.extend(ws)
        out.extend(f"{a} {b}" for a, b in pairwise(ws))
    return out


def template_words(segs: tuple[tuple[bool, str], ...]) -> list[str]:
    """Words of a template's literals, without a word cut by an adjacent placeholder.

    In ``{name}_grad`` the message holds ``fn_grad``, not ``_grad``: a literal's
    edge word touching a placeholder is left out of the index.
    """
    return [w for ws in _literal_words(segs) for w in ws]


def _literal_words(segs: tuple[tuple[bool, str], ...]) -> list[list[str]]:
    out: list[list[str]] = []
    for i, (is_lit, text) in enumerate(segs):
        if not is_lit:
            continue
        ws = words(text)
        if ws and i > 0 and not segs[i - 1][0] and _WORD.match(text[:1]):
            ws = ws[1:]
        if ws and i + 1 < len(segs) and not segs[i + 1][0] and _WORD.match(text[-1:]):
            ws = ws[:-1]
        out.append(ws)
    return out


@dataclass(frozen=True, slots=True)
class MatchIndex:
    """Everything ``explain`` needs, without touching the catalog again.

    Built in memory by ``build`` (tuples and dicts), or opened from its file
    by ``store.load`` (sequences and mappings that read a row when it is first
    asked for): the code that ranks only indexes and ``get``s them.
    """

    snaps: Sequence[tuple[str, str, str, str, str, str]]  # (repo, pin, url_base, path_prefix, commit, approx)
    sites: Sequence[SiteRow]
    templates: Sequence[TemplateRow]
    postings: Mapping[str, bytes]
    locations: Mapping[str, tuple[tuple[int, int, int], ...]]  # path -> (line, end_line, site)
    tops: frozenset[str]
    site_templates: Sequence[tuple[int, ...]]
    exact: Mapping[str, tuple[int, ...]]  # the text of templates without placeholders -> templates
    counts: Mapping[str, int] | None = None  # key -> templates holding it, when stored apart from postings
    memo: dict[int, tuple[tuple[str, float], ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def size(self) -> int:
        return len(self.templates)

    def df(self, word: str) -> int:
        if self.counts is not None:
            return self.counts.get(word, 0)
        return len(self.postings.get(word, b"")) // 4

    def idf(self, word: str) -> float:
        return math.log(1.0 + len(self.templates) / (1 + self.df(word)))

    def words_of(self, tno: int) -> tuple[tuple[str, float], ...]:
        """A template's indexed words with their IDF weight (computed once per template)."""
        hit = self.memo.get(tno)
        if hit is None:
            hit = tuple((w, self.idf(w)) for w in set(template_words(self.templates[tno][T_SEGS])))
            self.memo[tno] = hit
        return hit

    def posting(self, word: str) -> array[int]:
        """The templates holding ``word``; a stored index reads their rows in one query now, since
        retrieval weighs every template of a posting list it reads."""
        arr = array("I")
        arr.frombytes(self.postings.get(word, b""))
        store.prefetch(self.templates, arr)
        return arr

    def url(self, site: SiteRow) -> str:
        snap = self.snaps[site[S_SNAP]]
        return source_url(snap[2], snap[3], site[S_PATH], site[S_LINE], site[S_END])


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
    for snap, site in entries:
        if snap.key not in snap_no:
            snap_no[snap.key] = len(snaps)
            snaps.append((snap.repo, snap.pin, snap.url_base, snap.path_prefix, snap.commit or "",
                          "1" if approximate_links(snap) else ""))
        sno = len(sites)
        sites.append((site.error_id, site.kind, site.exception_resolved or site.exception, site.exception_name, site.path,
                      site.line, site.end_line, site.qualname, snap_no[snap.key]))
        locs.setdefault(site.path, []).append((site.line, max(site.end_line, site.line), sno))
        mine: list[int] = []
        seen: set[Segs] = set()
        for tmpl in site.templates or ():
            segs = _edges_stripped(tuple((s.is_literal, normalize(s.text) if s.is_literal else (s.expr or ""))
                                         for s in tmpl.segments), site.exception_name == "KeyError")
            if segs in seen:
                continue
            seen.add(segs)
            tno = len(templates)
            for w in set(template_keys(segs)):
                post.setdefault(w, []).append(tno)
            litchars = sum(len(t.strip()) for lit, t in segs if lit)
            if all(lit for lit, _ in segs) and segs:
                exact.setdefault("".join(t for _, t in segs).strip().lower(), []).append(tno)
            templates.append((sno, segs, tmpl.render(), litchars, 0.0))
            mine.append(tno)
        site_templates.append(tuple(mine))
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
    )


def approximate_links(snap: Snapshot) -> bool:
    """A package read from a wheel or an installation with no ``path_prefix``: where it sits in the
    repository is assumed (its root), and a ``src/`` layout's links 404 (``--repo-path-prefix``)."""
    return bool(snap.url_base) and not snap.path_prefix and snap.source_kind in ("wheel", "pypi", "installed")


def _edges_stripped(segs: Segs, key_error: bool = False) -> Segs:
    """Whitespace at the template's very start or end: the message is compared stripped.

    A KeyError prints the ``repr`` of its message; the extractor writes that as
    quotes around the template, but which quote ``repr`` picks depends on the
    value.  The match stage compares the unquoted text instead (``explain._unrepr``).
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
