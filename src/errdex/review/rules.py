"""The lint rules: small functions over a snapshot's error sites, each with a stable code.

Each rule takes the sites (and, for EDX005, what the tests observed) and
yields ``Finding``s; it never reads a file or imports indexed code (the
warning rule re-parses the raise statement's own lines from the stored
snippet).  Codes never change meaning; retired codes are not reused.  Each
has a section in docs/lint.md, anchored by its lower-cased code.
"""

from __future__ import annotations

import ast
import textwrap
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from errdex.model import ErrorSite

MIN_LITERAL = 8  # a message is recognisable (and pasted) by a literal run this long
VALUE_TYPES = frozenset({"ValueError", "TypeError", "KeyError", "IndexError", "LookupError"})
GENERIC_TYPES = frozenset({"Exception", "BaseException"})


@dataclass(frozen=True, slots=True)
class Location:
    path: str  # package-relative
    line: int
    end_line: int
    error_id: str
    qualname: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem at one raise site (``related``: the other sites of the same problem)."""

    code: str
    rule: str
    message: str
    error_id: str
    path: str
    line: int
    end_line: int
    qualname: str
    url: str = ""
    related: tuple[Location, ...] = ()


class Observations(Protocol):
    """What EDX005 asks of the catalog (``errdex observe``'s tables, catalog/base.py).

    ``observe_run`` is None when the snapshot was never observed: the rule is
    then skipped with a note rather than reporting every error as untested.
    """

    def observe_run(self, snapshot_key: str) -> object | None: ...

    def observed_site_ids(self, snapshot_key: str) -> frozenset[str]: ...


@dataclass(frozen=True, slots=True)
class Context:
    sites: Sequence[ErrorSite]
    observed: frozenset[str] | None  # error ids some test raised; None: no observations
    url: Callable[[ErrorSite], str]


RuleFn = Callable[[Context], Iterator[Finding]]


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    summary: str
    check: RuleFn


def _finding(rule: Rule, ctx: Context, site: ErrorSite, message: str,
             related: tuple[Location, ...] = ()) -> Finding:
    return Finding(code=rule.code, rule=rule.name, message=message, error_id=site.error_id, path=site.path,
                   line=site.line, end_line=max(site.end_line, site.line), qualname=site.qualname,
                   url=ctx.url(site), related=related)


def _loc(site: ErrorSite) -> Location:
    return Location(site.path, site.line, max(site.end_line, site.line), site.error_id, site.qualname)


def _shown(site: ErrorSite) -> str:
    text = " ".join(site.template.render().split())
    return text if len(text) <= 80 else text[:77] + "..."


# --------------------------------------------------------------------------- rules


def duplicate_message(ctx: Context) -> Iterator[Finding]:
    """EDX001: one message raised at several places; a user's paste of it cannot say which one."""
    groups: dict[tuple[str, str], list[ErrorSite]] = defaultdict(list)
    for s in ctx.sites:
        if s.template.longest_literal >= MIN_LITERAL:
            groups[(s.kind, s.template.normalized().lower())].append(s)
    for members in groups.values():
        if len({s.error_id for s in members}) < 2:
            continue
        members.sort(key=lambda s: (s.path, s.line))
        first, others = members[0], members[1:]
        yield _finding(DUPLICATE, ctx, first,
                       f"the message {_shown(first)!r} is raised at {len(members)} places: a pasted message "
                       "cannot tell them apart (make each one say where or why)",
                       tuple(_loc(o) for o in others))


def message_without_value(ctx: Context) -> Iterator[Finding]:
    """EDX002: a ValueError/TypeError/KeyError/IndexError whose message shows no runtime value."""
    for s in ctx.sites:
        if s.kind != "error" or not s.templates or s.unresolved:
            continue
        types = {s.exception_name, *(b.rsplit(".", 1)[-1] for b in s.exception_bases)}
        if not types & VALUE_TYPES:
            continue
        if all(not t.placeholders for t in s.templates) and s.template.longest_literal > 0:
            yield _finding(NO_VALUE, ctx, s, f"{s.exception_name} {_shown(s)!r} does not show the offending "
                           "value: include it (f\"... got {value!r}\")")


def generic_exception(ctx: Context) -> Iterator[Finding]:
    """EDX003: ``raise Exception("...")`` with a fixed message: nothing to catch selectively, nothing to read."""
    for s in ctx.sites:
        if s.kind != "error" or s.exception_name not in GENERIC_TYPES:
            continue
        if not s.templates or all(not t.placeholders for t in s.templates):
            what = f"{_shown(s)!r}" if s.template.render().strip() else "no message"
            yield _finding(GENERIC, ctx, s, f"raise {s.exception_name} with {what}: raise a specific "
                           "exception class (ValueError, or the library's own) and show the value")


def warning_without_category(ctx: Context) -> Iterator[Finding]:
    """EDX004: ``warnings.warn(msg)`` without a category: a UserWarning nobody can filter precisely."""
    for s in ctx.sites:
        if s.kind == "warning" and _warn_without_category(s):
            yield _finding(NO_CATEGORY, ctx, s, f"warnings.warn({_shown(s)!r}) has no category: pass one "
                           "(DeprecationWarning, FutureWarning, or the library's own Warning subclass)")


def _warn_without_category(site: ErrorSite) -> bool:
    """Whether the stored statement is a ``warn(...)`` call with a message but no category."""
    if not site.snippet or not site.snippet_start:
        return False
    lines = site.snippet.split("\n")
    lo, hi = site.line - site.snippet_start, max(site.end_line, site.line) - site.snippet_start + 1
    if lo < 0 or hi > len(lines):
        return False
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines[lo:hi])))
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("warn", "warn_explicit") and node.args:
                if isinstance(node.args[0], ast.Call):
                    return False  # warn(DeprecationWarning("...")): the instance is the category
                return len(node.args) < 2 and not any(k.arg == "category" for k in node.keywords)
    return False


def untested(ctx: Context) -> Iterator[Finding]:
    """EDX005: an error that no test of the library raised (``errdex observe``)."""
    if ctx.observed is None:
        return
    for s in ctx.sites:
        if s.kind == "error" and s.error_id not in ctx.observed:
            yield _finding(UNTESTED, ctx, s, f"no test raises {s.exception_name} {_shown(s)!r} "
                           "(errdex observe ran the tests)")


DUPLICATE = Rule("EDX001", "duplicate-message", "The same message is raised at several places.", duplicate_message)
NO_VALUE = Rule("EDX002", "message-without-value", "A message about a bad value does not show the value.",
                message_without_value)
GENERIC = Rule("EDX003", "generic-exception", "A generic exception type with a bare message.", generic_exception)
NO_CATEGORY = Rule("EDX004", "warning-without-category", "A warning without a category.",
                   warning_without_category)
UNTESTED = Rule("EDX005", "untested-error", "An error that no test reaches.", untested)
RULES: tuple[Rule, ...] = (DUPLICATE, NO_VALUE, GENERIC, NO_CATEGORY, UNTESTED)
