"""Which finds more raising inputs for sites no test reaches: errdex's search, CrossHair, Pynguin.

    ERRDEX_HOME=... python bench/search_compare.py --repo pallets/click --package click --sample 20 --budget 10 \\
        --crosshair TOOLS/ch/bin --pynguin TOOLS/pyn/bin [--db PATH]

The catalog must hold the snapshot and its observations (``errdex index`` + ``errdex observe``).  The
sample: the first ``--sample`` searchable sites no test reached that have a public entry, by error id.
Each tool gets the same time per site (``--budget`` seconds) and runs inside ``errdex.sandbox.run``
(no network, scratch HOME):

- errdex: ``search_script.py`` in the proof environment plus Hypothesis, from the public entries;
- CrossHair (``crosshair cover TARGET --per_condition_timeout BUDGET``) on the raising function itself,
  in a virtual environment with crosshair-tool and the same library version (``--crosshair``: its bin);
- Pynguin (``PYNGUIN_DANGER_AWARE=1 pynguin --module-name M --maximum-search-time BUDGET*k``, k the
  sample's sites in module M) on a copy of the package from its environment (``--pynguin``: its bin;
  Pynguin runs on Python 3.10).

Whatever each tool produced (errdex's found calls, CrossHair's example calls, Pynguin's test module) is
then run by ``bench/raise_probe.py`` in that tool's own environment: a site counts when the statement at
its lines raised.  Prints a row per site and the totals; ``--json`` for the document.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from errdex.analyze.public_path import site_function
from errdex.catalog import open_catalog
from errdex.commands.prove_search import unreached
from errdex.model import ErrorSite
from errdex.prove.search import HYPOTHESIS, SearchTarget, run_search, targets_for
from errdex.sandbox import EnvSpec, Limits, RunRequest, ensure_environment, run

PROBE = Path(__file__).with_name("raise_probe.py")


def probe(python: str, sites: list[ErrorSite], mode_args: list[str], scratch: Path, env: dict[str, str]) -> set[str]:
    spec, out = scratch / "sites.json", scratch / "probe-out.json"
    spec.write_text(json.dumps([{"error_id": s.error_id, "path": s.path, "line": s.line,
                                 "end_line": max(s.end_line, s.line)} for s in sites]))
    out.unlink(missing_ok=True)
    run(RunRequest(argv=(python, str(PROBE), str(spec), str(out), *mode_args), limits=Limits(timeout_s=600),
                   env=env, scratch=scratch / "run-probe", cwd=scratch))
    return set(json.loads(out.read_text())["hit"]) if out.is_file() else set()


def run_errdex(package: str, version: str, sample: list[SearchTarget], sites: list[ErrorSite], budget: float,
               scratch: Path) -> tuple[set[str], float]:
    env = ensure_environment(EnvSpec(name=package, version=version, extra_requirements=(HYPOTHESIS,)))
    start = time.monotonic()
    found = run_search(env, package, sample, budget, 0, scratch)
    wall = time.monotonic() - start
    befores = [f.before for f in found.values() if f.before]
    (scratch / "befores.json").write_text(json.dumps(befores))
    return probe(str(env.python), sites, ["scripts", str(scratch / "befores.json")], scratch, {}), wall


def run_crosshair(bin_dir: Path, sites: list[ErrorSite], budget: float, scratch: Path) -> tuple[set[str], float]:
    hit: set[str] = set()
    wall = 0.0
    for s in sites:
        target = site_function(s)
        work = scratch / f"ch-{s.error_id}"
        work.mkdir(parents=True, exist_ok=True)
        start = time.monotonic()
        res = run(RunRequest(argv=(str(bin_dir / "crosshair"), "cover", target, "--per_condition_timeout",
                                   str(budget)), limits=Limits(timeout_s=budget * 3 + 30), path=(str(bin_dir),),
                             scratch=work / "run"))
        wall += time.monotonic() - start
        (work / "calls.txt").write_text(res.stdout)
        if res.stdout.strip():
            qual = s.qualname.split(".<locals>.", 1)[0]
            hit |= probe(str(bin_dir / "python"), [s], ["exprs", s.module, str(work / "calls.txt"), qual], work, {})
    return hit, wall


def run_pynguin(bin_dir: Path, package: str, sites: list[ErrorSite], budget: float,
                scratch: Path) -> tuple[set[str], float]:
    py = bin_dir / "python"
    import subprocess

    site_packages = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip()
    proj = scratch / "pyn-project"
    shutil.copytree(Path(site_packages) / package, proj / package, dirs_exist_ok=True)
    by_module: dict[str, list[ErrorSite]] = {}
    for s in sites:
        by_module.setdefault(s.module, []).append(s)
    hit: set[str] = set()
    wall = 0.0
    for module, group in by_module.items():
        out = scratch / f"pyn-{module}"
        start = time.monotonic()
        run(RunRequest(argv=(str(bin_dir / "pynguin"), "--project-path", str(proj), "--module-name", module,
                             "--output-path", str(out), "--maximum-search-time", str(int(budget * len(group))),
                             "--seed", "0"),
                       limits=Limits(timeout_s=budget * len(group) * 3 + 120, memory_bytes=8 * 1024**3),
                       env={"PYNGUIN_DANGER_AWARE": "1"}, path=(str(bin_dir),), scratch=out / "run"))
        wall += time.monotonic() - start
        for test in sorted(out.glob("test_*.py")):
            hit |= probe(str(py), group, ["pytest", str(test)], out, {"PYTHONPATH": str(proj)})
    return hit, wall


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True)
    ap.add_argument("--package", required=True)
    ap.add_argument("--db")
    ap.add_argument("--sample", type=int, default=20)
    ap.add_argument("--budget", type=float, default=10.0)
    ap.add_argument("--crosshair", type=Path)
    ap.add_argument("--pynguin", type=Path)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cat = open_catalog(a.db)
    snap = cat.snapshots(a.repo)[-1]
    ids = unreached(cat, snap.key, [])
    targets = sorted((t for t in targets_for(cat, snap.key, ids) if t.entries), key=lambda t: t.error_id)[:a.sample]
    by_id = {s.error_id: s for s in cat.sites(snap.key)}
    proven = {t.error_id for t in targets if (an := cat.get_analysis(t.error_id, snap.key)) is not None
              and an.example_fix.proof is not None and an.example_fix.proof.candidate == "search"}
    cat.close()
    sites = [by_id[t.error_id] for t in targets]
    results: dict[str, tuple[set[str], float]] = {}
    with tempfile.TemporaryDirectory(prefix="errdex-compare-") as tmp:
        root = Path(tmp)
        (root / "errdex").mkdir()
        results["errdex"] = run_errdex(a.package, snap.version or snap.ref or "", targets, sites, a.budget,
                                       root / "errdex")
        if a.crosshair:
            results["crosshair"] = run_crosshair(a.crosshair, sites, a.budget, root)
        if a.pynguin:
            results["pynguin"] = run_pynguin(a.pynguin, a.package, sites, a.budget, root)
    doc = {"snapshot": snap.key, "sample": len(sites), "budget_s": a.budget,
           "tools": {k: {"sites_raised": len(v[0]), "wall_s": round(v[1], 1)} for k, v in results.items()},
           "errdex_proven": len(proven),
           "sites": [{"error_id": s.error_id, "where": f"{s.path}:{s.line}", "function": site_function(s),
                      **{k: s.error_id in v[0] for k, v in results.items()}, "errdex_proven": s.error_id in proven}
                     for s in sites]}
    if a.json:
        print(json.dumps(doc, indent=1))
        return 0
    print(f"{snap.key}: {len(sites)} sites no test reaches, {a.budget:g} s per site and tool")
    names = list(results)
    print("site".ljust(44) + "".join(n.ljust(11) for n in names))
    for row in doc["sites"]:
        print(f"{row['where']:<44}" + "".join(("yes" if row[n] else "-").ljust(11) for n in names))
    for n, (hit, wall) in results.items():
        print(f"{n}: {len(hit)} of {len(sites)} sites raised, {wall:.1f} s")
    print(f"errdex proven (stored by an earlier prove --search): {len(proven)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
