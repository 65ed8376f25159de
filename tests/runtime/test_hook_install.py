"""``errdex hook install --python`` into a Python 3.11 virtual environment holding only click.

The environment is made with the interpreter's own ``venv`` (without pip), and
click is installed into it by copying the click package and its ``.dist-info``
from errdex's own environment (what pip would unpack; no network needed).
errdex is not installed there: the hook must work with the standard library
alone.  Each test runs the environment's Python as a user would.
"""

from __future__ import annotations

import ast
import glob
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from errdex.runtime import installer as H

CLICK_ERROR = textwrap.dedent(
    """
    import click

    @click.command()
    @click.option("--count", type=int)
    def main(count):
        print(count)

    main(["--count", "x"], standalone_mode=False)
    """
)


def find_python(version: str) -> str | None:
    """``pythonX.Y`` on PATH or under pyenv that runs and is that version, as scripts/setup.sh looks."""
    candidates = [shutil.which(f"python{version}")]
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    candidates += sorted(glob.glob(os.path.join(root, "versions", f"{version}*", "bin", "python3")))
    want = tuple(int(x) for x in version.split("."))
    for c in candidates:
        if not c or not os.access(c, os.X_OK):
            continue
        ok = subprocess.run([c, "-c", f"import sys; raise SystemExit(sys.version_info[:2] != {want!r})"],
                            capture_output=True, check=False, timeout=60)
        if ok.returncode == 0:  # a pyenv shim of a version that is not active fails here
            return c
    return None


def make_venv(python: str, target: Path, with_click: bool) -> Path:
    subprocess.run([python, "-m", "venv", "--without-pip", str(target)], check=True, capture_output=True, timeout=120)
    exe = target / "bin" / "python"
    if with_click:
        import click

        site = Path(H.probe(str(exe)).purelib)
        pkg = Path(click.__file__).parent
        shutil.copytree(pkg, site / "click", ignore=shutil.ignore_patterns("__pycache__"))
        for info in pkg.parent.glob("click-*.dist-info"):
            shutil.copytree(info, site / info.name)
    return exe


PY311 = find_python("3.11")
# In CI a missing 3.11 fails (the venv fixture asserts it): a skip there would hide the done-means check.
needs_311 = pytest.mark.skipif(PY311 is None and not os.environ.get("CI"),
                               reason="no Python 3.11 found (PATH python3.11, or pyenv versions/3.11*)")


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("errdex-home")


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert PY311 is not None
    return make_venv(PY311, tmp_path_factory.mktemp("v311") / "env", with_click=True)


def env_for(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ERRDEX_"))}
    return {**env, "ERRDEX_HOME": str(home), **extra}


def errdex(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "errdex", *args], capture_output=True, text=True,
                          env=env_for(home), check=False, timeout=300)


def run_script(exe: Path, code: str, tmp: Path, home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    script = tmp / "app.py"
    script.write_text(code)
    return subprocess.run([str(exe), str(script)], capture_output=True, text=True, env=env_for(home, **extra),
                          cwd=tmp, check=False, timeout=300)


def traceback_part(stderr: str) -> str:
    return stderr.split("\nerrdex:", 1)[0]


@needs_311
@pytest.mark.slow
def test_a_click_error_is_explained_after_hook_install(venv: Path, home: Path, tmp_path: Path) -> None:
    done = errdex("hook", "install", "--python", str(venv), home=home)
    assert done.returncode == 0, done.stderr
    assert "errdex hook installed" in done.stdout
    status = errdex("hook", "status", "--python", str(venv), "--json", home=home)
    assert '"installed": true' in status.stdout and '"command_found": true' in status.stdout

    first = run_script(venv, CLICK_ERROR, tmp_path, home)  # click is not in the catalog yet: indexed now
    assert first.returncode == 1
    err = first.stderr
    assert err.startswith("Traceback (most recent call last):")
    assert err.index("click.exceptions.BadParameter: 'x' is not a valid integer.") < err.index("\nerrdex: ")
    assert "errdex: click.exceptions.BadParameter · pallets/click · " in err
    # the wait is announced as it starts, after the traceback
    assert err.index("'x' is not a valid integer.") < err.index("errdex: indexing click ") < err.index("errdex: click.")
    # the message is forwarded through ParamType.fail: the caller's template is what matched
    assert "  {value} is not a valid {self.name}." in err
    assert "page: errdex show " in err and "raised at: https://github.com/pallets/click/blob/" in err

    again = run_script(venv, CLICK_ERROR, tmp_path, home)  # from the catalog now
    assert "errdex: click.exceptions.BadParameter · pallets/click · " in again.stderr
    assert "errdex: indexing" not in again.stderr
    listed = errdex("stats", "--json", home=home)
    assert listed.stdout.count('"installed:click"') == 1  # indexed once, not per error

    # the traceback is exactly Python's: no frame, no line added before errdex's note
    off = run_script(venv, CLICK_ERROR, tmp_path, home, ERRDEX_HOOK="0")
    assert "errdex:" not in off.stderr and off.returncode == 1
    assert traceback_part(again.stderr) == off.stderr.rstrip("\n")


@needs_311
@pytest.mark.slow
def test_missing_or_failing_errdex_never_hides_the_traceback(home: Path, tmp_path: Path) -> None:
    assert PY311 is not None
    exe = make_venv(PY311, tmp_path / "env", with_click=False)
    code = "def f():\n    raise ValueError('boom')\nf()\n"
    H.install(str(exe), command=[str(tmp_path / "no-such-errdex")])
    gone = run_script(exe, code, tmp_path, home)
    assert gone.returncode == 1
    assert traceback_part(gone.stderr).endswith("ValueError: boom")
    assert "errdex: the hook could not run errdex" in gone.stderr
    assert "is gone" in H.status(str(exe)).messages[0]

    H.install(str(exe), command=[sys.executable, "-c", "import sys; sys.stderr.write('kaput'); sys.exit(3)"])
    failing = run_script(exe, code, tmp_path, home)
    assert traceback_part(failing.stderr).endswith("ValueError: boom")
    assert "errdex: could not explain this error (kaput)" in failing.stderr


@needs_311
def test_start_up_imports_only_the_hook_and_uninstall_removes_it(home: Path, tmp_path: Path) -> None:
    assert PY311 is not None
    exe = make_venv(PY311, tmp_path / "env", with_click=False)
    probe = "import sys; print(sorted(sys.modules))"

    def modules() -> set[str]:
        out = subprocess.run([str(exe), "-c", probe], capture_output=True, text=True, env=env_for(home), check=True)
        return set(ast.literal_eval(out.stdout))  # the list of module names the probe printed

    before = modules()
    H.install(str(exe))
    assert modules() - before == {"_errdex_hook"}  # threading, IPython: patched only if the program imports them
    hooked = subprocess.run([str(exe), "-c", "import sys, _errdex_hook; print(sys.excepthook is _errdex_hook.excepthook)"],
                            capture_output=True, text=True, env=env_for(home), check=True)
    assert hooked.stdout.strip() == "True"
    off = subprocess.run([str(exe), "-c", "import sys; print(sys.excepthook is sys.__excepthook__)"],
                         capture_output=True, text=True, env=env_for(home, ERRDEX_HOOK="0"), check=True)
    assert off.stdout.strip() == "True"

    st = H.uninstall(str(exe))
    assert not st.installed
    assert not list(Path(H.probe(str(exe)).purelib).glob("_errdex_hook*"))
    assert modules() == before
    status = errdex("hook", "status", "--python", str(exe), home=home)
    assert status.returncode == 0 and "not installed" in status.stdout


@needs_311
@pytest.mark.slow
def test_an_uncaught_error_in_a_thread_is_explained_too(venv: Path, home: Path, tmp_path: Path) -> None:
    errdex("hook", "install", "--python", str(venv), home=home)
    code = "import threading\n" + CLICK_ERROR.replace('main(["--count", "x"], standalone_mode=False)',
                                                      't = threading.Thread(target=main, args=(["--count", "x"],),'
                                                      ' kwargs={"standalone_mode": False})\nt.start(); t.join()')
    proc = run_script(venv, code, tmp_path, home)
    assert "Exception in thread" in proc.stderr
    assert "errdex: click.exceptions.BadParameter · pallets/click · " in proc.stderr


@pytest.mark.parametrize("version", ["3.9"])
def test_the_hook_runs_on_the_oldest_python(version: str, home: Path, tmp_path: Path) -> None:
    python = find_python(version)
    if python is None:
        pytest.skip(f"no Python {version} found")
    exe = make_venv(python, tmp_path / "env", with_click=False)
    H.install(str(exe))
    proc = run_script(exe, "import threading\nraise KeyError('mine')\n", tmp_path, home)
    assert proc.returncode == 1 and proc.stderr.rstrip().endswith("KeyError: 'mine'")  # quiet: no confident match
    assert H.status(str(exe)).current
    # a library error is explained (the fixture is on PYTHONPATH, indexed beforehand)
    fixture = Path(__file__).parent.parent / "fixtures" / "rt_parcel"
    db = str(tmp_path / "parcel.sqlite")
    done = errdex("index", str(fixture), "--repo", "acme/parcel", "--ref", "v1.4.0", "--db", db, home=home)
    assert done.returncode == 0, done.stderr
    lib = run_script(exe, "import parcel\nparcel.ship(45.5, carrier='bike')\n", tmp_path, home,
                     PYTHONPATH=str(fixture), ERRDEX_DB=db)
    assert lib.stderr.index("CarrierError: parcel of 45.5 kg") < lib.stderr.index("errdex: parcel.shipping.CarrierError")


@needs_311
@pytest.mark.slow
def test_index_installed_from_another_interpreter(venv: Path, tmp_path: Path) -> None:
    """``errdex index installed:click --python PATH``: the distribution of that environment, not errdex's own."""
    db = str(tmp_path / "c.sqlite")
    done = errdex("index", "installed:click", "--python", str(venv), "--db", db, "--json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"source": "installed:click"' in done.stdout and '"repo": "pallets/click"' in done.stdout
    missing = errdex("index", "installed:no-such-dist", "--python", str(venv), "--db", db, home=tmp_path)
    assert missing.returncode == 1 and str(venv) in missing.stderr


def test_a_python_older_than_3_9_is_refused(home: Path) -> None:
    python = find_python("3.8")
    if python is None:
        pytest.skip("no Python 3.8 found")
    done = errdex("hook", "install", "--python", python, home=home)
    assert done.returncode == 1 and "is too old (the hook needs 3.9+)" in done.stderr
    assert not list(Path(python).resolve().parent.parent.glob("lib/python3.8/site-packages/_errdex_hook*"))
