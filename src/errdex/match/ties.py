"""Ties: the sites that raise text the input cannot tell apart from the top match's.

1,229 of jax's 5,321 error sites share their text with another site; the same
holds, less often, for every library (click's ``fail`` helpers, "Not a valid
integer." in several fields).  When a message or a last line reaches such a
template, picking one site and calling it confident is a guess: the top match
names the others in ``tied`` instead, and is not confident.  A traceback's
innermost frame pins one site (``pinned_by_frame``): then there is no tie.

A site is tied with the top match when its template has the very same
segments (literal text and placeholders; found through the posting list of
the template's rarest key, so however many sites share it, not only those
the retrieval kept) and the printed exception type agrees with it as well as
with the top's, or when it was verified exactly and scored as high as the top.
"""

from __future__ import annotations

from collections.abc import Mapping

from errdex.match import rank as R
from errdex.match.index import (
    S_EXC,
    S_EXC_NAME,
    S_ID,
    S_LINE,
    S_PATH,
    S_QUAL,
    S_SNAP,
    T_SEGS,
    T_SITE,
    MatchIndex,
    template_keys,
)
from errdex.match.model import Tied

TIE_EPSILON = 1e-6  # scores this close are equal (the same template scores the same, bar rounding)
MAX_LISTED = 50  # tied sites named in the answer; a larger group is reported by its count


def tied_sites(
    idx: MatchIndex, top: R.Scored, scored: Mapping[int, R.Scored], exc_name: str
) -> tuple[list[int], int]:
    """The sites tied with ``top`` (by site number, in path/line order; at most ``MAX_LISTED``) and
    how many there are in all."""
    if top.pinned or top.method != "exact":
        return [], 0  # a frame pinned it, or the text was not verified exactly: nothing to tie
    group: set[int] = set()
    for site, c in scored.items():
        if site != top.site and c.method == "exact" and not c.pinned and c.score >= top.score - TIE_EPSILON:
            group.add(site)
    group.update(_same_template(idx, top, exc_name))
    group.discard(top.site)
    ordered = sorted(group, key=lambda s: (idx.sites[s][S_PATH], idx.sites[s][S_LINE], idx.sites[s][S_ID]))
    return ordered[:MAX_LISTED], len(ordered)


def _same_template(idx: MatchIndex, top: R.Scored, exc_name: str) -> set[int]:
    """Sites whose template has the top template's segments and whose class agrees as well."""
    segs = idx.templates[top.template][T_SEGS]
    ks = set(template_keys(segs))
    if ks:
        rarest = min(ks, key=idx.df)
        pool = [int(t) for t in idx.posting(rarest)]
    else:
        text = "".join(x for _, x in segs).strip().lower()
        pool = list(idx.exact.get(text, ()))
    mine = idx.sites[top.site]
    agree = R.type_factor(exc_name, mine[S_EXC_NAME], mine[S_EXC])
    snap = mine[S_SNAP]
    out: set[int] = set()
    for t in pool:
        if t == top.template or idx.templates[t][T_SEGS] != segs:
            continue
        s = idx.templates[t][T_SITE]
        row = idx.sites[s]
        if row[S_SNAP] == snap and R.type_factor(exc_name, row[S_EXC_NAME], row[S_EXC]) >= agree:
            out.add(s)
    return out


def as_tied(idx: MatchIndex, sites: list[int]) -> tuple[Tied, ...]:
    """The JSON entries of tied sites: id, repo-relative path, line, qualname, raised class."""
    out: list[Tied] = []
    for s in sites:
        row = idx.sites[s]
        prefix = idx.snaps[row[S_SNAP]][3]
        out.append(Tied(id=row[S_ID], path=f"{prefix}{row[S_PATH]}", line=row[S_LINE], qualname=row[S_QUAL],
                        exception=row[S_EXC]))
    return tuple(out)


def apart(top_path: str, top_qualname: str, top_exception: str, tied: tuple[Tied, ...], count: int) -> str:
    """What tells the tied sites apart, in one sentence for the CLI and the web page."""
    n = count + 1
    places = {(t.path, t.qualname) for t in tied} | {(top_path, top_qualname)}
    files = {p for p, _ in places}
    classes = {t.exception for t in tied} | {top_exception}
    parts = [f"{n} places raise this exact message"]
    if len(classes) > 1:
        parts.append(f"as {len(classes)} exception classes ({', '.join(sorted(c.rsplit('.', 1)[-1] for c in classes))})")
    where = f"in {len(files)} file{'s' if len(files) != 1 else ''}"
    funcs = len({q for _, q in places})
    parts.append(f"{where} and {funcs} function{'s' if funcs != 1 else ''}")
    return (" ".join(parts) + "; the text cannot tell them apart, only where it was raised does:"
            " paste the full traceback and its innermost frame decides.")
