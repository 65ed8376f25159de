"""Public names the library deprecates are said deprecated next to the name (rating 9: click 8.5.1's module
``__getattr__`` serves ``get_binary_stream`` with a DeprecationWarning, and ad70 / eb3a named it as the public
route without a word).  The fixture is a small package in click's shape."""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.analyze.deprecated import deprecated_names, with_deprecations
from errdex.extract import extract_tree
from errdex.model import Analysis, Snapshot, Solution
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

INIT = '''
    from .utils import open_stream as open_stream


    def __getattr__(name):
        import warnings

        if name == "get_stream":
            from .utils import _get_stream

            warnings.warn(
                "'get_stream' is deprecated and will be removed in Streams 9.0.",
                DeprecationWarning,
                stacklevel=2,
            )
            return _get_stream

        raise AttributeError(name)
'''
UTILS = '''
    import warnings


    def _get_stream(name):
        if name != "stderr":
            raise TypeError(f"Unknown stream {name!r}")
        return None


    def open_stream(name):
        return _get_stream(name)


    def old_open(name):
        warnings.warn("'old_open' is deprecated, use 'open_stream'.", DeprecationWarning, stacklevel=2)
        return open_stream(name)


    def quiet(name, loud=False):
        if loud:
            warnings.warn("loud is deprecated", DeprecationWarning)
        return name
'''


def _names(tmp_path: Path) -> dict[str, str]:
    pkg = tmp_path / "streams"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(INIT))
    (pkg / "utils.py").write_text(textwrap.dedent(UTILS))
    result = extract_tree(SourceTree(Snapshot(repo="acme/streams"), tmp_path, walk_python_files(tmp_path)))
    return deprecated_names(result.sites, result.calls)


def test_deprecated_public_names_come_from_the_librarys_own_warnings(tmp_path: Path) -> None:
    names = _names(tmp_path)
    assert names["streams.get_stream"] == "'get_stream' is deprecated and will be removed in Streams 9.0."
    assert names["streams.utils.old_open"] == "'old_open' is deprecated, use 'open_stream'."
    # a warning under a condition deprecates a use, not the function
    assert "streams.utils.quiet" not in names and "streams.open_stream" not in names


def test_the_page_says_it_next_to_the_name_and_points_to_a_live_entry(tmp_path: Path) -> None:
    names = _names(tmp_path)
    a = Analysis(error_id="e", snapshot="s", meaning="Calling `streams.get_stream` raises `TypeError` when ...",
                 solutions=(Solution("Pass 'stderr' to `streams.get_stream`."),))
    b = with_deprecations(a, names, ("streams.get_stream", "streams.open_stream"))
    assert b.meaning.startswith("Calling `streams.get_stream` (deprecated: streams warns \"'get_stream' is "
                                "deprecated and will be removed in Streams 9.0.\") raises")
    assert b.solutions[0] == a.solutions[0]
    assert "`streams.open_stream` is a public call streams does not deprecate" in b.solutions[-1].text
    assert with_deprecations(b, names, ("streams.get_stream", "streams.open_stream")) == b  # said once
    # no other entry: only the mark; a page that names no deprecated name is unchanged
    assert len(with_deprecations(a, names, ("streams.get_stream",)).solutions) == 1
    plain = Analysis(error_id="e", snapshot="s", meaning="Calling `streams.open_stream` raises.")
    assert with_deprecations(plain, names, ("streams.open_stream",)) == plain
