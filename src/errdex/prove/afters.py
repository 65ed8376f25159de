"""Which after proves an error once its before raised it (split from ``engine.py``).

The before is settled; what remains is the after that exits 0 without this error: the candidate's variants run
in chunks until the first clean one (``_first_clean``), else the fixes the error's own facts give
(``fixes.py``, ``direct.py``), else two or three edits (``pairs.py``); and, for a proven after that only drops
an argument or takes the trigger away, a better one that gives the call what it needs (``kept``).  Both the
observed candidates (``engine.Prover.prove``) and the search's found calls (``search.confirm``) use it.  A
mixin over ``running.SandboxRuns``: ``engine.Prover`` holds the fields.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence, Set
from pathlib import Path

from errdex.catalog.base import Catalog
from errdex.model import ErrorSite, ProofBefore
from errdex.prove.candidates import Candidate, guard_names
from errdex.prove.direct import public_instead, reshaped_to_match
from errdex.prove.fixes import CAUGHT_LABEL, given_wanted, message_line, message_values, real_fixes
from errdex.prove.keep import changed, dropped, probe_defaults, probe_script, value_only
from errdex.prove.keep import variants as kept_variants
from errdex.prove.mistake import instead_of, only_drops, sets_up
from errdex.prove.pairs import paired, tripled
from errdex.prove.passflags import flagged
from errdex.prove.running import SandboxRuns

MAX_KEPT_REST = 8  # value-only afters of the candidate's own list tried after keep.variants'
MAX_FIX_REST = 24  # ... after a non-fix (``only_drops``): those that do more, reshape's late in the list among them
AFTER_CHUNK = 8  # afters sent to the worker at a time: the first clean one stops the rest


class AfterSearch(SandboxRuns):
    """The after of a proven before, for ``engine.Prover``."""

    __slots__ = ()

    def kept(self, catalog: Catalog, site: ErrorSite, before: str, after: str, rest: Sequence[str],
             scratch: Path, pb: ProofBefore | None = None, seen: dict[str, bool] | None = None,
             others: Sequence[ErrorSite] = ()) -> tuple[str, str, str, int]:
        """When the proven ``after`` drops an argument of ``before`` (``keep.py``) or only takes the trigger
        away (``mistake.only_drops``): the first after that gives the call what it needs (``fixes.py``: the
        value the before's message asks for, a class instantiated, a signal caught) or keeps every argument,
        and runs clean; then the value-only ones of ``rest`` (the afters the candidate had after the proven
        one).  (after, how, stdout, runs); after "" when none."""
        public = public_instead(site, catalog.symbols(self.snapshot.key), before)  # (``direct.py``)
        first = self._first_fix(catalog, site, public, scratch, seen) if public and public[0][1] != after else ("", "", "", 0)
        if first[0]:
            return first
        lossy = bool(dropped(before, after))
        if not lossy and not only_drops(before, after):
            return "", "", "", 0
        fixes, wanted = self._fact_fixes(catalog, site, before, pb)
        probe, runs, defaults = (probe_script(before, after) if lossy else ""), 0, {}
        if probe:
            got = self.runs([probe], scratch, "defaults")
            runs, defaults = got.count, probe_defaults(got[0][1])
        new = [*instead_of(fixes, before, after), *given_wanted(before, wanted),
               *reshaped_to_match(before, after, site),
               *(kept_variants(before, after, site, defaults, wanted) if lossy else [])]
        # those that only take the trigger away too (``kinds=None``) last: a fix that gives the call what it needs first
        firsts: dict[str, str] = {}
        for label, src in new:  # each once, at its first place
            firsts.setdefault(src, label)
        new = [(label, src) for src, label in firsts.items()]
        new = [x for x in new if not only_drops(before, x[1])] + [x for x in new if only_drops(before, x[1])]
        tried = {src for _, src in new}
        # the candidate's own afters after the proven one: those that keep every argument (and, when the proven one
        # kept them but only took the trigger away, those that change how the call is set up and do more than
        # take something away: ``version='1.0'`` given to the configuring call rather than ``['--version']`` -> ``[]``)
        more = [rest[k] for k in value_only(before, rest) if rest[k] not in tried
                and (lossy or (sets_up(before, rest[k]) and not only_drops(before, rest[k])))][
            :MAX_KEPT_REST if lossy else MAX_FIX_REST]
        after, how, out, n = self._first_fix(catalog, site, [
            *new, *((f"{changed(before, m)} (keeps every argument)", m) for m in more)], scratch, seen)
        if not after and not lossy:  # a non-fix: the setting that lets the refused input through (``passflags.py``)
            after, how, out, m = flagged(before, site, others, lambda: catalog.sites(self.snapshot.key), self.package,
                                         lambda codes: self.runs(codes, scratch, "flagged"),
                                         lambda err: self.resolves_to(catalog, err, site.error_id)[0] == site.error_id)
            n += m
        return after, how, out, runs + n + first[3]

    def fixed(self, catalog: Catalog, site: ErrorSite, before: str, scratch: Path,
              pb: ProofBefore) -> tuple[str, str, str, int]:
        """When no variant of ``before`` ran clean: the first of the fixes the error's facts give that does
        (``fixes.real_fixes``, keywords given the values the message asks for).  (after, how, stdout, runs)."""
        fixes, wanted = self._fact_fixes(catalog, site, before, pb)
        public = public_instead(site, catalog.symbols(self.snapshot.key), before)  # the private call's replacement
        return self._first_fix(catalog, site, [*public, *fixes, *given_wanted(before, wanted)], scratch)

    def _fact_fixes(self, catalog: Catalog, site: ErrorSite, before: str, pb: ProofBefore | None
                    ) -> tuple[list[tuple[str, str]], dict[str, tuple[str, ...]]]:
        """The fixes the error's own facts give for ``before`` (``fixes.real_fixes``) and the keyword values
        the message it printed asks for (``fixes.message_values``)."""
        if pb is None:
            return real_fixes(catalog.classes(self.snapshot.key), site, before, ""), {}
        return (real_fixes(catalog.classes(self.snapshot.key), site, before, pb.exception),
                message_values(site, message_line(pb.output, pb.exception)))

    def _first_fix(self, catalog: Catalog, site: ErrorSite, labelled: Sequence[tuple[str, str]],
                   scratch: Path, seen: dict[str, bool] | None = None) -> tuple[str, str, str, int]:
        """(after, how, stdout, runs) of the first of the (label, source) afters that runs clean (a caught
        signal's by ``_first_clean``'s rule for it); after "" when none does."""
        if not labelled:
            return "", "", "", 0
        signal = {k for k, (label, _) in enumerate(labelled) if label.endswith(CAUGHT_LABEL)}
        i, out, n = self._first_clean(catalog, site.error_id, [src for _, src in labelled], scratch, caught=signal,
                                      seen=seen)
        return (labelled[i][1], labelled[i][0], out, n) if i >= 0 else ("", "", "", n)

    def _first_clean(self, catalog: Catalog, error_id: str, afters: Sequence[str], scratch: Path,
                     progressed: list[int] | None = None, caught: Set[int] = frozenset(),
                     seen: dict[str, bool] | None = None) -> tuple[int, str, int]:
        """(index, stdout, runs) of the first after that exits 0 without printing ``error_id`` (index -1
        when none does); run in chunks of ``AFTER_CHUNK``, so a clean one early stops the rest.
        ``progressed`` collects the indexes of afters that got past this error and raised another;
        ``caught``: afters that catch the error themselves (a signal, ``fixes.caught``), clean when they exit 0
        with nothing on stderr although the site raised; ``seen`` collects each after run (source -> it raised
        this error; False: it ran clean), for the validate samples (``samples.py``)."""
        runs = 0
        for start in range(0, len(afters), AFTER_CHUNK):
            res = self.runs(afters[start:start + AFTER_CHUNK], scratch, f"after-{start}")
            for k in range(len(afters[start:start + AFTER_CHUNK])):
                rc2, out2, err2 = res[k]
                if start + k in caught:
                    if rc2 == 0 and not err2.strip():
                        return start + k, out2, runs + res.count
                    continue
                mine = rc2 != 0 and (res.raised(k) or self.resolves_to(catalog, err2, error_id)[0] == error_id)
                if seen is not None and (mine or (rc2 == 0 and not err2.strip())) and start + k not in caught:
                    seen[afters[start + k]] = mine
                if rc2 == 0 and not res.raised(k) \
                        and not (err2.strip() and self.resolves_to(catalog, err2, error_id)[0] == error_id):
                    return start + k, out2, runs + res.count
                if progressed is not None and rc2 > 0 and "Traceback" in err2 and not res.raised(k) \
                        and self.resolves_to(catalog, err2, error_id)[0] != error_id \
                        and self.cause_resolving_to(catalog, err2, error_id) is None:
                    progressed.append(start + k)
            runs += res.count
        return -1, "", runs

    def _two_edits(self, catalog: Catalog, site: ErrorSite, cand: Candidate, afters: Sequence[str],
                   progressed: Sequence[int], scratch: Path) -> tuple[str, str, str, int]:
        """When no single edit ran clean: pairs of edits (``pairs.py``), the singles that got past this
        error first.  (after, why, stdout, runs); after "" when none ran clean."""
        if cand.distilled is None:
            return "", "", "", 0
        modules: dict[str, ast.Module] = {}
        pairs = paired(cand.distilled, guard_names(site), self.package, [afters[i] for i in progressed], afters,
                       modules)
        if not pairs:
            return "", "", "", 0
        further: list[int] = []
        i, out, n = self._first_clean(catalog, site.error_id, [src for _, src in pairs], scratch, further)
        if i >= 0:
            return pairs[i][1], f"two edits: {pairs[i][0]}", out, n
        # no pair ran clean: those that got past this error too are edited a third time
        third = tripled(cand.distilled, [(pairs[k][0], modules[pairs[k][1]]) for k in further if pairs[k][1] in modules],
                        guard_names(site), self.package, [*afters, *(src for _, src in pairs)])
        if not third:
            return "", "", "", n
        j, out3, n3 = self._first_clean(catalog, site.error_id, [src for _, src in third], scratch)
        return (third[j][1], f"three edits: {third[j][0]}", out3, n + n3) if j >= 0 else ("", "", "", n + n3)
