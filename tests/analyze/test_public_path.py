"""The public path on a package whose public names are re-exports, registrations and methods."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.analyze.context import SnapshotContext, load_context
from errdex.analyze.public_path import (
    CallGraph,
    build_graph,
    entries_under,
    factories,
    public_path,
    top_level_callers,
)
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.model import CallEdge, ErrorSite
from errdex.sources import open_source

PUBPKG = Path(__file__).resolve().parents[1] / "fixtures" / "an_pubpath"


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SnapshotContext]:
    cat = SqliteCatalog(tmp_path_factory.mktemp("pp") / "c.sqlite")
    with open_source(str(PUBPKG), repo="example/pubpkg", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    yield load_context(cat, cat.snapshots()[0])
    cat.close()


def _path(ctx: SnapshotContext, text: str) -> tuple[str, ...]:
    (site,) = [s for s in ctx.sites if text in s.template.render()]
    return ctx.public_path(site).entries


def test_re_exported_function_through_private_helpers(ctx: SnapshotContext) -> None:
    assert _path(ctx, "has more than two axes") == ("pubpkg.compile_fn",)
    # _lower_nocache is reached through the module alias ``_cached_lower = partial(_lower_nocache)``
    (site,) = [s for s in ctx.sites if "lowering is not implemented" in s.template.render()]
    p = ctx.public_path(site)
    assert p.entries == ("pubpkg.compile_fn",)
    assert p.chain == ("pubpkg._src.api.compile_fn", "pubpkg._src.api._lower", "pubpkg._src.api._cached_lower",
                       "pubpkg._src.api._lower_nocache")


def test_rules_registered_for_a_primitive_lead_to_the_function_that_binds_it(ctx: SnapshotContext) -> None:
    assert _path(ctx, "does not support collective_axes") == ("pubpkg.run_scoped",)  # @partial(register, prim)
    assert _path(ctx, "Eager run_scoped") == ("pubpkg.run_scoped",)  # table[prim] = rule


def test_private_method_of_a_public_class(ctx: SnapshotContext) -> None:
    assert _path(ctx, "level must not be negative") == ("pubpkg.Settings.apply",)


def test_observed_entries_take_precedence(ctx: SnapshotContext) -> None:
    (site,) = [s for s in ctx.sites if "has more than two axes" in s.template.render()]
    p = public_path(site, ctx.call_graph, observed=["pubpkg.other_entry", "pubpkg.other_entry"])
    assert p.entries == ("pubpkg.other_entry",) and p.observed


def _page(ctx: SnapshotContext, text: str, qualname: str = "") -> tuple[object, object]:
    from errdex.analyze.facts import gather_facts
    from errdex.analyze.static import analyze_static

    (site,) = [s for s in ctx.sites if text in s.template.render() and (not qualname or s.qualname == qualname)]
    f = gather_facts(None, ctx.snapshot, site, context=ctx)  # type: ignore[arg-type]
    return f, analyze_static(f, ctx.all_symbols)


def test_same_text_sites_link_each_other_and_say_what_differs(ctx: SnapshotContext) -> None:
    f, a = _page(ctx, "shape must be a tuple", "transpose")
    assert [s.qualname for s in f.same_text] == ["reshape"]  # type: ignore[attr-defined]
    assert a.related[0].reason.startswith("the same message, raised in `reshape`")  # type: ignore[attr-defined]
    assert any("also comes from `reshape`" in s for s in a.situations)  # type: ignore[attr-defined]


def test_an_early_return_is_a_guard_and_the_page_names_the_public_call(ctx: SnapshotContext) -> None:
    f, a = _page(ctx, "shape must be a tuple", "transpose")
    assert [g.guard.normalized for g in f.guards][:1] == ["not (axes is None)"]  # type: ignore[attr-defined]
    assert "checks nothing" not in a.meaning  # type: ignore[attr-defined]
    assert a.meaning.startswith("Calling `pubpkg.transpose` raises `TypeError` when `axes` is not None")  # type: ignore[attr-defined]
    assert any("when you call `pubpkg.transpose` (its `axes` argument)" in s.text for s in a.solutions)  # type: ignore[attr-defined]


def test_a_raise_with_several_messages_covers_each(ctx: SnapshotContext) -> None:

    f, a = _page(ctx, "pad width must be positive")
    assert "takes 2 forms" in a.meaning and "reflect mode also needs a width below the size" in a.meaning  # type: ignore[attr-defined]
    from errdex.analyze.static.samples import short_literal

    # the text an option's fallback sample matches on is in every form
    lit = short_literal(f)  # type: ignore[arg-type]
    assert lit and all(lit in t.render() for t in f.site.templates)  # type: ignore[attr-defined]
    assert a.try_sample == ""  # type: ignore[attr-defined]  # no generic try / except: it only re-raised


def test_related_by_the_same_public_entry_before_same_module_same_type(ctx: SnapshotContext) -> None:
    _, a = _page(ctx, "lowering is not implemented")
    # a shared public entry alone is too weak to relate two raises (rating 7, abf6's `jax.empty_ref` entries);
    # the empty list says what the entry gave
    reasons = [r.reason for r in a.related]  # type: ignore[attr-defined]
    assert not any(r == "also raised by a call of `pubpkg.compile_fn`" for r in reasons), reasons
    assert not reasons and "`pubpkg.compile_fn`" in a.related_note, a.related_note  # type: ignore[attr-defined]


def test_a_method_overridden_in_a_subclass_is_reached_through_the_subclass(ctx: SnapshotContext) -> None:
    """``Base.__init__`` calls ``self._check()``; ``Strict._check`` raises: users meet it as ``Strict(...)``,
    not as ``Loose(...)`` (which inherits the base's harmless ``_check``)."""
    assert _path(ctx, "strict names are checked") == ("pubpkg.Strict",)


def test_calling_an_instance_is_reached_through_what_made_it(ctx: SnapshotContext) -> None:
    """``_Executable.__call__`` runs when the object ``compile_executable`` built is called."""
    assert _path(ctx, "executions are disabled") == ("pubpkg.compile_executable",)


def test_a_raise_in_post_init_is_the_class_and_the_function_that_builds_it(ctx: SnapshotContext) -> None:
    """``Grid.__post_init__`` runs in ``Grid(...)``: the class is public (not "an internal function"),
    and ``pubpkg.make_grid``, the more top-level function that builds it, is named too."""
    assert _path(ctx, "a grid needs at least one axis") == ("pubpkg.shapes.Grid", "pubpkg.make_grid")


def test_a_name_a_private_package_re_exports_from_its_submodule_is_public(tmp_path: Path) -> None:
    # jax.lax.cond is jax._src.lax.control_flow.cond, which the private package's __init__ imports from
    # its submodule conditionals (no export edge is recorded for a private package): still jax.lax.cond
    files = {
        "flowpkg/__init__.py": "",
        "flowpkg/lax.py": "from flowpkg._src.control_flow import cond as cond\n",
        "flowpkg/_src/__init__.py": "",
        "flowpkg/_src/control_flow/__init__.py":
            "from flowpkg._src.control_flow.conditionals import cond as cond\n",
        "flowpkg/_src/control_flow/conditionals.py":
            "from flowpkg._src.tracing import trace\n\n\ndef cond(pred, f):\n    return trace(f)\n",
        "flowpkg/_src/tracing.py":
            "def trace(f):\n    if not callable(f):\n        raise TypeError(f'cannot trace {f!r}: not callable')\n"
            "    return f\n",
    }
    root = tmp_path / "project"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    with open_source(str(root), repo="example/flowpkg", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    c = load_context(cat, cat.snapshots()[0])
    (site,) = [s for s in c.sites if "cannot trace" in s.template.render()]
    assert c.public_path(site).entries == ("flowpkg.lax.cond",)
    cat.close()


def test_a_factory_named_after_the_class_comes_first() -> None:
    # rating 4 on bce3: `jax.sharding.Mesh` is built by jax.make_mesh and by jax.device_put_replicated; the one
    # named after the class is what users call to make one (not the alphabetically first)
    g = CallGraph(callers={"pkg._src.mesh.Mesh": [("pkg._src.api.device_put_replicated", "call"),
                                                   ("pkg._src.mesh_utils.make_mesh", "call")]},
                  public={"pkg._src.api.device_put_replicated": "pkg.device_put_replicated",
                          "pkg._src.mesh_utils.make_mesh": "pkg.make_mesh", "pkg._src.mesh.Mesh": "pkg.sharding.Mesh"})
    assert factories("pkg._src.mesh.Mesh.__init__", "pkg.sharding.Mesh", g) == ("pkg.make_mesh",)


def test_a_submodules_public_function_also_names_the_top_level_calls_that_use_it() -> None:
    # rating 4 on a1ee: `click.types.convert_type` raises it, but users write `click.prompt(type=...)` or create a
    # parameter; the package's top-level names that call it directly follow it, the more used first
    g = CallGraph(callers={"pkg.types.convert_type": [("pkg.core.Parameter.__init__", "call"),
                                                      ("pkg.termui.prompt", "call"), ("pkg.core._pick", "call")]},
                  public={"pkg.types.convert_type": "pkg.types.convert_type", "pkg.core.Parameter": "pkg.Parameter",
                          "pkg.termui.prompt": "pkg.prompt"},
                  uses={"pkg.termui.prompt": 3, "pkg.core.Parameter.__init__": 1})
    assert top_level_callers("pkg.types.convert_type", "pkg.types.convert_type", g) == ("pkg.prompt", "pkg.Parameter")
    assert top_level_callers("pkg.prompt_impl", "pkg.prompt", g) == ()  # a top-level name itself: nothing added


def _site_in(module: str, qualname: str) -> ErrorSite:
    return ErrorSite(kind="error", exception="ValueError", exception_resolved="ValueError", templates=(), path="x.py",
                     line=1, end_line=1, qualname=qualname, module=module)


def test_a_call_through_a_packages_re_export_is_a_call_of_the_definition() -> None:
    # a28d: the Mosaic GPU lowering rule calls ``mgpu.optimization_barrier`` (the package's re-export of
    # ``fragmented_array.optimization_barrier``); the walk up from the definition reaches the rule, then the primitive
    # it is registered for, then ``lax.optimization_barrier`` that binds it
    edges = [CallEdge("pkg.gpu.optimization_barrier", "pkg.gpu.fragmented.optimization_barrier", "export"),
             CallEdge("pkg._lowering._barrier_rule", "pkg.gpu.optimization_barrier", "call"),
             CallEdge("pkg._lax.barrier_p", "pkg._lowering._barrier_rule", "register"),
             CallEdge("pkg._lax.optimization_barrier", "pkg._lax.barrier_p", "call"),
             CallEdge("pkg.lax.optimization_barrier", "pkg._lax.optimization_barrier", "export"),
             CallEdge("pkg.gpu.fragmented.optimization_barrier", "pkg.gpu.fragmented._regs", "call")]
    g = build_graph(edges, {"pkg.gpu.fragmented": ("optimization_barrier",), "pkg.lax": ("optimization_barrier",)})
    assert ("pkg._lowering._barrier_rule", "call") in g.callers["pkg.gpu.fragmented.optimization_barrier"]
    site = _site_in("pkg.gpu.fragmented", "optimization_barrier")
    assert entries_under(site, g, ("pkg.lax.",)) == ("pkg.lax.optimization_barrier",)
    assert entries_under(site, g, ()) == () and entries_under(site, g, ("pkg.nn.",)) == ()


def test_entries_under_walk_past_public_names_and_share_the_raising_names_words_first() -> None:
    # 7554: ``TMEMRef.slice`` is a public name users cannot call (its objects are made while lowering); the kernel's
    # operations that reach it are further up, the ones named like the raising class first (tmem), then the nearer
    g = CallGraph(callers={"pkg.low.TMEMRef.slice": [("pkg.low.TMEMRef.at", "call"), ("pkg._rules._transform", "call")],
                           "pkg._rules._transform": [("pkg._rules.load_p", "register"), ("pkg._rules.copy_p", "register")],
                           "pkg._rules.load_p": [("pkg._prims.async_load_tmem", "call")],
                           "pkg._rules.copy_p": [("pkg._prims.copy_smem", "call")]},
                  public={"pkg.low.TMEMRef.slice": "pkg.low.TMEMRef.slice", "pkg.low.TMEMRef.at": "pkg.low.TMEMRef.at",
                          "pkg._prims.async_load_tmem": "pkg.gpu.async_load_tmem", "pkg._prims.copy_smem": "pkg.gpu.copy_smem",
                          "pkg._rules.load_p": "pkg.gpu.load_p"})
    site = _site_in("pkg.low", "TMEMRef.slice")
    assert entries_under(site, g, ("pkg.gpu.",)) == ("pkg.gpu.async_load_tmem", "pkg.gpu.copy_smem")  # no ``_p``
    assert entries_under(site, g, ("pkg.gpu.",), limit=1) == ("pkg.gpu.async_load_tmem",)
