"""A warm-up after (``prove/warmup.py``): for a check an option turns on inside a cached function, the call made
once before the option is turned on, with its functions and values bound to names, then again with it on
(rating 10, 53c4: the proven after only turned ``jax_no_tracing`` off).  Run on a tiny package this test
writes, in a plain subprocess, through ``search.confirm`` as ``errdex prove --search`` runs it; and what the
page says of a proven warm-up (``stored.with_change``, ``pagenotes.arguments_note``, ``bench/real_fixes``)."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.static.optiontext import WARM_LEAD
from errdex.extract import extract_tree
from errdex.model import Analysis, CodeSample, ErrorSite, Proof, ProofAfter, ProofBefore, Snapshot, Solution
from errdex.pagenotes import WARMS_UP, arguments_note
from errdex.prove.configcand import OptionSwitch
from errdex.prove.search import Found, confirm
from errdex.prove.stored import with_change
from errdex.prove.warmup import WARM_LABEL, bound, warm_afters, warm_up, warmable, warms_up
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

from .provekit import LocalRunner

LIB = '''\
import functools


class Config:
    def __init__(self):
        self.no_tracing = False

    def update(self, name, value):
        if name == "cache_no_tracing":
            self.no_tracing = value


config = Config()


@functools.lru_cache(maxsize=None)
def trace(fun, kind):
    if config.no_tracing:
        raise RuntimeError(f"re-tracing function {fun}, but 'no_tracing' is set")
    return fun


def run(fun, x):
    return trace(fun, type(x))(x)


def plain(fun, x):
    if config.no_tracing:
        raise RuntimeError(f"calling {fun} untraced, but 'no_tracing' is set")
    return fun(x)
'''
SW = OptionSwitch(name="cache_no_tracing", raising="True", holder="no_tracing", set_call="cachelib.config.update")
BEFORE = "import cachelib\ncachelib.config.update('cache_no_tracing', True)\ncachelib.run(lambda x: x + 1, 1)\n"
OFF = BEFORE.replace("True)", "False)")


def _sites(tmp: Path) -> dict[str, ErrorSite]:
    pkg = tmp / "cachelib"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text(LIB)
    sites = extract_tree(SourceTree(Snapshot(repo="acme/cachelib"), pkg, walk_python_files(pkg)), jobs=1).sites
    return {s.qualname: s for s in sites}


class _Prover(LocalRunner):
    """What ``confirm`` asks of the engine: runs (a plain subprocess), the traceback resolved by its message."""

    package = "cachelib"

    def resolves_to(self, catalog: Any, stderr: str, error_id: str) -> tuple[str, str]:
        return (error_id, "RuntimeError") if "'no_tracing' is set" in stderr else ("", "")

    def cause_resolving_to(self, catalog: Any, stderr: str, error_id: str) -> None:
        return None

    def _proof(self, before: ProofBefore, after: ProofAfter, candidate: str) -> Proof:
        return Proof(before, after, "cachelib", "1", "3", "today", candidate)

    def kept(self, *a: Any, **k: Any) -> tuple[str, str, str, int]:
        return "", "", "", 0

    def check_sample(self, catalog: Any, site: ErrorSite) -> str:
        return ""

    def _samples(self, *a: Any, **k: Any) -> tuple[tuple[str, None, str, None], int]:
        return ("", None, "", None), 0


def test_a_warm_up_binds_the_arguments_and_makes_the_call_before_the_option(tmp_path: Path) -> None:
    after = warm_up(BEFORE, SW)
    body = [ast.unparse(s) for s in ast.parse(after).body]
    assert body == ["import cachelib", "fun = lambda x: x + 1", "cachelib.run(fun, 1)",
                    "cachelib.config.update('cache_no_tracing', True)", "cachelib.run(fun, 1)"]
    assert warms_up(BEFORE, after) == "cachelib.config.update('cache_no_tracing', True)"
    # the option turned off, or a call made only once, is no warm-up
    assert warms_up(BEFORE, OFF) == ""
    assert warms_up(BEFORE, BEFORE) == ""
    # a ``with`` block: the block makes the same call
    w = warm_up("import cachelib\nwith cachelib.tracing(True):\n    y = cachelib.run(lambda x: x, [1])\n",
                OptionSwitch("cache_no_tracing", "True", "tracing", context="cachelib.tracing"))
    assert w.endswith("fun = lambda x: x\narg = [1]\ny = cachelib.run(fun, arg)\nwith cachelib.tracing(True):\n"
                      "    y = cachelib.run(fun, arg)\n")
    # literals and names are passed as they are; nothing to bind: no warm-up
    assert bound(ast.parse("f(1, x, a.b, k='s')\n").body, set()) is None
    assert warm_up("import cachelib\ncachelib.config.update('cache_no_tracing', True)\ncachelib.run(f, 1)\n", SW) == ""


def test_offered_only_where_a_cache_is_in_front_of_the_raise(tmp_path: Path) -> None:
    sites = _sites(tmp_path)
    assert warmable(sites["trace"], [SW]) and not warmable(sites["plain"], [SW])
    assert not warmable(sites["trace"], [])  # no option read by the guard
    assert warm_afters(sites["trace"], [SW], [BEFORE, OFF]) == (warm_up(BEFORE, SW),)  # OFF does not turn it on
    assert warm_afters(sites["plain"], [SW], [BEFORE]) == ()


def test_the_warm_up_is_proven_first_and_marked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sites = _sites(tmp_path)
    runner = _Prover(tmp_path)
    found = Found("x", BEFORE, (OFF,), 1, 0.0, ())
    proven, why, _ = confirm(runner, None, sites["trace"], found, [], tmp_path, sws=[SW])  # type: ignore[arg-type]
    assert proven is not None, why
    assert proven.after == warm_up(BEFORE, SW)
    assert proven.proof.arguments == WARMS_UP + "cachelib.config.update('cache_no_tracing', True)"
    assert WARM_LABEL in proven.proof.candidate
    # the inline lambda written twice is a new object each time: that warm-up does not run clean
    naive = BEFORE.replace("cachelib.config", "cachelib.run(lambda x: x + 1, 1)\ncachelib.config", 1)
    assert runner.runs([naive], tmp_path, "naive")[0][0] != 0
    # without the option facts the after turns the option off, as before
    proven, _, _ = confirm(runner, None, sites["trace"], found, [], tmp_path)  # type: ignore[arg-type]
    assert proven is not None and proven.after == OFF and not proven.proof.arguments.startswith(WARMS_UP)


def _analysis(after: str) -> Analysis:
    proof = Proof(ProofBefore(exception="RuntimeError", error_id="x", output="..."), ProofAfter(exit=0),
                  "cachelib", "1", "3", "today", "search", arguments="kept")
    note = ("What decides it is the `cache_no_tracing` option (the `cache_no_tracing` option is on): read it before "
            "the call rather than catching the error; it is a check you turned on, so satisfy it (Solutions) and keep "
            "it on.")
    return Analysis(error_id="x", snapshot="acme/cachelib@1", meaning="m", guard_note=note,
                    solutions=(Solution(text=f"{WARM_LEAD}: `trace` is cached."), Solution(text="Or turn it off.")),
                    example_fix=CodeSample(BEFORE, after, proof))


def test_the_page_says_what_a_proven_warm_up_does() -> None:
    a = with_change(_analysis(warm_up(BEFORE, SW)))
    texts = [s.text for s in a.solutions]
    assert texts[0].startswith(WARM_LEAD) and texts[1].startswith("The proven example below keeps the check on")
    assert "served from the cache" in texts[1] and texts[2] == "Or turn it off."
    assert "Fix it as the example shows (a warm-up" in a.guard_note and "only turns" not in a.guard_note
    assert a.example_fix.proof is not None and a.example_fix.proof.arguments.startswith(WARMS_UP)
    assert arguments_note({"arguments": a.example_fix.proof.arguments}).startswith("The after warms the cache")
    assert with_change(a).solutions == a.solutions  # said once
    off = with_change(_analysis(OFF))
    assert "only turns the `cache_no_tracing` option off" in off.solutions[-1].text


def test_real_fixes_counts_a_warm_up() -> None:
    path = Path(__file__).parents[2] / "bench" / "real_fixes.py"
    spec = importlib.util.spec_from_file_location("real_fixes", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["real_fixes"] = mod
    spec.loader.exec_module(mod)
    note = _analysis("").guard_note
    assert mod.kind(BEFORE, warm_up(BEFORE, SW), note) == "real"
    assert mod.kind(BEFORE, OFF, note) == "off"
