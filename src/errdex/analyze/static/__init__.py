"""The static backend: a deterministic, offline page written from ``Facts`` alone.

``analyze_static(facts, symbols)`` fills every section of ``model.Analysis``.
Code samples go through the verifier (``analyze.verify``) with the
snapshot's symbol table; a sample that fails is replaced by the next
candidate, and the reason is recorded in ``Analysis.withheld``.
"""

from __future__ import annotations

import datetime
import re
import textwrap
from collections.abc import Mapping

from errdex.analyze.context import SnapshotContext
from errdex.analyze.facts import Facts
from errdex.analyze.static import roles
from errdex.analyze.static import samples as S
from errdex.analyze.static import sections as P
from errdex.analyze.static.checksample import check_sample
from errdex.analyze.static.givenpair import pair_sample
from errdex.analyze.static.guardnote import guard_note, prevention_from_note, with_prevention
from errdex.analyze.static.handedread import read_sample
from errdex.analyze.static.precondition import going_ahead, own_precondition
from errdex.analyze.static.settingsample import setting_sample
from errdex.analyze.static.strategy import choose_strategy
from errdex.model import Analysis, CodeSample, Evidence

RULES_VERSION = "static-1"


def coverage(f: Facts) -> tuple[str, ...]:
    """Which kinds of grounded fact this page could use (for ``errdex stats --analysis``)."""
    out: list[str] = []
    if any(g.words for g in f.guards):
        out.append("guard-words")
    if f.options:
        out.append("config")
    if f.tests:
        out.append("test")
    if f.docstring:
        out.append("docstring")
    if f.exception.docstring:
        out.append("class-doc")
    if f.comments:
        out.append("comment")
    if f.public_function:
        out.append("public-name")
    return tuple(out)


def _example_fix(f: Facts, symbols: Mapping[str, tuple[str, ...]], withheld: list[str],
                 option_fixes: list[tuple[str, str]]) -> CodeSample:
    tests = S.test_examples(f)
    before = S.first_valid(tests, symbols, withheld, "example fix (before, from a test)")
    for label, pair in option_fixes:
        b, a = pair.split("\x00", 1)
        if S.first_valid([(label, a)], symbols, withheld, "example fix (after)"):
            if before:
                fixed = _merge_imports(a + "\n" + _without_option_context(before, f))
                if S.first_valid([(label, fixed)], symbols, withheld, "example fix (after)"):
                    return CodeSample(before=before, after=fixed)
            if S.first_valid([(label, b)], symbols, withheld, "example fix (before)"):
                return CodeSample(before=b, after=a)
    if before:
        wrapped = S.apply_wrap_advice(before, P.advice(f))
        if wrapped and S.first_valid([("advice", wrapped)], symbols, withheld, "example fix (after)"):
            return CodeSample(before=before, after=wrapped)
    # A try / except wrapper is no "after": it makes no call of its own.  No proven or test-derived example: the slot stays empty (issue 15's proofs fill it); comment-only
    # and mirror-function ``would_raise_x(...)`` examples are not published.
    return CodeSample()


def _merge_imports(code: str) -> str:
    """Top-of-sample import lines once each, first; the rest as it was."""
    lines = code.splitlines()
    imports: list[str] = []
    rest: list[str] = []
    for ln in lines:
        if ln.startswith(("import ", "from ")) and not rest:
            if ln not in imports:
                imports.append(ln)
        elif (not ln.strip() and not rest) or (ln.startswith(("import ", "from ")) and ln in imports):
            continue
        else:
            rest.append(ln)
    return "\n".join([*imports, "", *rest]).strip() + "\n"


def _without_option_context(code: str, f: Facts) -> str:
    """The test code with ``with <lib>.<option holder>():`` (the context manager that turns the
    option on, as ``jax.no_tracing()``) replaced by its body: that block is what sets the failing state."""
    holders = {o.holder.rsplit(".", 1)[-1] for o in f.options if o.holder}
    out: list[str] = []
    lines = code.splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = re.match(r"(\s*)with\s+[\w.]*?(\w+)\(\)\s*:\s*$", ln)
        if m and m.group(2) in holders:
            indent = len(m.group(1))
            j = i + 1
            body: list[str] = []
            while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
                body.append(lines[j])
                j += 1
            out.extend(textwrap.indent(textwrap.dedent("\n".join(body)), " " * indent).splitlines())
            i = j
            continue
        out.append(ln)
        i += 1
    return "\n".join(out) + "\n"


def _prevention(f: Facts, note: str) -> tuple[str, ...]:
    """The page's Prevention; when the rules give none, the check its guard note states."""
    out = tuple(P.prevention(f))
    return out or tuple(x for x in (prevention_from_note(note),) if x) or tuple(x for x in (own_precondition(f),) if x)


def analyze_static(f: Facts, symbols: Mapping[str, tuple[str, ...]], *, date: str = "") -> Analysis:
    withheld: list[str] = []
    meaning, ev = P.meaning(f)
    sols = P.solutions(f)
    strategy = choose_strategy(f)
    opt_validate, opt_try, opt_fix = S.option_samples(f)
    validate_candidates = list(opt_validate)
    for g in f.guards:
        if g.rule == "import-failed" and "`" in g.words:
            validate_candidates.append(("import", S.dependency_check(g.words.split("`")[1])))
    validate = S.first_valid(validate_candidates, symbols, withheld, "validate before calling")
    # only a try / except that does something: the option's fallback (retry with the option the other way);
    # a generic one that matches the message and re-raises defends nothing (rating 8), so none is made
    try_sample = S.first_valid(opt_try, symbols, withheld, "try / catch")
    example = _example_fix(f, symbols, withheld, opt_fix)
    check = S.first_valid([("check", check_sample(f))], symbols, withheld, "check before calling")
    # a reader that exists only on another platform (rating 13, eb3a), or the other value of the setting an
    # internal check is made under (8ee0): the names are the package's own (its setter, its checks' enum values),
    # which the symbol table does not list as attributes, so the sample is shown labelled as not run
    unrun, unrun_why = read_sample(f)
    if not unrun:
        unrun, unrun_why = setting_sample(f)
    if not unrun:  # two optional parameters given together (5d88): the call with one, then both or neither
        unrun, unrun_why = pair_sample(f)
    evidence: list[Evidence] = list(ev)
    for s in sols:
        evidence.extend(e for e in s.evidence if e not in evidence)
    return Analysis(
        error_id=f.error_id,
        snapshot=f.snapshot.key,
        meaning=meaning,
        solutions=tuple(sols),
        example_fix=example,
        strategy=strategy,
        validate_sample=validate,
        try_sample=try_sample,
        check_sample=check,
        example_not_run=unrun,
        example_not_run_why=unrun_why,
        guard_note=with_prevention(note := guard_note(f, bool(check)), prevention := _prevention(f, note),
                                   roles.handed_use(f), going_ahead(f)),
        prevention=prevention,
        trigger=P.trigger(f),
        situations=tuple(P.situations(f)),
        related=f.related,
        related_note=f.related_note,
        evidence=tuple(evidence),
        backend="static",
        rules_version=RULES_VERSION,
        date=date,
        withheld=tuple(withheld),
        coverage=coverage(f),
    )


def today() -> str:
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def analyze_facts(f: Facts, ctx: SnapshotContext) -> Analysis:
    """The static page for ``f`` verified against the snapshot's symbols (the LLM backend's baseline)."""
    return analyze_static(f, ctx.all_symbols, date=today())
