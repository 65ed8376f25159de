"""What ``errdex observe`` saw of an error, for the page: the library's own tests that raised it, the
public call they went through with its arguments, and the real messages (the run's scratch paths
replaced by ``<path>``)."""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts
from errdex.analyze.static.words import package
from errdex.model import Evidence, Observation

_PATH = re.compile(r"(?:/[^\s'\"/]+){3,}/?")


def clean(text: str, limit: int) -> str:
    """An observed message or argument without the run's scratch paths, bounded."""
    return _PATH.sub("<path>", " ".join(text.split()))[:limit]


def test_name(node: str) -> str:
    name = node.rsplit("::", 1)[-1]
    return re.sub(r"\[.{24,}\]$", "[...]", name)


def _a_test(node: str) -> bool:
    """A test's node id (``tests/t.py::test_x``), not collection (``<collect>::tests/t.py``) or a module."""
    return "::" in node and not node.startswith("<")


def _test_method_below(test: str, chain: tuple[str, ...] | list[str]) -> bool:
    """Whether the test's own function ("tests.t.T.test_x (tests/t.py:12)") runs below the outermost frame
    of the chain, i.e. a library helper wraps the test (a callback the test defines is not the test)."""
    func = re.sub(r"\[.*\]$", "", test.rsplit("::", 1)[-1])
    return bool(func) and any(c.split(" (", 1)[0].endswith("." + func) for c in chain[1:])


def caught_inside(o: Observation) -> bool:
    """Whether the library itself caught the error in this run.  The recorder calls an error "escaped"
    when it left the outermost library frame; when that frame is the library's own test helper wrapping
    the test (jax's ``with_explicit_mesh`` decorator), the test's code runs below it and its
    ``assertRaises`` is what caught the error, so "not escaped" says nothing about the library catching
    it (rating 6: abf6's "jax caught it itself" was the test's ``assertRaisesRegex``)."""
    return not o.escaped and not _test_method_below(o.test, o.chain)


def observations(f: Facts) -> list[Observation]:
    """Observations from tests (not import-time probing such as ``__path__`` look-ups), one per test; the
    ones where the error reached the test first, and only those when there are any (a test where the
    library caught it itself may reach the raise on the way to something else)."""
    out: list[Observation] = []
    seen: set[str] = set()
    reached = any(not caught_inside(o) for o in f.observed if _a_test(o.test) and not o.entry.endswith("<module>"))
    for o in sorted(f.observed, key=caught_inside):
        if reached and caught_inside(o):
            continue
        base = re.sub(r"\[.*\]$", "", o.test)
        if not _a_test(o.test) or o.entry.endswith("<module>") or base in seen:  # collection, import-time probing
            continue
        seen.add(base)
        out.append(o)
    return out


def message_form(message: str) -> str:
    """A message's form: its words and numbers collapsed (``No such option '--foo'.`` and ``... '--bar'.`` share
    one, ``... '-f'.`` has another), so that cases that differ only in a name or a number count as one."""
    return re.sub(r"[^\W\d_]+", "a", re.sub(r"\d+", "0", message))


def distinct_cases(obs: list[Observation], limit: int) -> list[Observation]:
    """Up to ``limit`` observations that show different cases: one per message form first, then other
    messages, then the rest in order.  Rating 8 on a long-option raise: its three situations were all
    single-dash options (``'-f'``, ``'-a'``, ``'-a'``) though the tests also passed ``'--foo'``; the first
    observations in order repeated one case."""
    picked: list[Observation] = []
    forms: set[str] = set()
    for o in obs:
        if len(picked) < limit and message_form(o.message) not in forms:
            forms.add(message_form(o.message))
            picked.append(o)
    for o in obs:
        if len(picked) < limit and o not in picked and all(p.message != o.message for p in picked):
            picked.append(o)
    for o in obs:
        if len(picked) < limit and o not in picked:
            picked.append(o)
    return sorted(picked, key=obs.index)


def observed_sentence(f: Facts) -> str:
    """What the library's own tests did to raise it (``errdex observe``), in one sentence."""
    obs = [o for o in f.observed if _a_test(o.test) and not o.entry.endswith("<module>")]
    if not obs:
        return ""
    tests = {o.test for o in obs}
    times = sum(o.count for o in obs)
    caught = [o for o in obs if caught_inside(o)]
    o = observations(f)[0]
    return (f"{package(f)}'s own tests raised it {times} time{'s' if times != 1 else ''} in {len(tests)} "
            f"test{'s' if len(tests) != 1 else ''}, e.g. `{test_name(o.test)}` with \"{clean(o.message, 120)}\""
            + (_caught_clause(sum(c.count for c in caught), times, package(f)) if caught else "") + ".")


def _caught_clause(caught: int, times: int, pkg: str) -> str:
    """How many of the raises the library caught, counted in raises as ``times`` is, with the rest said
    too: "each" alone read as a change of fact when a page once said "845 of those" (rows, not raises;
    rating 8 on 916 and 5b54), so the sentence gives both numbers."""
    if caught >= times:
        return f"; {pkg} caught it itself every time: none of the {times} raises reached the test"
    return (f"; {pkg} caught {caught} of those {times} raises itself, and {times - caught} "
            f"reached the test")


def observed_evidence(f: Facts) -> list[Evidence]:
    return [Evidence(kind="test", text=f"observed: {o.test}: {clean(o.message, 200)}", path=o.test_path,
                     line=o.test_line, url=f.snapshot.source_url(o.test_path, o.test_line) if o.test_path else "")
            for o in observations(f)[:3]]


def entry_call(o: Observation) -> str:
    """`pkg.f(a=1, b='x')` with the recorded arguments; one whose recorded text is cut (its quotes or
    brackets do not close) is shown as `...`, never as broken code."""
    if ".<locals>." in o.entry:  # a decorator's wrapper (jax's ``api_boundary``): no call a user writes
        return ""
    args = ", ".join(f"{a.name}={_whole(clean(a.repr, 60))}" for a in o.entry_args[:3] if a.repr and a.name != "self")
    return f"`{o.entry}({args if len(args) <= 100 else '...'})`" if o.entry else ""


def _whole(code: str) -> str:
    return code if closed(code) else "..."


def closed(code: str) -> bool:
    """Whether every quote and bracket of a repr closes (a cut repr does not)."""
    stack: list[str] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    quote = ""
    i = 0
    while i < len(code):
        c = code[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            stack.append(c)
        elif c in pairs and (not stack or stack.pop() != pairs[c]):
            return False
        i += 1
    return not quote and not stack
