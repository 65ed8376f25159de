"""Meaning says what a diagnostic option is for, and why a message names a public call that is not the page's
route (``analyze/static/purpose.py``; rating 10-A on 53c4: the seed said "a diagnostic mode ... to verify code
is fully covered by caches", readers asked why a non-``jit`` ``lax.cond`` says "for `jit`").  On the JAX-shaped
fixture package (an_jaxlike): its cached ``trace_to_jaxpr`` under ``jax_no_tracing``, its uncached
``ExecuteReplicated.__call__`` under ``jax_no_execution``."""

from __future__ import annotations

from dataclasses import replace

from errdex.analyze.context import SnapshotContext
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.analyze.static.purpose import check_purpose, named_elsewhere
from errdex.catalog import SqliteCatalog
from errdex.model import PublicPath, Snapshot

from .conftest import site_with

JaxLike = tuple[SqliteCatalog, Snapshot, SnapshotContext]
LAX = ("jax.lax.while_loop", "jax.lax.scan", "jax.lax.cond")


def test_a_diagnostic_option_says_what_it_verifies(jaxlike: JaxLike) -> None:
    cat, snap, ctx = jaxlike
    tracing = gather_facts(cat, snap, site_with(ctx, "but 'no_tracing' is set"), context=ctx)
    (of,) = tracing.option_facts
    said = check_purpose(tracing, of)
    # the help's words ("Disallow tracing for JIT compilation.") and the cache in front of the raise
    assert said.startswith("`jax_no_tracing` is a diagnostic check, not a setting that changes results")
    assert "fully covered by the cache in front of `trace_to_jaxpr` and needs no tracing for JIT compilation" in said
    execution = gather_facts(cat, snap, site_with(ctx, "no_execution config"), context=ctx)
    (ex,) = execution.option_facts
    plain = check_purpose(execution, ex)
    assert plain.endswith("it verifies that the code needs no JAX executions.") and "cache" not in plain
    # help text that says nothing of what it forbids: no sentence of purpose
    assert check_purpose(tracing, replace(of, purpose="Whether to trace.")) == ""
    assert check_purpose(tracing, replace(of, diagnostic=False)) == ""
    # on the page: the purpose, then that this error is the check firing
    meaning = analyze_static(tracing, ctx.all_symbols).meaning
    assert said in meaning and "This error is that check firing, and only on a cache miss" in meaning


def test_a_message_naming_another_public_call_says_the_raising_function_is_shared(jaxlike: JaxLike) -> None:
    cat, snap, ctx = jaxlike
    f = gather_facts(cat, snap, site_with(ctx, "but 'no_tracing' is set"), context=ctx)
    routed = replace(f, public_path=PublicPath(entries=LAX, chain=("jax.lax.while_loop", "trace_to_jaxpr"), depth=1),
                     earlier_entries=(("jax.jit",),), bypass=("jax.jit", "_infer_params", ("jit_trace",)))
    said = named_elsewhere(routed)
    assert said.startswith("The message says `jit` though the call is `jax.lax.while_loop`, `jax.lax.scan` or "
                           "`jax.lax.cond`: the raising function, `trace_to_jaxpr`, is shared: `jax.jit` reaches "
                           "it too (through `jit_trace`), and `jax.lax.while_loop`, `jax.lax.scan` and "
                           "`jax.lax.cond` go through the same step")
    assert "(the tracing for JIT compilation that `jax_no_tracing` forbids)" in said
    assert said in analyze_static(routed, ctx.all_symbols).meaning
    # the route's own call is named: nothing to explain; no other public call reaches it: nothing known
    assert named_elsewhere(replace(routed, public_path=PublicPath(entries=("jax.jit",), depth=1))) == ""
    assert named_elsewhere(replace(routed, earlier_entries=(), bypass=("", "", ()))) == ""
    assert named_elsewhere(f) == ""  # no public route at all
