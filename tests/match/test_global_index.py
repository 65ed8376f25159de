"""The global match index and global explain over a catalog of several real-looking libraries.

The catalog is made by the real CLI (``errdex index --from-list``) from wheels of four fixture
packages; the index file is built from it and memory-mapped, as ``explain`` uses it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from match_fixtures import tb

import cluster_helpers as H
from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain, route
from errdex.match import global_index as G


@pytest.fixture(scope="module")
def many_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    home = tmp_path_factory.mktemp("global")
    wheels = [
        H.make_wheel(home / "w", "tinyjit", "0.3.0", H.FIXTURES / "match_tinyjit" / "tinyjit"),
        H.make_wheel(home / "w", "tinylib", "1.2.3", H.FIXTURES / "src_tinylib" / "src" / "tinylib"),
        H.make_wheel(home / "w", "shop", "0.4.0", H.FIXTURES / "web_shop" / "shopcart"),
        H.make_wheel(home / "w", "lowering", "2.0.0", H.FIXTURES / "an_dispatch" / "lowering"),
    ]
    listing = home / "list.txt"
    listing.write_text("\n".join(map(str, wheels)) + "\n")
    db = str(home / "many.sqlite")
    env = dict(os.environ, ERRDEX_HOME=str(home / "h"))
    subprocess.run([sys.executable, "-m", "errdex", "index", "--from-list", str(listing), "--jobs", "2", "--db", db],
                   check=True, env=env, capture_output=True)
    return db


@pytest.fixture
def many(many_db: str) -> Iterator[Catalog]:
    cat = open_catalog(many_db)
    yield cat
    cat.close()


def _site_id(cat: Catalog, repo: str, needle: str) -> str:
    snap = cat.snapshots(repo)[0]
    (site,) = [s for s in cat.sites(snap.key) if needle in s.template.render()]
    return site.error_id


def test_lookup_names_the_library_and_the_page(many: Catalog) -> None:
    with G.global_index_for(many) as gidx:
        assert {s[0] for s in gidx.snapshots} == {"example-org/tinyjit", "example-org/tinylib", "example-org/shop",
                                                  "example-org/lowering"}
        hits = gidx.lookup("cannot reshape array of size 3 into shape (2, 2)", exception="ValueError")
    top = hits[0]
    assert (top.repo, top.method) == ("example-org/tinyjit", "exact")
    assert top.error_id == _site_id(many, "example-org/tinyjit", "cannot reshape array")
    assert top.url == f"https://github.com/example-org/tinyjit/blob/v0.3.0/{top.path}#L{top.line}"
    assert ("{len(values)}", "3") in top.values
    assert top.score > 0.8


def test_unrelated_text_finds_nothing_confident(many: Catalog) -> None:
    with G.global_index_for(many) as gidx:
        hits = gidx.lookup("the quick brown fox jumps over the lazy dog")
        assert all(h.score < 0.5 for h in hits)
        assert gidx.lookup("   ") == []


def test_index_file_follows_the_catalog_generation(many_db: str, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite"
    src = open_catalog(many_db)
    try:
        import sqlite3

        with sqlite3.connect(copy) as out:
            src._conn().backup(out)  # type: ignore[attr-defined]
    finally:
        src.close()
    cat = open_catalog(str(copy))
    try:
        first = G.index_path(cat)
        G.global_index_for(cat).close()
        assert first.exists()
        cat.delete_snapshot(cat.snapshots("example-org/shop")[0].key)  # type: ignore[attr-defined]
        second = G.index_path(cat)
        with G.global_index_for(cat) as gidx:
            assert "example-org/shop" not in {s[0] for s in gidx.snapshots}
        assert second != first and second.exists() and not first.exists()
    finally:
        cat.close()


def test_explain_routes_through_the_global_index(many: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a catalog of many libraries, explain asks the global index which ones, then explains with
    theirs: the answer is the one the whole-catalog index gives."""
    texts = ["ValueError: cannot reshape array of size 3 into shape (2, 2)", tb("cpython_shared_template_jit")]
    from errdex.match.explain import explain_parsed, parse_safely
    from errdex.match.index import index_for

    whole = [explain_parsed(index_for(many), parse_safely(t)) for t in texts]  # every template at once
    monkeypatch.setattr(route, "ROUTE_ABOVE", 2)
    assert route.should_route(many)
    monkeypatch.setattr(route, "ROUTE_ABOVE", 10_000)
    G.global_index_for(many).close()
    assert route.should_route(many)  # its global index exists: routed whatever the repo count
    routed = [explain(many, t) for t in texts]
    for w, r in zip(whole, routed, strict=True):
        assert r.matches and r.matches[0].id == w.matches[0].id and r.matches[0].repo == "example-org/tinyjit"
        assert r.matches[0].score == w.matches[0].score and r.confident == w.confident


def test_candidate_repos_come_from_frames_and_text(many: Catalog) -> None:
    from errdex.match.explain import parse_safely

    parsed = parse_safely(tb("cpython_shared_template_jit"))
    assert route.candidate_repos(many, parsed)[0] == "example-org/tinyjit"


def test_index_run_builds_the_global_index_when_explain_will_route(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from errdex.cluster import ClusterSpec
    from errdex.commands.index_batch import run_index_many
    from errdex.extract.groups import IndexOptions

    monkeypatch.setenv("ERRDEX_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(route, "ROUTE_ABOVE", 2)
    wheels = [H.make_wheel(tmp_path / "w", "tinyjit", "0.3.0", H.FIXTURES / "match_tinyjit" / "tinyjit"),
              H.make_wheel(tmp_path / "w", "shop", "0.4.0", H.FIXTURES / "web_shop" / "shopcart")]
    cat = open_catalog(str(tmp_path / "c.sqlite"))
    try:
        assert run_index_many(cat, [str(w) for w in wheels], ClusterSpec("pool", workers=1), IndexOptions(),
                              json_out=True) == 0
        assert G.index_path(cat).exists()
    finally:
        cat.close()
    assert "global match index of" in capsys.readouterr().err
