"""Afters that keep the caller's intent (``prove/keep.py``): when the proven after drops an argument, the
value-only afters are built from the callee's defaults, the guards and the call's companion keywords, and the
one that runs clean keeps every argument.  Run on a tiny package this test writes, in a plain subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from errdex.extract import extract_tree
from errdex.model import ErrorSite, Snapshot
from errdex.pagenotes import KEPT_GIVEN, KEPT_RESHAPED, arguments_note
from errdex.prove.keep import (
    KEPT,
    arguments_mark,
    dropped,
    given_mark,
    probe_defaults,
    probe_script,
    spellings,
    value_only,
    values_only,
    variants,
)
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

LIB = '''\
def argument(name, nargs=1, type=None, default=None):
    if nargs != 1 and default is not None and not isinstance(default, (tuple, list)):
        raise ValueError("'default' must be a list when 'nargs' != 1.")
    if default is not None and type is not None and nargs != 1 and not all(isinstance(d, type) for d in default):
        raise TypeError("'default' items must be of the argument's type.")
    return (name, nargs, type, default)


class NotSpecified:
    pass


def kernel(body=NotSpecified(), *, mesh):
    if isinstance(body, NotSpecified):
        if isinstance(mesh, list):
            raise ValueError("mesh cannot be a list when kernel is used as a decorator.")
        return lambda fun: fun
    return body


def scoped(body, *types, axes=()):
    if axes:
        raise NotImplementedError("scoped does not support axes")
    return body
'''


def _site(tmp: Path, text: str) -> ErrorSite:
    pkg = tmp / "kinylib"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text(LIB)
    sites = extract_tree(SourceTree(Snapshot(repo="acme/kinylib"), pkg, walk_python_files(pkg)), jobs=1).sites
    return next(s for s in sites if text in s.template.render())


def _run(tmp: Path, code: str) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp, timeout=60, check=False)
    return p.returncode, p.stdout, p.stderr


BEFORE = "import kinylib\nprint(kinylib.argument('a', nargs=2, type=int, default='Yo'))\n"
DROPS = "import kinylib\nprint(kinylib.argument('a', default='Yo'))\n"


def test_an_after_that_drops_keywords_is_said_so() -> None:
    assert dropped(BEFORE, DROPS) == ("nargs=", "type=")
    assert arguments_mark(BEFORE, DROPS) == "drops nargs=, type="
    changed = BEFORE.replace("default='Yo'", "default=(1, 2)")
    assert dropped(BEFORE, changed) == () and arguments_mark(BEFORE, changed) == KEPT
    # a call statement left out is dropped too (an option turned on, then not at all)
    on = "import kinylib\nkinylib.configure('strict', True)\nkinylib.argument('a')\n"
    assert dropped(on, "import kinylib\nkinylib.argument('a')\n") == ("kinylib.configure('strict', True)",)
    assert value_only(BEFORE, [DROPS, changed, BEFORE]) == [1]


def test_the_first_value_only_after_that_runs_clean_keeps_every_argument(tmp_path: Path) -> None:
    site = _site(tmp_path, "must be a list")
    rc, _, err = _run(tmp_path, BEFORE)
    assert rc != 0 and "must be a list" in err
    assert _run(tmp_path, DROPS)[0] == 0  # the trigger dropped runs clean: what the search found first
    probe = probe_script(BEFORE, DROPS)
    rc, out, _ = _run(tmp_path, probe)
    defaults = probe_defaults(out)
    assert rc == 0 and defaults["kinylib.argument"]["default"] == "None"
    got = variants(BEFORE, DROPS, site, defaults)
    labels = [label for label, _ in got]
    # the companions ask for two ints (``nargs=2``, ``type=int``); the signature's default comes first
    assert "default=(1, 2) (keeps every argument)" in labels
    assert labels.index("default=None (keeps every argument)") < labels.index("default=(1, 2) (keeps every argument)")
    assert all(not dropped(BEFORE, src) for _, src in got)
    clean = [(label, src) for label, src in got if _run(tmp_path, src)[0] == 0]
    assert clean and all(not dropped(BEFORE, src) for _, src in clean)
    ran = dict(clean)
    assert "print(kinylib.argument('a', nargs=2, type=int, default=(1, 2)))" in ran["default=(1, 2) (keeps every argument)"]


def test_a_keyword_given_in_several_calls_gets_the_default_in_each(tmp_path: Path) -> None:
    site = _site(tmp_path, "does not support axes")
    before = "import kinylib\nx = kinylib.scoped(1, 'a', axes=0)\ny = kinylib.scoped(2, 'b', axes=0)\n"
    after = "import kinylib\nx = kinylib.scoped(1, 'a')\ny = kinylib.scoped(2, 'b')\n"
    assert dropped(before, after) == ("axes=", "axes=")
    defaults = probe_defaults(_run(tmp_path, probe_script(before, after))[1])
    assert defaults["kinylib.scoped"] == {"axes": "()"}
    got = variants(before, after, site, defaults)
    label, src = got[0]
    assert label == "axes=() (keeps every argument)" and src.count("axes=()") == 2
    assert _run(tmp_path, src)[0] == 0


def test_kept_is_said_only_of_an_after_that_changes_values_only() -> None:
    # rating 9: "changes values only" over an after that removed a ``with`` block (fef1) or added arguments (669a)
    jit = "import lib\n\n@lib.jit\ndef f():\n    return 1\nf()\n"
    off = arguments_mark(jit + "with lib.no_execution():\n    f()\n", jit + "f()\n")
    assert off.startswith(KEPT_RESHAPED) and "without `with lib.no_execution():`" in off
    added = arguments_mark("import lib\nlib.Factor()\n", "import lib\nlib.Factor('x', 'x')\n")
    assert added.startswith(KEPT_RESHAPED) and "`lib.Factor('x', 'x')`" in added
    assert arguments_note({"arguments": added}).startswith("The after keeps every argument of the call but does more")
    nested = ("import lib\nlib.fmt(meta=lib.zeros((8, {n})), dtype=lib.{t})\n")
    assert arguments_mark(nested.format(n=8, t="f32"), nested.format(n=2, t="f16")) == KEPT
    assert not values_only("import lib\nlib.f(lib.g(1))\n", "import lib\nlib.f(lib.h(1))\n")  # another call
    # rating 12 (abf6): the before's value passed through another call is more than a value changed
    wrapped = arguments_mark("import lib\nlib.shard_map(f, spec=1)(x)\n", "import lib\nlib.shard_map(lib.jit(f), spec=1)(x)\n")
    assert wrapped.startswith(KEPT_RESHAPED) and "`f` becomes `lib.jit(f)`" in wrapped, wrapped
    assert values_only("import lib\nlib.f(type=lib.Path)\n", "import lib\nlib.f(type=lib.Path())\n")  # a class for its instance


def test_the_after_s_new_values_are_spelt_the_other_ways_users_write_them() -> None:
    # rating 9: 5931's check stopped ``dimensions=[0]`` (made a tuple by the callee), 4423's let ``0`` through
    assert spellings("import lax\nlax.rev(x, dimensions=[])\n", "import lax\nlax.rev(x, dimensions=(0,))\n") == [
        "import lax\nlax.rev(x, dimensions=[0])\n"]
    got = spellings("import pl\npl.run(f, axes=1)\n", "import pl\npl.run(f, axes=())\n")
    assert [g.split("axes=")[1].strip() for g in got] == ["[])", "None)", "0)"]
    assert spellings("import pl\npl.run(f, axes=(1,))\n", "import pl\npl.run(f, axes=(1,), n=2)\n") == []  # unchanged
    wrapped = "import lib\nlib.jit(lambda: lib.scoped(f, lib.VMEM((8,)), axes={v}))()\n"
    assert arguments_mark(wrapped.format(v="None"), wrapped.format(v="()")) == KEPT  # inside a lambda, called
    assert arguments_mark("import lib\nlib.conv(ty=lib.Path)\n", "import lib\nlib.conv(ty=lib.Path())\n") == KEPT
    assert arguments_mark(wrapped.format(v="None").replace("f, ", ""), wrapped.format(v="None")).startswith(KEPT_RESHAPED)


def test_an_after_that_gives_the_parameter_the_guard_asks_unset_is_the_call_s_other_form(tmp_path: Path) -> None:
    """707f: ``kernel(mesh=[m])`` raises only while ``body`` is unset (used as a decorator); the after passes ``body``
    and keeps ``mesh=[m]``: marked so (not "takes the trigger away"), and said so under the example."""
    site = _site(tmp_path, "used as a decorator")
    before = "import kinylib\nkinylib.kernel(mesh=[1])\n"
    after = "import kinylib\nkinylib.kernel(body=[lambda *a, **k: None], mesh=[1])\n"
    mark = given_mark(site, before, after)
    assert mark == f"{KEPT_GIVEN}body | isinstance(body, NotSpecified) | function"
    note = arguments_note({"arguments": mark})
    assert "passes `body` in it" in note and "used as a decorator" in note and "`isinstance(body, NotSpecified)`" in note
    assert given_mark(site, before, "import kinylib\nkinylib.kernel(body=1, mesh=[1])\n").endswith("NotSpecified)")
    # the trigger changed as well, or a parameter no guard asks unset: no such mark
    assert given_mark(site, before, "import kinylib\nkinylib.kernel(body=[lambda *a, **k: None], mesh=[2])\n") == ""
    # a type test (``isinstance(mesh, list)``) is no unset guard: ``mesh`` given is the trigger's value
    assert given_mark(site, "import kinylib\nkinylib.kernel()\n", "import kinylib\nkinylib.kernel(mesh=[1])\n") == ""
    assert given_mark(_site(tmp_path, "does not support axes"), "import kinylib\nkinylib.scoped(1, axes=1)\n",
                      "import kinylib\nkinylib.scoped(1, axes=1, types=2)\n") == ""
