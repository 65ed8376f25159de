"""Paths of the match tests' fixtures (imported by the tests and the conftest)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRACEBACKS = ROOT / "tests" / "fixtures" / "match_tracebacks"


def tb(name: str) -> str:
    """A traceback fixture, verbatim as Python/pytest/IPython/JAX printed it."""
    return (TRACEBACKS / f"{name}.txt").read_text(encoding="utf-8")
