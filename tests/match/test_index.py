"""The candidate index: words, posting lists, locations, and its on-disk cache keyed by generation."""

from __future__ import annotations

from pathlib import Path

import pytest
from sitekit import lit, ph, site

from errdex.catalog.sqlite import SqliteCatalog
from errdex.match.index import build, index_for, keys, template_keys, template_words, words
from errdex.match.rank import pinned_sites, retrieve
from errdex.model import ExtractResult, Snapshot

SNAP = Snapshot(repo="example/lib", ref="v1", url_base="https://github.com/example/lib/blob/v1")


SITES = [
    site("lib/a.py", 10, "ValueError", lit("cannot reshape array of size "), ph("n"), lit(" into shape "), ph("s")),
    site("lib/a.py", 20, "TypeError", lit("expected an array, got "), ph("type(x)"), end=23),
    site("lib/b.py", 5, "ValueError", ph("name"), lit("_grad is not differentiable")),
    site("lib/b.py", 9, "ValueError", ph("msg")),
]


def test_words_are_lowercase_and_two_chars() -> None:
    assert words("Cannot reshape a (2, 3) ARRAY") == ["cannot", "reshape", "array"]


def test_edge_word_cut_by_placeholder_is_not_indexed() -> None:
    segs = ((False, "name"), (True, "_grad is not differentiable"))
    assert template_words(segs) == ["is", "not", "differentiable"]


def test_pairs_of_adjacent_words_are_keys_within_one_literal() -> None:
    segs = ((True, "expected str target, got "), (False, "x"), (True, " instead"))
    # "got " ends with a space: the placeholder does not cut it; no pair spans the placeholder
    assert template_keys(segs) == ["expected", "str", "target", "got", "expected str", "str target", "target got",
                                   "instead"]
    assert keys("Expected str target, got None") == [
        "expected", "str", "target", "got", "none", "expected str", "str target", "target got", "got none"]


def test_retrieve_finds_the_template_by_its_words() -> None:
    idx = build((SNAP, s) for s in SITES)
    got = retrieve(idx, "cannot reshape array of size 3 into shape (2, 2)")
    assert got[0][0] == 0 and got[0][1] == pytest.approx(1.0)
    assert retrieve(idx, "nothing in common whatsoever") == []


def test_locations_cover_line_ranges() -> None:
    idx = build((SNAP, s) for s in SITES)
    assert pinned_sites(idx, "lib/a.py", 22) == [1]
    assert pinned_sites(idx, "lib/a.py", 24) == []
    assert idx.tops == frozenset({"lib"})


def test_cache_is_written_beside_the_catalog_and_replaced_on_change(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    cat = SqliteCatalog(db)
    try:
        cat.replace_snapshot(SNAP, ExtractResult(sites=tuple(SITES[:2]), files_read=1))
        first = index_for(cat)
        files = sorted(p.name for p in tmp_path.glob("c.sqlite.match.*"))
        assert len(files) == 1 and cat.generation().split(":")[0] in files[0]
        cat.replace_snapshot(SNAP, ExtractResult(sites=tuple(SITES), files_read=2))
        second = index_for(cat)
        assert (first.size, second.size) == (2, 4)
        files2 = sorted(p.name for p in tmp_path.glob("c.sqlite.match.*"))
        assert len(files2) == 1 and files2 != files  # the stale generation's file is gone
    finally:
        cat.close()


def test_cache_file_is_loaded_by_a_new_process_state(tmp_path: Path) -> None:
    from errdex.match import index as index_mod

    db = tmp_path / "c.sqlite"
    cat = SqliteCatalog(db)
    try:
        cat.replace_snapshot(SNAP, ExtractResult(sites=tuple(SITES), files_read=1))
        built = index_for(cat)
        index_mod._MEMORY.clear()
        path = next(tmp_path.glob("c.sqlite.match.*"))
        loaded = index_mod._load(path)
        assert loaded is not None
        assert [list(x.templates) for x in (loaded, built)] == [list(built.templates)] * 2
        assert list(loaded.sites) == list(built.sites)
        assert list(loaded.site_templates) == list(built.site_templates)
        assert dict(loaded.postings) == dict(built.postings) and dict(loaded.exact) == dict(built.exact)
        assert dict(loaded.locations) == dict(built.locations)
        assert (tuple(loaded.snaps), loaded.tops) == (tuple(built.snaps), built.tops)
        assert all(loaded.df(k) == len(v) // 4 for k, v in built.postings.items())
        path.write_bytes(b"not an index")
        assert index_mod._load(path) is None  # a damaged cache is rebuilt, never trusted
    finally:
        cat.close()


def test_a_stored_index_reads_only_what_a_lookup_touches(tmp_path: Path) -> None:
    """The file is not deserialised whole: one lookup reads a handful of rows of 300 templates."""
    from errdex.match import explain
    from errdex.match import index as index_mod
    from errdex.match.store import CatalogFile

    # words of their own: retrieval reads one short posting list (shared words would make it read
    # every template holding them, within its budget, by design)
    many = [site(f"lib/m{i}.py", 1, "ValueError", lit(f"w{i}x v{i}y z{i}q: "), ph("s"), eid=f"{i:016x}")
            for i in range(300)]
    db = tmp_path / "c.sqlite"
    cat = SqliteCatalog(db)
    try:
        cat.replace_snapshot(SNAP, ExtractResult(sites=tuple(many), files_read=300))
        index_for(cat)  # builds and stores it
    finally:
        cat.close()
    index_mod._MEMORY.clear()
    lazy = CatalogFile(str(db))
    result = explain(lazy, "ValueError: w123x v123y z123q: 4")  # type: ignore[arg-type]
    assert result.matches[0].id == f"{123:016x}"
    idx = index_for(lazy)  # type: ignore[arg-type]
    assert idx.size == 300
    read = len(idx.templates._cache)  # type: ignore[attr-defined]
    assert 1 <= read <= 10, read
    assert lazy._real is None  # the catalog itself was never opened: its generation was read directly
