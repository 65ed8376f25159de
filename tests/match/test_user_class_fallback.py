"""A class of the user's own code, of no package the catalog holds, printed on the last line: the package's raises
of a value or of a class handed in answer it, as an unconfident class fallback (issue 17's seventy-first round).
pyrtl 1.0.3's ``rtl_assert(w, exp)`` keeps the user's exception instance in ``block.rtl_assert_dict`` and
``check_rtl_assertions`` raises it (``raise exp``); its test suite's ``RTLSampleException`` printed
``tests.test_helperfuncs.TestRtlAssert.RTLSampleException: test assertion failed``, and the answer was an unrelated
``Yosys call failed`` at 0.01.  The library is written in its shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

HELPERS = '''
import argparse
import contextlib


class PyrtlError(Exception):
    """Raised on any user-facing error in this module."""


def rtl_assert(w, exp, block):
    if not isinstance(exp, Exception):
        raise PyrtlError("the second argument to rtl_assert must be an instance of Exception")
    if w in block.rtl_assert_dict:
        raise PyrtlError("assertion conflicts with existing registered assertion")
    block.rtl_assert_dict[w] = exp
    return w


def check_rtl_assertions(sim):
    for w, exp in sim.block.rtl_assert_dict.items():
        try:
            value = sim.inspect(w)
            if not value:
                raise exp
        except KeyError:
            pass


@contextlib.contextmanager
def reraise_as(tp):
    try:
        yield
    except PyrtlError as e:
        raise tp(e) from None


def load_from_filename(filename, exc_tp=PyrtlError):
    with reraise_as(exc_tp):
        if not filename.endswith(".v"):
            raise PyrtlError(f"{filename} is not a verilog file")
        return filename


def run_yosys(cmd):
    if cmd.returncode:
        raise PyrtlError("Yosys call failed")


def parse_args(parser, args):
    try:
        return parser.parse(args)
    except ValueError as ex:
        raise argparse.ArgumentError(None, str(ex)) from ex


def compute(fn, args):
    try:
        return fn(*args)
    except Exception as ex:
        raise ValueError(f"Call to compute_fn with args ({args}) failed: {ex}") from ex
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "userclass", "rtlkit", {"__init__.py": "", "helperfuncs.py": HELPERS})


def test_a_test_suites_class_falls_back_to_the_raise_of_the_handed_instance(lib: Catalog) -> None:
    top = explain(lib, "tests.test_helperfuncs.TestRtlAssert.RTLSampleException: test assertion failed").matches[0]
    assert (top.qualname, top.method, top.confident) == ("check_rtl_assertions", "class", False)



def test_a_test_suites_class_with_a_text_found_is_that_texts_site(lib: Catalog) -> None:
    """cfgv 3.5.0's ``load_from_filename(..., exc_tp=Error)`` called with the test's own ``Error``: ``reraise_as(tp)``
    raises ``tp(e)`` of the package's error, whose text is found exactly; a class no site can name says nothing
    against that site, and the raise of a held class (any class) does not answer before it."""
    top = explain(lib, "tests.cfgv_test.Error: top.sv is not a verilog file").matches[0]
    assert (top.qualname, top.method) == ("load_from_filename", "exact")


def test_a_class_a_site_names_keeps_to_that_site(lib: Catalog) -> None:
    """The package's own class, named by a site with text of its own: that site, not the handed instance's raise."""
    top = explain(lib, "rtlkit.helperfuncs.PyrtlError: Yosys call failed").matches[0]
    assert (top.qualname, top.method) == ("run_yosys", "exact")


def test_a_class_of_the_standard_library_a_site_names_keeps_to_that_site(lib: Catalog) -> None:
    """jsonargparse 4.49.0 re-raises a caught ``ValueError``'s text as ``argparse.ArgumentError(None, str(ex))``:
    printed with that class, the text found exactly at the ``ValueError`` site does not outrank the site that
    raises the printed class (round 20: five last lines lost to the rule above)."""
    top = explain(lib, "argparse.ArgumentError: Call to compute_fn with args (0) failed: value is empty").matches[0]
    assert top.qualname == "parse_args"
