"""bench/capture_plugin.py records what a library's own tests raise (the held-out corpora's data).

Run on a small package named ``mako`` (so that the plugin hooks its ``testing.assertions._expect_raises``
as it does Mako's) in a pytest subprocess, as ``bench/capture_events.py`` runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"

LIB = {
    "mako/__init__.py": "",
    "mako/core.py": "def boom(x):\n    raise ValueError(f'bad value {x}')\n",
    "mako/testing/__init__.py": "",
    "mako/testing/assertions.py": (
        "import contextlib\n\n"
        "@contextlib.contextmanager\n"
        "def _expect_raises(except_cls, msg=None):\n"
        "    try:\n"
        "        yield\n"
        "    except except_cls:\n"
        "        return\n"
        "    raise AssertionError('did not raise')\n\n"
        "def assert_raises(except_cls, fn, *args):\n"
        "    with _expect_raises(except_cls):\n"
        "        fn(*args)\n"
    ),
}

TESTS = """
import ntpath
import os

import pytest

from mako.core import boom
from mako.testing.assertions import assert_raises


def test_plain():
    with pytest.raises(ValueError):
        boom(1)


def test_os_path_swapped():
    saved = os.path
    os.path = ntpath
    try:
        with pytest.raises(ValueError):
            boom(2)
    finally:
        os.path = saved


def test_own_helper():
    assert_raises(ValueError, boom, 3)
"""


def _capture(tmp_path: Path, lib: dict[str, str] = LIB, tests: str = TESTS,
             package: str = "mako", **extra: str) -> list[dict[str, object]]:
    site = tmp_path / "site"
    for rel, text in lib.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "test_lib.py").write_text(tests)
    out = tmp_path / "events.jsonl"
    env = dict(os.environ, PYTHONPATH=f"{BENCH}{os.pathsep}{site}", CAPTURE_OUT=str(out),
               CAPTURE_PACKAGE=package, **extra)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "capture_plugin", "-p", "no:cacheprovider",
         "-c", os.devnull, f"--rootdir={tmp_path / 'suite'}", str(tmp_path / "suite" / "test_lib.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_events_of_own_tests(tmp_path: Path) -> None:
    events = {ev["message"]: ev for ev in _capture(tmp_path)}
    assert set(events) == {"bad value 1", "bad value 2", "bad value 3"}
    for msg, source in (("bad value 1", "raises"), ("bad value 2", "raises"), ("bad value 3", "expect_raises")):
        ev = events[msg]
        assert ev["source"] == source
        assert ev["type"] == "ValueError"
        # a test that swaps os.path for ntpath does not change where the plugin places the library's frames
        assert ev["innermost_lib"] == ["mako/core.py", 2, "boom"], msg
        assert ev["innermost"] == ev["innermost_lib"]
    helper = events["bad value 3"]
    # the wrapper of the library's own _expect_raises is no frame of the recorded event
    assert "capture_plugin" not in str(helper["traceback"])
    frames = helper["frames"]
    assert isinstance(frames, list)
    assert not any("capture_plugin" in str(f[0]) for f in frames)
    assert frames[0][0].endswith("mako/testing/assertions.py")  # the helper itself, not the library


def test_one_module_library(tmp_path: Path) -> None:
    # a library that is a single module (jsonpatch.py, simpleeval.py) is the library too
    lib = {"lonely.py": "def boom(x):\n    raise KeyError(f'no key {x}')\n"}
    tests = "import pytest\nfrom lonely import boom\n\ndef test_it():\n    with pytest.raises(KeyError):\n        boom(7)\n"
    (event,) = _capture(tmp_path, lib, tests, "lonely")
    assert event["innermost_lib"] == ["lonely.py", 2, "boom"]
    assert event["innermost"] == event["innermost_lib"]


def test_own_raises_function(tmp_path: Path) -> None:
    # construct's tests call raises(func, *args) -> the class of what func raised; it is replaced before
    # the test module imports it, returns the same, and what it catches is recorded
    lib = {
        "lonely.py": "def boom(x):\n    raise KeyError(f'no key {x}')\n",
        "helpers.py": "def raises(func, *args):\n    try:\n        return func(*args)\n"
                      "    except Exception as e:\n        return e.__class__\n",
    }
    tests = "from helpers import *\nfrom lonely import boom\n\ndef test_it():\n    assert raises(boom, 8) is KeyError\n"
    (event,) = _capture(tmp_path, lib, tests, "lonely", CAPTURE_RAISES_HELPER="helpers:raises")
    assert event["message"] == "'no key 8'"
    assert event["source"] == "raises_helper"
    assert event["innermost_lib"] == ["lonely.py", 2, "boom"]


def test_namespace_package(tmp_path: Path) -> None:
    # a library with no __init__.py at its top (pyhanko) has no __file__: its folder comes from __path__
    lib = {"spaced/sign/__init__.py": "", "spaced/sign/fields.py": "def boom(x):\n    raise ValueError(f'bad field {x}')\n"}
    tests = ("import pytest\nfrom spaced.sign.fields import boom\n\n"
             "def test_it():\n    with pytest.raises(ValueError):\n        boom(5)\n")
    (event,) = _capture(tmp_path, lib, tests, "spaced")
    assert event["innermost_lib"] == ["spaced/sign/fields.py", 2, "boom"]
    assert event["innermost"] == event["innermost_lib"]
