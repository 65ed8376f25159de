"""Solutions from the branches of a dispatch that the raise falls through (indexed, then analysed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from errdex.analyze.dispatch import dispatch_alternatives
from errdex.catalog import open_catalog
from errdex.model import Guard

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "an_dispatch"


def _neg(source: str, kind: str = "else") -> Guard:
    return Guard(kind=kind, source=source, normalized=f"not ({source})", negated=True)  # type: ignore[arg-type]


def test_values_and_types_are_collected_per_subject() -> None:
    alts = dispatch_alternatives((_neg('mode == "a"'), _neg('mode in ("b", "c")'), _neg("isinstance(x, (int, float))")))
    assert [(a.subject, a.kind, a.choices) for a in alts] == [
        ("mode", "value", ("'a'", "'b'", "'c'")),
        ("x", "type", ("int", "float")),
    ]


def test_conditions_that_prove_nothing_are_ignored() -> None:
    assert dispatch_alternatives((_neg("mode > 3"), _neg("f(x) == 1 and y"), _neg("x is None"))) == []
    # a branch taken (not negated) is a condition that holds, not an alternative
    taken = Guard(kind="if", source='mode == "a"', normalized='mode == "a"')
    assert dispatch_alternatives((taken,)) == []


def test_the_page_offers_the_handled_cases(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    env = {**os.environ, "ERRDEX_HOME": str(tmp_path)}
    for args in (["index", str(FIXTURE), "--repo", "acme/lowering", "--ref", "v1"], ["analyze"]):
        subprocess.run([sys.executable, "-m", "errdex", *args, "--db", str(db)], check=True, env=env,
                       capture_output=True)
    catalog = open_catalog(str(db))
    try:
        snap = catalog.snapshots()[0]
        pages = {s.template.render(): catalog.get_analysis(s.error_id, snap.key) for s in catalog.sites(snap.key)}
    finally:
        catalog.close()
    lower = pages["unsupported backend {backend}"]
    assert lower is not None
    texts = [s.text for s in lower.solutions]
    assert any("`backend` as one of `'cpu'`, `'cuda'`, `'rocm'`" in t for t in texts), texts
    (sol,) = [s for s in lower.solutions if "`backend` as one of" in s.text]
    assert sorted(e.line for e in sol.evidence) == [13, 15]
    platform = pages["unknown platform {platform}"]
    assert platform is not None
    assert any("`Platform.CPU`, `Platform.GPU`" in s.text for s in platform.solutions), platform.solutions
