"""A list of flags a package helper returns is said by the case that makes a flag true, read from the helper's
own code (rating 8, 7554: "one of the 'is squeezed' values is true" said nothing of what the user did)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.helperflags import cases_words, flag_sources

from .pagekit import load_fixture
from .test_page_rules import _page


def test_a_flag_list_from_a_helper_is_said_by_the_case_that_sets_it(tmp_path: Path) -> None:
    c = load_fixture(tmp_path, "an_indexlike", "example/indexlike")
    cat, ctx = c
    try:
        (site,) = [s for s in ctx.sites if s.qualname == "Ref.slice"]
        # the helper's raise sites show both ``dropped.append(True)`` cases; its ``return`` names the position
        assert flag_sources(site, ["any(is_squeezed)"], ctx.sites_by_function) == (
            ("is_squeezed", "utils.parse_indices", ("isinstance(idx, int)", "isinstance(idx, Dynamic)")),)
        a = _page(c, "Ref.slice")
        said = ("(flags `utils.parse_indices` works out from the `idxs` you pass, a true one where `idx` is an "
                "`int` or a `Dynamic`)")
        assert said in a.meaning and said in a.trigger, a.meaning
        assert any(said in p for p in a.prevention), a.prevention
        assert a.solutions[0].text.startswith(
            "Look at the `idxs` you pass to `indexlike.Ref.slice`: `utils.parse_indices` works out flags from it, a "
            "true one where `idx` is an `int` or a `Dynamic`, and the check fails on a true one (`is_squeezed`)"), \
            a.solutions[0].text
        # a local unpacked from a helper that appends no flag: nothing to read, the page says what it said before
        (window,) = [s for s in ctx.sites if s.qualname == "Window.__init__"]
        assert flag_sources(window, ["total > 1024"], ctx.sites_by_function) == ()
    finally:
        cat.close()


def test_cases_in_words() -> None:
    assert cases_words(["isinstance(idx, int)"]) == "`idx` is an `int`"
    assert cases_words(["isinstance(i, (int, Dynamic))"]) == "`i` is an `int` or a `Dynamic`"
    assert cases_words(["x > 0", "isinstance(x, int)"]) == "`x > 0` holds or `isinstance(x, int)` holds"
