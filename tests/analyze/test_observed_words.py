"""How an observed test's call is shown on a page (``analyze/static/observed.py``)."""

from __future__ import annotations

from errdex.analyze.static.observed import entry_call
from errdex.model import Observation, ObservedArg


def _seen(entry: str) -> Observation:
    return Observation(snapshot="acme/lib@1", kind="site", path="lib/x.py", line=3, exception="ValueError",
                       message="bad", test="tests/test_x.py::test_bad", entry=entry,
                       entry_args=(ObservedArg(name="args", type="tuple", repr="()"),
                                   ObservedArg(name="kwargs", type="dict", repr="{}")))


def test_the_entry_call_is_shown_with_its_arguments() -> None:
    assert entry_call(_seen("lib.parse")) == "`lib.parse(args=(), kwargs={})`"


def test_a_decorators_wrapper_is_no_call_a_user_writes() -> None:
    # rating 4 on fef1: "raised it through `jax._src.traceback_util.api_boundary.<locals>.reraise_with_filtered_
    # traceback(args=(), kwargs={})`" is noise on the page
    assert entry_call(_seen("lib._src.traceback_util.api_boundary.<locals>.reraise_with_filtered_traceback")) == ""
