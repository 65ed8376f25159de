"""The catalog's fast decoder gives exactly what ``model.from_json`` gives."""

from __future__ import annotations

import json

import pytest
from catalog_data import BAD_UNIT, EMPTY_SIZE, MYSTERY, TURBO, result, snapshot

from errdex.catalog.decode import decode
from errdex.catalog.rows import compute_stats, dumps
from errdex.model import (
    Analysis,
    CodeSample,
    ErrorSite,
    Evidence,
    Proof,
    ProofAfter,
    ProofBefore,
    RelatedError,
    Snapshot,
    Solution,
    from_json,
    to_json,
)

ANALYSIS = Analysis(
    error_id="0123456789abcdef", snapshot="o/n@v1", meaning="m",
    solutions=(Solution(text="do x", evidence=(Evidence(kind="guard", text="if x", path="p.py", line=3),)),),
    example_fix=CodeSample(before="a", after="b"), related=(RelatedError(error_id="f" * 16, title="t"),),
    prevention=("p1", "p2"),
)

# a proof with the after's other spellings that raised and that ran clean (``prove/contradict.py``)
PROVEN = Analysis(
    error_id="0123456789abcdef", snapshot="o/n@v1", meaning="m",
    example_fix=CodeSample(before="f(d=(1,))", after="f(d=(0,))", proof=Proof(
        ProofBefore(exception="E", error_id="0123456789abcdef"), ProofAfter(exit=0), "n", "v1", "3.13", "today",
        raised_with=("f(d=None)",), clean_with=("f(d=[0])",))),
)


@pytest.mark.parametrize("value", [EMPTY_SIZE, BAD_UNIT, MYSTERY, TURBO, snapshot("a", "2024-01-01"), ANALYSIS,
                                   PROVEN],
                         ids=["site", "site-placeholder", "site-unresolved", "warning", "snapshot", "analysis",
                              "proven"])
def test_decode_matches_from_json(value: object) -> None:
    data = json.loads(dumps(value))
    assert data == to_json(value)
    cls = type(value)
    assert decode(cls, data) == from_json(cls, data) == value


def test_decode_handles_missing_and_null_fields() -> None:
    data = to_json(EMPTY_SIZE)
    del data["snippet"]
    data["cause"] = None
    assert decode(ErrorSite, data) == from_json(ErrorSite, data)
    assert decode(Snapshot, {"repo": "o/n", "unknown_key": 1}) == Snapshot(repo="o/n")


def test_stats_round_trip() -> None:
    from errdex.catalog.rows import stats_from_json

    stats = compute_stats(snapshot("a", "2024-01-01"), result(EMPTY_SIZE, MYSTERY))
    assert stats_from_json(json.loads(dumps(stats))) == stats


def test_call_rows_are_json_dumps_of_each_callers_edges() -> None:
    """The call graph's rows, encoded item by item, are exactly what ``json.dumps`` of each
    caller's ``[callee, kind, line]`` list gives (non-ASCII, quotes, backslashes, control characters)."""
    from errdex.catalog.rows import call_rows
    from errdex.model import CallEdge

    edges = [CallEdge("pkg.f", "pkg.g", "call", 3), CallEdge("pkg.a", 'pkg.q"x\\y', "register", 0),
             CallEdge("pkg.f", "?.méthode", "call", 12), CallEdge("pkg.f", "pkg.g", "alias", 3),
             CallEdge("pkg.b", "tab\there\nnl\u2028", "export", 99999)]
    grouped: dict[str, list[list[str | int]]] = {}
    for e in edges:
        grouped.setdefault(e.caller, []).append([e.callee, e.kind, e.line])
    assert call_rows(edges) == [(c, json.dumps(v)) for c, v in sorted(grouped.items())]
    assert call_rows([]) == []
