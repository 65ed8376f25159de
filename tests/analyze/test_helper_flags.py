"""What a helper's or a class's own code says, read from a raise site's snippet of it: a list of flags a package
helper returns is said by the case that makes a flag true (rating 8, 7554: "one of the 'is squeezed' values is
true" said nothing of what the user did); a kind a registration is limited to by the public class that makes it."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.facts import gather_facts, registered_members
from errdex.analyze.helperflags import cases_words, flag_sources
from errdex.analyze.static.scope import restricted_where

from .pagekit import load_fixture
from .test_page_rules import _page


def test_a_flag_list_from_a_helper_is_said_by_the_case_that_sets_it(tmp_path: Path) -> None:
    c = load_fixture(tmp_path, "an_indexlike", "example/indexlike")
    cat, ctx = c
    try:
        (site,) = [s for s in ctx.sites if s.qualname == "Ref.slice"]
        # the helper's raise sites show both ``dropped.append(True)`` cases; its ``return`` names the position;
        # ``idx`` runs over its ``index``, which the call fills with the caller's ``idxs``
        assert flag_sources(site, ["any(is_squeezed)"], ctx.sites_by_function) == (
            ("is_squeezed", "utils.parse_indices", ("isinstance(idx, int)", "isinstance(idx, Dynamic)"), "idxs"),)
        a = _page(c, "Ref.slice")
        said = ("(flags `utils.parse_indices` works out from the `idxs` you pass, a true one where an entry of "
                "`idxs` is an `int` or a `Dynamic`)")
        assert said in a.meaning and said in a.trigger, a.meaning
        assert any(said in p for p in a.prevention), a.prevention
        # rating 12 (7554): what to pass too, from the case that appends ``False`` ("a slice ..., never an int")
        assert flag_sources(site, ["any(is_squeezed)"], ctx.sites_by_function, "False") == (
            ("is_squeezed", "utils.parse_indices", ("isinstance(idx, slice)",), "idxs"),)
        assert a.solutions[0].text.startswith(
            "Give each entry of `idxs` to `indexlike.Ref.slice` as a `slice`, never as an `int` or a `Dynamic`: "
            "`utils.parse_indices` works out a flag for each entry, false for a `slice` and true for an `int` or a "
            "`Dynamic`, and the check fails on a true one (`is_squeezed`)"), a.solutions[0].text
        # a local unpacked from a helper that appends no flag: nothing to read, the page says what it said before
        (window,) = [s for s in ctx.sites if s.qualname == "Window.__init__"]
        assert flag_sources(window, ["total > 1024"], ctx.sites_by_function) == ()
    finally:
        cat.close()


def test_cases_in_words() -> None:
    assert cases_words(["isinstance(idx, int)"]) == "`idx` is an `int`"
    assert cases_words(["isinstance(idx, int)"], "idxs") == "an entry of `idxs` is an `int`"
    assert cases_words(["isinstance(i, (int, Dynamic))"]) == "`i` is an `int` or a `Dynamic`"
    assert cases_words(["x > 0", "isinstance(x, int)"]) == "`x > 0` holds or `isinstance(x, int)` holds"


def test_a_registration_limited_to_one_kind_names_the_public_class_that_makes_it(tmp_path: Path) -> None:
    """rating 8 (5931): "in a `SC_VECTOR_SUBCORE` kernel" named an internal enum member; the user writes the
    public class whose method returns it (``VectorMesh.core_type``)."""
    cat, ctx = load_fixture(tmp_path, "an_indexlike", "example/indexlike")
    try:
        (rev,) = [s for s in ctx.sites if s.qualname == "_rev_lowering_rule"]
        f = gather_facts(cat, ctx.snapshot, rev, context=ctx)
        assert registered_members(rev) == ["core.CoreType.VECTOR_SUBCORE"]
        assert f.kind_makers == (("core.CoreType.VECTOR_SUBCORE", "indexlike.VectorMesh", "core_type"),)
        assert restricted_where(f) == ("in a kernel of `indexlike.VectorMesh` (the only kernel this rule is "
                                       "registered for: its `core_type` is `VECTOR_SUBCORE`)")
        # the class returning `TENSOR` is private: no public name to give, the member stays
        (cumsum,) = [s for s in ctx.sites if s.qualname == "_cumsum_lowering_rule"]
        g = gather_facts(cat, ctx.snapshot, cumsum, context=ctx)
        assert g.kind_makers == ()
        assert restricted_where(g) == "in a `TENSOR` kernel (the only kernel this rule is registered for)"
    finally:
        cat.close()
