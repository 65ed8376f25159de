"""Hand-built snapshots and extraction results for the catalog tests.

They look like what the extractor produces for a small library, so the
catalog is tested without depending on the extractor.
"""

from __future__ import annotations

from errdex.model import (
    ClassInfo,
    ConfigOption,
    ErrorSite,
    ExtractResult,
    FileFailure,
    Guard,
    Segment,
    Snapshot,
    Template,
    TestExpectation,
    error_id,
)

REPO = "example-org/tinylib"


def snapshot(commit_char: str, date: str, repo: str = REPO) -> Snapshot:
    commit = commit_char * 40
    return Snapshot(repo=repo, commit=commit, date=date, source_kind="git", source="/src/tinylib",
                    url_base=f"https://github.com/{repo}/blob/{commit}")


def site(message: str, *, line: int, exception: str = "ValueError", qualname: str = "parse_size",
         expr: str | None = None, kind: str = "error", repo: str = REPO, path: str = "tinylib/core.py") -> ErrorSite:
    segments = [Segment(text=message)] + ([Segment(expr=expr)] if expr else [])
    template = Template.of(segments)
    return ErrorSite(
        kind=kind,  # type: ignore[arg-type]
        exception=exception,
        exception_resolved=exception,
        templates=(template,),
        path=path,
        line=line,
        end_line=line + 1,
        qualname=qualname,
        module="tinylib.core",
        guards=(Guard(kind="if", source="not text", normalized="not text", line=line - 1),),
        snippet="    if not text:\n        raise ValueError('...')\n",
        snippet_start=line - 1,
        unresolved=(expr,) if expr == "mystery" else (),
        error_id=error_id(repo, kind, exception, template.normalized(), qualname),
    )


def result(*sites: ErrorSite, failures: tuple[FileFailure, ...] = ()) -> ExtractResult:
    return ExtractResult(
        sites=sites,
        failures=failures,
        files_read=3,
        classes=(ClassInfo(qualname="tinylib.errors.TinyError", path="tinylib/errors.py", line=4, bases=("Exception",)),),
        config=(ConfigOption(name="TINYLIB_MODE", kind="env", path="tinylib/core.py", line=9),),
        tests=(TestExpectation(path="tests/test_core.py", line=6, test_name="test_unknown_unit",
                               exception="TinyError", pattern="unknown size unit"),),
        symbols={"tinylib": ("parse_size", "set_mode"), "tinylib.core": ("parse_size",)},
        raise_statements=len(sites),
        raise_sites=len(sites),
    )


EMPTY_SIZE = site("empty size string; expected something like '10k'", line=14)
BAD_UNIT = site("unknown size unit ", line=19, exception="TinyError", expr="unit")
MYSTERY = site("", line=30, exception="RuntimeError", qualname="set_mode", expr="mystery")
TURBO = site("mode 'turbo' is deprecated, use 'fast'", line=25, exception="DeprecationWarning",
             qualname="set_mode", kind="warning")
