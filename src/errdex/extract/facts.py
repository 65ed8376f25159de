"""Facts beside the raise sites, collected per file while extracting.

Configuration options (generic ``os.environ`` reads plus per-library adapters
under ``extract/adapters``) and tests that expect an exception.  Called by the
extractor for every parsed file, test files included.  Options are looked for
in library files only (a test's ``os.environ`` tweak is not configuration of
the library); expectations are looked for in test files only.
"""

from __future__ import annotations

import ast
import dataclasses

from errdex.extract.config import config_options
from errdex.extract.imports import module_name
from errdex.extract.testscan import scan_tests
from errdex.model import ConfigOption, TestExpectation


def collect_facts(
    module: ast.Module, path: str, source: str, is_test: bool
) -> tuple[list[ConfigOption], list[TestExpectation]]:
    """Config options defined or read in ``module`` and the tests in it that expect errors."""
    if is_test:
        return [], [dataclasses.replace(t, path=path) for t in scan_tests(module, source)]
    return config_options(module, path, module_name(path), source), []
