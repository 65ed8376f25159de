"""The runtime hooks, run as a user would: a script, pytest and IPython, on an indexed fixture."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent.parent / "fixtures" / "rt_parcel"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("errdex-home")
    db = home / "catalog.sqlite"
    subprocess.run(
        [sys.executable, "-m", "errdex", "index", str(FIXTURE), "--repo", "acme/parcel", "--ref", "v1.4.0", "--db", str(db)],
        check=True,
        capture_output=True,
        env={**os.environ, "ERRDEX_HOME": str(home)},
    )
    return db


def _env(db: Path) -> dict[str, str]:
    return {**os.environ, "ERRDEX_DB": str(db), "PYTHONPATH": str(FIXTURE)}


SCRIPT = "import parcel\nparcel.ship(45.5, carrier='bike')\n"


def test_excepthook_names_the_error_after_the_traceback(catalog: Path, tmp_path: Path) -> None:
    script = tmp_path / "send.py"
    script.write_text(SCRIPT)
    proc = subprocess.run(
        [sys.executable, "-m", "errdex.runtime", str(script)], capture_output=True, text=True, env=_env(catalog)
    )
    assert proc.returncode == 1
    err = proc.stderr
    # Python's own traceback comes first, unchanged ...
    assert "Traceback (most recent call last)" in err
    assert err.index("CarrierError: parcel of 45.5 kg") < err.index("errdex:")
    # ... then the note: the error's page id, its title (the template) and where it is raised.
    assert "errdex: parcel.shipping.CarrierError · acme/parcel · " in err
    assert "parcel of {weight_kg} kg exceeds the" in err
    assert "parcel/shipping.py#L13" in err
    assert "page: errdex show " in err


def test_excepthook_links_pages_when_a_server_is_named(catalog: Path, tmp_path: Path) -> None:
    script = tmp_path / "send.py"
    script.write_text(SCRIPT)
    env = {**_env(catalog), "ERRDEX_URL": "http://127.0.0.1:8000/"}
    proc = subprocess.run([sys.executable, "-m", "errdex.runtime", str(script)], capture_output=True, text=True, env=env)
    assert "page: http://127.0.0.1:8000/errors/" in proc.stderr


def test_excepthook_is_quiet_about_unknown_errors(catalog: Path, tmp_path: Path) -> None:
    script = tmp_path / "other.py"
    script.write_text("raise KeyError('nothing errdex knows')\n")
    proc = subprocess.run([sys.executable, "-m", "errdex.runtime", str(script)], capture_output=True, text=True, env=_env(catalog))
    assert "KeyError" in proc.stderr
    assert "errdex:" not in proc.stderr


def test_missing_catalog_is_one_line_not_a_crash(tmp_path: Path) -> None:
    script = tmp_path / "send.py"
    script.write_text(SCRIPT)
    env = {**_env(tmp_path / "missing" / "dir" / "c.sqlite"), "ERRDEX_DB": str(tmp_path / "nodir" / "x" / "c.sqlite")}
    proc = subprocess.run([sys.executable, "-m", "errdex.runtime", str(script)], capture_output=True, text=True, env=env)
    assert "CarrierError" in proc.stderr
    assert proc.stderr.count("Traceback (most recent call last)") == 1


def test_pytest_plugin_adds_an_errdex_section(catalog: Path, tmp_path: Path) -> None:
    test = tmp_path / "test_ship.py"
    test.write_text(textwrap.dedent(
        """
        import parcel

        def test_heavy():
            parcel.ship(0)
        """
    ))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--errdex", str(test)],
        capture_output=True, text=True, env=_env(catalog), cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stdout
    assert "errdex" in proc.stdout
    assert "parcel weight must be positive" in proc.stdout
    assert "errdex: ValueError · acme/parcel" in proc.stdout


def test_pytest_plugin_is_off_by_default(catalog: Path, tmp_path: Path) -> None:
    test = tmp_path / "test_ship.py"
    test.write_text("import parcel\n\ndef test_heavy():\n    parcel.ship(0)\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(test)],
        capture_output=True, text=True, env=_env(catalog), cwd=tmp_path,
    )
    assert "errdex: ValueError" not in proc.stdout


def test_ipython_extension(catalog: Path, tmp_path: Path) -> None:
    pytest.importorskip("IPython")
    code = textwrap.dedent(
        """
        from IPython.testing.globalipapp import start_ipython
        ip = start_ipython()
        ip.run_line_magic("load_ext", "errdex.runtime.ipython")
        ip.run_cell("import parcel; parcel.ship(99, carrier='van')")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(catalog), cwd=tmp_path)
    out = proc.stdout + proc.stderr
    assert "CarrierError" in out
    assert "errdex: CarrierError" in out or "errdex: parcel.shipping.CarrierError" in out


def test_the_installed_hook_patches_ipython_when_it_is_imported(catalog: Path, tmp_path: Path) -> None:
    """The hook's .pth in a site directory: IPython, imported later, gets errdex's note after its traceback."""
    pytest.importorskip("IPython")
    from errdex.runtime.installer import PTH, PTH_LINE, errdex_command, hook_source

    site = tmp_path / "site"
    site.mkdir()
    (site / "_errdex_hook.py").write_text(hook_source(errdex_command()))
    (site / PTH).write_text(PTH_LINE)
    code = textwrap.dedent(
        f"""
        import site, sys
        site.addsitedir({str(site)!r})
        assert "IPython" not in sys.modules and "_errdex_hook" in sys.modules
        from IPython.testing.globalipapp import start_ipython
        ip = start_ipython()
        ip.run_cell("import parcel; parcel.ship(99, carrier='van')")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(catalog), cwd=tmp_path)
    out = proc.stdout + proc.stderr
    assert out.index("CarrierError") < out.index("errdex: parcel.shipping.CarrierError · acme/parcel")
