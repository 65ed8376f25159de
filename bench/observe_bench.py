"""Cost of observing: the same test files in the same sandbox, with the recorder and without.

    ERRDEX_HOME=/tmp/errdex-bench python bench/observe_bench.py [SOURCE] [--jobs N]

SOURCE defaults to pypi:click==8.1.8 (its sdist's tests).  Both runs are
made here, one after the other, each fresh (no resumed files): the plain run
is ``python -m pytest FILE`` per file through the same limited runner, the
observed run adds ``-p errdex_recorder``.  Prints both wall times and the
ratio (the issue asks for under 3x on click).
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import time

from errdex.catalog import open_catalog
from errdex.commands.observe import _index_if_needed
from errdex.observe.pipeline import ObserveOptions, prepare
from errdex.observe.run import run_plan


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("source", nargs="?", default="pypi:click==8.1.8")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    catalog = open_catalog()
    snapshot, files = _index_if_needed(catalog, args.source, json_out=True)
    options = ObserveOptions(jobs=args.jobs, timeout_s=600)
    prepared = prepare(catalog, args.source, snapshot, files, options)
    plan = prepared.plan
    timings = {}
    for label, record in (("plain", False), ("observed", True), ("plain-again", False)):
        ws = plan.workspace.parent / f"{plan.workspace.name}-bench-{label}"
        shutil.rmtree(ws, ignore_errors=True)
        shutil.copytree(plan.project, ws / "project", symlinks=True)
        p = dataclasses.replace(plan, workspace=ws, project=ws / "project", record=record)
        start = time.monotonic()
        out = run_plan(p, resume=False)
        timings[label] = time.monotonic() - start
        events = sum(e.count for e in out.events)
        print(f"{label:12s} {timings[label]:7.1f}s  files={len(out.outcomes)} tests={len(out.tests) or '-'} "
              f"events={events}", flush=True)
    baseline = (timings["plain"] + timings["plain-again"]) / 2
    print(f"observed / plain = {timings['observed'] / baseline:.2f}x "
          f"({prepared.dist.name} {prepared.dist.version}, {len(plan.files)} test files, jobs={args.jobs})")
    catalog.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
