"""Texts a package sets on an object whose class raises them.

```python
def _chk_datatype(klass, hdr, fix=False):          # nibabel/analyze.py
    rep = Report(HeaderDataError)
    ...
    rep.problem_msg = f'data code {code} not supported'
    return hdr, rep

class Report:                                      # nibabel/batteryrunners.py
    def log_raise(self, logger, error_level=40):
        ...
        raise self.error(self.problem_msg)
```

The raise reads an attribute its own class only initialises (``self.problem_msg = problem_msg`` in
``__init__``): the texts are those the package's functions assign to it on the instances they build.
Phase 1 records each ``local.<...msg|message...> = <text>`` where the local holds ``Cls(...)``
(``walkbind._attr_text``, ``ModuleSummary.attr_texts``); here each site in a method of ``Cls`` (or a
subclass) with a template that is that attribute alone gets those texts after its own templates, at most
``MAX_ATTR_TEXTS`` (more, and it keeps its own).  Issue 17's round 19: nibabel 5.4.2's header checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from errdex.extract.ir import Node
from errdex.extract.summary import ModuleSummary
from errdex.model import ErrorSite, Template

MAX_ATTR_TEXTS = 32


def attach(sites: Sequence[tuple[str, ErrorSite]], summaries: Iterable[ModuleSummary],
           canonical: Callable[[str], str], bases: Callable[[str], Sequence[str]],
           templates_of: Callable[[Node], tuple[Template, ...]]) -> list[tuple[str, ErrorSite]]:
    """The sites, each raising an attribute of its own class that the package sets from outside with the
    texts set (templates with literal text only, its own first)."""
    texts: dict[tuple[str, str], list[Node]] = {}
    for summary in summaries:
        for cls, attr, node in summary.attr_texts:
            texts.setdefault((canonical(cls), attr), []).append(node)
    if not texts:
        return list(sites)
    classes = {cls for cls, _ in texts}
    out: list[tuple[str, ErrorSite]] = []
    for path, site in sites:
        owner = f"{site.module}.{site.qualname.rsplit('.', 1)[0]}" if "." in site.qualname else ""
        chain = [owner, *bases(owner)] if owner else []
        mine = next((c for c in chain if c in classes), None)
        if mine is not None:
            held = {seg.expr for t in site.templates if len(t.segments) == 1 for seg in t.segments
                    if not seg.is_literal and seg.conversion is None}
            extra: dict[Template, None] = {}
            for attr in (a for c, a in texts if c == mine and (a in held or f"self.{a}" in held)):
                for node in texts[(mine, attr)]:
                    extra.update(dict.fromkeys(t for t in templates_of(node)
                                               if any(s.is_literal and s.text.strip() for s in t.segments)))
            for t in site.templates:
                extra.pop(t, None)
            if extra and len(extra) <= MAX_ATTR_TEXTS:
                site = dataclasses.replace(site, templates=(*site.templates, *extra))
        out.append((path, site))
    return out
