"""The candidates of one observation, before anything runs (parsing only): the triggering test distilled
(``distill.py``) with its after-variants (``mutate.py``, ``reshape.py``), and each candidate's
configuration candidates (``configcand.py``).  ``engine.py`` runs them."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from errdex.model import ErrorSite, Observation
from errdex.prove.configcand import OptionSwitch, candidates
from errdex.prove.distill import Distilled, NotDistillable, distill
from errdex.prove.fixes import instantiated
from errdex.prove.harness import adapter_for
from errdex.prove.misspelt import respelt
from errdex.prove.mutate import variants
from errdex.prove.reshape import reshaped, without_stand_ins
from errdex.prove.warmup import warm_up


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: str  # "test" (the observed test, distilled) or "entry" (the observed public call)
    before: str
    afters: tuple[str, ...]
    distilled: Distilled | None
    after_kinds: tuple[str, ...] = ()  # what made each of the first afters ("warm-up"); the rest: variants


def test_candidates(project: Path, o: Observation, site: ErrorSite, package: str,
                    symbols: Mapping[str, tuple[str, ...]],
                    others: Sequence[ErrorSite] = ()) -> tuple[list[Candidate], str]:
    """The observation's test distilled (up to two parameter bindings; each first with the test's
    stand-ins left out), with its after-variants: a class the guard wants as an instance called
    (``fixes.instantiated``), argument edits, then what surrounds the call, then guard parameters passed as
    ``[]``.  A module ``__getattr__``'s refusal of the test's made-up name comes first as a near miss of a
    name the module defines, the name as its after (``misspelt.respelt``; ``others``: the same function's other
    raises, for a deprecation's replacement).  (candidates, why not distillable or "")."""
    out: list[Candidate] = []
    try:
        for test in distill(project, o.test, o.chain, adapter_for(o.entry, o.chain))[:2]:
            for kind, d in (("test, its stand-ins left out", without_stand_ins(test)), ("test", test)):
                if d is None:
                    continue
                out += [Candidate(f"{kind}, a misspelt name", before, (after,), None, (why,))
                        for why, before, after in respelt(d, site, symbols, others)]
                mv = variants(d, guard_names(site), package)  # guard parameters as [] after reshape's
                edits = instantiated(site, d.source)  # a class passed where the guard wants an instance: called
                edits += [(w, v) for w, v in mv if not w.startswith("with ")]
                edits += reshaped(d, guard_names(site), package, symbols)
                edits += [(w, v) for w, v in mv if w.startswith("with ")]
                firsts: dict[str, str] = {}  # source -> why: each once, at its first place and why
                for w, v in edits:
                    firsts.setdefault(v, w)
                out.append(Candidate(kind, d.source, tuple(firsts), d, tuple(firsts.values())))
    except NotDistillable as exc:
        return out, f"test {o.test}: {exc}"
    return out, ""


def with_options(cands: Sequence[Candidate], sws: Sequence[OptionSwitch]) -> list[Candidate]:
    """Each candidate followed by its configuration candidates (``configcand``): a script that sets
    the option gets the warm-up and the default as its first afters, and the other ways to set it
    as candidates of their own; a script that does not set it, the option set each way."""
    out: list[Candidate] = []
    for c in cands:
        extra: list[Candidate] = []
        for sw in sws:
            for cc in candidates(c.before, sw):
                kinds: tuple[str, ...] = (f"warm-up ({sw.name} on after one call)", f"{sw.name} left at its default")
                bound = warm_up(cc.before, sw)  # the call's lambdas and values bound to names: the same objects twice
                if bound and bound not in cc.afters:
                    cc = replace(cc, afters=(bound, *cc.afters))
                    kinds = (f"warm-up ({sw.name} on after one call, its arguments bound to names)", *kinds)
                if cc.original:
                    c = replace(c, afters=(*cc.afters, *c.afters), after_kinds=(*kinds, *c.after_kinds))
                else:
                    extra.append(Candidate(f"{c.kind}, {sw.name} set by {cc.way}", cc.before, cc.afters, None,
                                           kinds))
        out += [c, *extra]
    return out


def guard_names(site: ErrorSite) -> tuple[str, ...]:
    """Plain names the site's guards read (``meta_fields`` in ``meta_fields is None``), builtins aside."""
    out: list[str] = []
    for g in site.guards:
        try:
            node = ast.parse(g.normalized, mode="eval")
        except SyntaxError:
            continue
        bases = {n.value.id for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id not in out and n.id not in bases and n.id != "self" \
                    and n.id not in dir(builtins) and not n.id[:1].isupper():  # a class or constant is no parameter
                out.append(n.id)
    return tuple(out[:4])
