"""Options of the same family: switches a library defines side by side for the same kind of job.

Rating 8 (fef1): the page of `jax_no_execution`'s error listed no related error, though `jax_no_tracing`
(the 53c4 error) is the same kind of option: a check the user turns on ("Disallow JAX executions." /
"Disallow tracing for JIT compilation."), defined next to it, off by default.  A user who meets one of them
has usually turned the other on too, or will want to.  Nothing else relates the two raises: they read
different options, in different functions, with different messages.

Two options are of one family when they are defined in the same file by the same definer (``adapter``),
next to each other (a run of consecutive definitions: no other option of that file between them), with the
same default, both diagnostic (``options.is_diagnostic``: a check, not a setting that changes results),
and their help texts open with the same verb ("Disallow ...").  Parsing only: the facts are the
extractor's ``ConfigOption`` records.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from errdex.analyze.options import is_diagnostic
from errdex.model import ConfigOption

_VERB = re.compile(r"[A-Za-z]+")


def _verb(o: ConfigOption) -> str:
    m = _VERB.match(o.help.strip())
    return m.group(0).lower() if m else ""


def _kin(a: ConfigOption, b: ConfigOption) -> bool:
    return (a.path == b.path and a.adapter == b.adapter and a.default == b.default and bool(_verb(a))
            and _verb(a) == _verb(b) and is_diagnostic(a) and is_diagnostic(b))


def family(option: ConfigOption, options: Sequence[ConfigOption]) -> tuple[ConfigOption, ...]:
    """The other options of ``option``'s family, nearest first (() when it has none): the run of
    consecutive definitions in its file, on either side, that are each kin to it."""
    if not option.path or not option.line or not is_diagnostic(option):
        return ()
    same_file = sorted({(o.line, o.name): o for o in options if o.path == option.path and o.line}.values(),
                       key=lambda o: o.line)
    at = next((i for i, o in enumerate(same_file) if o.name == option.name and o.line == option.line), -1)
    if at < 0:
        return ()
    out: list[ConfigOption] = []
    for step in (-1, 1):
        i = at + step
        while 0 <= i < len(same_file) and _kin(option, same_file[i]):
            out.append(same_file[i])
            i += step
    return tuple(sorted(out, key=lambda o: abs(o.line - option.line)))


def family_reason(option: ConfigOption, other: ConfigOption) -> str:
    """The Related entry's reason: "checked under `jax_no_tracing`, an option of the same kind as
    `jax_no_execution`, defined next to it ("Disallow tracing for JIT compilation.")"."""
    help_text = " ".join(other.help.split())
    shown = f" (\"{help_text}\")" if help_text and len(help_text) <= 90 else ""
    return (f"checked under `{other.name}`, an option of the same kind as `{option.name}`, defined next to "
            f"it{shown}")
