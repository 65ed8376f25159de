"""A raise an earlier loop's dispatch narrowed (extract/narrowing.py) gets a page in the user's terms
(analyze/narrowed.py, static/narrowedtext.py): the methods that make the values that reach it
(``ref.reshape(...)``), the operation that carries them there (``ref[...] = value``), and the fix
(change the value, not the ref).  Fixture: viewlib, a small package of refs read and written through
views, shaped like jax 0.10.2's ``transform_swap_array``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from errdex.analyze.facts import gather_facts
from errdex.analyze.guardwords import describe_guard, narrowed_reason
from errdex.analyze.llm.prompt import build_prompt
from errdex.analyze.narrowed import Narrowed, narrowed_of
from errdex.analyze.public_path import build_graph
from errdex.catalog import open_catalog
from errdex.model import CallEdge, ErrorSite, Guard, Template

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "an_viewlib"


def _pages(tmp_path: Path, fixture: Path = FIXTURE) -> dict[tuple[str, int], object]:
    db = tmp_path / "c.sqlite"
    env = {**os.environ, "ERRDEX_HOME": str(tmp_path)}
    for args in (["index", str(fixture), "--repo", "acme/viewlib", "--ref", "v1"], ["analyze"]):
        subprocess.run([sys.executable, "-m", "errdex", *args, "--db", str(db)], check=True, env=env,
                       capture_output=True)
    catalog = open_catalog(str(db))
    try:
        snap = catalog.snapshots()[0]
        return {(s.qualname, s.line): catalog.get_analysis(s.error_id, snap.key) for s in catalog.sites(snap.key)}
    finally:
        catalog.close()


def test_the_write_page_names_the_views_and_the_write(tmp_path: Path) -> None:
    pages = _pages(tmp_path)
    write = pages[("swap_through_views", 59)]
    assert write is not None
    meaning = write.meaning  # type: ignore[attr-defined]
    assert meaning.startswith("`ref[...] = value` on the `ref` that `ref.bitcast(...)` or `ref.reshape(...)` returns "
                              "raises")
    assert "`view` is then a `tf.BitcastView` or a `tf.ReshapeView` (the loop before, at line 41" in meaning
    assert "this one handles only `tf.Indexer`" in meaning
    sols = [s.text for s in write.solutions]  # type: ignore[attr-defined]
    assert sols[0].startswith("Use `ref[...] = value` on the `ref` itself, not on the one `ref.bitcast(...)` or")
    assert "do the `bitcast` or `reshape` on the value instead" in sols[0]
    assert not any("does not implement" in s for s in sols), sols
    assert write.prevention[0].startswith("Never use `ref[...] = value` on the `ref` that")  # type: ignore[attr-defined]
    note = write.guard_note  # type: ignore[attr-defined]
    assert note.startswith("What you can check before `ref[...] = value`: that the `ref` is not one that "
                           "`ref.bitcast(...)` or `ref.reshape(...)` returned")
    assert "`__setitem__` → `ref_set` → `swap_through_views`" in write.situations[0]  # type: ignore[attr-defined]
    # the read loop's raise (any other view, a transpose) is not narrowed: its page is as before
    read = pages[("swap_through_views", 49)]
    assert read is not None and "`ref.reshape(...)`" not in read.meaning  # type: ignore[attr-defined]


LOWERING = '''"""Views lowered for compilation: the compiled path handles every view the writes take."""

from viewlib import transforms as tf


def lower_views(ref, views):
    for view in views:
        match view:
            case tf.Indexer():
                ref = ref[view.start:view.stop]
            case tf.BitcastView():
                ref = ("bitcast", ref, view.dtype)
            case tf.ReshapeView():
                ref = ("reshape", ref, view.shape)
            case _:
                raise NotImplementedError(f"Unsupported view: {view}")
    return ref
'''


def test_a_lowering_that_handles_the_views_scopes_prevention_and_offers_the_compiled_path(tmp_path: Path) -> None:
    # rating 12 (9fa3): "Never" was too broad: compiled Mosaic TPU's `_transform_ref` handles bitcast and reshape
    # views, raising the same message only for other transforms
    import shutil

    fixture = tmp_path / "fx"
    shutil.copytree(FIXTURE, fixture)
    (fixture / "viewlib" / "lowering.py").write_text(LOWERING)
    write = _pages(tmp_path, fixture)[("swap_through_views", 59)]
    assert write is not None
    sols = [s.text for s in write.solutions]  # type: ignore[attr-defined]
    assert sols[0].startswith("Use `ref[...] = value` on the `ref` itself"), sols
    assert sols[1].startswith("Or run it compiled, where the `ref.bitcast(...)` or `ref.reshape(...)` view is "
                              "lowered rather than discharged: `lower_views` (`viewlib/lowering.py:"), sols
    assert "handles `BitcastView` and `ReshapeView` itself" in sols[1], sols
    prevention = write.prevention[0]  # type: ignore[attr-defined]
    assert not prevention.startswith("Never") and "a compiled kernel whose lowering handles the view accepts it" \
        in prevention, prevention


def _site(guards: tuple[Guard, ...]) -> ErrorSite:
    return ErrorSite(kind="error", exception="NotImplementedError", exception_resolved="NotImplementedError",
                     templates=(Template.literal("x"),), path="pkg/ops.py", line=9, end_line=9, qualname="swap",
                     module="pkg.ops", guards=guards)


NARROWED = Guard(kind="narrowed", source="isinstance(v, (Index, Flip))", normalized="isinstance(v, Flip)", line=3)


def test_makers_are_kept_only_in_a_class_whose_methods_reach_the_raise() -> None:
    edges = [
        CallEdge(caller="pkg.refs.Ref.flip", callee="pkg.views.Flip"),
        CallEdge(caller="pkg.other.Helper.flip", callee="pkg.views.Flip"),  # makes one, never writes
        CallEdge(caller="pkg.refs.Ref.__setitem__", callee="pkg.refs.put"),
        CallEdge(caller="pkg.refs.put", callee="pkg.ops.swap"),
        CallEdge(caller="pkg.refs.Ref._private", callee="pkg.ops.swap"),
    ]
    graph = build_graph(edges, {"pkg": ("Ref",)})
    found = narrowed_of(_site((NARROWED,)), graph)
    assert found == Narrowed(subject="v", types=("Flip",), handled=("Index",), holder="pkg.refs.Ref",
                             makers=("flip",), operations=("__setitem__",),
                             chain=("pkg.refs.Ref.__setitem__", "pkg.refs.put", "pkg.ops.swap"))
    assert found.done() == ["`ref[...] = value`"] and found.made() == ["`ref.flip(...)`"]
    # no operation of the maker's class reaches the raise: nothing to say in the user's terms
    assert narrowed_of(_site((NARROWED,)), build_graph(edges[:2], {})) is None
    assert narrowed_of(_site(()), graph) is None


def test_the_narrowed_guard_in_words() -> None:
    assert describe_guard(NARROWED) == ("`v` is a `Flip`", "narrowed")
    assert narrowed_reason(NARROWED) == ("the loop before, at line 3, lets only `Index` and `Flip` through; "
                                         "this one handles only `Index`")
    values = Guard(kind="narrowed", source="m in ('a', 'b', 'c')", normalized="m in ('a', 'c')", line=4)
    assert describe_guard(values)[0] == "`m` is in `('a', 'c')`"
    assert narrowed_reason(values).endswith("this one handles only `'b'`")
    # nothing handled by the later dispatch: no narrowing to explain, no words
    assert describe_guard(Guard(kind="narrowed", source="isinstance(v, A)", normalized="isinstance(v, A)")) == ("", "")


def test_the_llm_prompt_gets_the_narrowed_facts(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    env = {**os.environ, "ERRDEX_HOME": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "errdex", "index", str(FIXTURE), "--repo", "acme/viewlib", "--ref", "v1",
                    "--db", str(db)], check=True, env=env, capture_output=True)
    catalog = open_catalog(str(db))
    try:
        snap = catalog.snapshots()[0]
        sites = {s.line: s for s in catalog.sites(snap.key) if s.qualname == "swap_through_views"}
        write = json.loads(build_prompt(gather_facts(catalog, snap, sites[59])).messages[1]["content"])
        read = json.loads(build_prompt(gather_facts(catalog, snap, sites[49])).messages[1]["content"])
    finally:
        catalog.close()
    assert write["error"]["narrowed"] == {"reaching_types": ["tf.BitcastView", "tf.ReshapeView"],
                                          "made_by": ["`ref.bitcast(...)`", "`ref.reshape(...)`"],
                                          "operations": ["`ref[...] = value`"], "handled_here": ["tf.Indexer"]}
    assert "narrowed" not in read["error"]  # no key at all: the other pages' prompts (and cache keys) are unchanged
