"""Fixtures for the extract tests."""

from __future__ import annotations

import pytest
from extract_helpers import FIXTURES, extract_dir

from errdex.model import ExtractResult


@pytest.fixture(scope="session")
def shapes() -> ExtractResult:
    """The shapes fixture package, extracted once (inline, no pool)."""
    return extract_dir(FIXTURES / "extract_shapes")
