"""Every site is bounded and sites are capped, so memory and catalog grow linearly with the input.

Issue 13: each site's snippet carried its whole line, so 4,000 raises on one
line took 1 GB; a condition, a comment or a docstring shared by thousands of
sites was copied into each.  These build the hostile shapes small and check
each bound; ``test_memory_bounds.py`` runs the full-size ones under an
address-space limit.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from extract_helpers import extract_dir

from errdex.extract.bounds import DOCSTRING_CHARS, EXPRESSION_CHARS, cut_template, template_chars
from errdex.extract.guards import GUARD_CHARS, MAX_GUARDS
from errdex.extract.source import CUT, LINE_CHARS, SourceText, window
from errdex.model import Segment, Template


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "src"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    for name, text in files.items():
        (root / "pkg" / name).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(("lo", "hi"), [(0, 10), (500, 530), (990, 1000), (100, 900)])
def test_window_is_bounded_and_marked(lo: int, hi: int) -> None:
    text = "".join(f"{i:04d}" for i in range(250))  # 1,000 characters, no window repeats
    cut = window(text, lo, hi)
    body = cut.removeprefix(CUT).removesuffix(CUT)
    assert len(body) == LINE_CHARS and body in text
    assert cut.startswith(CUT) == (not text.startswith(body)) and cut.endswith(CUT) == (not text.endswith(body))
    start = text.index(body)
    assert start <= lo < start + LINE_CHARS  # the statement's start is always shown
    assert window("short", 2, 3) == "short"


@pytest.mark.parametrize("prefix", ["", "é"])  # columns are UTF-8 bytes: non-ASCII lines map them
def test_many_raises_on_one_line_each_show_themselves_in_a_bounded_snippet(tmp_path: Path, prefix: str) -> None:
    n = 400
    line = "; ".join(f'raise ValueError("{prefix}bad value {i}")' for i in range(n))
    root = _package(tmp_path, {"m.py": f"def f(x):\n    {line}\n"})
    result = extract_dir(root)
    sites = sorted((s for s in result.sites if s.path == "pkg/m.py"), key=lambda s: s.template.render())
    assert len(sites) == n
    for s in sites:
        assert len(s.snippet) <= 3 * (LINE_CHARS + 2)
        assert CUT in s.snippet
        shown = s.template.render()  # 'bad value 17'
        assert f'raise ValueError("{shown}")' in s.snippet
    assert sum(len(s.snippet) for s in sites) < n * 3 * (LINE_CHARS + 2) < len(line) * n / 10


def test_comments_are_bounded(tmp_path: Path) -> None:
    text = ("def f(x):\n    # " + "why " * 5000 + "\n    "
            + "; ".join(f"raise ValueError('v{i}')" for i in range(50)) + "  # " + "tail " * 3000 + "\n")
    result = extract_dir(_package(tmp_path, {"m.py": text}))
    for s in result.sites:
        assert s.comments and all(len(c) <= LINE_CHARS + 2 for c in s.comments)


def test_guards_are_capped_bounded_and_shared(tmp_path: Path) -> None:
    chain = "    if x == 0:\n        raise ValueError('0')\n" + "".join(
        f"    elif x == {i}:\n        raise ValueError('{i}')\n" for i in range(1, 100))
    big = "x == '" + "a" * 20_000 + "'"
    text = f"def f(x):\n{chain}\ndef g(x):\n    if {big}: " + "; ".join(f"raise KeyError('k{i}')" for i in range(30))
    result = extract_dir(_package(tmp_path, {"m.py": text + "\n"}))
    in_f = [s for s in result.sites if s.qualname == "f"]
    assert len(in_f) == 100
    assert max(len(s.guards) for s in in_f) == MAX_GUARDS
    last = next(s for s in in_f if s.template.render() == "99")
    assert last.guards[-1].source == "x == 99"  # the nearest guards are the ones kept
    in_g = [s for s in result.sites if s.qualname == "g"]
    assert len(in_g) == 30
    for s in in_g:
        (guard,) = s.guards
        assert len(guard.source) == GUARD_CHARS and guard.source.endswith(CUT)
    assert len({id(s.guards[0]) for s in in_g}) == 1  # rendered once, shared by every site


def test_long_templates_docstrings_and_expressions_are_cut_with_a_warning(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_LIMIT_TEMPLATE_CHARS", "500")
    doc = "d" * (DOCSTRING_CHARS * 2)
    long_name = "E" + "x" * (EXPRESSION_CHARS * 2)
    text = (f"MSG = '{'m' * 5000}'\n\ndef f(x):\n    '''{doc}'''\n    raise ValueError(MSG + ' {{x}}')\n"
            f"    raise ValueError(f'{{x}} ' + MSG)\n    raise {long_name}('short')\n")
    result = extract_dir(_package(tmp_path, {"m.py": text}))
    sites = [s for s in result.sites if s.path == "pkg/m.py"]
    assert len(sites) == 3
    for s in sites:
        assert template_chars(s.template) <= 500
        assert len(s.docstring) == DOCSTRING_CHARS and s.docstring.endswith(CUT)
        assert len(s.exception) <= EXPRESSION_CHARS
    assert sum(s.template.render().endswith(CUT) for s in sites) == 2
    (warning,) = result.warnings
    assert warning.path == "pkg/m.py" and "2 message template(s) longer than 500" in warning.reason
    assert "ERRDEX_LIMIT_TEMPLATE_CHARS" in warning.reason


def test_cut_template_keeps_whole_placeholders() -> None:
    t = Template.of([Segment(text="a" * 10), Segment(expr="x" * 20), Segment(text="b" * 10)])
    cut = cut_template(t, 25)
    assert cut.render() == "a" * 10 + CUT
    assert cut_template(t, 40).render() == "a" * 10 + "{" + "x" * 20 + "}" + "b" * 7 + CUT


def test_sites_per_file_and_per_snapshot_are_capped_with_a_warning_naming_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    body = "def f(x):\n" + "".join(f"    raise ValueError('v{i}')\n" for i in range(30))
    root = _package(tmp_path, {"a.py": body, "b.py": body, "c.py": body})
    monkeypatch.setenv("ERRDEX_LIMIT_SITES_PER_FILE", "20")
    monkeypatch.setenv("ERRDEX_LIMIT_SITES_PER_SNAPSHOT", "50")
    result = extract_dir(root)
    by_file = {p: sum(1 for s in result.sites if s.path == p) for p in ("pkg/a.py", "pkg/b.py", "pkg/c.py")}
    assert by_file == {"pkg/a.py": 20, "pkg/b.py": 20, "pkg/c.py": 10}
    reasons = {(w.path, w.reason.split(" (")[0]) for w in result.warnings}
    assert reasons == {
        ("pkg/a.py", "30 error sites, kept the first 20"), ("pkg/b.py", "30 error sites, kept the first 20"),
        ("pkg/c.py", "30 error sites, kept the first 20"),
        ("pkg/c.py", "the snapshot reached 50 error sites at this file; 10 more dropped"),
    }
    assert all("--limit" in w.reason for w in result.warnings)


def test_char_col_maps_utf8_columns_in_any_order() -> None:
    line = "é = 1; " * 50
    src = SourceText(line)
    encoded = line.encode()
    cols = [0, 8, 96, 48, 200, 8, 304, 2, 3]  # in and out of order (each "é = 1; " is 8 bytes)
    for c in cols:
        assert src.char_col(1, c) == len(encoded[:c].decode())


def test_text_steps_per_file_turn_the_rest_of_a_file_into_placeholders_with_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file whose message texts cost more readings than the budget keeps its sites; the texts read
    after the budget ran out are placeholders, and the warning names the file and the limit."""
    body = "def f(x):\n" + "".join(f"    if x == {i}:\n        raise ValueError('case ' + str(x) + ' v{i}')\n"
                                   for i in range(30))
    root = _package(tmp_path, {"a.py": body, "b.py": "def g():\n    raise KeyError('plain ' + 'text')\n"})
    monkeypatch.setenv("ERRDEX_LIMIT_TEXT_STEPS_PER_FILE", "40")
    result = extract_dir(root)
    a_sites = sorted((s for s in result.sites if s.path == "pkg/a.py"), key=lambda s: s.line)
    assert len(a_sites) == 30
    rendered = [s.template.render() for s in a_sites]
    assert rendered[0] == "case {x} v0"  # read within the budget
    assert rendered[-1] == "{'case ' + str(x) + ' v29'}"  # past it: the expression as a placeholder
    (warning,) = result.warnings
    assert warning.path == "pkg/a.py" and "took more than 40 steps" in warning.reason
    assert "ERRDEX_LIMIT_TEXT_STEPS_PER_FILE" in warning.reason
    (b_site,) = (s for s in result.sites if s.path == "pkg/b.py")
    assert b_site.template.render() == "'plain text'"  # the budget is per file (a KeyError quotes its text)


def test_text_steps_per_file_default_is_far_above_real_modules(tmp_path: Path) -> None:
    body = "def f(x):\n" + "".join(f"    if x == {i}:\n        raise ValueError('case ' + str(x) + ' v{i}')\n"
                                   for i in range(30))
    result = extract_dir(_package(tmp_path, {"a.py": body}))
    assert not result.warnings
    assert all("{" not in s.template.render().split("case {x}")[-1] for s in result.sites)
