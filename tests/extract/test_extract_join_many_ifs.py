"""A list grown under many independent ``if`` statements and joined (metar 2.0.2, round 33: ``Metar.string``
appends one line under each of some forty ``if self.<field>:`` and returns ``"\\n".join(lines)``).  Each
``if`` merges two options that share every binding before it, so following each option anew walked 2**40
paths and indexing the wheel never ended.  The items of one binding are read once per join."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from extract_helpers import extract_dir

from errdex.extract.msgjoin import JoinMixin

FIELDS = [f"field_{k}" for k in range(40)]


def _report_module() -> str:
    body = "".join(f'        if self.{f}:\n            lines.append("{f}: %s" % self.{f})\n' for f in FIELDS)
    head = textwrap.dedent('''\
        class Report:
            def string(self):
                lines = []
                lines.append("station: %s" % self.station)
        ''')
    tail = textwrap.dedent('''\
                lines.append("code: " + self.code)
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


def test_a_list_grown_under_forty_ifs_is_read_in_few_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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

    monkeypatch.setattr(JoinMixin, "_items_of", counted)
    result = extract_dir(tmp_path)
    assert calls < 20_000, calls
    by_line = {s.line: s for s in result.sites if s.path == "metar/report.py"}
    templates = {line: [t.render() for t in s.templates] for line, s in by_line.items()}
    # the small list under two ifs still reads as its four combinations, in order
    summary = next(t for t in templates.values() if any(x.startswith("station ") for x in t))
    assert sorted(summary) == ["station {station}", "station {station}; temp {temp}",
                               "station {station}; temp {temp}; wind {wind}", "station {station}; wind {wind}"]
    assert ["unparsed report:\n{report.code}"] in templates.values()
    # the forty-field report: 2**40 combinations, past the cap; the join stays one placeholder, as before (the
    # test is that the walk ends, not what it reads)
    assert ['{"\\n".join(lines)}'] in templates.values(), templates
