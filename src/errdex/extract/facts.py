"""Facts beside the raise sites, collected per file while extracting.

Configuration options (generic ``os.environ`` reads plus per-library adapters
under ``extract/adapters``) and tests that expect an exception.  Called by the
extractor for every parsed file, test files included.
"""

from __future__ import annotations

import ast

from errdex.model import ConfigOption, TestExpectation


def collect_facts(
    module: ast.Module, path: str, source: str, is_test: bool
) -> tuple[list[ConfigOption], list[TestExpectation]]:
    """Config options defined or read in ``module`` and the tests in it that expect errors."""
    # Filled in by the analyze/facts work (issue 4); the interface is fixed here.
    return [], []
