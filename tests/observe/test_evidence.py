"""An error seen only caught inside the library, raised again as another (``from None``): the document
and the pages say which error users see instead and link to its page (observe/evidence.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.model import Observation, ObserveRun
from errdex.observe.evidence import raised_instead

SHAPES = '''
import operator


def canonicalize_shape(shape):
    """The shape as a tuple of ints."""
    try:
        return tuple(_dim(d) for d in shape)
    except TypeError:
        pass
    raise TypeError(f"Shapes must be 1D sequences of integer scalars, got {shape}") from None


def _dim(d):
    if not hasattr(d, "__index__"):
        raise TypeError(f"'{type(d).__name__}' object cannot be interpreted as an integer")
    return operator.index(d)
'''
T = "tests/shapes_test.py::test_float_dim"
TEST_FRAME = "tests.shapes_test.test_float_dim (tests/shapes_test.py:7)"
OUTER = "shapelib.core.canonicalize_shape (shapelib/core.py:10)"
INNER = "shapelib.core._dim (shapelib/core.py:15)"


def _obs(snap: str, line: int, chain: tuple[str, ...], escaped: bool, msg: str, eid: str = "",
         test: str = T) -> Observation:
    return Observation(snapshot=snap, kind="site", path="shapelib/core.py", line=line, exception="TypeError",
                       message=msg, test=test, error_id=eid, chain=chain, escaped=escaped,
                       entry="shapelib.core.canonicalize_shape")


def test_raised_instead_by_a_function_on_the_way() -> None:
    inner = _obs("s", 15, (TEST_FRAME, "shapelib.core.canonicalize_shape (shapelib/core.py:7)",
                           "shapelib.core.<genexpr> (shapelib/core.py:7)", INNER), False, "'float' ...", "a" * 16)
    outer = _obs("s", 10, (TEST_FRAME, OUTER), True, "Shapes must be ...", "b" * 16)
    got = raised_instead([inner], [inner, outer])
    assert [(r["error_id"], r["raised_in"]) for r in got] == [("b" * 16, "shapelib.core.canonicalize_shape")]
    # not when the error escaped too, not from another test, not an error raised off its way
    assert raised_instead([inner, outer], [inner, outer]) == []
    other_test = _obs("s", 10, (TEST_FRAME, OUTER), True, "Shapes ...", "b" * 16, test=T + "2")
    assert raised_instead([inner], [inner, other_test]) == []
    elsewhere = _obs("s", 10, (TEST_FRAME, "shapelib.other.f (shapelib/other.py:3)"), True, "x", "c" * 16)
    assert raised_instead([inner], [inner, elsewhere]) == []


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ERRDEX_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "errdex", *args], capture_output=True, text=True, env=env,
                          timeout=300, check=False)


def _indexed_shapelib(tmp_path: Path) -> str:
    """The shapelib package indexed into a fresh catalog; its path."""
    pkg = tmp_path / "shapelib"
    (pkg / "shapelib").mkdir(parents=True)
    (pkg / "shapelib" / "__init__.py").write_text("from shapelib.core import canonicalize_shape\n")
    (pkg / "shapelib" / "core.py").write_text(SHAPES)
    db = str(tmp_path / "c.sqlite")
    assert _cli(tmp_path / "home", "index", str(pkg), "--repo", "acme/shapelib", "--ref", "1.0",
                "--db", db).returncode == 0
    return db


def test_show_json_page_and_markdown_name_the_error_users_see(tmp_path: Path) -> None:
    db = _indexed_shapelib(tmp_path)
    cat = open_catalog(db)
    snap = cat.snapshots("acme/shapelib")[-1]
    sites = {s.qualname: s for s in cat.sites(snap.key)}
    inner_id, outer_id = sites["_dim"].error_id, sites["canonicalize_shape"].error_id
    inner = _obs(snap.key, sites["_dim"].line, (TEST_FRAME, "shapelib.core.canonicalize_shape (shapelib/core.py:7)",
                                                INNER), False, "'float' object cannot be interpreted as an integer",
                 inner_id)
    outer = _obs(snap.key, sites["canonicalize_shape"].line, (TEST_FRAME, OUTER), True,
                 "Shapes must be 1D sequences of integer scalars, got (2.0,)", outer_id)
    cat.replace_observations(ObserveRun(snapshot=snap.key, files=1, tests=1, events=2, sites=2), [inner, outer])
    cat.close()
    doc = json.loads(_cli(tmp_path / "home", "show", inner_id, "--json", "--db", db).stdout)
    assert [(r["error_id"], r["raised_in"]) for r in doc["raised_instead"]] == [
        (outer_id, "shapelib.core.canonicalize_shape")]
    assert json.loads(_cli(tmp_path / "home", "show", outer_id, "--json", "--db", db).stdout)["raised_instead"] == []
    assert _cli(tmp_path / "home", "analyze", "--db", db).returncode == 0
    terminal = " ".join(_cli(tmp_path / "home", "show", inner_id, "--db", db).stdout.split())
    assert "users never see this error" in terminal and outer_id in terminal

    from fastapi.testclient import TestClient

    from errdex.web.app import create_app
    from errdex.web.settings import WebSettings

    cat = open_catalog(db)
    try:
        html = TestClient(create_app(cat, WebSettings.from_env(db=db))).get(f"/errors/{inner_id}").text
    finally:
        cat.close()
    assert "users never see this error" in html and f'href="/errors/{outer_id}"' in html
    out = tmp_path / "md"
    assert _cli(tmp_path / "home", "export", str(out), "--format", "markdown", "--db", db).returncode == 0
    page = next(out.rglob(f"{inner_id}.md")).read_text()
    assert "raises another instead" in page and f"(<{outer_id}.md>)" in page


def test_raised_instead_of_reads_the_snapshot_once_until_the_catalog_changes(tmp_path: Path) -> None:
    """Exporting a catalog asks once per caught-only error: the snapshot's sites are read once, and again
    only after a write (a new observe run changes what the other errors are)."""
    from errdex.observe.evidence import raised_instead_of

    db = _indexed_shapelib(tmp_path)
    cat = open_catalog(db)
    try:
        snap = cat.snapshots("acme/shapelib")[-1]
        sites = {s.qualname: s for s in cat.sites(snap.key)}
        inner = _obs(snap.key, sites["_dim"].line, (TEST_FRAME, "shapelib.core.canonicalize_shape (x:7)", INNER),
                     False, "'float' ...", sites["_dim"].error_id)
        outer = _obs(snap.key, sites["canonicalize_shape"].line, (TEST_FRAME, OUTER), True, "Shapes ...",
                     sites["canonicalize_shape"].error_id)
        run = ObserveRun(snapshot=snap.key, files=1, tests=1, events=2, sites=2)
        cat.replace_observations(run, [inner])
        reads: list[str | None] = []
        real = cat.observations

        def counting(**kw: str | None) -> list[Observation]:
            reads.append(kw.get("kind"))
            return real(**kw)  # type: ignore[arg-type]

        cat.observations = counting  # type: ignore[method-assign]
        assert raised_instead_of(cat, snap.key, [inner]) == []
        assert raised_instead_of(cat, snap.key, [inner]) == []
        assert reads == ["site"]
        cat.replace_observations(run, [inner, outer])  # a write: the next call reads again and sees `outer`
        got = raised_instead_of(cat, snap.key, [inner])
        assert reads == ["site", "site"]
        assert [r["error_id"] for r in got] == [outer.error_id]
    finally:
        cat.close()
