"""A class of another package raised with one argument: its text is that package's wording around the argument.

authlib 1.7.2 raises joserfc's errors, a package errdex did not index (``oidc/core/claims.py``)::

    from joserfc.errors import InvalidClaimError, MissingClaimError
    ...
    if "nonce" not in self:
        raise MissingClaimError("nonce")
    if nonce_value != self["nonce"]:
        raise InvalidClaimError("nonce")

and the user reads ``invalid_claim: Invalid claim: 'nonce'``: joserfc's ``error: description`` with the claim
quoted (issue 17's sixty-ninth round).  The site's template is its argument alone (``nonce``, or ``{key}``), and
nothing of the wording around it is in the library's source.  From the message alone (no class printed):

- a value the message quotes (``'nonce'``) that is the whole literal argument of such raises names them: they
  are one tied, unconfident group (every class of another package that was handed that word);
- a quoted name (``'redirect_uris'``: a word, not a path) no such raise spells out is the argument of the raises
  that pass a value (``raise InvalidClaimError(key)``): their group, unless a template of the library holds the
  name itself.  A caught exception raised again (``raise err``) passes no argument: it is none of these.

Neither speaks over a strong answer (``_STRONG``), nor over a template read over the whole message (anchored at both
ends: ``Unknown option {name!r}`` for ``Unknown option 'x'``); a template found inside the message, with text
before it the library did not write (authlib's ``Invalid {structure_name}: `` inside ``invalid_claim: Invalid
claim: 'redirect_uris'``), does not stop them.  The class is foreign when its top-level module is neither one
of the catalog's packages nor the standard library's (``indexdata.foreign_module``).
"""

from __future__ import annotations

import re

from errdex.match import rank as R
from errdex.match import verify as V
from errdex.match.indexdata import FOREIGN, S_LINE, S_PATH, T_SEGS, T_SITE, MatchIndex

_STRONG = 0.75  # a top answer scoring this much speaks for the message (a part of it found, read loosely)
_WORD = re.compile(r"[A-Za-z_]\w*")  # a name (a claim, a key, an option): what a raise passing a value hands on
_QUOTED = re.compile(r"""'([^'\s]{1,80})'|"([^"\s]{1,80})\"""")


def foreign_sites(idx: MatchIndex, tops: frozenset[str], ranked: list[R.Scored], text: str) -> tuple[list[int], bool]:
    """The sites raising another package's class whose argument the message quotes (``True``: by its literal
    text) or may hold (``False``: the raises passing a value), in path/line order; ``[]`` when the message
    quotes nothing, or a confident or whole-message answer stands."""
    quoted = {a or b for a, b in _QUOTED.findall(text)}
    pool = idx.rewraps.get(FOREIGN, ())
    if not quoted or not pool:
        return [], False
    if ranked and (ranked[0].score >= _STRONG or (ranked[0].template >= 0 and _whole(idx, ranked[0], text))):
        return [], False
    in_scope = [t for t in pool if not tops or idx.sites[idx.templates[t][T_SITE]][S_PATH].split("/", 1)[0] in tops]
    named = [t for t in in_scope if idx.templates[t][T_SEGS][0][0] and idx.templates[t][T_SEGS][0][1].strip() in quoted]
    if named:
        return _ordered(idx, named), True
    spelled = [re.compile(rf"(?<!\w){re.escape(q)}(?!\w)") for q in quoted]
    if any(p.search("".join(s for lit, s in idx.templates[c.template][T_SEGS] if lit))
           for c in ranked[:3] if c.template >= 0 for p in spelled):
        return [], False  # a template of the library spells the value out: it speaks for it
    if not any(_WORD.fullmatch(q) for q in quoted):
        return [], False  # a path, a URL, a number with a sign: no name handed to a class
    return _ordered(idx, [t for t in in_scope if not idx.templates[t][T_SEGS][0][0]]), False


def _whole(idx: MatchIndex, c: R.Scored, text: str) -> bool:
    """The candidate's template read over the whole message, anchored at both ends."""
    v = V.verify(idx.templates[c.template][T_SEGS], text)
    return c.method == "exact" and v.anchored_start and v.anchored_end


def _ordered(idx: MatchIndex, tnos: list[int]) -> list[int]:
    sites = dict.fromkeys(idx.templates[t][T_SITE] for t in tnos)
    return sorted(sites, key=lambda s: (idx.sites[s][S_PATH], idx.sites[s][S_LINE], s))
