"""Line digests: one per line as ``linecache`` (which prints tracebacks) splits a file, compared stripped."""

from __future__ import annotations

import linecache
from pathlib import Path

from errdex.extract.lines import digests_of, line_digest, text_digests
from errdex.extract.runner import extract_tree
from errdex.model import Snapshot
from errdex.sources.base import SourceFile, SourceTree


def test_lines_are_split_as_tracebacks_read_them(tmp_path: Path) -> None:
    text = "a = 1\r\nb = '\x0c'  # form feed\rc = 3\n\n    d = 4   \n"
    f = tmp_path / "m.py"
    f.write_bytes(text.encode())
    digests = digests_of(text_digests(text))
    lines = [linecache.getline(str(f), n) for n in range(1, 10)]
    lines = lines[: lines.index("")]
    assert len(digests) == len(lines) == 5
    assert list(digests) == [line_digest(s) for s in lines]
    assert digests[4] == line_digest("d = 4")  # indentation and trailing blanks do not count


def test_every_file_of_the_tree_is_digested_tests_too_and_unreadable_ones_left_out(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "core.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "test_util.py").write_text("y = 2\n")
    (tmp_path / "pkg" / "bad.py").write_bytes(b"# -*- coding: nosuch -*-\n")
    files = [SourceFile("pkg/core.py", tmp_path / "pkg" / "core.py"),
             SourceFile("pkg/test_util.py", tmp_path / "pkg" / "test_util.py", is_test=True),
             SourceFile("pkg/bad.py", tmp_path / "pkg" / "bad.py")]
    got = extract_tree(SourceTree(Snapshot(repo="o/pkg"), tmp_path, tuple(files)), jobs=1).line_digests
    assert set(got) == {"pkg/core.py", "pkg/test_util.py"}
    assert list(digests_of(got["pkg/core.py"])) == [line_digest("x = 1")]
