"""Is errdex's recorder complete?  Compare it with an independent one on the same test files.

    ERRDEX_HOME=... python bench/observe_check.py pypi:click==8.1.8 [--jobs N]

Run ``errdex observe SOURCE`` first (the catalog must hold its observations).
This runs the same test files again in the same sandbox with
``observe_check_plugin.py`` (plain sys.settrace, 'exception' events at a
``raise`` instruction) instead of errdex's recorder, maps the lines it saw to
the indexed raise sites by span alone, and prints how many of those sites
errdex observed (the issue asks for at least 90%), listing the ones it missed.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
from pathlib import Path

from errdex.catalog import open_catalog
from errdex.commands.observe import _index_if_needed
from errdex.observe.mapping import SiteIndex
from errdex.observe.pipeline import ObserveOptions, prepare
from errdex.observe.run import _slug, run_plan

HERE = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--tests", action="append", default=[])
    args = ap.parse_args()
    catalog = open_catalog()
    snapshot, files = _index_if_needed(catalog, args.source, json_out=True)
    prepared = prepare(catalog, args.source, snapshot, files,
                       ObserveOptions(jobs=args.jobs, tests=tuple(Path(t) for t in args.tests)))
    plan = prepared.plan
    ws = plan.workspace.parent / f"{plan.workspace.name}-check"
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(plan.project, ws / "project", symlinks=True)
    (ws / "check").mkdir()
    shutil.copyfile(HERE / "observe_check_plugin.py", ws / "check" / "observe_check_plugin.py")
    out = ws / "seen.txt"
    base = plan.env.site_packages[0]
    # The runner passes its env to the child; the checker reads its settings from these.
    import errdex.observe.run as runmod

    original = runmod.run

    def run_with_check(request):  # type: ignore[no-untyped-def]
        env = {**request.env, "CHECK_OUT": str(out), "CHECK_BASE": str(base), "CHECK_TOPS": ",".join(plan.roots),
               "PYTHONPATH": request.env["PYTHONPATH"] + ":" + str(ws / "check")}
        return original(dataclasses.replace(request, env=env))

    runmod.run = run_with_check
    p = dataclasses.replace(plan, workspace=ws, project=ws / "project", record=False,
                            extra_args=("-p", "observe_check_plugin"))
    run_plan(p, resume=False)
    index = SiteIndex(catalog.sites(snapshot.key))
    reached: dict[str, str] = {}
    for line in out.read_text().splitlines() if out.exists() else []:
        path, _, num = line.rpartition(":")
        for site in index.at(path, int(num)):
            if site.kind == "error":
                reached[site.error_id] = f"{site.path}:{site.line}"
    observed = catalog.observed_site_ids(snapshot.key)
    hit = [e for e in reached if e in observed]
    share = len(hit) / len(reached) if reached else 1.0
    print(f"independent recorder reached {len(reached)} raise sites; errdex observed {len(hit)} of them "
          f"({share:.1%}); errdex observed {len(observed)} sites in all")
    for eid, where in sorted(reached.items(), key=lambda x: x[1]):
        if eid not in observed:
            print(f"  missed: {where} ({eid})")
    _ = _slug
    catalog.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
