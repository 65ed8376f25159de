"""A validate sample makes of the arguments what the raising function makes of them before its check (rating 12,
bce3: ``Mesh`` turns a list ``devices`` into an array before ``devices.ndim != len(axis_names)``; the sample that
tested the raw list failed with AttributeError on the very input a user passes, so none was proven).

The samples run against a tiny package this test writes (errdex's own test code), in a plain subprocess."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from errdex.extract import extract_tree
from errdex.model import ErrorSite, ExtractResult, Snapshot
from errdex.prove.checks import validate_clean, validate_script, validate_stopped
from errdex.prove.rebuilt import function_key, rebuilt, resolved_calls
from errdex.prove.samples import _condition_names
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

LIB = '''\
import collections as co


def grid(cells, names, kind=None):
    """A grid of cells, one row of cells per name."""
    if not isinstance(cells, co.deque):
        cells = co.deque(cells)
    if isinstance(names, str):
        names = (names,)
    names = tuple(names)
    if any(n is None for n in names):
        raise ValueError(f"grid names cannot be None: {names}")
    if len(cells) != len(names):
        raise ValueError(f"grid needs one row per name, got {len(cells)} rows and {len(names)} names")
    return cells, names


def walked(items, limit):
    for item in items:
        limit = limit - 1
        if limit < 0:
            raise ValueError("walked too far")
    return limit


def helped(value):
    value = _clean(value)
    if value < 0:
        raise ValueError(f"helped value below zero: {value}")
    return value


def _clean(value):
    return abs(value) - 10
'''


def _extracted(tmp: Path) -> ExtractResult:
    pkg = tmp / "gridlib"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text(LIB)
    return extract_tree(SourceTree(Snapshot(repo="acme/gridlib"), pkg, walk_python_files(pkg)), jobs=1)


def _site(res: ExtractResult, text: str) -> ErrorSite:
    return next(s for s in res.sites if text in s.template.render())


def _sample(code: str, callee: str, site: ErrorSite, res: ExtractResult) -> str:
    m = ast.parse(code)
    idx = next(i for i, n in enumerate(ast.walk(m)) if isinstance(n, ast.Call) and ast.unparse(n.func) == callee)
    calls = resolved_calls(res.calls, [function_key(site)]).get(function_key(site), ())
    return validate_script(m, len(m.body) - 1, idx, site, rebuilt(site, _condition_names(site), calls))


def _run(tmp: Path, code: str) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp, timeout=60, check=False)
    return p.returncode, p.stdout, p.stderr


def test_the_check_first_makes_of_the_arguments_what_the_call_makes_of_them(tmp_path: Path) -> None:
    res = _extracted(tmp_path)
    site = _site(res, "one row per name")
    calls = resolved_calls(res.calls, [function_key(site)]).get(function_key(site), ())
    rb = rebuilt(site, _condition_names(site), calls)
    assert rb is not None
    # the module alias resolved through the call graph, the other check (``names cannot be None``) passed over
    assert rb.imports == ("import collections",)
    assert rb.lines == ("if not isinstance(cells, collections.deque):", "    cells = collections.deque(cells)",
                        "if isinstance(names, str):", "    names = (names,)", "names = tuple(names)")
    bad = _sample("import gridlib\nprint(gridlib.grid([1], 'ab'))\n", "gridlib.grid", site, res)
    assert "import collections" in bad and "    names = tuple(names)\n    if len(cells) != len(names):" in bad
    rc, out, err = _run(tmp_path, bad)
    # a str is one name, as the call makes it: one row, one name, no problem (the raw ``len('ab')`` would say 2)
    assert validate_clean(rc, out) and "Traceback" not in err, (out, err)
    rc, out, err = _run(tmp_path, _sample("import gridlib\nprint(gridlib.grid(iter([1]), ('a', 'b')))\n",
                                          "gridlib.grid", site, res))
    # an iterator has no ``len``: only the rebuilt deque does; the check stops it as the library would
    assert validate_stopped(rc, out, err) and out.startswith("not calling gridlib.grid: grid needs one row"), (out, err)


def test_nothing_is_replayed_that_the_sample_cannot_write(tmp_path: Path) -> None:
    res = _extracted(tmp_path)
    # the guard inside a loop: no straight line to replay
    site = _site(res, "walked too far")
    assert rebuilt(site, _condition_names(site), ()) is None
    # a private helper of the library rebuilds the value: no call the sample can make
    site = _site(res, "below zero")
    calls = resolved_calls(res.calls, [function_key(site)]).get(function_key(site), ())
    assert rebuilt(site, _condition_names(site), calls) is None
    # without the call graph the alias cannot be resolved: nothing replayed, the sample as before
    site = _site(res, "one row per name")
    assert rebuilt(site, _condition_names(site), ()) is None
    m = ast.parse("import gridlib\nprint(gridlib.grid([1], 'ab'))\n")
    idx = next(i for i, n in enumerate(ast.walk(m)) if isinstance(n, ast.Call) and ast.unparse(n.func) == "gridlib.grid")
    assert "collections" not in validate_script(m, 1, idx, site)
