"""Two Meaning sentences from facts errdex holds (rating 7-A, 10-A on 53c4; the seed says what the diagnostic is
for, readers asked why a non-``jit`` call's message says ``jit``):

- **what a diagnostic option is for**: its help text says what it forbids ("Disallow tracing for JIT
  compilation." -> tracing for JIT compilation); the check is there to verify that the code run with it on
  needs none of that, and, when a cache is in front of the raise (``optiontext.cached_site``), that the code
  is fully covered by that cache (turned on after a warm-up);
- **a message that names another public call**: the message names a call in backquotes (`` `jit` ``) that is
  not one the page's route goes through but another public call that reaches the same raising function (the
  call an earlier check with the same message is made for, ``Facts.earlier_entries``, or the one that gets
  past it, ``Facts.bypass``): the raising function is shared, and the message names that call for every
  caller.
"""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts
from errdex.analyze.options import OptionFacts
from errdex.analyze.static import roles
from errdex.analyze.static.optiontext import cached_by, forbidden, keyed_on_function
from errdex.analyze.static.words import entry_words, join, message_text


def check_purpose(f: Facts, of: OptionFacts) -> str:
    """"`jax_no_tracing` is a diagnostic check ... (its help): turned on after a warm-up, it verifies that
    ..." for a diagnostic option whose help says what it forbids; "" otherwise."""
    what = forbidden(of.purpose, strict=True)
    if not (of.diagnostic and what):
        return ""
    lead = f"`{of.option.name}` is a diagnostic check, not a setting that changes results (\"{of.purpose}\")"
    if cached_by(f) and "cache_miss" not in f.site.qualname:
        return (f"{lead}: turned on after a warm-up, it verifies that the code run with it on is fully covered by "
                f"the cache in front of `{roles.outer_name(f)}` and needs no {what}.")
    if cached_by(f):
        return f"{lead}: turned on after a warm-up, it verifies that the code run with it on is fully covered by caches."
    return f"{lead}: turned on around some code, it verifies that the code needs no {what}."


def _named(f: Facts) -> list[str]:
    return re.findall(r"`([A-Za-z_][\w.]*)`", message_text(f))


def named_elsewhere(f: Facts) -> str:
    """Why the message names a public call the page's own route does not go through ("" when it names none,
    or one of the route's calls)."""
    if not f.public_path.entries:
        return ""
    own = {e.rsplit(".", 1)[-1] for e in f.public_path.entries}
    others = [e for ents in f.earlier_entries for e in ents]
    if f.bypass[0]:
        others.insert(0, f.bypass[0])
    for word in _named(f):
        last = word.rsplit(".", 1)[-1]
        if last in own:
            return ""
        match = next((e for e in others if e.rsplit(".", 1)[-1] == last), "")
        if not match:
            continue
        through = (f" (through `{join([o.rsplit('.', 1)[-1] for o in f.bypass[2]], 'or')}`)"
                   if match == f.bypass[0] and f.bypass[2] else "")
        given = " with the functions they are given" if keyed_on_function(f) else ""
        step = next((forbidden(of.purpose, strict=True) for of in f.option_facts if of.diagnostic), "")
        step = f" (the {step} that `{f.option_facts[0].option.name}` forbids)" if step else ""
        every = join([f"`{e}`" for e in f.public_path.entries[:3]], "and")
        return (f"The message says `{word}` though the call is {entry_words(f)}: the raising function, "
                f"`{roles.outer_name(f)}`, is shared: `{match}` reaches it too{through}, and {every} go "
                f"through the same step{given}{step}, so the message names `{word}` for all of them.")
    return ""
