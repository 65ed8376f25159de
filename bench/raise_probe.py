"""Which of a set of raise sites a piece of code makes raise (stdlib only; run by the environment's Python
inside the sandbox, by ``bench/search_compare.py``).

    python raise_probe.py SITES.json OUT.json scripts FILE.json     # a JSON list of scripts, each exec'd
    python raise_probe.py SITES.json OUT.json exprs MODULE FILE [QUALNAME]  # an expression a line, MODULE's names
    python raise_probe.py SITES.json OUT.json pytest FILE.py        # a generated test module, under pytest

A site counts when an exception is raised by the statement at its lines (the frame's file ends with the
site's package-relative path), whatever catches it afterwards (a ``pytest.raises`` block included): the
same "a raising input for this site" for every tool.  SITES.json: [{error_id, path, line, end_line}].
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import signal
import sys
import threading
from pathlib import Path
from typing import Any


def main() -> None:
    sites = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    out_path, mode = sys.argv[2], sys.argv[3]
    by_file: dict[str, list[tuple[set[int], str]]] = {}
    for s in sites:
        by_file.setdefault("/" + s["path"], []).append((set(range(s["line"], s["end_line"] + 1)), s["error_id"]))
    hit: dict[str, int] = {}

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "exception":
            for suffix, group in by_file.items():
                if frame.f_code.co_filename.endswith(suffix):
                    for lines, eid in group:
                        if frame.f_lineno in lines:
                            hit[eid] = hit.get(eid, 0) + 1
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        name = frame.f_code.co_filename
        return local if any(name.endswith(s) for s in by_file) else None

    def alarm(signum: int, frame: Any) -> None:
        raise TimeoutError("probe: one example ran too long")

    signal.signal(signal.SIGALRM, alarm)
    sys.settrace(tracer)
    threading.settrace(tracer)
    ran = 0
    try:
        if mode == "pytest":
            import pytest

            pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[4]])
            ran = 1
        else:
            if mode == "scripts":
                scripts = json.loads(Path(sys.argv[4]).read_text(encoding="utf-8"))
                names: dict[str, Any] = {}
            else:
                module = importlib.import_module(sys.argv[4])
                names = dict(vars(module))
                if len(sys.argv) > 6 and "." in sys.argv[6]:  # CrossHair names a method by itself: bind it
                    owner: Any = module
                    for part in sys.argv[6].split(".")[:-1]:
                        owner = getattr(owner, part)
                    names[sys.argv[6].rsplit(".", 1)[1]] = getattr(owner, sys.argv[6].rsplit(".", 1)[1])
                scripts = [ln for ln in Path(sys.argv[5]).read_text(encoding="utf-8").splitlines() if ln.strip()]
            for src in scripts:
                ran += 1
                signal.setitimer(signal.ITIMER_REAL, 2.0)
                try:
                    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                        exec(compile(src, "example.py", "exec"), dict(names))
                except BaseException:
                    pass
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"hit": sorted(hit), "ran": ran}, f)


if __name__ == "__main__":
    main()
