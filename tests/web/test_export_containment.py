"""`errdex export` of a catalog with hostile names: nothing written outside DIR, nothing deleted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile_data import GOOD_REPO, HOSTILE, write_catalog
from webkit import _env, run_errdex

from errdex.web.export import ExportError, Target


def _tree(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


def test_hostile_names_write_nothing_outside_the_target(tmp_path: Path) -> None:
    db = str(tmp_path / "hostile.sqlite")
    write_catalog(db, HOSTILE)
    work = tmp_path / "work"
    out = work / "a" / "b" / "c" / "site"
    out.parent.mkdir(parents=True)
    before = _tree(tmp_path)
    proc = run_errdex("export", str(out), "--db", db, env=_env(tmp_path / "home"))
    after = _tree(tmp_path)
    outside = {p for p in after - before if not p.startswith("work/a/b/c/site")}
    assert outside == set(), outside
    # the hostile repos and modules are named, the good ones exported
    for name in ("'../../../escape'", "'owner/..'", "'../..'", "'a/b/c'", "'sp ace/na?me'",
                 "'lib/../../../../outside-module.py'", "'../lib/up.py'"):
        assert "warning: not exported, " in proc.stderr and name in proc.stderr, (name, proc.stderr)
    assert (out / GOOD_REPO / "index.html").is_file()
    assert (out / GOOD_REPO / "lib" / "core.py" / "index.html").is_file()
    sitemap = (out / "sitemap.xml").read_text()
    assert "escape" not in sitemap and ".." not in sitemap and "sp ace" not in sitemap


def test_an_existing_file_that_export_did_not_write_is_never_replaced(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite")
    write_catalog(db, {GOOD_REPO: ["lib/core.py"]})
    env = _env(tmp_path / "home")
    out = tmp_path / "site"
    out.mkdir()
    mine = out / "notes.txt"
    mine.write_text("mine")
    proc = run_errdex("export", str(out), "--db", db, env=env, check=False)
    assert proc.returncode == 1 and "not empty and not written by errdex export" in proc.stderr
    assert _tree(out) == {"notes.txt"} and mine.read_text() == "mine"
    # an export directory can be exported to again; a file put in the way since is refused by name
    mine.unlink()
    run_errdex("export", str(out), "--db", db, env=env)
    first = _tree(out)
    run_errdex("export", str(out), "--db", db, env=env)
    assert _tree(out) == first
    planted = out / "api" / "repos" / "good" / "lib" / "lib" / "core.py"
    planted.unlink()  # export wrote it; a file of someone else's is there now, and the manifest forgot it
    planted.write_text("theirs")
    manifest = out / ".errdex-export"
    listed = manifest.read_text().splitlines()
    manifest.write_text("".join(f"{k}\n" for k in listed if k != "api/repos/good/lib/lib/core.py"))
    proc = run_errdex("export", str(out), "--db", db, env=env, check=False)
    assert proc.returncode == 1 and "core.py: exists and was not written by errdex export" in proc.stderr
    assert planted.read_text() == "theirs"


def test_target_refuses_paths_and_links_that_leave_it(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "victim.txt"
    victim.write_text("keep")
    target = Target(tmp_path / "site")
    for rel in ("../outside/x", "/../../x", "a/../../outside/victim.txt", "", "."):
        with pytest.raises(ExportError, match="outside the export directory"):
            target.write(rel, "x")
    (tmp_path / "site" / "link").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ExportError, match="outside the export directory"):
        target.write("link/victim.txt", "overwritten")
    with pytest.raises(ExportError, match="outside the export directory"):
        target.link("index.json", "link/victim.txt")
    assert victim.read_text() == "keep" and sorted(p.name for p in outside.iterdir()) == ["victim.txt"]
    # a hard link to an outside file is replaced, never written through
    target.write("doc.json", "{}")
    target.link("doc.json", "doc")
    os.remove(tmp_path / "site" / "doc")
    os.link(victim, tmp_path / "site" / "doc")
    target.write("doc", "new")
    assert victim.read_text() == "keep" and (tmp_path / "site" / "doc").read_text() == "new"
