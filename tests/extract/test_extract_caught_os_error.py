"""The text of an operating-system error a library wraps (mutagen 1.48.1, round 15: ``except OSError as e:
raise MutagenError(e) from e`` around ``open()``; its tests print ``[Errno 2] No such file or directory:
'...'``).  The caught instance was a bare ``{e}``; it is now also what CPython's ``OSError.__str__``
prints, with and without a file name.  Tried in the eighteenth round and reverted for a retrieval cut by
template number (``rank._distinct`` since).  A handler of any other class keeps ``{e}`` alone."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

FILES = '''
    class MutagenError(Exception):
        pass


    def load(path):
        try:
            return open(path, "rb")
        except (FileNotFoundError, PermissionError) as e:
            raise MutagenError(e) from e


    def number(text):
        try:
            return int(text)
        except ValueError as e:
            raise MutagenError(e) from e
'''


def test_a_caught_os_error_prints_the_operating_systems_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "files.py").write_text(textwrap.dedent(FILES))
    found = {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}
    assert "[Errno {e.errno}] {e.strerror}: {e.filename}" in found["load"]
    assert "[Errno {e.errno}] {e.strerror}" in found["load"] and "{e}" in found["load"]
    assert found["number"] == ["{e}"]
