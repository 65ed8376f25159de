"""The global match index: which library, and which page, a pasted message comes from, across
the whole catalog (every repo's latest snapshot), at millions of templates.

``MatchIndex`` (``index.py``) holds one catalog's templates as Python tuples:
right for one library or a few, but at 10^6 templates it is gigabytes of
objects and seconds to load in every process.  This index is one file of
flat arrays, memory-mapped, so opening it costs nothing and a lookup touches
only the pages it reads:

- a **key table**: the sorted 64-bit hashes of every template key (its words
  and pairs of adjacent words, ``index.template_keys``), each with the start
  of its posting list; a posting list is the ``uint32`` template numbers
  holding the key.  A lookup finds a key by binary search;
- per template: its site, its total key weight and its literal length
  (``float32``/``uint32`` arrays), and its segments as a ``marshal`` record
  read only for the few candidates that get verified;
- per site: a ``marshal`` record (error id, kind, exception, path, lines,
  qualname, snapshot); the snapshots (repo, pin, URL base) as one record.

A lookup reads the posting lists of the message's rarest keys within a budget
(as ``rank.retrieve`` does), keeps the templates whose weight is best
covered, verifies those exactly (``verify.verify``: ``str.find`` chains, no
regular expression) and scores them with ``rank``'s calibrated scores.  The
work is bounded by the budget and the candidate count, not by the catalog
size.  ``explain`` uses it to pick the libraries to explain with (``route``).
"""

from __future__ import annotations

import heapq
import json
import marshal
import math
import mmap
import os
import re
import struct
import tempfile
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errdex.match import rank as R
from errdex.match import verify as V
from errdex.match.index import _edges_stripped, keys, placeholder, template_keys, template_words, words

MAGIC = b"ERRDEXG2"  # 2: a placeholder interpolated with !r says so in its segment
_HEADER = struct.Struct("<8s12Q")  # magic, counts and section offsets (see ``_write``)
POSTING_BUDGET = 1_000  # postings read per lookup, rarest keys first
CANDIDATES = 12  # templates verified per lookup
ALWAYS_READ = 4  # the rarest keys read in full even beyond the budget ...
KEY_CAP = 4_000  # ... when none has more postings than this

SiteRec = tuple[str, str, str, str, str, int, int, str, int]  # id, kind, exc, exc name, path, line, end, qual, snap
SnapRec = tuple[str, str, str, str]  # repo, pin, url_base, path_prefix
StoredSnap = tuple[str, str, str, str, tuple[str, ...]]  # ... and the top-level folders of its paths


def key_hash(key: str) -> int:
    """A key's 64-bit hash, the same in every process (``hash()`` is salted per process): CRC-32 and
    Adler-32 side by side, two C calls (a cryptographic hash costs five times more per key, and a
    rare collision only merges two posting lists, which verification sorts out)."""
    b = key.encode("utf-8", "surrogatepass")
    return zlib.crc32(b) << 32 | zlib.adler32(b)


@dataclass(frozen=True, slots=True)
class Entry:
    """One site as the global index takes it (no ErrorSite: building from 10^6 rows must be cheap)."""

    snapshot: SnapRec
    site: SiteRec
    templates: tuple[tuple[tuple[bool, str], ...], ...]  # segments (literal?, normalized text or expression)
    rendered: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GlobalHit:
    """One answer: the site whose template explains the message, in which library, and its page."""

    error_id: str
    repo: str
    pin: str
    kind: str
    exception: str
    template: str
    path: str
    line: int
    url: str
    score: float
    method: str  # "exact" | "fuzzy"
    values: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class BuildStats:
    templates: int
    sites: int
    snapshots: int
    keys: int
    postings: int
    bytes: int
    seconds: float


# --------------------------------------------------------------------------- reading from a catalog


def entry_from_json(snapshot: SnapRec, snap_no: int, text: str) -> Entry | None:
    """An Entry from a site row's stored JSON (``model.to_json`` of ErrorSite), without decoding it."""
    d = json.loads(text)
    exc_resolved = d.get("exception_resolved") or ""
    exc = exc_resolved or d.get("exception") or ""
    name = exc_resolved.rsplit(".", 1)[-1] or d.get("exception") or ""
    key_error = name == "KeyError"
    segs_all: list[tuple[tuple[bool, str], ...]] = []
    rendered: list[str] = []
    for t in d.get("templates") or ():
        segs = []
        parts = []
        for s in t.get("segments") or ():
            if s.get("expr") is None:
                segs.append((True, V.normalize(s.get("text") or "")))
                parts.append((s.get("text") or "").replace("{", "{{").replace("}", "}}"))
            else:
                segs.append((False, placeholder(s.get("expr") or "", s.get("conversion"))))
                parts.append("{" + (s.get("expr") or "") + "}")
        stripped = _edges_stripped(tuple(segs), key_error)
        if stripped and stripped not in segs_all:
            segs_all.append(stripped)
            rendered.append("".join(parts))
    if not segs_all:
        return None
    site: SiteRec = (str(d.get("error_id") or ""), str(d.get("kind") or ""), exc, name, str(d.get("path") or ""),
                     int(d.get("line") or 0), int(d.get("end_line") or d.get("line") or 0),
                     str(d.get("qualname") or ""), snap_no)
    return Entry(snapshot, site, tuple(segs_all), tuple(rendered))


def catalog_entries(catalog: Any) -> Iterator[Entry]:
    """Every site with a template of the latest snapshot of each repo, from the stored JSON rows."""
    from errdex.catalog.rows import dumps

    done: set[str] = set()
    snaps = []
    for s in catalog.snapshots():  # newest first: the first of each repo is its latest
        if s.repo not in done:
            done.add(s.repo)
            snaps.append(s)
    rows = getattr(catalog, "site_json", None)
    for no, snap in enumerate(snaps):
        rec: SnapRec = (snap.repo, snap.pin, snap.url_base, snap.path_prefix)
        texts = rows(snap.key) if rows is not None else (dumps(s) for s in catalog.sites(snap.key))
        for text in texts:
            e = entry_from_json(rec, no, text)
            if e is not None:
                yield e


# --------------------------------------------------------------------------- building


def build(entries: Iterable[Entry], path: Path) -> BuildStats:
    """Write the index of ``entries`` to ``path`` (atomically: a temporary file, then a rename)."""
    import time

    started = time.perf_counter()
    snaps: list[SnapRec] = []
    snap_no: dict[SnapRec, int] = {}
    tops: list[set[str]] = []
    packed = array("Q")  # (key hash >> 24) << 24 | template number: one sort orders keys, then templates
    t_site = array("I")
    t_lit = array("I")
    seg_blob = bytearray()
    seg_off = array("Q", [0])
    site_blob = bytearray()
    site_off = array("Q", [0])
    n_sites = 0
    for e in entries:
        if e.snapshot not in snap_no:
            snap_no[e.snapshot] = len(snaps)
            snaps.append(e.snapshot)
            tops.append(set())
        site = (*e.site[:8], snap_no[e.snapshot])
        tops[snap_no[e.snapshot]].add(e.site[4].split("/", 1)[0])
        site_blob += marshal.dumps(site)
        site_off.append(len(site_blob))
        for segs, text in zip(e.templates, e.rendered, strict=True):
            tno = len(t_site)
            if tno >= 1 << 24:
                raise ValueError("more than 16,777,216 templates: shard the catalog")
            for k in set(template_keys(segs)):
                packed.append((key_hash(k) >> 24) << 24 | tno)
            t_site.append(n_sites)
            t_lit.append(sum(len(t.strip()) for lit, t in segs if lit))
            seg_blob += marshal.dumps((segs, text))
            seg_off.append(len(seg_blob))
        n_sites += 1
    order = sorted(packed)
    del packed
    n = len(t_site)
    key_hashes = array("Q")
    key_off = array("Q")
    postings = array("I")
    cur = -1
    for v in order:  # one pass: a new key starts where the hash changes
        h = v >> 24
        if h != cur:
            key_hashes.append(h)
            key_off.append(len(postings))
            cur = h
        postings.append(v & 0xFFFFFF)
    del order
    key_off.append(len(postings))
    weight = [0.0] * n  # a template's total key weight: the denominator of its retrieval share
    for i in range(len(key_hashes)):
        a, b = key_off[i], key_off[i + 1]
        idf = math.log(1.0 + n / (1 + (b - a)))
        for tno in postings[a:b]:
            weight[tno] += idf
    sections = [key_hashes.tobytes(), key_off.tobytes(), postings.tobytes(), t_site.tobytes(),
                array("f", weight).tobytes(), t_lit.tobytes(), seg_off.tobytes(), bytes(seg_blob),
                site_off.tobytes(), bytes(site_blob),
                marshal.dumps(tuple((*sn, tuple(sorted(t))) for sn, t in zip(snaps, tops, strict=True)))]
    size = _write(path, n, n_sites, len(key_hashes), sections)
    return BuildStats(n, n_sites, len(snaps), len(key_hashes), len(postings), size, time.perf_counter() - started)


def _write(path: Path, n_templates: int, n_sites: int, n_keys: int, sections: list[bytes]) -> int:
    """Header (magic, counts, the end offset of each section), then the sections, 8-byte aligned."""
    ends: list[int] = []
    pos = _HEADER.size
    for s in sections:
        pos += len(s) + (-len(s)) % 8
        ends.append(pos)
    header = _HEADER.pack(MAGIC, n_templates, n_sites, n_keys, *ends[:9])
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", dir=path.parent)
    with os.fdopen(fd, "wb") as fh:
        fh.write(header)
        for s in sections:
            fh.write(s)
            fh.write(b"\0" * ((-len(s)) % 8))
        fh.write(struct.pack("<2Q", ends[9], ends[10]))
    os.replace(tmp, path)
    return pos + 16


# --------------------------------------------------------------------------- reading


class GlobalIndex:
    """The memory-mapped index file; ``lookup(text)`` answers in time independent of its size."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with path.open("rb") as fh:
            self._mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        if hasattr(mmap, "MADV_RANDOM"):  # lookups read a few scattered pages: no read-ahead around them
            self._mm.madvise(mmap.MADV_RANDOM)
        mm = memoryview(self._mm)
        magic, self.templates, self.sites, self.keys, *ends9 = _HEADER.unpack_from(mm, 0)
        if magic != MAGIC:
            raise ValueError(f"{path}: not an errdex global index")
        tail = struct.unpack_from("<2Q", mm, len(mm) - 16)
        ends = [*ends9, *tail]
        starts = [_HEADER.size, *ends[:-1]]

        def section(i: int, fmt: str, count: int) -> Any:
            return mm[starts[i]:starts[i] + count * struct.calcsize(fmt)].cast(fmt)  # type: ignore[call-overload]

        self._key_hashes = section(0, "Q", self.keys)
        self._key_off = section(1, "Q", self.keys + 1)
        self._postings = section(2, "I", self._key_off[self.keys] if self.keys else 0)
        self._t_site = section(3, "I", self.templates)
        self._t_weight = section(4, "f", self.templates)
        self._t_lit = section(5, "I", self.templates)
        self._seg_off = section(6, "Q", self.templates + 1)
        self._segs = mm[starts[7]:ends[7]]
        self._site_off = section(8, "Q", self.sites + 1)
        self._site_recs = mm[starts[9]:ends[9]]
        self._snaps: tuple[StoredSnap, ...] = marshal.loads(mm[starts[10]:ends[10]])

    def close(self) -> None:
        for view in (self._key_hashes, self._key_off, self._postings, self._t_site, self._t_weight, self._t_lit,
                     self._seg_off, self._segs, self._site_off, self._site_recs):
            view.release()
        self._mm.close()

    def __enter__(self) -> GlobalIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def snapshots(self) -> tuple[StoredSnap, ...]:
        return self._snaps

    def _posting(self, h: int) -> tuple[int, int]:
        """(start, end) of the posting list of key hash ``h`` (empty when absent)."""
        h >>= 24
        i = bisect_left(self._key_hashes, h)
        if i < self.keys and self._key_hashes[i] == h:
            return self._key_off[i], self._key_off[i + 1]
        return 0, 0

    def segments(self, tno: int) -> tuple[tuple[tuple[bool, str], ...], str]:
        segs, text = marshal.loads(self._segs[self._seg_off[tno]:self._seg_off[tno + 1]])
        return segs, text

    def site(self, sno: int) -> SiteRec:
        rec: SiteRec = marshal.loads(self._site_recs[self._site_off[sno]:self._site_off[sno + 1]])
        return rec

    def retrieve(self, text: str, limit: int = CANDIDATES) -> list[tuple[int, float]]:
        """``(template, share)``: the templates whose key weight the message best covers.

        Keys are read rarest first until ``POSTING_BUDGET`` postings, but the ``ALWAYS_READ`` rarest
        keys are read whatever the budget when none is commoner than ``KEY_CAP``: a message that a
        library raises from hundreds of places has no rare key, only several uncommon ones.  A key
        commoner than ``KEY_CAP`` is read (its first ``POSTING_BUDGET``) only when nothing rarer was.
        """
        n = self.templates
        present = []
        for k in set(keys(text)):
            a, b = self._posting(key_hash(k))
            if b > a:
                present.append((b - a, a, b))
        present.sort()
        acc: dict[int, float] = {}
        budget = 0
        get = acc.get
        for i, (df, a, b) in enumerate(present):
            if acc and budget + df > POSTING_BUDGET and (i >= ALWAYS_READ or df > KEY_CAP):
                break
            w = math.log(1.0 + n / (1 + df))
            for t in self._postings[a:b if df <= KEY_CAP else a + POSTING_BUDGET]:
                acc[t] = get(t, 0.0) + w
            budget += df
        weights = self._t_weight
        ranked = [(a / (weights[t] or 1.0), a, t) for t, a in acc.items()]
        best = [(t, min(share, 1.0)) for share, _, t in heapq.nlargest(limit, ranked)]
        # and the templates that share the most weight with the message, however long they are
        # (a short template covering one rare pair has a higher share than the message's own)
        seen = {t for t, _ in best}
        best.extend((t, min(share, 1.0)) for _, share, t in heapq.nlargest(limit // 2, ((a, sh, t) for sh, a, t in ranked))
                    if t not in seen)
        return best

    def lookup(self, text: str, *, exception: str = "", top: int = 5) -> list[GlobalHit]:
        """The best sites for a message (``exception``: the printed type, when the paste had one)."""
        msg = V.normalize(V.clip(text)).strip()
        if not msg:
            return []
        msg_words = frozenset(words(msg))
        best: dict[int, GlobalHit] = {}
        for tno, share in self.retrieve(msg):
            segs, rendered = self.segments(tno)
            sno = self._t_site[tno]
            site = self.site(sno)
            litchars = self._t_lit[tno]
            v = V.verify(segs, msg)
            if v.exact and litchars:
                score, method, vals = R.exact_score(litchars, v, msg), "exact", tuple(V.values(segs, msg, v))
            else:
                tw = set(template_words(segs))
                overlap = len(tw & msg_words) / len(tw) if tw else share
                score = 0.72 * (min(overlap, share) ** 2) * R.specificity(litchars) * (0.5 + 0.5 * v.coverage)
                method, vals = "fuzzy", ()
            score *= R.type_factor(exception, site[3], site[2])
            score = max(0.0, min(1.0, score))
            prev = best.get(sno)
            if prev is None or score > prev.score:
                snap = self._snaps[site[8]]
                url = f"{snap[2].rstrip('/')}/{snap[3]}{site[4]}#L{site[5]}" if snap[2] else ""
                best[sno] = GlobalHit(site[0], snap[0], snap[1], site[1], site[2], rendered, site[4], site[5], url,
                                      round(score, 4), method, vals)
        return sorted(best.values(), key=lambda h: (-h.score, h.repo, h.error_id))[:top]

    def repos_of(self, hits: list[GlobalHit], n: int = 3) -> list[str]:
        """The libraries of the best hits, best first, each once (whom ``explain`` asks next)."""
        out: list[str] = []
        for h in hits:
            if h.repo not in out:
                out.append(h.repo)
        return out[:n]


# --------------------------------------------------------------------------- the cached file of a catalog


def index_path(catalog: Any) -> Path:
    """Where the global index of ``catalog`` at its current generation lives: beside a SQLite file,
    else (PostgreSQL) in the per-user cache under the catalog's id."""
    from errdex.match.store import file_beside

    beside = file_beside(catalog)
    if beside is not None:
        return Path(beside)
    from errdex import paths

    gen = re.sub(r"[^A-Za-z0-9_-]", "_", catalog.generation())

    return paths.cache_dir() / "global" / f"catalog.global.{gen}"


def global_index_for(catalog: Any) -> GlobalIndex:
    """The catalog's global index at its current generation: opened if built, else built now.

    Files of older generations of the same catalog are removed once the new one is written.
    """
    path = index_path(catalog)
    if not path.exists():
        build(catalog_entries(catalog), path)
        stem = path.name.rsplit(".", 1)[0] + "."
        for old in path.parent.glob(stem + "*"):
            if old != path and not old.name.startswith(path.name + "."):
                old.unlink(missing_ok=True)
    return GlobalIndex(path)
