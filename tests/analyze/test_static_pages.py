"""The static backend on the JAX-shaped fixture: the facts each seed error's page must state."""

from __future__ import annotations

from errdex.analyze.context import SnapshotContext
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.analyze.static.samples import catch_clause
from errdex.analyze.verify import check_sample
from errdex.catalog import SqliteCatalog
from errdex.model import Analysis, Snapshot

from .conftest import site_with


def _page(jaxlike: tuple[SqliteCatalog, Snapshot, SnapshotContext], text: str) -> Analysis:
    cat, snap, ctx = jaxlike
    facts = gather_facts(cat, snap, site_with(ctx, text), context=ctx)
    return analyze_static(facts, ctx.all_symbols)


def _all_text(a: Analysis) -> str:
    return "\n".join([a.meaning, *(s.text for s in a.solutions), a.example_fix.before, a.example_fix.after,
                      a.validate_sample, a.try_sample, *a.prevention, a.trigger, *a.situations])


def _samples_verify(a: Analysis, ctx: SnapshotContext) -> None:
    """Published samples verify; an empty slot waits for a proven example (issue 15), never a mirror."""
    for code in (a.example_fix.before, a.example_fix.after, a.validate_sample, a.try_sample):
        assert "would_raise" not in code and (not code.strip() or not code.lstrip().startswith("#")), code
        assert check_sample(code, ctx.all_symbols) == [], code


def test_no_execution_names_the_env_var_and_the_update_call(jaxlike) -> None:  # type: ignore[no-untyped-def]
    a = _page(jaxlike, "no_execution config")
    text = _all_text(a)
    assert "JAX_NO_EXECUTION" in text
    assert "jax.config.update(\"jax_no_execution\", False)" in text
    assert a.strategy == "configuration"
    assert "the `jax_no_execution` option is on" in a.meaning
    assert any(e.kind == "config" and e.path == "jax/_src/config.py" for s in a.solutions for e in s.evidence)
    # the example comes from the test that triggers it, with the option's context manager removed in "after"
    assert "with jax.no_execution():" in a.example_fix.before
    assert "with jax.no_execution():" not in a.example_fix.after
    _samples_verify(a, jaxlike[2])


def test_no_tracing_names_the_option_and_doing_the_work_first(jaxlike) -> None:  # type: ignore[no-untyped-def]
    a = _page(jaxlike, "'no_tracing' is set")
    text = _all_text(a)
    assert "jax_no_tracing" in text and "JAX_NO_TRACING" in text
    assert "Disallow tracing for JIT compilation." in a.meaning
    # rating 5 (53c4): the cache is keyed on the function object, so warming up helps only for the same one
    warm = next(s.text for s in a.solutions if s.text.startswith("Warm the cache"))
    assert "keyed on the function object passed as `fun`" in warm and "inline" in warm
    assert any("the same function objects (defined once, not inline lambdas)" in p for p in a.prevention)
    _samples_verify(a, jaxlike[2])


def test_eager_shard_map_page_passes_on_the_message_advice(jaxlike) -> None:  # type: ignore[no-untyped-def]
    a = _page(jaxlike, "Eager shard_map")
    assert any("Please wrap your shard_map in `jax.jit`" in s.text for s in a.solutions)
    assert "that runs eagerly" in a.meaning  # no guard: the eager-rules table it is registered in says when
    # the example is the test that triggers it, and "after" does what the message says
    assert "jax.shard_map(f, out_specs=None)(1)" in a.example_fix.before
    assert "jax.jit(jax.shard_map(f, out_specs=None))(1)" in a.example_fix.after
    _samples_verify(a, jaxlike[2])


def test_run_scoped_page_says_to_leave_collective_axes_empty(jaxlike) -> None:  # type: ignore[no-untyped-def]
    a = _page(jaxlike, "run_scoped lowering outside of Pallas")
    assert "`collective_axes` is true (non-empty)" in a.meaning
    # no public call binds the fixture's primitive: the page says what the call must avoid, not "call the rule"
    assert any("must avoid this: `collective_axes` is true (non-empty)" in s.text for s in a.solutions)
    assert not any("internal function" in s.text for s in a.solutions)
    assert "would_raise" not in a.validate_sample + a.example_fix.after  # no mirror of the library's check
    _samples_verify(a, jaxlike[2])


def test_type_guard_and_public_exception_name(jaxlike) -> None:  # type: ignore[no-untyped-def]
    a = _page(jaxlike, "Abstract value passed as axis")
    assert a.strategy == "type-guard"
    assert "`axis` is not an int or a tuple" in a.meaning or "`axis` is not an int or tuple" in a.meaning
    cat, snap, ctx = jaxlike
    f = gather_facts(cat, snap, site_with(ctx, "Abstract value passed as axis"), context=ctx)
    assert catch_clause(f) == ("import jax", "jax.errors.ConcretizationTypeError")  # the class user code can name
    assert a.try_sample == ""  # one that only re-raises defends nothing (rating 8)
    assert "traced value is used where a concrete value is required" in a.meaning  # the class docstring
    _samples_verify(a, jaxlike[2])


def test_import_guard_is_a_dependency(jaxlike) -> None:  # type: ignore[no-untyped-def]
    a = _page(jaxlike, "Mosaic backend is not installed")
    assert a.strategy == "dependency"
    assert "importing `jaxlib_mosaic_backend` failed" in a.meaning
    assert "find_spec('jaxlib_mosaic_backend')" in a.validate_sample


def test_env_var_guard_links_the_generic_env_option(jaxlike) -> None:  # type: ignore[no-untyped-def]
    a = _page(jaxlike, "compilation cache directory is set")
    assert "JAX_CACHE_DIR" in _all_text(a)
    assert a.strategy == "configuration"


def test_related_errors_prefer_the_same_function(jaxlike) -> None:  # type: ignore[no-untyped-def]
    a = _page(jaxlike, "'no_tracing' is set")
    # the ValueError beside it in the same function checks nothing the no_tracing check reads: a weak relation,
    # dropped (rating 7, eb3a); the empty list says why, naming the option by its public name
    assert not any("avals" in r.title for r in a.related), a.related
    assert a.related or "`no_tracing`" in a.related_note or "no_tracing" in a.related_note, a.related_note
    assert len(a.related) <= 5


def test_pages_are_deterministic(jaxlike) -> None:  # type: ignore[no-untyped-def]
    assert _page(jaxlike, "no_execution config") == _page(jaxlike, "no_execution config")


def test_every_error_of_the_fixture_gets_every_section(jaxlike) -> None:  # type: ignore[no-untyped-def]
    from errdex.analyze.run import analyze_snapshot

    cat, snap, ctx = jaxlike
    report = analyze_snapshot(cat, snap)
    assert report.failures == ()
    assert len(report.analyses) == len({s.error_id for s in ctx.sites}) >= 10
    for a in report.analyses:
        assert a.meaning and a.solutions and a.trigger, a.error_id  # prevention, situations: may say nothing
        assert a.strategy in ("validation", "type-guard", "configuration", "dependency", "state", "unsupported")
        assert all(s.evidence for s in a.solutions), a.error_id
        for code in (a.example_fix.before, a.example_fix.after, a.validate_sample, a.try_sample):
            assert check_sample(code, ctx.all_symbols) == [], (a.error_id, code)


def test_every_error_gets_every_section(jaxlike) -> None:  # type: ignore[no-untyped-def]
    catalog, snap, ctx = jaxlike
    sites = list(catalog.sites(snap.key))
    assert len(sites) > 5
    for site in sites:
        f = gather_facts(catalog, snap, site, context=ctx)
        a = analyze_static(f, ctx.all_symbols)
        # a try sample only where it does something (the option's fallback); else the note says why none
        tried = "add_note" not in a.try_sample and (a.try_sample.rstrip().endswith(")") or not a.try_sample)
        missing = [name for name, value in [
            ("meaning", a.meaning), ("solutions", a.solutions), ("try", tried),
            ("trigger", a.trigger), ("strategy", a.strategy),
        ] if not value]
        assert not missing, (site.path, site.line, site.template.render(), missing)


def test_related_by_the_same_operation_and_never_by_module_and_type_alone(jaxlike) -> None:  # type: ignore[no-untyped-def]
    """The interpret rule of ``run_scoped`` is related to its lowering rule (another rule of the same
    operation), not to the unrelated NotImplementedError beside it in the same module."""
    a = _page(jaxlike, "run_scoped interpret rule")
    assert "interpret mode" in a.meaning
    assert a.related[0].reason == "another rule of the same operation `run_scoped`, checking the same `collective_axes`"
    assert "lowering outside of Pallas" in a.related[0].title
    assert not any("no closer relation" in r.reason or "same exception type" in r.reason for r in a.related)
    assert not any("poisoning" in r.title for r in a.related)


def test_the_messages_context_gives_the_way_around(jaxlike) -> None:  # type: ignore[no-untyped-def]
    """"... outside of Pallas": inside Pallas the rule does not apply; an interpreter rule: compiled, it does not."""
    lowering = _page(jaxlike, "run_scoped lowering outside of Pallas")
    assert any(s.text.startswith("Or run the code inside Pallas") for s in lowering.solutions)
    assert '"outside of Pallas" in the message' in lowering.meaning  # the context words, explained
    interpret = _page(jaxlike, "run_scoped interpret rule")
    assert any(s.text.startswith("Or run it compiled: leave out `interpret=True`")
               for s in interpret.solutions)


def test_inside_says_how_where_the_library_names_it(jaxlike, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # rating 12 (91c3): "run the code inside Pallas" did not say how; the library's adapter names where user code
    # runs inside it, and a library without an entry keeps the plain sentence
    from errdex.analyze import adapters

    pkg = jaxlike[2].sites[0].module.split(".", 1)[0]
    monkeypatch.setitem(adapters.INSIDE, pkg, ())
    plain = _page(jaxlike, "run_scoped lowering outside of Pallas")
    assert any(s.text.startswith("Or run the code inside Pallas: ") for s in plain.solutions)
    monkeypatch.setitem(adapters.INSIDE, pkg, (("Pallas", "in the body of a kernel you pass to `kernel_call`"),))
    lowering = _page(jaxlike, "run_scoped lowering outside of Pallas")
    assert any(s.text.startswith("Or run the code inside Pallas (in the body of a kernel you pass to `kernel_call`): ")
               for s in lowering.solutions), [s.text for s in lowering.solutions]
    assert any(p.endswith("to code that runs inside Pallas (in the body of a kernel you pass to `kernel_call`).")
               for p in lowering.prevention), lowering.prevention
