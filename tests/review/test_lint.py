"""``errdex lint``: the rules on mylib 2.0, their codes, exit codes, JSON and SARIF 2.1.0."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from reviewkit import REPO, Lib, errdex

from errdex.catalog import open_catalog
from errdex.review.lint import choose, lint_sites
from errdex.review.rules import RULES

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = {  # mylib 2.0 (tests/fixtures/review_lib/v2)
    ("EDX001", "mylib/core.py", 13),  # "invalid input" in parse, also in check
    ("EDX002", "mylib/core.py", 13),
    ("EDX002", "mylib/core.py", 23),
    ("EDX002", "mylib/io.py", 9),  # "path must not be empty"
    ("EDX003", "mylib/core.py", 15),  # raise Exception("tabs are not allowed")
    ("EDX004", "mylib/core.py", 16),  # warnings.warn("parse() is deprecated, ...")
}


def _json(lib: Lib, *args: str) -> tuple[int, dict[str, Any]]:
    proc = errdex("lint", *args, "--db", lib.db, env=lib.env)
    return proc.returncode, json.loads(proc.stdout)


def test_the_rules_find_each_case_once_and_nothing_else(mylib: Lib) -> None:
    code, doc = _json(mylib, "--repo", REPO, "--json")
    assert code == 1
    assert {(f["code"], f["path"], f["line"]) for f in doc["findings"]} == EXPECTED
    assert doc["counts"] == {"EDX001": 1, "EDX002": 3, "EDX003": 1, "EDX004": 1}
    (dup,) = [f for f in doc["findings"] if f["code"] == "EDX001"]
    assert [(r["path"], r["line"], r["qualname"]) for r in dup["related"]] == [("mylib/core.py", 23, "check")]
    assert doc["skipped"] == [{"code": "EDX005", "reason": doc["skipped"][0]["reason"]}]
    assert doc["skipped"][0]["reason"] == f"no observations for {REPO}@v2.0: run `errdex observe` on it first"
    assert doc["snapshot"] == f"{REPO}@v2.0" and doc["sites"] == 9


def test_an_older_version_by_name(mylib: Lib) -> None:
    _, doc = _json(mylib, "--repo", f"{REPO}@v1.0", "--json", "--select", "EDX002")
    assert doc["snapshot"] == f"{REPO}@v1.0" and doc["rules"] == ["EDX002"]
    assert {f["line"] for f in doc["findings"]} == {13, 22, 32}


def test_select_and_ignore_by_code_prefix_and_name(mylib: Lib) -> None:
    _, doc = _json(mylib, "--json", "--select", "EDX00", "--ignore", "EDX002,warning-without-category")
    assert doc["rules"] == ["EDX001", "EDX003", "EDX005"]
    assert {f["code"] for f in doc["findings"]} == {"EDX001", "EDX003"}
    proc = errdex("lint", "--db", mylib.db, "--select", "EDX003", "--ignore", "EDX003", env=mylib.env)
    assert proc.returncode == 2 and "leave no rule" in proc.stderr
    proc = errdex("lint", "--db", mylib.db, "--select", "E999", env=mylib.env)
    assert proc.returncode == 2 and "unknown rule 'E999'" in proc.stderr


def test_clean_is_exit_0(mylib: Lib) -> None:
    proc = errdex("lint", "--db", mylib.db, "--select", "EDX001", "--repo", f"{REPO}@v1.0", env=mylib.env)
    # v1.0 also raises "invalid input" twice
    assert proc.returncode == 1
    proc = errdex("lint", "--db", mylib.db, "--select", "EDX005", env=mylib.env)
    assert proc.returncode == 0, proc.stdout  # skipped (no observations): nothing found
    assert "EDX005 skipped:" in proc.stdout


def test_text_output_is_one_line_per_finding(mylib: Lib) -> None:
    proc = errdex("lint", "--db", mylib.db, env=mylib.env)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("mylib/core.py:13: EDX001 the message 'invalid input' is raised at 2 places")
    assert f"{REPO} v2.0: 6 finding(s) over 9 sites" in lines


def test_a_source_is_linted_without_the_catalog(mylib: Lib, tmp_path: Path) -> None:
    proc = errdex("lint", str(mylib.root / "v1"), "--repo", "acme/mylib", "--json", "--db",
                  str(tmp_path / "none.sqlite"), env=mylib.env)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["counts"]["EDX003"] == 1 and doc["counts"]["EDX004"] == 1
    assert not (tmp_path / "none.sqlite").exists()  # nothing was stored


class _Observed:
    """The observe stage's catalog methods as EDX005 reads them (``rules.Observations``)."""

    def __init__(self, ids: set[str] | None) -> None:
        self.ids = ids

    def observe_run(self, snapshot_key: str) -> object | None:
        return None if self.ids is None else {"snapshot": snapshot_key}

    def observed_site_ids(self, snapshot_key: str) -> frozenset[str]:
        return frozenset(self.ids or ())


def test_untested_errors_come_from_observations(mylib: Lib) -> None:
    cat = open_catalog(mylib.db)
    try:
        snap = cat.snapshots(REPO)[0]
        sites = list(cat.sites(snapshot_key=snap.key))
    finally:
        cat.close()
    errors = [s for s in sites if s.kind == "error"]
    tested = {errors[0].error_id, errors[1].error_id}
    report = lint_sites(snap, sites, choose("EDX005"), _Observed(tested))
    assert report.skipped == () and report.counts == {"EDX005": len(errors) - 2}
    assert {f.error_id for f in report.findings} == {s.error_id for s in errors} - tested
    report = lint_sites(snap, sites, choose("EDX005"), _Observed(None))
    assert report.findings == () and report.counts == {}
    assert report.skipped[0].reason == f"no observations for {REPO}@v2.0: run `errdex observe` on it first"


def _check_sarif(log: dict[str, Any]) -> None:
    """The SARIF 2.1.0 structure that code-scanning views require (the spec's required properties)."""
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    assert isinstance(log["runs"], list) and len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "errdex"
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids))
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("none", "note", "warning", "error")
    for res in run["results"]:
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        assert res["level"] in ("none", "note", "warning", "error") and res["message"]["text"]
        for loc in res["locations"] + res.get("relatedLocations", []):
            phys = loc["physicalLocation"]
            uri = phys["artifactLocation"]["uri"]
            assert not uri.startswith("/") and ".." not in uri.split("/")
            region = phys["region"]
            assert 1 <= region["startLine"] <= region["endLine"]
        for rel in res.get("relatedLocations", []):
            assert isinstance(rel["id"], int) and rel["id"] >= 0
        assert all(isinstance(v, str) for v in res["partialFingerprints"].values())


def test_sarif_is_valid_2_1_0(mylib: Lib) -> None:
    proc = errdex("lint", "--db", mylib.db, "--format", "sarif", env=mylib.env)
    assert proc.returncode == 1
    log = json.loads(proc.stdout)
    _check_sarif(log)
    results = log["runs"][0]["results"]
    assert {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results} == EXPECTED
    assert [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]] == ["EDX001", "EDX002", "EDX003", "EDX004", "EDX005"]


def test_every_rule_has_its_doc_section() -> None:
    doc = (ROOT / "docs" / "lint.md").read_text()
    for rule in RULES:
        assert f'<a id="{rule.code.lower()}"></a>' in doc and f"## {rule.code} {rule.name}" in doc


def test_the_pre_commit_hook_runs_errdex_lint() -> None:
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "- id: errdex-lint" in hooks and "entry: errdex lint ." in hooks and "pass_filenames: false" in hooks


@pytest.mark.parametrize("fmt", ["yaml"])
def test_unknown_format(mylib: Lib, fmt: str) -> None:
    proc = errdex("lint", "--db", mylib.db, "--format", fmt, env=mylib.env)
    assert proc.returncode == 2 and "--format must be text, json or sarif" in proc.stderr


def test_untested_errors_from_the_catalogs_observations(mylib: Lib, tmp_path: Path) -> None:
    """EDX005 on a catalog where `errdex observe` stored a run: what no test reached is reported."""
    import shutil

    from errdex.model import Observation, ObserveRun

    db = str(tmp_path / "observed.sqlite")
    shutil.copyfile(mylib.db, db)
    cat = open_catalog(db)
    try:
        snap = cat.snapshots(REPO)[0]
        errors = [s for s in cat.sites(snapshot_key=snap.key) if s.kind == "error"]
        reached = errors[0]
        cat.replace_observations(ObserveRun(snapshot=snap.key, tests=1, events=1, sites=1), [Observation(
            snapshot=snap.key, kind="site", path=reached.path, line=reached.line, exception="ValueError",
            message="x", test="tests/test_x.py::test_x", error_id=reached.error_id)])
    finally:
        cat.close()
    proc = errdex("lint", "--db", db, "--select", "EDX005", "--json", env=mylib.env)
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["skipped"] == [] and doc["counts"] == {"EDX005": len(errors) - 1}
    assert {f["error_id"] for f in doc["findings"]} == {s.error_id for s in errors[1:]}
