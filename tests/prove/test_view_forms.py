"""Writes through a view (prove/view_forms.py): a narrowed raise's before does the operation on a view another
method made, its after does that method on the value and the operation on the object itself.  On viewlib
(tests/fixtures/an_viewlib, refs written through views, shaped like jax's ``transform_swap_array``) with a
table of its own, as jax's is jax's: the before raises at the write loop's raise, the after runs clean."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from errdex.analyze.context import load_context
from errdex.analyze.narrowed import Narrowed, narrowed_of
from errdex.catalog import open_catalog
from errdex.prove.engine import Prover
from errdex.prove.runs import Runs
from errdex.prove.search import VIEWS_MARK, confirm_views, targets_for
from errdex.prove.view_forms import VIEW_FORMS, Maker, ViewForm, view_form, view_pairs
from errdex.sandbox import Environment

from .provekit import cli

FIXTURE = Path(__file__).parents[1] / "fixtures" / "an_viewlib"
FORM = ViewForm(prefixes=("viewlib/discharge.py",),
                program="import viewlib\n\nr = viewlib.Ref([1, 2, 3, 4])\n{write}\nprint(r.value)\n",
                target="r", value="[5, 6, 7, 8]",
                makers=(("reshape", Maker("4", "{v}", "{v}")), ("transpose", Maker("0", "{v}", "{v}"))),
                label="as written")


@pytest.fixture(scope="module")
def narrowed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Narrowed | None, str]:
    root = tmp_path_factory.mktemp("views")
    db = str(root / "c.sqlite")
    r = cli("index", str(FIXTURE), "--repo", "acme/viewlib", "--ref", "1.0", "--db", db, home=root / "home")
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    try:
        snap = cat.snapshots("acme/viewlib")[-1]
        ctx = load_context(cat, snap)
        site = next(s for s in ctx.sites if s.qualname == "swap_through_views" and s.line == 59)
        return narrowed_of(site, ctx.call_graph), db
    finally:
        cat.close()


def _run(src: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    (tmp / "s.py").write_text(src)
    return subprocess.run([sys.executable, str(tmp / "s.py")], env={**os.environ, "PYTHONPATH": str(FIXTURE)},
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_before_writes_through_the_view_and_the_after_changes_the_value(
        narrowed: tuple[Narrowed | None, str], tmp_path: Path) -> None:
    n, _db = narrowed
    assert n is not None and n.makers == ("bitcast", "reshape")
    [(before, after)] = view_pairs(n, FORM)  # transpose makes no narrowed type: no pair; bitcast: not in the form
    assert "r.reshape(4)[...] = [5, 6, 7, 8]" in before and "\nr[...] = [5, 6, 7, 8]\n" in after
    raised = _run(before, tmp_path)
    assert raised.returncode != 0
    assert 'discharge.py", line 59, in swap_through_views' in raised.stderr
    assert "NotImplementedError: Unsupported view: ReshapeView(shape=(4,))" in raised.stderr
    clean = _run(after, tmp_path)
    assert clean.returncode == 0 and clean.stdout.strip() == "[5, 6, 7, 8]", clean.stderr


def test_no_pairs_without_a_statement_operation_or_a_form(narrowed: tuple[Narrowed | None, str]) -> None:
    n, _db = narrowed
    assert n is not None
    assert view_pairs(n, None) == [] and view_pairs(None, FORM) == []
    from dataclasses import replace
    assert view_pairs(replace(n, operations=("set",)), FORM) == []  # a named method: no statement to write


def test_search_targets_carry_the_programs_only_with_a_form(narrowed: tuple[Narrowed | None, str]) -> None:
    _n, db = narrowed
    cat = open_catalog(db)
    try:
        key = cat.snapshots("acme/viewlib")[-1].key
        site = next(s for s in cat.sites(key) if s.qualname == "swap_through_views" and s.line == 59)
        [plain] = targets_for(cat, key, [site.error_id])
        [unknown] = targets_for(cat, key, [site.error_id], "viewlib")  # no entry for viewlib in VIEW_FORMS
        [viewlib] = targets_for(cat, key, [site.error_id], "viewlib", {"viewlib": (FORM,)})
    finally:
        cat.close()
    assert plain.views == () and unknown.views == ()
    assert len(viewlib.views) == 1 and "r.reshape(4)[...] = " in viewlib.views[0][0]


def test_jax_writes_through_reshaped_and_bitcast_refs_in_an_interpreted_kernel() -> None:
    form = view_form("jax", "jax/_src/state/discharge.py")
    assert form is not None and view_form("jax", "jax/_src/lax/lax.py") is None and view_form("click", "x.py") is None
    n = Narrowed("transform", ("BitcastTransform", "ReshapeTransform"), ("indexing.NDIndexer",),
                 "jax._src.state.types.TransformedRef", ("bitcast", "reshape"), ("__setitem__", "set", "swap"))
    (rb, ra), (bb, ba) = view_pairs(n, form)  # the form's order: reshape first
    assert "    o_ref.reshape(64)[...] = x_ref[...].reshape(64)\n" in rb
    assert "    o_ref[...] = x_ref[...].reshape(64).reshape(o_ref.shape)\n" in ra
    assert "o_ref.bitcast(jnp.int32)[...] = jax.lax.bitcast_convert_type(x_ref[...], jnp.int32)" in bb
    assert "o_ref[...] = jax.lax.bitcast_convert_type(jax.lax.bitcast_convert_type(x_ref[...], jnp.int32), " \
           "o_ref.dtype)" in ba
    assert all("interpret=True" in f.program for f in VIEW_FORMS["jax"])


class _LocalProver(Prover):
    """A prover whose runs are plain subprocesses with viewlib importable (no sandbox): ``confirm_views`` asks
    nothing else of it but the matcher, which is errdex's own."""

    def runs(self, codes: Sequence[str], scratch: Path, name: str) -> Runs:
        out = []
        for c in codes:
            p = subprocess.run([sys.executable, "-c", c], capture_output=True, text=True, timeout=60, check=False,
                               env={**os.environ, "PYTHONPATH": str(FIXTURE)})
            out.append((p.returncode, p.stdout, p.stderr, ""))
        return Runs(out, len(out))


def test_confirm_views_proves_the_write_and_labels_it(narrowed: tuple[Narrowed | None, str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    n, db = narrowed
    monkeypatch.setitem(VIEW_FORMS, "viewlib", (FORM,))
    cat = open_catalog(db)
    try:
        snap = cat.snapshots("acme/viewlib")[-1]
        site = next(s for s in cat.sites(snap.key) if s.qualname == "swap_through_views" and s.line == 59)
        env = Environment(key="local", root=tmp_path, python=Path(sys.executable), python_version="3",
                          site_packages=(), requirement="viewlib")
        prover = _LocalProver(catalog_path=db, snapshot=snap, env=env, package="viewlib")
        pairs = view_pairs(n, FORM)
        proven, why, runs = confirm_views(prover, cat, site, pairs, tmp_path)
        assert proven is not None, why
        assert (proven.before, proven.after) == pairs[0] and runs == 2
        assert proven.proof.before.error_id == site.error_id and proven.proof.lowered == "as written"
        assert proven.proof.candidate == VIEWS_MARK
        # an after that still writes through the view is no proof
        bad = [(pairs[0][0], pairs[0][0])]
        assert confirm_views(prover, cat, site, bad, tmp_path)[0] is None
    finally:
        cat.close()
