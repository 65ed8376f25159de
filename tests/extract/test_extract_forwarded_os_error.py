"""A raise forwarding an ``OSError`` the interpreter raised (mutagen 1.48.1, round 15: ``_openfile`` does
``try: fileobj = open(filename, "rb+")`` / ``except IOError as e: raise MutagenError(e) from e``, and its
tests read ``[Errno 2] No such file or directory: 'dne'``).  No package site raises that text, so the
forwarded templates (``forwarded.attach``) left the site with its bare ``{e}`` and the message was missed in
every mode.  A handler of the ``OSError`` family forwards the interpreter's ``[Errno N] strerror`` text
(``: 'filename'`` after it when a file is named); ``except Exception`` forwards no such text."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract.forwarded import interpreter_os_texts

FILES = '''
    class MutagenError(Exception):
        pass


    def openfile(filename):
        try:
            fileobj = open(filename, "rb+")
        except IOError as e:
            raise MutagenError(e) from e
        try:
            return fileobj.read()
        except Exception as e:
            raise MutagenError(e) from e


    def remove(path):
        try:
            import os
            os.remove(path)
        except (FileNotFoundError, PermissionError) as exc:
            raise MutagenError(str(exc)) from exc
'''


def test_an_os_error_handler_forwards_the_interpreters_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "files.py").write_text(textwrap.dedent(FILES))
    found: dict[str, list[list[str]]] = {}
    for s in sorted(extract_dir(tmp_path).sites, key=lambda s: s.line):
        found.setdefault(s.qualname, []).append([t.render() for t in s.templates])
    opened, read = found["openfile"]
    assert opened == ["{e}", "[Errno {e.errno}] {e.strerror}: {e.filename}", "[Errno {e.errno}] {e.strerror}"]
    assert read == ["{e}"]  # except Exception: no OSError text of its own
    (removed,) = found["remove"]
    assert removed[1:] == ["[Errno {exc.errno}] {exc.strerror}: {exc.filename}", "[Errno {exc.errno}] {exc.strerror}"]


def test_the_texts_are_those_of_the_os_error_family_only() -> None:
    assert interpreter_os_texts({"ValueError", "Exception"}, "e") == []
    (named, bare) = interpreter_os_texts({"IsADirectoryError"}, "err")
    assert named.segments[-1].conversion == "r" and bare.render() == "[Errno {err.errno}] {err.strerror}"
