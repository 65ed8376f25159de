"""bench/match_eval.py's ground truth: an event raised in a file of the indexed wheel that the capture did
not count as the library (``CAPTURE_PACKAGE`` names one module, ``jsonpatch``; the wheel also ships
``jsonpatch_cli.py``) was raised at that file's site, not outside the library.  Bundled test folders stay
test code, and a dependency's file (not in the catalog) stays outside."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
try:
    from match_eval import truth
finally:
    sys.path.remove(str(BENCH))

SITE = "/venv/lib/python3.13/site-packages/"


def _idx() -> SimpleNamespace:
    # the parts of a MatchIndex that ``truth`` reads: where each site sits, its id and templates
    return SimpleNamespace(locations={"jsonpatch_cli.py": [(44, 44, 0)], "jsonpatch.py": [(10, 10, 1)],
                                      "jsonpatch/tests/helpers.py": [(3, 3, 2)]},
                           sites=[("cli-site",), ("lib-site",), ("test-site",)],
                           templates=[(0, (), "{name}: {ex}")], site_templates=[(0,), (), ()])


def _event(path: str, line: int, lib: bool = False) -> dict[str, object]:
    frame = [path, line, "_load"]
    return {"traceback": "Traceback (most recent call last):\nValueError: x\n", "frames": [frame],
            "innermost": frame, "innermost_lib": frame if lib else None}


def test_a_module_of_the_wheel_outside_the_captured_package_is_a_site() -> None:
    cls, ids, _ = truth(_idx(), _event(SITE + "jsonpatch_cli.py", 44))  # type: ignore[arg-type]
    assert (cls, ids) == ("site", {"cli-site"})


def test_the_captured_library_is_unchanged() -> None:
    cls, ids, _ = truth(_idx(), _event("jsonpatch.py", 10, lib=True))  # type: ignore[arg-type]
    assert (cls, ids) == ("site", {"lib-site"})


def test_bundled_tests_and_dependencies_stay_outside() -> None:
    assert truth(_idx(), _event(SITE + "jsonpatch/tests/helpers.py", 3))[0] == "outside"  # type: ignore[arg-type]
    assert truth(_idx(), _event(SITE + "jsonpointer.py", 175))[0] == "outside"  # type: ignore[arg-type]
