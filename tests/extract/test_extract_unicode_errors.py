"""``UnicodeDecodeError(encoding, object, start, end, reason)`` and its kin print CPython's sentence, not
the tuple of their arguments, also through a package's subclass that adds no ``__str__`` (pyramid's
``URLDecodeError``; captured text from its own test suite: ``'utf-8' codec can't decode byte 0xff in
position 0: invalid start byte``), and a package's ``OSError`` subclass prints ``[Errno N] text``."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from extract_helpers import extract_dir

TRAVERSAL = '''
    import errno


    class URLDecodeError(UnicodeDecodeError):
        """A path segment is not valid in the site's encoding."""


    class StoreError(OSError):
        pass


    def traversal_path_info(path):
        try:
            return path.decode("utf-8")
        except UnicodeDecodeError as e:
            raise URLDecodeError(e.encoding, e.object, e.start, e.end, e.reason)


    def encode_name(name, start):
        raise UnicodeEncodeError("ascii", name, start, start + 1, "ordinal not in range(128)")


    def translate(text):
        raise UnicodeTranslateError(text, 0, 1, "no mapping")


    def store(path):
        raise StoreError(errno.ENOSPC, "No space left", path)


    def wrong_count(e):
        raise URLDecodeError(e.encoding, e.reason)
'''


def _templates(tmp_path: Path) -> list[list[str]]:
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "__init__.py").touch()
    (tmp_path / "web" / "traversal.py").write_text(textwrap.dedent(TRAVERSAL))
    return [sorted(t.render() for t in s.templates) for s in sorted(extract_dir(tmp_path).sites, key=lambda s: s.line)]


def _fits(template: str, text: str) -> bool:
    pattern = "".join(".+" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{[^}]*\})", template))
    return re.fullmatch(pattern, text) is not None


def test_unicode_errors_print_cpython_sentence(tmp_path: Path) -> None:
    decode, encode, translate, store, wrong = _templates(tmp_path)
    # both forms: one offending unit, or a run of them (which one depends on the values)
    assert len(decode) == 2 and all("codec can't decode" in t for t in decode)
    for text in ("'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
                 "'ascii' codec can't decode bytes in position 2-4: ordinal not in range(128)"):
        assert sum(_fits(t, text) for t in decode) == 1, (text, decode)
    assert any(_fits(t, str(UnicodeEncodeError("ascii", "é", 0, 1, "ordinal not in range(128)"))) for t in encode)
    assert "'ascii' codec can't encode character {object[start]} in position {start}: ordinal not in range(128)" \
        in encode
    assert any(_fits(t, str(UnicodeTranslateError("é", 0, 1, "no mapping"))) for t in translate)
    assert not any("codec" in t for t in translate)  # no encoding: no codec part
    # a package's OSError subclass raised with (errno, strerror, filename)
    assert len(store) == 1 and store[0].startswith("[Errno 28] No space left: ")
    assert _fits(store[0], str(OSError(28, "No space left", "/var/x")))
    # another count of arguments: the tuple, as CPython prints it
    assert not any("codec" in t for t in wrong) and all(t.startswith("(") for t in wrong)
