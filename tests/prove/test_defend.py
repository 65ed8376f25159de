"""Defensive samples that do something (``prove/defend.py``): the try sample that recovers retries the call
with the after's value when this error is raised, and lets another error of the same call through; the
static check sample, run before the call, stops the bad input and lets the good one call through.  Run on a
tiny package this test writes, in a plain subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from errdex.extract import extract_tree
from errdex.model import ErrorSite, Snapshot
from errdex.prove.checks import template_regex, try_clean, try_handled, validate_clean, validate_stopped
from errdex.prove.defend import checked_script, recover_script
from errdex.prove.mistake import input_driven
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

LIB = '''\
def parse(argv, strict=True):
    if argv and argv[0] == "--boom":
        raise LookupError("another problem")
    for a in argv:
        if a.startswith("--") and "=" not in a:
            raise LookupError(f"Option {a} requires an argument.")
    return dict(a[2:].split("=", 1) for a in argv)


def make(count=None, mode="a"):
    if count is not None and count < 0:
        raise ValueError(f"count must be >= 0, not {count}")
    return (count, mode)
'''

CHECK = '''\
def make_would_raise(count):
    """True when `dinylib.make` raises ValueError here with these arguments: its own check, as code to write before the call."""
    return count is not None and count < 0
'''


def _site(tmp: Path, text: str) -> ErrorSite:
    pkg = tmp / "dinylib"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text(LIB)
    sites = extract_tree(SourceTree(Snapshot(repo="acme/dinylib"), pkg, walk_python_files(pkg)), jobs=1).sites
    return next(s for s in sites if text in s.template.render())


def _run(tmp: Path, code: str) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp, timeout=60, check=False)
    return p.returncode, p.stdout, p.stderr


def test_the_try_sample_retries_with_the_value_that_worked(tmp_path: Path) -> None:
    site = _site(tmp_path, "requires an argument")
    pattern = template_regex(site)
    before = "import dinylib\nargs = ['--s']\nresult = dinylib.parse(args)\n"
    after = "import dinylib\nargs = ['--s=42']\nresult = dinylib.parse(args)\n"
    # the command line kept in a variable the raising call reads is the call's data: the error is input-driven
    assert input_driven(before, after, "builtins.LookupError")
    bad = recover_script(before, after, "builtins.LookupError", pattern)
    assert "    result = dinylib.parse(args)" in bad and "    result = dinylib.parse(['--s=42'])" in bad
    assert "raise  # another error" in bad and "return None" not in bad and "add_note" not in bad
    rc, out, err = _run(tmp_path, bad)
    # the except branch ran (the refusal logged) and the retry went through
    assert try_handled(rc, out, err) and out.strip() == "{'s': '42'}", (rc, out, err)
    rc, out, err = _run(tmp_path, recover_script(after, after, "builtins.LookupError", pattern))
    assert try_clean(rc, out, err) and not try_handled(rc, out, err)
    # another error of the same call is not this one: it propagates
    other = recover_script(before.replace("'--s'", "'--boom'"), after, "builtins.LookupError", pattern)
    rc, out, err = _run(tmp_path, other)
    assert rc != 0 and "another problem" in err


def test_no_recovering_try_when_the_fix_is_no_value_change() -> None:
    before = "import dinylib\nresult = dinylib.parse(['--s'], strict=True)\n"
    assert recover_script(before, "import dinylib\nresult = dinylib.parse([])\n", "builtins.LookupError", "^x$")
    assert not recover_script(before, "import dinylib\nx = 1\nresult = dinylib.parse(['--s'])\n",
                              "builtins.LookupError", "^x$")  # a statement added: not the same script


def test_the_static_check_run_before_the_call_stops_the_bad_input_only(tmp_path: Path) -> None:
    _site(tmp_path, "count must be")
    bad = checked_script("import dinylib\nprint(dinylib.make(count=-1, mode='b'))\n", CHECK)
    good = checked_script("import dinylib\nprint(dinylib.make(count=2, mode='b'))\n", CHECK)
    assert "bound = inspect.signature(dinylib.make).bind(count=-1, mode='b')" in bad
    assert "if make_would_raise(bound.arguments['count']):" in bad
    rc, out, err = _run(tmp_path, bad)
    assert validate_stopped(rc, out, err) and "would raise ValueError" in out, (rc, out, err)
    rc, out, _ = _run(tmp_path, good)
    assert validate_clean(rc, out) and out.strip() == "(2, 'b')"
    # a check that names another call gives no sample
    assert checked_script("import dinylib\ndinylib.parse(['--s'])\n", CHECK) == ""
