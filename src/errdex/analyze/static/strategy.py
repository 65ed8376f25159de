"""The defensive strategy: a chain of small rules over the facts, then the exception's base classes.

Each rule returns a strategy or None to decline (STYLE.md item 8).  When no
rule knows the error, the class decides, walking its static base-class
chain until a builtin that has a strategy: a library's ``ShardingTypeError``
that derives from ``TypeError`` is a ``type-guard`` like its base.
"""

from __future__ import annotations

from collections.abc import Callable

from errdex.analyze.facts import Facts

STRATEGIES = ("validation", "type-guard", "configuration", "dependency", "state", "unsupported")
StrategyRule = Callable[[Facts], str | None]

_BY_CLASS = {
    "ImportError": "dependency", "ModuleNotFoundError": "dependency",
    "NotImplementedError": "unsupported",
    "TypeError": "type-guard",
    "ValueError": "validation", "KeyError": "validation", "IndexError": "validation",
    "LookupError": "validation", "OverflowError": "validation", "ZeroDivisionError": "validation",
    "AttributeError": "validation", "UnicodeError": "validation", "ArithmeticError": "validation",
    "RuntimeError": "state", "AssertionError": "state", "StopIteration": "state", "OSError": "state",
    "FileNotFoundError": "validation", "PermissionError": "state", "TimeoutError": "state",
    "DeprecationWarning": "unsupported", "FutureWarning": "unsupported", "PendingDeprecationWarning": "unsupported",
    "UserWarning": "validation", "RuntimeWarning": "validation", "Warning": "validation",
    "Exception": "validation",
}


def rule_config(f: Facts) -> str | None:
    return "configuration" if f.options else None


def rule_import(f: Facts) -> str | None:
    return "dependency" if any(g.rule == "import-failed" for g in f.guards) else None


def rule_unsupported(f: Facts) -> str | None:
    return "unsupported" if f.exception.name == "NotImplementedError" else None


def rule_isinstance(f: Facts) -> str | None:
    return "type-guard" if any("isinstance" in g.rule for g in f.guards) else None


def rule_guarded_value(f: Facts) -> str | None:
    return "validation" if any(g.rule in ("len", "compare") or "len" in g.rule for g in f.guards) else None


RULES: tuple[StrategyRule, ...] = (rule_config, rule_import, rule_unsupported, rule_isinstance, rule_guarded_value)


def by_class(f: Facts) -> str:
    for name in (f.exception.name, *f.exception.bases):
        short = name.rsplit(".", 1)[-1]
        if short in _BY_CLASS:
            return _BY_CLASS[short]
    return "validation"


def choose_strategy(f: Facts) -> str:
    for rule in RULES:
        out = rule(f)
        if out is not None:
            return out
    return by_class(f)
