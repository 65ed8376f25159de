"""Proofs survive a re-analysis: ``errdex analyze`` writes a fresh static analysis, which would drop the
examples ``errdex prove`` ran.  A proven example is better evidence than any generated one, so it is
carried over (light: model only, no sandbox)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from errdex.catalog.base import Catalog
from errdex.model import Analysis


def keep_proofs(catalog: Catalog, analyses: Sequence[Analysis]) -> list[Analysis]:
    out: list[Analysis] = []
    for a in analyses:
        old = catalog.get_analysis(a.error_id, a.snapshot)
        if old is not None and old.example_fix.proof is not None:
            a = dataclasses.replace(a, example_fix=old.example_fix)
        if old is not None and old.try_proof is not None:
            a = dataclasses.replace(a, try_sample=old.try_sample, try_proof=old.try_proof)
        if old is not None and old.validate_proof is not None:
            a = dataclasses.replace(a, validate_sample=old.validate_sample, validate_proof=old.validate_proof)
        out.append(a)
    return out
