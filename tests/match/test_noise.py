"""Noise is no confident match: a text strung together from the catalog's own words (``bench/match_bench.py``).

Every template's literal text is in such a text, so every candidate verifies
exactly somewhere inside it, with its placeholders absorbing the rest; but
each one explains only its own part, and its rivals' literal text lies where
it sees only a value (``rank.rival_factors``).  A real message with a huge
value holds no other template's text in that value and stays confident.
"""

from __future__ import annotations

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.index import T_SEGS, index_for

MB = 1 << 20


def catalog_words(catalog: Catalog) -> str:
    """The literal text of every template, joined by spaces (as the benchmark's hostile input)."""
    idx = index_for(catalog)
    return " ".join(text for t in range(idx.size) for lit, text in idx.templates[t][T_SEGS] if lit)


def test_catalog_words_are_not_a_confident_match(tiny: Catalog) -> None:
    common = catalog_words(tiny)
    for size in (len(common), 4 * len(common) + 17, MB):
        noise = "ValueError: " + (common * (size // len(common) + 1))[:size]
        r = explain(tiny, noise)
        assert r.matches, "every template verifies somewhere in the noise"
        assert not r.confident, (size, r.matches[0].template, r.matches[0].score)
        assert all(not m.confident for m in r.matches)
        assert r.no_site is not None


def test_a_real_message_with_a_huge_value_stays_confident(tiny: Catalog) -> None:
    value = "array([" + "0.0, " * (MB // 5) + "])"
    r = explain(tiny, f"DtypeError: dtype {value!r} is not a valid tinyjit dtype; expected one of ('float32', 'int32', 'bool')")
    assert r.confident
    assert r.matches[0].template.startswith("dtype {name} is not a valid tinyjit dtype")
    assert r.matches[0].score > 0.9


def test_a_short_template_inside_a_value_costs_a_long_one_little(tiny: Catalog) -> None:
    # another template's text quoted inside a value: one rival, much shorter than the template
    r = explain(tiny, "DtypeError: dtype 'x: no lowering rule for primitive add' is not a valid tinyjit dtype; expected one of ('float32', 'int32', 'bool')")
    assert r.confident
    assert r.matches[0].template.startswith("dtype {name} is not a valid tinyjit dtype")
    assert 0.5 < r.matches[0].score < explain(tiny, "DtypeError: dtype 'x' is not a valid tinyjit dtype; "
                                                      "expected one of ('float32', 'int32', 'bool')").matches[0].score
