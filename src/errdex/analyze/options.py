"""Options as users meet them: every way to set one, its default, and what it is for.

A guard that reads an option (``analyze/optionlink.py`` finds which) makes the
option part of the page.  ``option_facts`` gathers, from the option's
definition (``extract/config.py``, the library adapters), the package's public
names and the tests, everything a reader needs: the environment variable, the
``config.update`` call, the context manager the package exports under the
holder's name, the command-line flag, the keyword of a settings call; the
default; the help text; the tests that turn it on.  A *diagnostic* option
(its help says it disallows, checks or detects something) gets a page that
explains what the check found and how to satisfy it before it suggests
turning the check off.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from errdex.model import ConfigOption, TestExpectation

WayKind = Literal["env", "config.update", "context", "flag", "keyword"]
_DIAGNOSTIC = re.compile(
    r"\b(disallow\w*|forbid\w*|raise (?:an )?error|error (?:if|when|out)|check\w*|detect\w*|debug\w*|"
    r"assert\w*|invariant|leak\w*|sanitiz\w*|strict)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SetWay:
    """One way to give the option a value; ``code`` sets the value that avoids the error."""

    kind: WayKind
    code: str
    note: str = ""  # when it takes effect ("before Python starts", "inside the block only")


@dataclass(frozen=True, slots=True)
class OptionFacts:
    option: ConfigOption
    ways: tuple[SetWay, ...] = ()
    default: str | None = None
    purpose: str = ""  # the help text, first sentence
    diagnostic: bool = False
    safe_value: str = ""  # "False": the value under which this guard does not raise ("" when unknown)
    tests: tuple[TestExpectation, ...] = ()  # tests whose code sets the option


def is_diagnostic(o: ConfigOption) -> bool:
    """A switch that makes the library refuse or check something rather than change a result."""
    return bool(o.help and _DIAGNOSTIC.search(o.help)) or bool(_DIAGNOSTIC.match(o.name.split("_", 1)[-1]))


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = re.search(r"(?<=[.!?])\s+(?=[A-Z])", text)
    return text[: m.start()] if m else text


def _literal(value: str, env: bool) -> str:
    if env:
        return {"True": "1", "False": "0"}.get(value, value.strip("'\""))
    return value


def context_manager(o: ConfigOption, symbols: Mapping[str, tuple[str, ...]]) -> str:
    """``jax.no_tracing`` when a public module re-exports the option's holder under its name."""
    if not o.holder or "." not in o.holder or o.adapter.split(":", 1)[0] != "jax":
        return ""
    name = o.holder.rsplit(".", 1)[-1]
    root = (o.set_call or o.holder).split(".", 1)[0]
    return f"{root}.{name}" if name in symbols.get(root, ()) else ""


def set_ways(o: ConfigOption, value: str, symbols: Mapping[str, tuple[str, ...]]) -> tuple[SetWay, ...]:
    """Every way the package offers to give ``o`` the value ``value`` (a Python literal)."""
    ways: list[SetWay] = []
    if o.kind == "env":
        ways.append(SetWay("env", f"export {o.name}={_literal(value, True)}"
                           if value not in ("None", "") else f"unset {o.name}", "in the shell, before Python starts"))
        return tuple(ways)
    if o.set_call:
        call = f"{o.set_call}({o.name}={value})" if o.kind == "setting" else f'{o.set_call}("{o.name}", {value})'
        ways.append(SetWay("keyword" if o.kind == "setting" else "config.update", call,
                           "in the program, before the call that raised"))
    cm = context_manager(o, symbols)
    if cm:
        ways.append(SetWay("context", f"with {cm}({value}):\n    ...", "for the code inside the block only"))
    if o.env_var:
        ways.append(SetWay("env", f"export {o.env_var}={_literal(value, True).lower()}",
                           "in the shell, before Python starts: read when the option is defined"))
    if o.kind == "flag" or o.adapter.split(":", 1)[0] == "jax":
        flag = f"--{o.name}={_literal(value, True).lower()}" if value not in ("True", "False") else (
            f"--{o.name}" if value == "True" else f"--no{o.name}")
        note = ("on the command line, for a program that parses absl flags with "
                f"`{o.set_call.rsplit('.', 1)[0]}.config_with_absl()`" if o.set_call else "on the command line")
        ways.append(SetWay("flag", flag, note))
    return tuple(ways)


def tests_setting(o: ConfigOption, tests: Sequence[TestExpectation]) -> tuple[TestExpectation, ...]:
    """Tests whose code turns the option on or off: by its name, its holder or its variable."""
    keys = [o.name]
    if o.holder:
        keys.append(o.holder.rsplit(".", 1)[-1] + "(")
    if o.env_var:
        keys.append(o.env_var)
    out = [t for t in tests if any(k in t.code for k in keys)]
    return tuple(out[:3])


def option_facts(o: ConfigOption, raising_value: str | None, symbols: Mapping[str, tuple[str, ...]],
                 tests: Sequence[TestExpectation] = ()) -> OptionFacts:
    """The option's facts for a page; ``raising_value`` is the value under which the guard raises
    ("True" for ``if config.x.value:``) or None when the guard is not a plain on/off test."""
    safe = ""
    if raising_value in ("True", "False"):
        safe = "False" if raising_value == "True" else "True"
    return OptionFacts(
        option=o, ways=set_ways(o, safe, symbols) if safe else (), default=o.default,
        purpose=_first_sentence(o.help), diagnostic=is_diagnostic(o), safe_value=safe,
        tests=tests_setting(o, tests),
    )


def raising_value(words: str) -> str | None:
    """From a guard's words ("the `jax_no_tracing` option is on"): the value that raises."""
    if words.endswith(" is on"):
        return "True"
    if words.endswith(" is off"):
        return "False"
    return None
