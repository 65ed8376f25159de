"""An exception's ``__init__`` that passes ``msg or <formatted default>`` on prints the default when the
raise gives no message of its own (rsa 4.9.1's ``NotRelativePrimeError(a, b, d, msg="")``:
``super().__init__(msg or "%d and %d are not relatively prime, divider=%i" % (a, b, d))``, raised as
``NotRelativePrimeError(x, n, divider)``; captured text ``4 and 8 are not relatively prime, divider=4``).
The package is written in its shape."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

COMMON = '''
    class NotRelativePrimeError(ValueError):
        def __init__(self, a, b, d, msg=""):
            super().__init__(msg or "%d and %d are not relatively prime, divider=%i" % (a, b, d))
            self.a = a


    class Mismatch(ValueError):
        def __init__(self, got, want, msg=None):
            super().__init__(msg or "got {}, expected {}".format(got, want))


    def inverse(x, n):
        divider = gcd(x, n)
        if divider != 1:
            raise NotRelativePrimeError(x, n, divider)
        return x


    def check(got, want):
        if got != want:
            raise Mismatch(got, want)
'''


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "common.py").write_text(textwrap.dedent(COMMON))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_a_percent_formatted_default_after_or_is_a_text(tmp_path: Path) -> None:
    assert "{x} and {n} are not relatively prime, divider={divider}" in _templates(tmp_path)["inverse"]


def test_a_format_call_default_after_or_is_a_text(tmp_path: Path) -> None:
    assert "got {got}, expected {want}" in _templates(tmp_path)["check"]
