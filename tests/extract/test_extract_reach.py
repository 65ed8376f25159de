"""Messages that live somewhere else than the raise: one small inline package per mechanism.

Each test writes a package, extracts it inline and checks the templates of one site; every
case was unresolved (a lone ``{expr}`` placeholder) before its mechanism existed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.model import ErrorSite, ExtractResult


def _extract(tmp_path: Path, files: dict[str, str]) -> ExtractResult:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (tmp_path / "pkg" / "__init__.py").touch()
    return extract_dir(tmp_path)


def _site(result: ExtractResult, qualname: str, index: int = 0) -> ErrorSite:
    found = sorted((s for s in result.sites if s.qualname == qualname), key=lambda s: (s.path, s.line))
    assert len(found) > index, f"no site #{index} in {qualname}: {[(s.path, s.qualname) for s in result.sites]}"
    return found[index]


def _rendered(site: ErrorSite) -> list[str]:
    return [t.render() for t in site.templates]


def test_format_of_a_receiver_that_already_holds_placeholders(tmp_path: Path) -> None:
    result = _extract(tmp_path, {"mod.py": '''
        def check_unique(op_name, perm):
            msg = f"{op_name} sources and destinations must be unique, got {{}}."
            raise ValueError(msg.format(perm))


        def check_args(fun_name, pos):
            msg = f"{fun_name} requires array arguments at position {pos}."
            raise TypeError(msg.format(fun_name, pos))


        def own_braces(prefix):
            raise ValueError((prefix + " got {}").format(1))
    '''})
    unique = _site(result, "check_unique")
    assert _rendered(unique) == ["{op_name} sources and destinations must be unique, got {perm}."]
    assert unique.unresolved == ()
    # no field in the literal runs: .format leaves the text as it is
    assert _rendered(_site(result, "check_args")) == ["{fun_name} requires array arguments at position {pos}."]
    # text of unknown content may hold braces of its own: still unresolved
    assert _site(result, "own_braces").unresolved == ('(prefix + " got {}").format(1)',)
