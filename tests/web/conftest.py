"""Catalogs built the way a user builds them (``errdex index`` of a fixture package,
then ``errdex analyze``), and servers started the way a user starts them
(``errdex serve`` on a free loopback port)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_data import write_analyses
from webkit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    FIXTURES,
    SHOP_V1_COMMIT,
    SHOP_V2_COMMIT,
    Built,
    Server,
    _env,
    analyze,
    run_errdex,
    start_server,
    stop_server,
)

from jaxsrc import JaxSource


@pytest.fixture(scope="session")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """acme/shopcart at two versions: v2.0.0 (lines shifted by two) then v2.1.0, analysed."""
    base = tmp_path_factory.mktemp("shop")
    env = _env(base / "home")
    db = str(base / "catalog.sqlite")
    old = base / "v2.0.0"
    shutil.copytree(FIXTURES / "web_shop", old)
    cart = old / "shopcart" / "cart.py"
    cart.write_text('"""The cart (v2.0.0)."""\n\n' + cart.read_text())
    new = base / "v2.1.0"
    shutil.copytree(FIXTURES / "web_shop", new)
    run_errdex("index", str(old), "--repo", "acme/shopcart", "--ref", "v2.0.0", "--commit", SHOP_V1_COMMIT,
               "--db", db, env=env)
    run_errdex("index", str(new), "--repo", "acme/shopcart", "--ref", "v2.1.0", "--commit", SHOP_V2_COMMIT,
               "--db", db, env=env)
    return Built(db=db, env=env, analyzed_by=analyze(db, env, "acme/shopcart"))


@pytest.fixture(scope="session")
def xss(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The hostile package, with hostile text in every analysis field too."""
    base = tmp_path_factory.mktemp("xss")
    env = _env(base / "home")
    db = str(base / "catalog.sqlite")
    src = base / "xsslib"
    shutil.copytree(FIXTURES / "web_xss", src)
    run_errdex("index", str(src), "--repo", "evil/xsslib", "--commit", "4" * 40, "--db", db, env=env)
    write_analyses(db)
    return Built(db=db, env=env, analyzed_by="web_data")


@pytest.fixture(scope="session")
def jax(tmp_path_factory: pytest.TempPathFactory, jax_source: JaxSource) -> Built:
    """JAX at jax-v0.10.2 (checkout or wheel, see tests/jaxsrc.py), indexed and analysed."""
    base = tmp_path_factory.mktemp("jax")
    env = _env(base / "home")
    db = str(base / "catalog.sqlite")
    run_errdex("index", *jax_source.index_args(), "--db", db, "-j", "1", env=env)
    return Built(db=db, env=env, analyzed_by=analyze(db, env, "jax-ml/jax"))


@pytest.fixture(scope="session")
def shop_server(shop: Built) -> Iterator[Server]:
    server = start_server(shop)
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def xss_server(xss: Built) -> Iterator[Server]:
    server = start_server(xss)
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def jax_server(jax: Built) -> Iterator[Server]:
    server = start_server(jax)
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's chromium driven by Playwright (never `playwright install`)."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):  # .ci/run installs chromium: a skip there would hide a broken set-up
            pytest.fail(f"chromium is needed in CI: no {CHROMIUM}")
        pytest.skip(f"no {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
