"""A lint report as SARIF 2.1.0, the format of code-scanning views (GitHub, GitLab, VS Code).

One run, one rule per selected code (with its documentation), one result
per finding whose location is the raise statement, repo-relative
(``%SRCROOT%``), and whose related locations are the other sites of the
same problem.  ``partialFingerprints`` carry the stable error id, so a
finding keeps its identity when the lines move.
"""

from __future__ import annotations

from typing import Any

from errdex.review.lint import LintReport
from errdex.review.rules import RULES, Finding

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _location(prefix: str, path: str, line: int, end_line: int, message: str = "") -> dict[str, Any]:
    loc: dict[str, Any] = {"physicalLocation": {
        "artifactLocation": {"uri": f"{prefix}{path}", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": max(1, line), "endLine": max(1, line, end_line)},
    }}
    if message:
        loc["message"] = {"text": message}
    return loc


def _result(report: LintReport, f: Finding, index: dict[str, int]) -> dict[str, Any]:
    related = [
        {"id": i + 1, **_location(report.path_prefix, r.path, r.line, r.end_line, f"also raised in {r.qualname}")}
        for i, r in enumerate(f.related)
    ]
    out: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": index[f.code],
        "level": "warning",
        "message": {"text": f.message},
        "locations": [_location(report.path_prefix, f.path, f.line, f.end_line)],
        "partialFingerprints": {"errdexErrorId/v1": f.error_id},
        "properties": {"errorId": f.error_id, "qualname": f.qualname, "url": f.url},
    }
    if related:
        out["relatedLocations"] = related
    return out


def to_sarif(report: LintReport, version: str = "") -> dict[str, Any]:
    """The SARIF log of ``report`` (a JSON-ready dict)."""
    rules = [r for r in RULES if r.code in report.rules]
    index = {r.code: i for i, r in enumerate(rules)}
    driver: dict[str, Any] = {
        "name": "errdex",
        "rules": [{
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": (r.check.__doc__ or r.summary).strip()},
            "help": {"text": f"errdex documentation: docs/lint.md#{r.code.lower()}"},
            "defaultConfiguration": {"level": "warning"},
        } for r in rules],
    }
    if version:
        driver["version"] = version
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "automationDetails": {"id": f"errdex-lint/{report.snapshot}"},
        "results": [_result(report, f, index) for f in report.findings],
        "properties": {"snapshot": report.snapshot, "sites": report.sites,
                       "skipped": [{"code": s.code, "reason": s.reason} for s in report.skipped]},
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}

