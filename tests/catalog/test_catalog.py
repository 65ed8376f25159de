"""The catalog contract, on every backend: snapshots replace and coexist, lookups, search,
stats, generation, analyses, atomic writes."""

from __future__ import annotations

import dataclasses
import threading

import pytest
from catalog_data import BAD_UNIT, EMPTY_SIZE, MYSTERY, REPO, TURBO, result, site, snapshot

from errdex.catalog import open_catalog
from errdex.catalog.sql import SqlCatalog
from errdex.model import Analysis, FileFailure, Solution

OLD = snapshot("a", "2024-01-01T10:00:00+00:00")
NEW = snapshot("b", "2024-03-01T10:00:00+02:00")


def test_replace_same_snapshot_has_no_duplicates(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE, BAD_UNIT))
    stats = catalog.replace_snapshot(OLD, result(EMPTY_SIZE, BAD_UNIT, TURBO))
    assert stats.sites == 3
    assert catalog.site_count() == 3
    assert len(catalog.snapshots()) == 1
    assert sorted(s.line for s in catalog.sites(OLD.key)) == [14, 19, 25]
    assert len(catalog.search("size")) == 2


def test_snapshots_coexist_newest_first(catalog: SqlCatalog) -> None:
    moved = dataclasses.replace(EMPTY_SIZE, line=40, end_line=41)
    catalog.replace_snapshot(NEW, result(moved, BAD_UNIT))
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE))  # indexed later, but older by date
    other = snapshot("c", "2020-01-01T00:00:00+00:00", repo="other/lib")
    catalog.replace_snapshot(other, result(site("other failure", line=1, repo="other/lib")))

    assert [s.key for s in catalog.snapshots()] == [NEW.key, OLD.key, other.key]
    assert [s.key for s in catalog.snapshots(REPO)] == [NEW.key, OLD.key]
    assert catalog.repos() == sorted([REPO, "other/lib"])

    record = catalog.get_error(EMPTY_SIZE.error_id)
    assert record is not None
    assert [(snap.key, s.line) for snap, s in record.sites] == [(NEW.key, 40), (OLD.key, 14)]
    assert record.latest[1].path == "tinylib/core.py"

    # sites() with no key: the latest snapshot of each repo.
    assert sorted((s.line, s.path) for s in catalog.sites()) == [(1, "tinylib/core.py"), (19, "tinylib/core.py"),
                                                                 (40, "tinylib/core.py")]
    assert [s.line for s in catalog.sites(repo=REPO)] == [19, 40]
    assert catalog.get_error("0" * 16) is None


def test_round_trip_of_sites_and_facts(catalog: SqlCatalog) -> None:
    res = result(EMPTY_SIZE, BAD_UNIT, failures=(FileFailure("tinylib/bad.py", "SyntaxError: invalid syntax (line 3)"),))
    catalog.replace_snapshot(OLD, res)
    assert sorted(catalog.sites(OLD.key), key=lambda s: s.line) == [EMPTY_SIZE, BAD_UNIT]
    assert catalog.classes(OLD.key) == list(res.classes)
    assert catalog.config_options(OLD.key) == list(res.config)
    assert catalog.tests(OLD.key) == list(res.tests)
    assert catalog.symbols(OLD.key) == dict(res.symbols)
    assert catalog.classes("nope@x") == [] and catalog.symbols("nope@x") == {}


def test_stats_figures(catalog: SqlCatalog) -> None:
    res = result(EMPTY_SIZE, BAD_UNIT, MYSTERY, TURBO, failures=(FileFailure("tinylib/gen.py", "file too large"),))
    catalog.replace_snapshot(OLD, res)
    (stats,) = catalog.stats(OLD.key)
    assert stats.snapshot == OLD
    assert stats.files_read == 3
    assert stats.files_failed == (FileFailure("tinylib/gen.py", "file too large"),)
    assert stats.sites == 4
    assert stats.sites_by_kind == {"error": 3, "warning": 1}
    assert stats.sites_by_exception == {"ValueError": 1, "TinyError": 1, "RuntimeError": 1, "DeprecationWarning": 1}
    assert stats.templates_resolved == 3  # MYSTERY has an unresolved expression
    assert stats.unresolved_expressions == 1
    assert stats.templates_without_literal == 1  # MYSTERY is only a placeholder
    assert stats.templates_with_literal8 == 3
    assert (stats.raise_statements, stats.raise_sites) == (4, 4)
    assert catalog.stats("nope@x") == []


def test_search(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE, BAD_UNIT, TURBO))
    assert [s.line for _, s in catalog.search("unknown size unit")] == [19]
    assert [s.line for _, s in catalog.search("TinyError")] == [19]
    assert {s.line for _, s in catalog.search("deprecat")} == {25}  # prefix match
    assert {s.line for _, s in catalog.search("core.py")} == {14, 19, 25}  # path words
    assert catalog.search("size unknown nowhere") == []
    assert catalog.search('"; DROP TABLE sites; --') == []
    assert catalog.search("") == []
    assert len(catalog.search("size", limit=1)) == 1
    assert catalog.search("size", repo="other/lib") == []


def test_search_returns_each_error_once_at_its_newest_snapshot(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE))
    catalog.replace_snapshot(NEW, result(dataclasses.replace(EMPTY_SIZE, line=99)))
    hits = catalog.search("empty size")
    assert [(snap.key, s.line) for snap, s in hits] == [(NEW.key, 99)]


def test_generation_changes_on_every_write(catalog: SqlCatalog, catalog_url: str) -> None:
    seen = {catalog.generation()}
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE))
    seen.add(catalog.generation())
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE))
    seen.add(catalog.generation())
    catalog.put_analyses([Analysis(error_id=EMPTY_SIZE.error_id, snapshot=OLD.key, meaning="m")])
    seen.add(catalog.generation())
    catalog.delete_snapshot(OLD.key)
    seen.add(catalog.generation())
    assert len(seen) == 5
    # Another connection (another process would be the same) sees the same generation.
    other = open_catalog(catalog_url)
    try:
        assert other.generation() == catalog.generation()
    finally:
        other.close()


def test_analyses_replace_and_latest(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE))
    catalog.replace_snapshot(NEW, result(EMPTY_SIZE))
    eid = EMPTY_SIZE.error_id
    catalog.put_analyses([Analysis(error_id=eid, snapshot=OLD.key, meaning="old meaning")])
    catalog.put_analyses([Analysis(error_id=eid, snapshot=NEW.key, meaning="first",
                                   solutions=(Solution(text="pass a size like '10k'"),))])
    catalog.put_analyses([Analysis(error_id=eid, snapshot=NEW.key, meaning="second")])
    latest = catalog.get_analysis(eid)
    assert latest is not None and latest.meaning == "second"
    old = catalog.get_analysis(eid, OLD.key)
    assert old is not None and old.meaning == "old meaning"
    assert catalog.get_analysis("f" * 16) is None


def test_delete_snapshot(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE, BAD_UNIT))
    catalog.replace_snapshot(NEW, result(EMPTY_SIZE))
    assert catalog.delete_snapshot(OLD.key) is True
    assert catalog.delete_snapshot(OLD.key) is False
    assert [s.key for s in catalog.snapshots()] == [NEW.key]
    assert catalog.site_count() == 1
    assert catalog.search("unknown size unit") == []


def test_failed_write_leaves_catalog_as_it_was(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE, BAD_UNIT))
    before = catalog.generation()
    bad = dataclasses.replace(BAD_UNIT, line=None)  # NOT NULL column: the insert fails mid-snapshot
    with pytest.raises(Exception, match=r"(?i)not.null"):
        catalog.replace_snapshot(OLD, result(EMPTY_SIZE, bad))
    assert catalog.generation() == before
    assert sorted(s.line for s in catalog.sites(OLD.key)) == [14, 19]
    assert len(catalog.search("unknown size unit")) == 1


def test_readers_in_threads_never_see_half_a_snapshot(catalog: SqlCatalog) -> None:
    many = tuple(site(f"failure number {i} of many", line=i + 1) for i in range(400))
    catalog.replace_snapshot(OLD, result(*many))
    counts: set[int] = set()
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            counts.add(sum(1 for _ in catalog.sites(OLD.key)))

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for n in (100, 400, 250):
        catalog.replace_snapshot(OLD, result(*many[:n]))
    stop.set()
    for t in threads:
        t.join()
    assert counts <= {100, 400, 250}
    assert catalog.site_count() == 250

