"""The recorder and the runner on the fixture shop: real pytest runs in the sandbox, real events.

No environment is built here (that needs the network; see test_observe_cli.py):
the sandbox runs this interpreter, which has pytest, with the fixture's
folder as the library's site-packages.  Everything else is the real path:
the jail, the limits, the plugin, the JSON lines, the mapping to the sites
that ``extract`` found in the fixture.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from errdex.extract import extract_tree
from errdex.model import ErrorSite, Observation
from errdex.observe.mapping import SiteIndex, observations
from errdex.observe.run import RunOutput, RunPlan, prepare_project, run_plan
from errdex.sandbox import Environment, Limits
from errdex.sources import open_source

SHOP = Path(__file__).resolve().parents[1] / "fixtures" / "obs_shop"


def shop_sites() -> list[ErrorSite]:
    with open_source(str(SHOP)) as tree:
        return list(extract_tree(tree, jobs=1).sites)


def plan_for(ws: Path, files: tuple[str, ...], *, mode: str = "auto", timeout: float = 60,
             memory: int = 4 * 1024**3, root: Path = SHOP) -> RunPlan:
    venv = Path(sys.executable).parent.parent
    env = Environment(key="test-env", root=venv, python=Path(sys.executable),
                      python_version=".".join(map(str, sys.version_info[:3])), site_packages=(root,),
                      requirement="obs-shop @ fixture")
    project = prepare_project(ws, root, files)
    return RunPlan(workspace=ws, project=project, files=files, env=env, roots=("shop",),
                   limits=Limits(timeout_s=timeout, memory_bytes=memory, max_procs=64), mode=mode,
                   pythonpath=(str(root),), extra_args=("-p", "no:errdex"))


def observed(out: RunOutput) -> list[Observation]:
    tests = {t.test: t for t in out.tests}
    return list(observations("local/obs_shop@x", SiteIndex(shop_sites()), out.events, tests))


def one(found: list[Observation], path: str, message_part: str) -> Observation:
    hits = [o for o in found if o.path == path and message_part in o.message]
    assert len(hits) == 1, (message_part, [(o.path, o.line, o.message) for o in found])
    return hits[0]


@pytest.fixture(scope="module")
def monitored(tmp_path_factory: pytest.TempPathFactory) -> list[Observation]:
    ws = tmp_path_factory.mktemp("ws")
    out = run_plan(plan_for(ws, ("tests/test_prices.py", "tests/test_cart.py")))
    assert [o.status for o in out.outcomes] == ["ok", "ok"], out.outcomes
    return observed(out)


def test_escaping_error_with_its_real_message_test_and_entry(monitored: list[Observation]) -> None:
    o = one(monitored, "shop/prices.py", "unknown currency 'XYZ'")
    assert o.kind == "site" and o.error_id
    assert o.message == "unknown currency 'XYZ'; expected one of ['EUR', 'JPY', 'USD']"
    assert o.exception == "shop.errors.PriceError"
    assert o.test == "tests/test_prices.py::test_unknown_currency"
    assert (o.test_path, o.test_line) == ("tests/test_prices.py", 18)
    assert o.escaped and o.entry == "shop.prices.parse_price" and o.raised_by == "raise"
    assert [(a.name, a.repr) for a in o.entry_args] == [("text", "'1'"), ("currency", "'XYZ'")]
    assert o.chain[0].startswith("test_prices.test_unknown_currency (") or "test_unknown_currency" in o.chain[0]
    assert o.line == 13  # the raise statement's first line; its span is 13-16


def test_error_the_library_catches_itself_is_recorded_as_not_escaped(monitored: list[Observation]) -> None:
    inner = one(monitored, "shop/prices.py", "negative price '-3'")
    assert inner.kind == "site" and not inner.escaped
    assert inner.test == "tests/test_cart.py::test_cli_usage_error_is_a_message"
    assert inner.entry == "shop.cli.main"  # the public call, not the helper that raised
    wrapped = one(monitored, "shop/cli.py", "invalid price")
    assert wrapped.kind == "site" and not wrapped.escaped


def test_native_and_warning_and_reraise_kinds(monitored: list[Observation]) -> None:
    native = one(monitored, "shop/prices.py", "invalid literal for int()")
    assert native.kind == "native" and native.raised_by == "native" and native.escaped
    warn = one(monitored, "shop/prices.py", "comma in a price")
    assert warn.kind == "site" and warn.exception == "UserWarning"
    # `del self.items[name]` raises KeyError in C (caught), then `raise ShopError(...) from None` escapes.
    key_error = [o for o in monitored if o.exception == "KeyError"]
    assert len(key_error) == 1 and key_error[0].kind == "native" and not key_error[0].escaped
    remove = [o for o in monitored if o.message == "no item 'milk' in the cart"]
    assert len(remove) == 1 and remove[0].kind == "site" and remove[0].escaped


def test_unreached_site_is_not_observed(monitored: list[Observation]) -> None:
    sites = {s.error_id: s for s in shop_sites()}
    reached = {o.error_id for o in monitored if o.kind == "site"}
    never = [s for s in sites.values() if s.qualname == "Cart.never_tested"]
    assert len(never) == 1 and never[0].error_id not in reached
    # prices: currency, empty, negative, comma warning, decimals; cart: quantity, remove; cli: invalid price.
    assert len(reached) == 8
    assert {sites[e].path for e in reached} == {"shop/prices.py", "shop/cart.py", "shop/cli.py"}
    unreached = {(sites[e].path, sites[e].qualname) for e in sites if e not in reached}
    assert unreached == {("shop/prices.py", "parse_price"), ("shop/cart.py", "Cart.checkout"),
                         ("shop/cart.py", "Cart.never_tested"), ("shop/cli.py", "main")}


def test_trace_fallback_sees_the_same_sites(monitored: list[Observation], tmp_path: Path) -> None:
    out = run_plan(plan_for(tmp_path, ("tests/test_prices.py", "tests/test_cart.py"), mode="trace"))
    assert {o.mode for o in out.outcomes} == {"trace"}
    traced = observed(out)

    def key(o: Observation) -> tuple[str, int, str, str, bool]:
        return (o.path, o.line, o.test, o.message, o.escaped)

    assert {key(o) for o in traced} == {key(o) for o in monitored}


def test_resume_skips_finished_files(tmp_path: Path) -> None:
    plan = plan_for(tmp_path, ("tests/test_prices.py",))
    first = run_plan(plan)
    again = run_plan(plan)
    assert [o.resumed for o in again.outcomes] == [True]
    assert again.events == first.events


@pytest.mark.slow
def test_hostile_files_neither_stop_the_run_nor_escape(tmp_path: Path) -> None:
    marker = Path.home() / "errdex-observe-hostile-marker"
    marker.unlink(missing_ok=True)
    files = ("hostile/test_hang.py", "hostile/test_forkbomb.py", "hostile/test_memory.py",
             "hostile/test_network.py", "hostile/test_home.py", "tests/test_prices.py")
    plan = plan_for(tmp_path, files, timeout=40, memory=1024**3)
    plan = RunPlan(**{**{f: getattr(plan, f) for f in RunPlan.__dataclass_fields__}, "jobs": 2})
    out = run_plan(plan)
    status = {o.file: o.status for o in out.outcomes}
    assert status["hostile/test_hang.py"] == "timeout"
    assert status["hostile/test_memory.py"] in ("tests-failed", "crash")
    assert status["hostile/test_home.py"] == "ok"  # it wrote, but to the scratch HOME ...
    assert not marker.exists()  # ... not to the real one
    if out.outcomes[0].network.startswith(("namespace", "user-namespace")):
        assert status["hostile/test_network.py"] == "tests-failed"
    assert status["hostile/test_forkbomb.py"] in ("ok", "tests-failed", "crash")
    assert status["tests/test_prices.py"] == "ok"  # the run went on and still recorded
    assert any("unknown currency" in e.message for e in out.events)


TESTING = """\
def with_currency(code):
    # like jax._src.test_util.with_explicit_mesh: the wrapper keeps the test only in its closure
    def decorator(fn):
        def currency_fn(*args, **kwargs):
            return fn(*args, **kwargs, currency=code)
        return currency_fn
    return decorator
"""

DECORATED = """\
import pytest

from shop import parse_price
from shop.testing import with_currency


@with_currency("XYZ")
def test_decorated_unknown_currency(currency):
    with pytest.raises(ValueError):
        parse_price("1", currency=currency)
"""


@pytest.mark.parametrize("mode", ["monitoring", "trace"])
def test_wrapper_in_the_librarys_test_utilities_is_not_the_library_catching(tmp_path: Path, mode: str) -> None:
    # The test is called through a wrapper in the library's own files (its test utilities); the
    # error escapes from the library's call into the test (pytest.raises there): it is not an error
    # the library caught itself, and the entry is the library call below the test, not the wrapper.
    if mode == "monitoring" and not hasattr(sys, "monitoring"):
        pytest.skip("sys.monitoring needs Python 3.12")
    root = tmp_path / "shop_copy"
    shutil.copytree(SHOP, root, ignore=shutil.ignore_patterns("hostile", "__pycache__"))
    (root / "shop" / "testing.py").write_text(TESTING)
    (root / "tests" / "test_decorated.py").write_text(DECORATED)
    ws = tmp_path / "ws"
    ws.mkdir()
    out = run_plan(plan_for(ws, ("tests/test_decorated.py",), mode=mode, root=root))
    assert [o.status for o in out.outcomes] == ["ok"], out.outcomes
    o = one(observed(out), "shop/prices.py", "unknown currency 'XYZ'")
    assert o.test == "tests/test_decorated.py::test_decorated_unknown_currency"
    assert (o.test_path, o.test_line) == ("tests/test_decorated.py", 7)  # located by the test's code, not the wrapper
    assert o.entry == "shop.prices.parse_price" and o.escaped
    assert not any("currency_fn" in c for c in o.chain)
