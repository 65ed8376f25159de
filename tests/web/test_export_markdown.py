"""``errdex export --format markdown``: pages a library's own docs can take as they are.

The export is built by MkDocs (``mkdocs build --strict``: every page, every
relative link), its front matter read as YAML, and the hostile packages'
text must come out of MkDocs' Markdown as text, never as HTML.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml
from hostile_data import GOOD_REPO, HOSTILE, write_catalog
from webkit import Built, _env, run_errdex

from errdex.catalog import open_catalog

LINK = re.compile(r"\]\(<?([^)<>]+?)>?\)")


def _export(built: Built, out: Path) -> subprocess.CompletedProcess[str]:
    return run_errdex("export", "--format", "markdown", str(out), "--db", built.db, env=built.env)


def _mkdocs(docs: Path, site: Path) -> subprocess.CompletedProcess[str]:
    cfg = docs.parent / "mkdocs.yml"
    cfg.write_text(f"site_name: errors\ndocs_dir: {docs.name}\nsite_dir: {site}\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(cfg)],
                          capture_output=True, text=True, timeout=600)


def _front(page: Path) -> dict[str, object]:
    text = page.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    data: dict[str, object] = yaml.safe_load(text.split("---\n", 2)[1])
    return data


def test_one_page_per_error_and_an_index_by_module(tmp_path: Path, shop: Built) -> None:
    out = tmp_path / "docs"
    proc = _export(shop, out)
    assert "exported 7 error pages and 2 index pages (Markdown)" in proc.stdout
    cat = open_catalog(shop.db)
    try:
        snap = cat.snapshots("acme/shopcart")[0]
        ids = {s.error_id for s in cat.sites(snapshot_key=snap.key)}
    finally:
        cat.close()
    pages = {p.stem for p in (out / "acme" / "shopcart" / "errors").glob("*.md")}
    assert pages == ids
    index = (out / "acme" / "shopcart" / "index.md").read_text()
    assert "## `shopcart/cart.py`" in index
    assert _front(out / "acme" / "shopcart" / "index.md")["title"] == "Errors of acme/shopcart"
    for eid in ids:
        page = out / "acme" / "shopcart" / "errors" / f"{eid}.md"
        front = _front(page)
        assert front["errdex_id"] == eid and front["orphan"] is True and str(front["title"])
        assert f"(errors/{eid}.md)" in index
    checkout = next(p for p in (out / "acme" / "shopcart" / "errors").glob("*.md")
                    if "cannot check out an empty cart" in p.read_text())
    text = checkout.read_text()
    for section in ("## Error message", "## What it means", "## Source", "## Versions"):
        assert section in text
    assert "| v2.0.0 |" in text and "| v2.1.0 |" in text


def test_every_relative_link_reaches_a_page_and_mkdocs_builds_it(tmp_path: Path, shop: Built) -> None:
    out = tmp_path / "docs"
    _export(shop, out)
    for page in out.rglob("*.md"):
        for target in LINK.findall(page.read_text()):
            if target.startswith(("http://", "https://")):
                continue
            assert (page.parent / target).resolve().is_file(), f"{page}: broken link {target}"
    proc = _mkdocs(out, tmp_path / "site")
    assert proc.returncode == 0, proc.stderr
    built = next((tmp_path / "site" / "acme" / "shopcart" / "errors").iterdir())
    assert (built / "index.html").is_file()


def test_sphinx_with_myst_builds_it_without_a_warning(tmp_path: Path, shop: Built) -> None:
    out = tmp_path / "docs"
    _export(shop, out)
    (out / "conf.py").write_text('extensions = ["myst_parser"]\nproject = "errors"\n', encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(out), str(tmp_path / "html")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    pages = list((tmp_path / "html" / "acme" / "shopcart" / "errors").glob("*.html"))
    assert len(pages) == 7
    index = (tmp_path / "html" / "acme" / "shopcart" / "index.html").read_text()
    assert all(f'href="errors/{p.name}"' in index for p in pages)  # MyST resolved the .md links


def test_hostile_text_stays_text_through_mkdocs(tmp_path: Path, xss: Built) -> None:
    out = tmp_path / "docs"
    _export(xss, out)
    proc = _mkdocs(out, tmp_path / "site")
    assert proc.returncode == 0, proc.stderr
    html = "\n".join(p.read_text() for p in (tmp_path / "site").rglob("*.html") if "errors" in p.parts)
    assert html and "window.__xss" in html  # the payloads are on the pages ...
    assert not re.search(r"<script>window\.__xss", html)  # ... as text, never as a tag
    assert not re.search(r"<img[^>]*onerror", html)
    assert not [h for h in re.findall(r'<a\s[^>]*href="([^"]*)"', html) if "javascript" in h.lower()]


def test_hostile_names_write_nothing_outside(tmp_path: Path) -> None:
    db = str(tmp_path / "hostile.sqlite")
    write_catalog(db, HOSTILE)
    out = tmp_path / "work" / "docs"
    proc = run_errdex("export", "--format", "markdown", str(out), "--db", db, env=_env(tmp_path / "home"),
                      check=False)
    assert proc.returncode == 0, proc.stderr
    written = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.md")}
    assert all(p.startswith("work/docs/") for p in written), written
    assert (out / GOOD_REPO / "index.md").is_file()
    assert "not exported" in proc.stderr


def test_a_foreign_directory_is_refused_and_a_bad_format_too(tmp_path: Path, shop: Built) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.md").write_text("my notes")
    proc = run_errdex("export", "--format", "markdown", str(mine), "--db", shop.db, env=shop.env, check=False)
    assert proc.returncode == 1 and "not written by errdex export" in proc.stderr
    assert (mine / "notes.md").read_text() == "my notes"
    proc = run_errdex("export", "--format", "pdf", str(tmp_path / "x"), "--db", shop.db, env=shop.env, check=False)
    assert proc.returncode == 2 and "--format must be html or markdown" in proc.stderr


def test_exporting_again_replaces_its_own_pages(tmp_path: Path, shop: Built) -> None:
    out = tmp_path / "docs"
    assert _export(shop, out).returncode == 0
    page = next((out / "acme" / "shopcart" / "errors").glob("*.md"))
    page.write_text("stale")
    assert _export(shop, out).returncode == 0
    assert page.read_text().startswith("---\ntitle: ")
