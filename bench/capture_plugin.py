"""A pytest plugin that records real error events while a library's own test suite runs.

Loaded into a *separate* environment (never errdex's venv) with
``pytest -p capture_plugin``; see ``bench/capture_events.py`` for the driver.
Every exception that reaches the ``__exit__`` of a ``pytest.raises`` or a
``unittest`` ``assertRaises*`` context, and every exception that fails a test,
becomes one JSON line in ``$CAPTURE_OUT``:

    {"type", "message", "last_line", "traceback", "frames": [[path, line, func], ...],
     "innermost": [path, line, func] | null, "innermost_lib": [path, line, func] | null,
     "filtered": bool,
     "source": "raises" | "assertRaises" | "failure", "test": nodeid}

``path`` is relative to the directory that holds the package (site-packages)
for files of ``$CAPTURE_PACKAGE`` (except its bundled ``tests/``/``testing/``
directories, ``$CAPTURE_EXCLUDE``), else absolute.  ``traceback`` is exactly
what ``traceback.format_exception`` prints.  Identical events (same type,
message and innermost library frame) are written once, with no more than
``$CAPTURE_PER_SITE`` events per innermost frame, so that a parameterized test
does not dominate the data set.  ``frames``/``innermost*`` come from the
exception object; when JAX filtered the traceback (``"filtered": true``) they
are the frames before filtering, so they still say where it was raised while
``traceback`` is what the user saw.

This file is plain Python with no dependency on errdex: it runs inside the
library's environment.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
import traceback
import types
import unittest.case
from typing import Any

import pytest

_PACKAGE = os.environ.get("CAPTURE_PACKAGE", "jax")
_OUT = os.environ.get("CAPTURE_OUT", "events.jsonl")
_PER_SITE = int(os.environ.get("CAPTURE_PER_SITE", "3"))
_MAX_TB = int(os.environ.get("CAPTURE_MAX_TB", "60000"))
# a package's own bundled tests are not the library (networkx ships networkx/*/tests/)
_EXCLUDE = tuple(x for x in os.environ.get("CAPTURE_EXCLUDE", "/tests/:/testing/").split(":") if x)

# the path module as imported: a test may swap ``os.path`` for ``ntpath`` (Mako's traversal tests do)
_osp = os.path
_THIS_FILE = _osp.abspath(__file__)
_seen: set[tuple[str, str, Any]] = set()
_per_frame: dict[Any, int] = {}
_current_test = ""
_pkg_root: str | None = None


def _package_root() -> str:
    """The directory holding the package (site-packages), found by importing it.

    A library that is one module (``jsonpatch.py``) is held by the directory of its file.
    """
    global _pkg_root
    if _pkg_root is None:
        mod = __import__(_PACKAGE)
        if getattr(mod, "__file__", None) is None:
            # a namespace package (pyhanko has no __init__.py): the folder holding its first portion
            _pkg_root = _osp.dirname(_osp.abspath(next(iter(mod.__path__))))
            return _pkg_root
        path = _osp.abspath(mod.__file__ or "")
        is_package = _osp.splitext(_osp.basename(path))[0] == "__init__"
        _pkg_root = _osp.dirname(_osp.dirname(path)) if is_package else _osp.dirname(path)
    return _pkg_root


def _rel(filename: str) -> tuple[str, bool]:
    root = _package_root()
    full = _osp.abspath(filename)
    prefix = _osp.join(root, _PACKAGE) + _osp.sep
    single = full == _osp.join(root, _PACKAGE) + ".py"  # a one-module library
    if (single or full.startswith(prefix)) and not any(part in full for part in _EXCLUDE):
        return _osp.relpath(full, root).replace(_osp.sep, "/"), True
    return full, False


def _without_own_frames(tb: types.TracebackType | None) -> types.TracebackType | None:
    """``tb`` without its leading frames of this plugin: an exception caught by a wrapped
    ``_expect_raises`` (below) starts its traceback at the wrapper, which no user ever sees."""
    while tb is not None and _osp.abspath(tb.tb_frame.f_code.co_filename) == _THIS_FILE:
        tb = tb.tb_next
    return tb


def _frames(tb: types.TracebackType | None) -> list[tuple[str, int, str, bool]]:
    out = []
    while tb is not None:
        code = tb.tb_frame.f_code
        path, in_pkg = _rel(code.co_filename)
        out.append((path, tb.tb_lineno, code.co_name, in_pkg))
        tb = tb.tb_next
    return out


# JAX replaces an exception's traceback by a filtered one (JAX_TRACEBACK_FILTERING, default
# "auto"): keep each filtered traceback's unfiltered frames, keyed by the filtered head's id,
# so that the ground truth of an event is known even when its printed traceback hides it.
_UNFILTERED: dict[int, tuple[Any, list[tuple[str, int, str, bool]]]] = {}


def _patch_jax_filtering() -> None:
    try:
        from jax._src import traceback_util  # type: ignore[import-not-found]
    except ImportError:
        return
    orig = traceback_util.filter_traceback

    def filter_traceback(tb: Any) -> Any:
        out = orig(tb)
        if out is not None:
            if len(_UNFILTERED) > 10_000:
                _UNFILTERED.clear()
            _UNFILTERED[id(out)] = (out, _frames(tb))
        return out

    traceback_util.filter_traceback = filter_traceback


def _unfiltered_frames(tb: types.TracebackType | None) -> list[tuple[str, int, str, bool]] | None:
    """The frames JAX filtered out of ``tb``'s chain, with the frames above the filtered part."""
    outer: list[tuple[str, int, str, bool]] = []
    while tb is not None:
        hit = _UNFILTERED.get(id(tb))
        if hit is not None and hit[0] is tb:
            return outer + hit[1]
        code = tb.tb_frame.f_code
        path, in_pkg = _rel(code.co_filename)
        outer.append((path, tb.tb_lineno, code.co_name, in_pkg))
        tb = tb.tb_next
    return None


def record(exc: BaseException, source: str) -> None:
    """Append one event for ``exc`` (deduplicated, capped per innermost library frame)."""
    try:
        tb = _without_own_frames(exc.__traceback__)
        unfiltered = _unfiltered_frames(tb)
        frames = unfiltered if unfiltered is not None else _frames(tb)
        lib = [f for f in frames if f[3]]
        innermost_lib = list(lib[-1][:3]) if lib else None
        innermost = list(frames[-1][:3]) if frames else None
        message = str(exc)
        etype = type(exc)
        qual = f"{etype.__module__}.{etype.__qualname__}" if etype.__module__ != "builtins" else etype.__qualname__
        key = (qual, message[:2000], tuple(innermost_lib) if innermost_lib else None)
        if key in _seen:
            return
        _seen.add(key)
        fkey = (tuple(innermost_lib) if innermost_lib else None, qual)
        if _per_frame.get(fkey, 0) >= _PER_SITE:
            return
        _per_frame[fkey] = _per_frame.get(fkey, 0) + 1
        text = "".join(traceback.format_exception(type(exc), exc, tb))
        if len(text) > _MAX_TB:
            return  # a pathological event (huge repr); not representative, skip it
        event = {
            "type": qual,
            "message": message,
            "last_line": "".join(traceback.format_exception_only(exc)),
            "traceback": text,
            "frames": [list(f[:3]) for f in frames],
            "innermost": innermost,
            "innermost_lib": innermost_lib,
            "source": source,
            "filtered": unfiltered is not None,
            "test": _current_test,
            "python": sys.version.split()[0],
        }
        with open(_OUT, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(event, ensure_ascii=False) + "\n")
    except Exception as err:  # the capture must never change the test's outcome
        sys.stderr.write(f"capture_plugin: could not record {type(exc).__name__}: {err}\n")


def _patch_unittest() -> None:
    orig = unittest.case._AssertRaisesContext.__exit__

    def __exit__(self: Any, exc_type: Any, exc_value: Any, tb: Any) -> Any:
        if exc_value is not None and exc_type is not None and issubclass(exc_type, self.expected):
            if exc_value.__traceback__ is None:
                exc_value = exc_value.with_traceback(tb)
            record(exc_value, "assertRaises")
        return orig(self, exc_type, exc_value, tb)

    unittest.case._AssertRaisesContext.__exit__ = __exit__  # type: ignore[method-assign]


def _patch_pytest_raises() -> None:
    try:
        from _pytest.raises import RaisesExc as ctx  # pytest >= 8.4
    except ImportError:  # pragma: no cover - older pytest
        from _pytest.python_api import RaisesContext as ctx  # type: ignore[no-redef,import-not-found]
    orig = ctx.__exit__

    def __exit__(self: Any, exc_type: Any, exc_val: Any, exc_tb: Any) -> Any:
        if exc_val is not None:
            record(exc_val, "raises")
        return orig(self, exc_type, exc_val, exc_tb)

    ctx.__exit__ = __exit__  # type: ignore[method-assign]


def _patch_expect_raises(module_name: str) -> None:
    """SQLAlchemy's and Mako's suites assert errors with their own ``expect_raises``/
    ``assert_raises_message`` (``<package>.testing.assertions._expect_raises``, a ``try``/``except``
    context manager), not ``pytest.raises``: wrap it so that what it catches is recorded."""
    try:
        assertions = importlib.import_module(module_name)
    except ImportError:
        return
    orig = assertions._expect_raises

    @contextlib.contextmanager
    def _expect_raises(except_cls: Any, *args: Any, **kwargs: Any) -> Any:
        with orig(except_cls, *args, **kwargs) as ec:
            try:
                yield ec
            except BaseException as exc:
                if isinstance(except_cls, type) and isinstance(exc, except_cls):
                    record(exc, "expect_raises")
                raise

    assertions._expect_raises = _expect_raises


def _patch_raises_helper(spec: str) -> None:
    """construct's suite asserts errors with ``raises(func, *args)`` (``tests.declarativeunittest``), a
    function that calls ``func`` and returns the class of what it raised: ``$CAPTURE_RAISES_HELPER`` =
    ``module:function`` names such a helper, replaced (before the test modules import it) by the same
    function that also records what it catches."""
    module_name, _, name = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return

    def raises(func: Any, *args: Any, **kw: Any) -> Any:
        try:
            return func(*args, **kw)
        except Exception as e:
            record(e, "raises_helper")
            return e.__class__

    setattr(module, name, raises)


# packages whose suites assert errors through their own ``_expect_raises`` (above)
_EXPECT_RAISES = {"sqlalchemy": "sqlalchemy.testing.assertions", "mako": "mako.testing.assertions"}


def pytest_configure(config: pytest.Config) -> None:
    if _PACKAGE == "jax":
        _patch_jax_filtering()
    if _PACKAGE in _EXPECT_RAISES:
        _patch_expect_raises(_EXPECT_RAISES[_PACKAGE])
    if os.environ.get("CAPTURE_RAISES_HELPER"):
        _patch_raises_helper(os.environ["CAPTURE_RAISES_HELPER"])
    _patch_unittest()
    _patch_pytest_raises()


def pytest_runtest_setup(item: pytest.Item) -> None:
    global _current_test
    _current_test = item.nodeid


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    exc = call.excinfo.value if call.excinfo is not None else None
    if exc is not None and call.when == "call" and report.failed and not isinstance(exc, KeyboardInterrupt):
        record(exc, "failure")
    return report
