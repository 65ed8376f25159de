"""Retrieval among many sites that raise one text alike (xmlschema 4.3.2, round 16: 57 raises of one
validation class whose ``__str__`` prints ``{message}:\\n\\nSchema component:\\n\\n{component}\\n\\n{...}``).
Every one of those templates covers the words of a validation message as well as the one that explains
it (``{message}:\\n\\nReason: {error}\\n\\n{...}``), and weighs more, so the cut of the ``CANDIDATES`` best
kept twenty copies of one text by template number and never verified the right one.  The cut is now made
among distinct texts (one per text and class); the other sites of a text are found by the tie rule
(``ties.tied_sites``) from the sites tied by score, whatever the retrieval kept (graphql-core 3.3.2's
``Int cannot represent non-integer value: {inspect(value)}``, raised at two sites, tied with a third that
names its placeholder ``{inspect(input_value)}``)."""

from __future__ import annotations

from pathlib import Path

from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.match import explain
from errdex.match.index import T_SITE, build
from errdex.match.rank import CANDIDATES, retrieve
from errdex.model import ErrorSite, Segment, Snapshot, Template

SNAP = Snapshot(repo="example/lib", ref="v1", url_base="https://github.com/example/lib/blob/v1")


def _site(line: int, *segs: Segment) -> ErrorSite:
    return ErrorSite(kind="error", exception="lib.ValidationError", exception_resolved="lib.ValidationError",
                     templates=(Template.of(segs),), path="lib/v.py", line=line, end_line=line, qualname="f",
                     error_id=f"{line:016x}")


def _lit(t: str) -> Segment:
    return Segment(text=t)


def _ph(e: str) -> Segment:
    return Segment(expr=e)


ALIKE = [_site(10 + i, _ph("self.message"), _lit(":\n\nSchema component:\n\n"), _ph("component"),
               _lit("\n\nInstance type: "), _ph("type(self.obj)")) for i in range(3 * CANDIDATES)]
REASON = _site(500, _ph("self.message"), _lit(":\n\nReason: "), _ph("error"), _lit("\n\n"), _ph("..."))
MESSAGE = ("failed encoding 1 with Atomic(name='IDREF'):\n\nReason: 1 is not an instance of str\n\n"
           "Schema component:\n\n  <simpleType name='IDREF'/>\n\nInstance type: int")


def test_a_text_many_sites_raise_alike_does_not_crowd_out_another() -> None:
    idx = build((SNAP, s) for s in [*ALIKE, REASON])
    got = [t for t, _ in retrieve(idx, MESSAGE)]
    sites = {idx.templates[t][T_SITE] for t in got}
    assert len(ALIKE) in sites  # the reason's template: past the first twenty copies by number
    assert len(sites & set(range(len(ALIKE)))) > 1  # and the copies of the kept text come back after it


SCALARS = '''
class QueryError(Exception):
    pass


def coerce_input(input_value):
    if not isinstance(input_value, int):
        raise QueryError("Int cannot represent non-integer value: " + repr(input_value))
    return input_value


def coerce_float(value):
    if not float(value).is_integer():
        raise QueryError("Int cannot represent non-integer value: " + repr(value))
    return int(value)


def coerce_string(value):
    if not value.isdigit():
        raise QueryError("Int cannot represent non-integer value: " + repr(value))
    return int(value)
'''


def test_the_sites_of_a_text_tied_by_score_are_all_tied(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite")
    index_package(tmp_path, "scalars", {"__init__.py": "", "scalars.py": SCALARS}, db)
    catalog = open_catalog(db)
    try:
        r = explain(catalog, "scalars.scalars.QueryError: Int cannot represent non-integer value: '-1.1'")
    finally:
        catalog.close()
    top = r.matches[0]
    assert not r.confident
    assert {top.qualname, *(t.qualname for t in top.tied)} == {"coerce_input", "coerce_float", "coerce_string"}
