"""The model's accepted sections laid over the static Analysis of the same error.

Why over the static one: the static page is complete and verified, so every
section the model did not get right (or was not asked for, like Related
errors, which come from the catalog) is still there.  ``model_sections``
names exactly the sections that came from the model, and ``backend`` /
``rules_version`` say which model and prompt -- or stay the static ones
when the model contributed nothing, so that the "AI-assisted" footer
appears only on pages a model really wrote.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from errdex.analyze.llm.prompt import PROMPT_VERSION
from errdex.analyze.llm.schema import SECTIONS
from errdex.model import Analysis, CodeSample, Evidence, Solution


def backend_name(model: str) -> str:
    """``Analysis.backend`` of model-written pages: ``openai:<model>`` (the API flavour and the model)."""
    return f"openai:{model}"


def merge(static: Analysis, sections: Mapping[str, Any], evidence: Mapping[str, Evidence], *,
          model: str, date: str, rejected: Sequence[str] = ()) -> Analysis:
    """``rejected``: what the model wrote that was not published, recorded in ``withheld``."""
    withheld = static.withheld + tuple(f"{backend_name(model)}: {r}" for r in rejected)
    if not sections:
        return dataclasses.replace(static, withheld=withheld)
    changes: dict[str, Any] = {}
    cited: list[Evidence] = []

    def refs(ids: list[str]) -> tuple[Evidence, ...]:
        out = tuple(evidence[i] for i in ids if i in evidence)
        cited.extend(out)
        return out

    for name in SECTIONS:
        if name not in sections:
            continue
        v = sections[name]
        if name == "meaning" or name == "trigger":
            changes[name] = v["text"]
            refs(v["evidence"])
        elif name == "solutions":
            changes[name] = tuple(Solution(text=s["text"], evidence=refs(s["evidence"])) for s in v)
        elif name in ("prevention", "situations"):
            changes[name] = tuple(s["text"] for s in v)
            for s in v:
                refs(s["evidence"])
        elif name == "example_fix":
            changes[name] = CodeSample(before=v["before"], after=v["after"])
            refs(v["evidence"])
        elif name in ("validate_sample", "try_sample"):
            changes[name] = v["code"]
            refs(v["evidence"])
        elif name == "strategy":
            changes[name] = v
    merged_evidence = list(static.evidence)
    for ev in cited:
        if ev not in merged_evidence:
            merged_evidence.append(ev)
    return dataclasses.replace(
        static, **changes, evidence=tuple(merged_evidence), backend=backend_name(model),
        rules_version=PROMPT_VERSION, date=date,
        model_sections=tuple(n for n in SECTIONS if n in sections), withheld=withheld,
    )
