"""A fuzzy top that a site outside its tied group matches exactly as well is no confident answer.

Two raises of one first line whose frames differ (typedload 2.41's ``Path: .`` and ``Path: {path}``) are
two templates, so the tie rule does not group them, yet a pasted message scores them level; naming
one would be a guess (round 13's confident-wrong answers went from 0 / 0 / 2 to 0 / 12 / 14 without this
check).  The package-level case did not reproduce in a small package, so the rule is tested on the ranked
candidates it reads."""

from __future__ import annotations

from types import SimpleNamespace

from errdex.match import rank as R
from errdex.match.labels import level_with


def _scored(site: int, score: float) -> R.Scored:
    return R.Scored(template=site, site=site, score=score, method="fuzzy", pinned=False, values=())


IDX = SimpleNamespace(sites=[("id-a",), ("id-b",), ("id-c",), ("id-d",), ("id-e",)])


def test_a_level_site_outside_the_group_makes_the_top_a_guess() -> None:
    ranked = [_scored(0, 0.9), _scored(1, 0.9)]
    assert level_with(IDX, ranked, {"id-a"})  # type: ignore[arg-type]


def test_a_level_site_inside_the_tied_group_is_the_tie_rule_s_to_judge() -> None:
    ranked = [_scored(0, 0.9), _scored(1, 0.9)]
    assert not level_with(IDX, ranked, {"id-a", "id-b"})  # type: ignore[arg-type]


def test_a_lower_score_leaves_the_top_alone() -> None:
    ranked = [_scored(0, 0.9), _scored(1, 0.8), _scored(2, 0.7)]
    assert not level_with(IDX, ranked, {"id-a"})  # type: ignore[arg-type]


def test_only_the_next_three_candidates_are_read() -> None:
    ranked = [_scored(0, 0.9), _scored(1, 0.8), _scored(2, 0.8), _scored(3, 0.8), _scored(4, 0.9)]
    assert not level_with(IDX, ranked, {"id-a"})  # type: ignore[arg-type]
    ranked[3] = _scored(3, 0.9)
    assert level_with(IDX, ranked, {"id-a"})  # type: ignore[arg-type]


def test_another_template_of_the_same_site_is_no_rival() -> None:
    same = R.Scored(template=7, site=0, score=0.9, method="fuzzy", pinned=False, values=())
    assert not level_with(IDX, [_scored(0, 0.9), same], {"id-a"})  # type: ignore[arg-type]
