"""The platform a module checks for at import (``extract/platformcheck.py``): rating 13 on eb3a, click's console
reader lives in a module that starts with ``assert sys.platform == "win32"``, and every raise in it can happen
only there."""

from __future__ import annotations

import ast

from extract_helpers import extract_dir, site_in

from errdex.extract.platformcheck import required_platform
from errdex.extract.source import SourceText


def _required(code: str) -> tuple[str, int]:
    return required_platform(ast.parse(code), SourceText(code))


def test_a_top_level_assert_or_raise_on_the_platform_is_the_module_s_requirement() -> None:
    assert _required('import sys\n\nassert sys.platform == "win32"\n') == ('sys.platform == "win32"', 3)
    assert _required("import os\nif os.name != 'nt':\n    raise ImportError('Windows only')\n") == ("os.name == 'nt'", 2)
    assert _required("import platform\nif not platform.system() == 'Darwin':\n    raise RuntimeError('x')\n") == (
        "platform.system() == 'Darwin'", 2)


def test_other_checks_are_no_platform_requirement() -> None:
    assert _required("import sys\nassert sys.version_info >= (3, 9)\n") == ("", 0)  # a version, not a platform
    assert _required("import sys\n\ndef f():\n    assert sys.platform == 'win32'\n") == ("", 0)  # in a function
    assert _required("import sys\nif sys.platform == 'win32':\n    X = 1\n") == ("", 0)  # no raise: a branch
    assert _required("import sys\nif sys.platform == 'win32':\n    raise ImportError\nelse:\n    X = 1\n") == ("", 0)


def test_every_site_of_the_module_carries_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pkg = tmp_path / "conpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_win.py").write_text(
        "import io\nimport sys\n\nassert sys.platform == 'win32'\n\n\n"
        "class Reader(io.RawIOBase):\n"
        "    def readinto(self, b):\n"
        "        if len(b) % 2:\n"
        "            raise ValueError('cannot read an odd number of bytes')\n"
        "        return 0\n")
    (pkg / "other.py").write_text("def f(x):\n    if x:\n        raise ValueError('bad x')\n")
    result = extract_dir(tmp_path)
    s = site_in(result, "conpkg/_win.py", "Reader.readinto")
    assert (s.requires, s.requires_line) == ("sys.platform == 'win32'", 4)
    o = site_in(result, "conpkg/other.py", "f")
    assert (o.requires, o.requires_line) == ("", 0)
