"""A helper whose raise prints the caught exception's text its callers pass it.

```python
def parse_args(self, args):
    try:
        cfg = self._parse_common(...)              # raises NSKeyError(f"Option '{key}' is not accepted")
    except (TypeError, KeyError, ArgumentError) as ex:
        self.error(str(ex), ex)                    # the caught text, handed on

def error(self, message, ex=None):
    raise argument_error(message) from ex          # prints it: the site the user's traceback ends in
```

jsonargparse 4.49.0 (issue 17's round 20): 36 of 40 last-line misses were this form.  The helper's
own template is ``{message}``; its callers' literal texts (``unrecognized arguments: {}``) reach it
through the recorded calls (``resolve.py``), a caught text did not.  Phase 1 records, on the call, the
arguments that are a caught exception's text (``walkcalls._caught_args``: the caught classes and the
``try`` body's lines); here each such argument becomes, for every site of the called function whose
templates hold the parameter receiving it, one more origin of caught texts for ``forwarded.attach``:
the calling function's ``try`` body, followed through the call graph to the sites raising a caught
class, their templates spliced where the parameter stands, capped as a raise's own
(``MAX_FORWARDED``).  From the message alone the helper and the inner site are then a tie.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from errdex.extract.forwarded import Caught
from errdex.extract.summary import CallSite, FuncSummary
from errdex.model import ErrorSite


def passed_caught(sites: Sequence[tuple[str, ErrorSite, Caught]],
                  callers: Mapping[str, Sequence[tuple[CallSite, str]]],
                  functions: Mapping[str, FuncSummary]) -> dict[int, list[tuple[str, Caught]]]:
    """By the site's index: the caught texts the callers of its function pass it (the calling function,
    and a ``Caught`` named by the parameter that receives the text), for ``forwarded.attach``."""
    out: dict[int, list[tuple[str, Caught]]] = {}
    for i, (_, site, _) in enumerate(sites):
        key = f"{site.module}.{site.qualname}" if site.module else site.qualname
        calls = callers.get(key)
        f = functions.get(key)
        if not calls or f is None:
            continue
        held = {seg.expr for t in site.templates for seg in t.segments
                if not seg.is_literal and seg.conversion in (None, "s") and seg.format_spec is None}
        for call, caller in calls:
            for at, classes, lines in call.caught:
                param = f.params[int(at)] if at.isdigit() and int(at) < len(f.params) else at
                if param in held and param in f.params:
                    found = (caller, Caught(classes, lines, param))
                    if found not in out.setdefault(i, []):
                        out[i].append(found)
    return out
