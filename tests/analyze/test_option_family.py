"""Related errors through options of one family (rating 8, fef1): the error raised under `jax_no_execution`
relates to the one raised under `jax_no_tracing`, the check of the same kind defined next to it."""

from __future__ import annotations

from dataclasses import replace

from errdex.analyze.context import SnapshotContext
from errdex.analyze.optionfamily import family
from errdex.analyze.related import related_errors
from errdex.catalog import SqliteCatalog
from errdex.model import ConfigOption, Snapshot

from .conftest import site_with

CFG = "pkg/_src/config.py"


def _opt(name: str, line: int, help_text: str, default: str = "False") -> ConfigOption:
    return ConfigOption(name=name, default=default, help=help_text, path=CFG, line=line, adapter="jax:bool_state")


def test_a_family_is_a_run_of_neighbouring_checks_of_the_same_kind() -> None:
    no_exec = _opt("jax_no_execution", 1856, "Disallow JAX executions.")
    no_trace = _opt("jax_no_tracing", 1851, "Disallow tracing for JIT compilation.")
    no_x = _opt("jax_no_transfers", 1861, "Disallow transfers between host and device.")
    remat = _opt("jax_enable_remat_pass", 1843, "Config to enable the rematerialization pass.", "True")
    shmap = _opt("jax_disable_vmap_shmap_error", 1870, "Temporary workaround to disable an error check.")
    opts = [remat, no_trace, no_exec, no_x, shmap]
    assert [o.name for o in family(no_exec, opts)] == ["jax_no_tracing", "jax_no_transfers"]
    assert [o.name for o in family(no_trace, opts)] == ["jax_no_execution", "jax_no_transfers"]  # the run goes on
    assert family(remat, opts) == ()  # a setting, not a check
    assert family(shmap, opts) == ()  # a check, but its help opens with another verb
    # the run stops at an option of another kind between them; another file or default is no kin
    between = _opt("jax_cache_dir", 1853, "Disallowed characters are escaped.", default="''")
    assert [o.name for o in family(no_exec, [no_trace, between, no_exec])] == []
    assert family(no_exec, [replace(no_trace, path="pkg/other.py"), no_exec]) == ()
    assert family(no_exec, [replace(no_trace, default="True"), no_exec]) == ()


def test_the_error_of_one_check_option_lists_the_error_of_its_sibling(
        jaxlike: tuple[SqliteCatalog, Snapshot, SnapshotContext]) -> None:
    _cat, _snap, ctx = jaxlike
    no_exec = site_with(ctx, "but the no_execution config")
    no_trace = site_with(ctx, "but 'no_tracing' is set")
    rel = {r.error_id: r.reason for r in related_errors(no_exec, ctx)}
    assert no_trace.error_id in rel
    assert rel[no_trace.error_id].startswith(
        "checked under `jax_no_tracing`, an option of the same kind as `jax_no_execution`, defined next to it "
        "(\"Disallow tracing for JIT compilation.\")")
    back = {r.error_id: r.reason for r in related_errors(no_trace, ctx)}
    assert "checked under `jax_no_execution`" in back[no_exec.error_id]
