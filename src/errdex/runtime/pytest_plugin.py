"""pytest plugin: ``pytest --errdex`` adds an "errdex" section to each failure's report.

Registered through the ``pytest11`` entry point, so it is always loaded but
does nothing unless ``--errdex`` is given (a catalog is then read once per failure).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from errdex.runtime.describe import describe_text


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("errdex")
    group.addoption("--errdex", action="store_true", default=False, help="explain failures with errdex")
    group.addoption("--errdex-db", default=None, help="errdex catalog (default: $ERRDEX_DB or the user's)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if not item.config.getoption("errdex") or not report.failed or call.excinfo is None:
        return
    text = "".join(call.excinfo.exconly(tryshort=False))
    longrepr = str(report.longrepr) if report.longrepr else ""
    note = describe_text(longrepr + "\n" + text, db=item.config.getoption("errdex_db"))
    if note:
        report.sections.append(("errdex", note))
