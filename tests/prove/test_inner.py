"""The inner public call (``prove/inner.py``, ``inner_script.py``): an error a command's ``main``
turns into an exit code is proven through the public call on the recorded chain that lets it
escape.  A tiny click-like package: the tracer script on its own, then ``errdex prove`` end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.model import ErrorSite, Observation, ObservedArg, ObserveRun
from errdex.prove.inner import INNER_SCRIPT, chain_targets

from . import provekit

CORE = '''
class UsageError(Exception):
    """The command line does not fit the command."""


class Context:
    def __init__(self, command, info_name, resilient=False):
        self.command, self.info_name, self.resilient = command, info_name, resilient


class Command:
    def __init__(self, name, options=()):
        self.name, self.options = name, list(options)

    def make_context(self, info_name, args, parent=None, **extra):
        ctx = Context(self, info_name, **extra)
        self.parse_args(ctx, list(args))
        return ctx

    def parse_args(self, ctx, args):
        for arg in args:
            if arg.startswith("-") and arg not in self.options:
                raise UsageError(f"No such option {arg!r}.")

    def main(self, args):
        try:
            self.make_context(self.name, args)
        except UsageError as exc:
            print(f"Error: {exc}")
            return 2
        return 0


def complete(command, args):
    """What shell completion does: parse leniently."""
    try:
        return command.make_context(command.name, args, parent=Context(None, "root"), resilient=True)
    except UsageError:
        return None
'''
TEST = '''import termlet


def test_unknown_option():
    cli = termlet.Command("cli", options=["--name"])
    assert cli.main(["--bad"]) == 2
'''


def _package(root: Path) -> Path:
    return provekit.package(root, "termlet", "from termlet.core import Command, UsageError\n", CORE)


def _site(line: int) -> ErrorSite:
    return ErrorSite(error_id="0" * 16, kind="raise", exception="UsageError",
                     exception_resolved="termlet.core.UsageError", templates=(), path="termlet/core.py", line=line,
                     end_line=line, qualname="Command.parse_args")


def test_chain_targets_are_the_public_calls_between_entry_and_raise() -> None:
    chain = ("test_cli.test_x (tests/test_cli.py:6)", "termlet.testing.Runner.invoke (termlet/testing.py:9)",
             "termlet.core.Command.main (termlet/core.py:30)", "termlet.core._helper (termlet/core.py:50)",
             "termlet.core.Command.make_context (termlet/core.py:19)",
             "termlet.core.Command.parse_args (termlet/core.py:25)")
    assert chain_targets(chain, "termlet.core.Command.main", _site(25), "termlet") == [
        "termlet.core.Command.make_context"]
    assert chain_targets(chain, "termlet.testing.Runner.invoke", _site(25), "termlet") == [
        "termlet.core.Command.main", "termlet.core.Command.make_context"]


def _trace(tmp_path: Path, script: str, targets: list[str]) -> list[dict[str, object]]:
    pkg = _package(tmp_path)
    line = CORE.splitlines().index('                raise UsageError(f"No such option {arg!r}.")') + 1
    (tmp_path / "example.py").write_text(script)
    req, out = tmp_path / "in.json", tmp_path / "out.json"
    req.write_text(json.dumps({"script": str(tmp_path / "example.py"), "targets": targets,
                               "site": {"path": "termlet/core.py", "line": line, "end_line": line}}))
    r = subprocess.run([sys.executable, str(INNER_SCRIPT), str(req), str(out)], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(pkg)}, timeout=60, check=False)
    assert r.returncode == 0, r.stderr
    got: list[dict[str, object]] = json.loads(out.read_text())
    return got


def test_inner_script_restates_the_call_the_frame_received(tmp_path: Path) -> None:
    script = "import termlet\ncli = termlet.Command('cli', options=['--name'])\ncli.main(['--name', '--bad'])\n"
    got = _trace(tmp_path, script, ["termlet.core.Command.make_context", "termlet.core.Command.parse_args"])
    # make_context is restated (the receiver is the script's ``cli``, the args a literal); parse_args is
    # not: its ``ctx`` is an object the library built and has no default
    assert got == [{"target": "termlet.core.Command.make_context", "call": "cli.make_context('cli', ['--name', '--bad'])",
                    "plain": "cli.make_context('cli', ['--name', '--bad'])", "imports": []}]


def test_inner_script_leaves_out_what_the_script_cannot_name_and_the_callers_settings(tmp_path: Path) -> None:
    script = "import termlet\nimport termlet.core\ncli = termlet.Command('cli')\ntermlet.core.complete(cli, ['-x'])\n"
    got = _trace(tmp_path, script, ["termlet.core.Command.make_context"])
    assert got[0]["call"] == "cli.make_context('cli', ['-x'], resilient=True)"  # parent=Context(...) left out
    assert got[0]["plain"] == "cli.make_context('cli', ['-x'])"


@pytest.mark.network
def test_prove_through_the_inner_call_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from errdex.observe.pipeline import workspace_for

    home = tmp_path / "home"
    monkeypatch.setenv("ERRDEX_HOME", str(home))
    db = str(tmp_path / "c.sqlite")
    pkg = _package(tmp_path)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return provekit.cli(*args, home=home, timeout=600)
    r = cli("index", str(pkg), "--repo", "acme/termlet", "--ref", "1.0", "--db", db)
    assert r.returncode == 0, r.stderr
    cat = open_catalog(db)
    snap = cat.snapshots("acme/termlet")[-1]
    site = next(s for s in cat.sites(snap.key) if s.qualname == "Command.parse_args")
    tests = workspace_for(snap) / "project" / "tests"
    tests.mkdir(parents=True)
    (tests / "test_cli.py").write_text(TEST)
    lines = CORE.splitlines()
    at = {name: next(i for i, ln in enumerate(lines, 1) if ln.strip().startswith(text))
          for name, text in (("main", "self.make_context(self.name"), ("make", "self.parse_args(ctx"))}
    chain = ("test_cli.test_unknown_option (tests/test_cli.py:6)", f"termlet.core.Command.main (termlet/core.py:{at['main']})",
             f"termlet.core.Command.make_context (termlet/core.py:{at['make']})",
             f"termlet.core.Command.parse_args (termlet/core.py:{site.line})")
    o = Observation(snapshot=snap.key, kind="site", path=site.path, line=site.line, exception="UsageError",
                    message="No such option '--bad'.", test="tests/test_cli.py::test_unknown_option",
                    error_id=site.error_id, test_path="tests/test_cli.py", test_line=6, entry="termlet.core.Command.main",
                    entry_args=(ObservedArg("self", "Command", "<termlet.core.Command>"),
                                ObservedArg("args", "list", "['--bad']")), escaped=False, chain=chain)
    cat.replace_observations(ObserveRun(snapshot=snap.key, python="3", mode="m", files=1, tests=1, events=1,
                                        sites=1, duration_s=0.1, date="2026-01-01"), [o])
    cat.close()

    r = cli("prove", "--artifact", str(pkg), "--package", "termlet", "--db", db, "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["proven_pairs"] == 1, doc
    cat = open_catalog(db)
    a = cat.get_analysis(site.error_id, snap.key)
    cat.close()
    assert a is not None and a.example_fix.proof is not None
    assert a.example_fix.proof.candidate == "test, the inner call termlet.core.Command.make_context"
    assert a.example_fix.before.endswith("cli.make_context('cli', ['--bad'])\n")
    assert "UsageError: No such option '--bad'." in a.example_fix.proof.before.output
    assert a.example_fix.after.endswith("cli.make_context('cli', [])\n")
    r = cli("verify", "--execute", "--artifact", str(pkg), "--package", "termlet", "--db", db, "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["failed"] == [], r.stdout + r.stderr
