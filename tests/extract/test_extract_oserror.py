"""``OSError(errno, strerror[, filename])`` prints ``[Errno N] strerror`` (``: 'filename'`` after
it), not the tuple of its arguments (boltons' ``SpooledBytesIO.truncate``; captured text from its
own test suite: ``[Errno 22] Negative size not allowed``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

IO = '''
    from errno import EINVAL, ENOENT


    class SpooledBytesIO:
        def truncate(self, size=None):
            if size is not None and size < 0:
                raise OSError(EINVAL, "Negative size not allowed")

        def open(self, name):
            raise FileNotFoundError(ENOENT, "No such file", "a.txt")

        def other(self):
            raise ValueError("one", "two")
'''


def test_os_errors_print_their_errno_and_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "io.py").write_text(textwrap.dedent(IO))
    truncate, opened, other = (
        [t.render() for t in s.templates] for s in sorted(extract_dir(tmp_path).sites, key=lambda s: s.line))
    # the errno constants read as their numbers (``stdlib_texts.os_error_value``)
    assert truncate == ["[Errno 22] Negative size not allowed"]
    assert opened == ["[Errno 2] No such file: 'a.txt'"]
    assert other == ["('one', 'two')"]  # other builtins print the tuple
