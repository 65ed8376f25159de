"""The try and validate samples are functions a user would keep, and they do what they say when run:
the try sample returns the caller's fallback for exactly this error and lets another error of the
same call propagate; the validate sample names the problem and does not call the library.

The samples run against a tiny module this test writes (errdex's own test code, not an indexed
library's), in a plain subprocess."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from errdex.extract import extract_tree
from errdex.model import ErrorSite, Snapshot
from errdex.prove.checks import (
    FALLBACK,
    REFUSED,
    template_regex,
    try_clean,
    try_handled,
    try_script,
    type_probe,
    typed_fallback,
    validate_clean,
    validate_script,
    validate_stopped,
)
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

LIB = '''\
class Range:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def convert(self, value):
        if value == "other":
            raise RuntimeError("another problem")
        if float(value) > self.hi:
            raise RuntimeError(f"value {value} is above {self.hi}")
        return float(value)


def make(count=None, mode="a"):
    if count is not None and count < 0:
        raise ValueError(f"count must be >= 0, not {count}")
    return (count, mode)
'''


def _site(tmp: Path, text: str) -> ErrorSite:
    pkg = tmp / "tinylib"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text(LIB)
    sites = extract_tree(SourceTree(Snapshot(repo="acme/tinylib"), pkg, walk_python_files(pkg)), jobs=1).sites
    return next(s for s in sites if text in s.template.render())


def _run(tmp: Path, code: str) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp, timeout=60,
                       check=False)
    return p.returncode, p.stdout, p.stderr


def test_try_sample_is_a_function_that_returns_the_fallback_and_lets_other_errors_through(tmp_path: Path) -> None:
    site = _site(tmp_path, "is above")
    script = "import tinylib\nr = tinylib.Range(0, 1)\nr.convert({value!r})\n"
    text = site.template.render()

    def sample(value: str) -> str:
        return try_script(ast.parse(script.format(value=value)), 2, "builtins.RuntimeError",
                          template_regex(site), text)

    bad = sample("1.5")
    # the call's own arguments come from the function's caller: reusable for any value
    assert "def convert_or_fallback(r, *args, fallback, **kwargs):" in bad
    assert "        return r.convert(*args, **kwargs)" in bad and "        return fallback" in bad
    assert "SystemExit" not in bad and "return None" not in bad and "print(f\"rejected" not in bad
    assert f"RuntimeError: {text}" in bad  # the docstring says which error it handles
    assert bad.rstrip().endswith(f"print(convert_or_fallback(r, '1.5', fallback={FALLBACK!r}))")
    rc, out, err = _run(tmp_path, bad)
    assert try_handled(rc, out, err) and not try_clean(rc, out), (rc, out, err)
    rc, out, err = _run(tmp_path, sample("0.5"))
    assert try_clean(rc, out) and out.strip() == "0.5" and not try_handled(rc, out, err)
    # another error of the same call is not this one: it propagates, the fallback is not returned
    rc, out, err = _run(tmp_path, sample("other"))
    assert rc != 0 and "RuntimeError: another problem" in err and not try_handled(rc, out, err)


def test_try_sample_around_a_definition_returns_what_it_defines(tmp_path: Path) -> None:
    site = _site(tmp_path, "count must be")
    script = ("import tinylib\n\nclass Holder:\n    value = tinylib.make(count={n})\n")
    bad = try_script(ast.parse(script.format(n=-1)), 1, "builtins.ValueError", template_regex(site), "")
    assert "def holder_or_fallback(*, fallback):" in bad and "    return Holder" in bad
    rc, out, err = _run(tmp_path, bad)
    assert try_handled(rc, out, err), (rc, out, err)
    good = try_script(ast.parse(script.format(n=2)), 1, "builtins.ValueError", template_regex(site), "")
    rc, out, _ = _run(tmp_path, good)
    assert try_clean(rc, out) and "Holder" in out


def test_validate_sample_is_a_check_function_called_before_the_library(tmp_path: Path) -> None:
    site = _site(tmp_path, "count must be")
    script = "import tinylib\nprint(tinylib.make(count={n}, mode='b'))\n"

    def sample(n: int) -> str:
        m = ast.parse(script.format(n=n))
        call = next(i for i, node in enumerate(ast.walk(m))
                    if isinstance(node, ast.Call) and ast.unparse(node.func) == "tinylib.make")
        return validate_script(m, 1, call, site)

    bad = sample(-1)
    # the check takes the call's own arguments, bound as the library binds them (defaults applied)
    assert "def make_problem(*args, **kwargs):" in bad and "SystemExit" not in bad
    assert "given = inspect.signature(tinylib.make).bind(*args, **kwargs)" in bad
    assert "    count = given.arguments['count']" in bad
    assert "if count is not None and count < 0:" in bad
    assert "problem = make_problem(count=-1, mode='b')" in bad and "print(tinylib.make(count=-1, mode='b'))" in bad
    rc, out, err = _run(tmp_path, bad)
    assert validate_stopped(rc, out, err) and out.startswith("not calling tinylib.make: count must be"), out
    rc, out, err = _run(tmp_path, sample(3))
    assert validate_clean(rc, out) and out.strip() == "(3, 'b')" and not validate_stopped(rc, out, err)
    # positionally: the same check, the argument found by the signature
    m = ast.parse("import tinylib\nprint(tinylib.make(-2))\n")
    call = next(i for i, node in enumerate(ast.walk(m)) if isinstance(node, ast.Call)
                and ast.unparse(node.func) == "tinylib.make")
    rc, out, err = _run(tmp_path, validate_script(m, 1, call, site))
    assert validate_stopped(rc, out, err), (rc, out, err)
    # a callee with a string in it (``Editor(editor='vi').edit_files``) still gives a script that parses
    m = ast.parse("import tinylib\nprint(getattr(tinylib, 'make')(-2))\n")
    call = next(i for i, node in enumerate(ast.walk(m)) if isinstance(node, ast.Call)
                and ast.unparse(node.func) == "getattr(tinylib, 'make')")
    quoted = validate_script(m, 1, call, site)
    ast.parse(quoted)
    assert validate_stopped(*_run(tmp_path, quoted))


def test_validate_sample_needs_a_check_on_the_call_arguments(tmp_path: Path) -> None:
    # a guard on the object's own state (``self.hi``) is no check a caller makes on what they pass
    site = _site(tmp_path, "is above")
    m = ast.parse("import tinylib\nr = tinylib.Range(0, 1)\nr.convert('1.5')\n")
    call = next(i for i, node in enumerate(ast.walk(m)) if isinstance(node, ast.Call)
                and ast.unparse(node.func) == "r.convert")
    assert validate_script(m, 2, call, site) == ""


def test_earlier_shape_of_stored_samples_still_reads() -> None:
    # proofs stored before this shape (exit 3 after "rejected" / "invalid input") still recheck
    assert try_handled(3, "rejected: x\n", "") and validate_stopped(3, "invalid input, not calling: x\n", "")
    assert not try_handled(1, "", "Traceback (most recent call last):\n") and not try_clean(0, FALLBACK + "\n")


def test_try_sample_under_a_context_manager_returns_what_runs_under_it() -> None:
    m = ast.parse("import lib\nx = 1\nwith lib.strict():\n    lib.run(x)\n")
    t = try_script(m, 2, "builtins.RuntimeError", "^strict$", "strict")
    assert "def run_or_fallback(x, *, fallback):" in t  # a block: its names are the parameters
    assert "        with lib.strict():\n            return lib.run(x)\n" in t
    assert "``lib.run(x)`` under ``with lib.strict()``" in t


def test_try_sample_logs_and_returns_a_fallback_typed_like_the_result(tmp_path: Path) -> None:
    # rating 5: a placeholder string where a float is expected is no fallback a user keeps
    site = _site(tmp_path, "is above")
    script = "import tinylib\nr = tinylib.Range(0, 1)\nr.convert({value!r})\n"
    text = site.template.render()

    def sample(value: str, fallback: str) -> str:
        return try_script(ast.parse(script.format(value=value)), 2, "builtins.RuntimeError",
                          template_regex(site), text, fallback)

    probe = type_probe(sample("0.5", "None"))
    rc, out, err = _run(tmp_path, probe)
    assert rc == 0 and typed_fallback(out) == "float('nan')", (out, err)
    bad = sample("1.5", typed_fallback(out))
    assert "import logging" in bad and f"warning('%s {REFUSED} %s', 'convert_or_fallback', exc)" in bad
    assert bad.rstrip().endswith("print(convert_or_fallback(r, '1.5', fallback=float('nan')))")
    assert FALLBACK not in bad
    rc, out, err = _run(tmp_path, bad)
    assert try_handled(rc, out, err) and out.strip() == "nan" and "convert_or_fallback refused its input" in err
    rc, out, err = _run(tmp_path, sample("0.5", "float('nan')"))
    assert try_clean(rc, out, err) and out.strip() == "0.5" and not try_handled(rc, out, err)
    # an object the sample cannot make up: None, returned after the refusal is logged (never silent)
    assert typed_fallback("x\nerrdex-result-type: click.termui.ProgressBar\n") == "None"
