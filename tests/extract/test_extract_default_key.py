"""A table's key reaching a module-level table of tuples through the raising function's parameter with a
literal default (elementpath 5.1.4's ``expected(..., code='XPST0003')`` calling ``self.wrong_syntax(message,
code)``, which sets ``code = 'XPST0017'`` on one path): the default's entry is read too, beside the other
path's (``binding._defaulted_key``, ``resolve.Resolver._own_defaults``; issue 17's thirtieth round)."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in
from xpathpkg import package


def test_a_key_passed_on_from_a_parameters_literal_default(tmp_path: Path) -> None:
    site = site_in(extract_dir(package(tmp_path)), "xp/tokens.py", "Token.expected")
    texts = [t.render() for t in site.templates]
    assert "Invalid expression" in texts  # code='XPST0003', the default
    assert "Wrong number of arguments" in texts  # code = 'XPST0017' on the other path


def test_a_key_the_raise_passes_reads_only_its_entry(tmp_path: Path) -> None:
    site = site_in(extract_dir(package(tmp_path)), "xp/tokens.py", "Token.check")
    assert site.exception.endswith("PathTypeError")
    assert "Invalid expression" not in [t.render() for t in site.templates]  # a callee's default is no key here
