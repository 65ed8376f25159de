"""A setting that lets the refused input through, given to the raising call (parsing; the engine runs them).

Some errors are refused input that the library can also be told to accept: click raises ``NoSuchOption`` for an
option the command does not declare, and its own option parser skips that raise when ``ignore_unknown_options`` is
set (``_match_short_opt``: ``if self.ignore_unknown_options: ... continue`` right before ``raise NoSuchOption``).
The proven after only took the unknown option away (``['--foo']`` -> ``[]``; rating 10, 916: a labelled non-fix);
where the program must accept such input, the setting is the fix, and readers asked for it.  Facts only:

- ``pass_flags``: the flags ``X`` a function of the raising class tests as ``if self.X:`` (or ``ctx.X``) on its way
  to a raise of the same exception (the site's own snippet and those of ``others``, its rivals): the branch that
  skips the raise, so ``X=True`` lets the input through;
- each is given to the raising statement's outermost call as a keyword (``cli.main([...], ...,
  ignore_unknown_options=True)``), which the library forwards to where the flag is read, or refuses (then the after
  fails and is not kept);
- when that call then stops at a later check (the input, now let through, is refused there: "Got unexpected extra
  argument"), ``next_flags`` reads that check's condition from the site snippet that covers the traceback's line
  (``if args and not ctx.allow_extra_args and ...``): each flag it tests negatively, in source order, is tried in
  addition, ``Y=True``.

The engine keeps the first after that runs clean (``Prover.flagged``); the proof is marked ``kept, setting: ...``
and the page says what the setting does.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Sequence

from errdex.model import ErrorSite
from errdex.pagenotes import KEPT_SETTING
from errdex.prove.runs import Runs

_DEF = re.compile(r"\s*(?:async\s+)?def\s")
_POSITIVE = re.compile(r"^\s*(?:el)?if\s+(?:self|ctx|self\.ctx)\.([a-z]\w*)\s*:")
_NEGATIVE = re.compile(r"\bnot\s+(?:self|ctx|self\.ctx)\.([a-z]\w*)\b")
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')
MAX_FLAGS = 2
MAX_NEXT = 3


def _class(qualname: str) -> str:
    return qualname.split(".", 1)[0] if "." in qualname else ""


def _own_lines(site: ErrorSite) -> list[str]:
    """The raising function's lines in the snippet, from its ``def`` to the raise."""
    lines = site.snippet.splitlines()[: max(0, site.line - site.snippet_start) + 1]
    starts = [i for i, ln in enumerate(lines) if _DEF.match(ln)]
    return lines[starts[-1]:] if starts else []


def pass_flags(site: ErrorSite, others: Sequence[ErrorSite]) -> list[tuple[str, str]]:
    """(flag, where): the flags a method of the raising class tests on its way to a raise of the same exception,
    the branch that skips it (``if self.ignore_unknown_options:``), with the method that does; not a flag the
    site's own guards read (that one is the site's condition, said on the page already)."""
    cls = _class(site.qualname)
    if not cls:
        return []
    own = {n for g in site.guards for n in re.findall(r"\.([a-z]\w*)", g.normalized)}
    out: list[tuple[str, str]] = []
    for s in (site, *others):
        if _class(s.qualname) != cls or s.path != site.path or s.exception_name != site.exception_name:
            continue
        for ln in _own_lines(s):
            m = _POSITIVE.match(ln)
            if m and m.group(1) not in own and m.group(1) not in (f for f, _ in out):
                out.append((m.group(1), s.qualname))
    return out[:MAX_FLAGS]


def with_flags(script: str, flags: Sequence[str]) -> str:
    """``script`` with ``flag=True`` for each flag added to its last statement's outermost call ("" when there is
    none, or the call passes the flag already)."""
    try:
        module = ast.parse(script)
    except SyntaxError:
        return ""
    if not module.body:
        return ""
    calls = [n for n in ast.walk(module.body[-1]) if isinstance(n, ast.Call)]
    if not calls or any(k.arg in flags for k in calls[0].keywords):
        return ""
    calls[0].keywords += [ast.keyword(arg=f, value=ast.Constant(True)) for f in flags]
    return ast.unparse(ast.fix_missing_locations(module)) + "\n"


def next_flags(stderr: str, sites: Sequence[ErrorSite], package: str, first: Sequence[str]) -> list[str]:
    """The flags the check that stopped the run tests negatively (``not ctx.allow_extra_args``), in source order:
    read, innermost library frame first, from the condition above the frame's line in a site snippet that covers
    it; not those already given (``first``)."""
    frames = [(p, int(n)) for p, n, _ in _FRAME.findall(stderr) if f"/{package}/" in p.replace("\\", "/")]
    for path, line in reversed(frames):
        rel = path.replace("\\", "/").split("/site-packages/", 1)[-1]
        for s in sites:
            lines = s.snippet.splitlines()
            k = line - s.snippet_start
            if s.path != rel or not 0 <= k < len(lines):
                continue
            indent = len(lines[k]) - len(lines[k].lstrip())
            for ln in reversed(lines[:k + 1]):
                if ln.strip() and len(ln) - len(ln.lstrip()) < indent and re.match(r"\s*(?:el)?if\s", ln):
                    got = [f for f in dict.fromkeys(_NEGATIVE.findall(ln)) if f not in first]
                    if got:
                        return got[:MAX_NEXT]
                    break
            break
    return []


def flagged(before: str, site: ErrorSite, others: Sequence[ErrorSite], sites: Callable[[], Iterable[ErrorSite]], package: str,
            run: Callable[[Sequence[str]], Runs], mine: Callable[[str], bool]) -> tuple[str, str, str, int]:
    """(after, how, stdout, runs): the first of ``before`` with a pass flag (then with a flag of the check that
    stopped it next) that exits 0 without this error escaping (``mine``: a traceback that resolves to it); the
    library may raise it and catch it itself on the way, which is how the setting works.  ("", "", "", runs)
    when none does; ``sites``: the package's, read only when a flag got past this raise."""
    runs = 0
    for flag, where in pass_flags(site, others):
        one = with_flags(before, [flag])
        if not one:
            continue
        res = run([one])
        runs += res.count
        rc, out, err = res[0]
        if rc == 0 and not mine(err):
            return one, f"{flag}=True (the setting {where} skips this raise under)", out, runs
        if rc == 0 or mine(err):
            continue
        more = next_flags(err, list(sites()), package, [flag])
        twos = [t for t in (with_flags(before, [flag, f]) for f in more) if t]
        if not twos:
            continue
        res = run(twos)
        runs += res.count
        for k, two in enumerate(twos):
            rc2, out2, err2 = res[k]
            if rc2 == 0 and not mine(err2):
                return two, (f"{flag}=True (the setting {where} skips this raise under), {more[k]}=True "
                             "(the next check's)"), out2, runs
    return "", "", "", runs


_LABEL = re.compile(r"(\w+)=True \((?:the setting [\w.]+ skips this raise under|the next check's)\)")


def setting_mark(how: str) -> str:
    """``Proof.arguments`` of an after ``flagged`` made ("kept, setting: ignore_unknown_options=True;
    allow_extra_args=True"), from its label; "" for any other after."""
    flags = _LABEL.findall(how)
    return KEPT_SETTING + "; ".join(f"{f}=True" for f in flags) if flags else ""
