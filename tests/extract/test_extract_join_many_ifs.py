"""A list grown under many independent ``if`` statements and joined (metar 2.0.2, round 33: ``Metar.string``
appends one line under each of 27 ``if self.<field>:`` and returns ``"\\n".join(lines)``).  Each ``if``
merges two options that share every binding before it, so following each option anew walked 2**27 paths,
twice: to read the items, and to check that nothing else touches the list (``_only_grown``); indexing the
wheel took hours.  The items of one binding are read once per join, and each binding is checked once."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from extract_helpers import extract_dir

from errdex.extract.msgjoin import JoinMixin

FIELDS = [f"field_{k}" for k in range(28)]


def _report_module() -> str:
    body = "".join(f'        if self.{f}:\n            lines.append("{f} set")\n' for f in FIELDS)
    head = textwrap.dedent('''\
        class Report:
            def string(self):
                lines = []
                lines.append("station report")
        ''')
    tail = textwrap.dedent('''\
                lines.append("end of report")
                return "\\n".join(lines)

            def check(self):
                if self.strict:
                    raise ParserError(self.string())


        class ParserError(ValueError):
            pass


        def check(report):
            if report.broken:
                raise ParserError("\\n".join(["unparsed report:", report.code]))
            report.check()


        def summary(station, temp, wind):
            lines = ["station " + station]
            if temp:
                lines.append("temp %s" % temp)
            if wind:
                lines.append("wind %s" % wind)
            raise ValueError("; ".join(lines))
        ''')
    return head + body + tail


def test_a_list_grown_under_many_ifs_is_read_in_few_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "metar").mkdir()
    (tmp_path / "metar" / "__init__.py").touch()
    (tmp_path / "metar" / "report.py").write_text(_report_module())
    calls = 0
    items_of = JoinMixin._items_of

    def counted(self: JoinMixin, *args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls > 100_000:  # 2**40 without the memo: fail rather than hang
            raise RuntimeError("the list's options are walked path by path")
        return items_of(self, *args, **kwargs)  # type: ignore[arg-type]

    lines = 0
    only_grown = JoinMixin._only_grown.__code__

    def count_lines(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal lines
        lines += 1
        if lines > 1_000_000:
            raise RuntimeError("the list's bindings are checked path by path")
        return count_lines

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        return count_lines if frame.f_code is only_grown else None

    monkeypatch.setattr(JoinMixin, "_items_of", counted)
    sys.settrace(trace)
    try:
        result = extract_dir(tmp_path)
    finally:
        sys.settrace(None)
    assert calls < 20_000, calls
    assert lines < 50_000, lines
    by_line = {s.line: s for s in result.sites if s.path == "metar/report.py"}
    templates = {line: [t.render() for t in s.templates] for line, s in by_line.items()}
    # the small list under two ifs still reads as its four combinations, in order
    summary = next(t for t in templates.values() if any(x.startswith("station {") for x in t))
    assert sorted(summary) == ["station {station}", "station {station}; temp {temp}",
                               "station {station}; temp {temp}; wind {wind}", "station {station}; wind {wind}"]
    assert ["unparsed report:\n{report.code}"] in templates.values()
    # the 28-field report: 2**28 combinations, cut past the cap after the items they share
    report = next(t for t in templates.values() if any(x.startswith("station report") for x in t))
    assert "station report\nend of report" in report
    assert all(x.startswith("station report\n") for x in report), report
