"""A handler that hands the caught traceback on to an instance of a package subclass of the caught class
(werkzeug 3.1.9's ``import_string``: ``raise ImportError(e) from None`` inside a ``try`` whose handler runs
``raise ImportStringError(import_name, e).with_traceback(sys.exc_info()[2])``, ``class
ImportStringError(ImportError)``). The traceback printed is the caught one: its innermost frame is the first
raise, which the printed class subclasses, so the frame agrees with it (``MatchIndex.bases``) and the
original ranks first, above the handler whose text was printed."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

LOADER = '''
import sys


class LoaderError(Exception):
    """Base of the loader's errors."""


class PluginLoadError(ImportError):
    """A plugin's module or attribute could not be loaded."""

    def __init__(self, plugin_name, exception):
        self.plugin_name = plugin_name
        self.exception = exception
        super().__init__(
            f"load_plugin() failed for {plugin_name!r}.\\n\\n"
            "- is the plugin's package installed?\\n"
            "- is the entry point spelled as module:attribute?\\n\\n"
            f"Original exception:\\n\\n{type(exception).__name__}: {exception}"
        )


class EntryPointError(LoaderError):
    """An entry point's text could not be read."""

    def __init__(self, spec, reason):
        self.spec = spec
        super().__init__(f"bad entry point {spec!r} ({reason}): expected 'module:attribute'")


def load_plugin(plugin_name, silent=False):
    plugin_name = plugin_name.replace(":", ".")
    try:
        module_name, attr = plugin_name.rsplit(".", 1)
        module = __import__(module_name, globals(), locals(), [attr])
        try:
            return getattr(module, attr)
        except AttributeError as e:
            raise ImportError(e) from None
    except ImportError as e:
        if not silent:
            raise PluginLoadError(plugin_name, e).with_traceback(sys.exc_info()[2]) from None
    return None


def parse_entry_point(spec):
    try:
        if spec.count(":") != 1:
            raise LoaderError(spec)
        return tuple(spec.split(":"))
    except LoaderError as e:
        raise EntryPointError(spec, e).with_traceback(sys.exc_info()[2]) from None
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "handed", "plugs", {"__init__.py": "", "loader.py": LOADER})


def _traceback(line: int, code: str, printed: str) -> str:
    return textwrap.dedent(f'''\
        Traceback (most recent call last):
          File "/src/tests/test_loader.py", line 20, in test_missing
            load_plugin("json.nothing_here")
          File "/venv/lib/python3.13/site-packages/plugs/loader.py", line {line}, in load_plugin
            {code}
        ''') + printed + "\n"


LOAD = _traceback(
    39, "raise ImportError(e) from None",
    "plugs.loader.PluginLoadError: load_plugin() failed for 'json.nothing_here'.\n\n"
    "- is the plugin's package installed?\n"
    "- is the entry point spelled as module:attribute?\n\n"
    "Original exception:\n\n"
    "AttributeError: module 'json' has no attribute 'nothing_here'")

ENTRY = _traceback(
    49, "raise LoaderError(spec)",
    "plugs.loader.EntryPointError: bad entry point 'a:b:c' ('a:b:c'): expected 'module:attribute'")


def test_the_first_raise_of_a_builtin_base_ranks_first(lib: Catalog) -> None:
    r = explain(lib, LOAD)
    top = r.matches[0]
    assert top.line == 39 and top.pinned_by_frame
    # the handler whose text was printed comes next
    assert any(m.line == 42 for m in r.matches[1:3])


def test_the_first_raise_of_a_package_base_ranks_first(lib: Catalog) -> None:
    """``class EntryPointError(LoaderError)``: the pinned site raises the package class the printed one subclasses."""
    r = explain(lib, ENTRY)
    top = r.matches[0]
    assert top.line == 49 and top.pinned_by_frame


def test_a_class_unrelated_to_the_raise_line_is_no_agreement(lib: Catalog) -> None:
    """The printed class is no subclass of the pinned site's: the frame names the place, never confidently."""
    printed = "plugs.loader.EntryPointError: bad entry point 'x' (y): expected 'module:attribute'"
    r = explain(lib, _traceback(39, "raise ImportError(e) from None", printed))
    assert r.matches and not any(m.line == 39 and m.confident for m in r.matches)
