"""Two answers that name the right text but not who raised it are unconfident (``match/honesty.py``).

The last lines are captured from configobj 5.0.9's and Mako 1.4.3's test suites (``bench/data/
configobj-5.0.9.jsonl``, ``mako-1.4.3.jsonl``): configobj's ``test_error_types`` raises ``ReloadError()``
and ``InterpolationLoopError('what')`` itself, whose texts the classes build in ``__init__``; Mako's
``mako/testing/_config.py`` (test-support code shipped in the wheel) raises ``MissingConfig``.  The
packages are written in their shape."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.catalog import open_catalog
from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.honesty import in_test_code

CONFIG = '''
class ConfigObjError(SyntaxError):
    def __init__(self, message="", line_number=None, line=""):
        self.line = line
        self.line_number = line_number
        SyntaxError.__init__(self, message)


class ReloadError(IOError):
    """A 'reload' operation failed."""

    def __init__(self):
        IOError.__init__(self, "reload failed, filename is not set.")


class InterpolationError(ConfigObjError):
    """Base class for the two interpolation errors."""


class InterpolationLoopError(InterpolationError):
    """Maximum interpolation depth exceeded in string interpolation."""

    def __init__(self, option):
        InterpolationError.__init__(
            self,
            'interpolation loop detected in value "%s".' % option)


class ConfigObj(dict):
    def __init__(self, filename=None):
        super().__init__()
        self.filename = filename

    def reload(self):
        """Reload a ConfigObj from file."""
        if not isinstance(self.filename, str):
            raise ReloadError()
        return self.filename

    def interpolate(self, key, backtrail):
        """The function that does the actual work."""
        if key in backtrail:
            raise InterpolationLoopError(key)
        backtrail[key] = 1
        return key

    def check(self, value):
        if not value:
            msg = "empty value in section %r" % (self.filename,)
            raise ConfigObjError(msg)
        return value
'''

CONFIG_TESTING = '''
class ConfigError(Exception):
    pass


class MissingConfig(ConfigError):
    pass


def parse_cfg_file(filespec, exists):
    if not exists:
        raise MissingConfig(f"No config file found at {filespec}")
    return filespec
'''

CONFIG_TEST_MODULE = '''
import unittest


class TestInit(unittest.TestCase):
    def test_init_exception(self):
        class Base:
            def __init__(self, x):
                if x == "a":
                    raise ValueError("I don't like the value given here", x)
                self.x = x
        with self.assertRaises(ValueError):
            Base("a")
'''

FS_ERRORS = '''
class IllegalBackReference(ValueError):
    def __init__(self, path):
        self.path = path
        msg = ("path '{path}' contains back-references outside of filesystem").format(
            path=path
        )
        super(IllegalBackReference, self).__init__(msg)


class EncodeError(Exception):
    pass


class DataIncomplete(Exception):
    def __init__(self, *args, **kwargs):
        Exception.__init__(self, "Data incomplete try to improve the query to resolve the missing data",
                           *args, **kwargs)
'''

FS_PATH = '''
from cobj.errors import DataIncomplete, EncodeError, IllegalBackReference


def encode(signal, data):
    if signal.name not in data:
        raise EncodeError(f'The signal "{signal.name}" is '
                          f'required for encoding.')
    return data[signal.name]


def get_area(areas, area_id, resolve_missing=False):
    if area_id not in areas:
        if resolve_missing is False:
            raise DataIncomplete("Resolve missing area is disabled")
    return areas[area_id]


def normpath(path):
    components = []
    try:
        for component in path.split("/"):
            if component == "..":
                components.pop()
            else:
                components.append(component)
    except IndexError:
        raise IllegalBackReference(path)
    return "/".join(components)
'''


def _index(root: Path, files: dict[str, str]) -> str:
    for rel, code in files.items():
        p = root / "cobj" / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(code)
    db = str(root / "c.sqlite")
    env = dict(os.environ, ERRDEX_HOME=str(root))
    done = subprocess.run([sys.executable, "-m", "errdex", "index", str(root / "cobj"), "--repo", "ex/cobj",
                           "--db", db], capture_output=True, text=True, env=env, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    return db


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("honesty")
    db = _index(root, {"cobj/__init__.py": CONFIG, "cobj/testing/__init__.py": "",
                       "cobj/testing/_config.py": CONFIG_TESTING, "cobj/test.py": CONFIG_TEST_MODULE,
                       "cobj/errors.py": FS_ERRORS, "cobj/path.py": FS_PATH})
    catalog = open_catalog(db)
    yield catalog
    catalog.close()


@pytest.mark.parametrize("text", [
    "cobj.ReloadError: reload failed, filename is not set.",
    "reload failed, filename is not set.",
    'cobj.InterpolationLoopError: interpolation loop detected in value "what".',
    'interpolation loop detected in value "what".',
])
def test_a_text_the_class_builds_is_named_but_not_confident(lib: Catalog, text: str) -> None:
    """The raise line writes none of the text: any ``raise ReloadError()`` prints it (configobj's tests
    raise it by hand), so the library's one raise is the likeliest answer, not a certain one."""
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname in ("ConfigObj.reload", "ConfigObj.interpolate")
    assert not top.confident and not r.confident
    assert "builds this text itself" in top.tie_note


@pytest.mark.parametrize("text", ["cobj.errors.IllegalBackReference: path 'path' contains back-references outside of filesystem",
                                  "path '../x' contains back-references outside of filesystem"])
def test_a_class_text_after_a_quoted_value_is_the_classs(lib: Catalog, text: str) -> None:
    """fs 2.4.16's tests raise ``IllegalBackReference('path')`` by hand; ``normpath``'s raise line passes
    ``path``, the word before the text's quote: the text after it is nowhere near the raise."""
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname == "normpath" and not r.confident
    assert "builds this text itself" in top.tie_note


def test_a_class_text_with_a_text_written_at_the_raise_is_the_sites(lib: Catalog) -> None:
    """overpy 0.7's ``DataIncomplete`` prints its own sentence and the one its raise passes: the second
    is written at the raise, so the site is the text's, not the class's."""
    r = explain(lib, "cobj.errors.DataIncomplete: ('Data incomplete try to improve the query to resolve the "
                     "missing data', 'Resolve missing area is disabled')")
    assert r.matches[0].qualname == "get_area" and r.confident


@pytest.mark.parametrize("text", ['cobj.errors.EncodeError: The signal "Hello" is required for encoding.',
                                  'The signal "Hello" is required for encoding.'])
def test_a_text_split_over_lines_at_the_raise_is_the_sites(lib: Catalog, text: str) -> None:
    """cantools 45.1.0 writes ``f'The signal "{signal.name}" is ' f'required for encoding.'`` over two lines."""
    r = explain(lib, text)
    assert r.matches[0].qualname == "encode" and r.confident


def test_a_traceback_through_the_raise_stays_confident(lib: Catalog) -> None:
    text = ('Traceback (most recent call last):\n  File "/venv/site-packages/cobj/__init__.py", line 30, in reload\n'
            '    raise ReloadError()\ncobj.ReloadError: reload failed, filename is not set.\n')
    top = explain(lib, text).matches[0]
    assert top.qualname == "ConfigObj.reload" and top.confident


def test_a_text_written_above_its_raise_is_the_sites_own(lib: Catalog) -> None:
    """``msg = "..."; raise ConfigObjError(msg)``: the text is written where it is raised."""
    top = explain(lib, "cobj.ConfigObjError: empty value in section 'a.ini'").matches[0]
    assert top.qualname == "ConfigObj.check" and top.confident


def test_the_packages_own_test_code_is_never_confident(lib: Catalog) -> None:
    """``cobj/testing/_config.py`` is run by the package's test suite only, even with a traceback into it."""
    text = ('Traceback (most recent call last):\n  File "/venv/site-packages/cobj/testing/_config.py", line 12, '
            'in parse_cfg_file\n    raise MissingConfig(f"No config file found at {filespec}")\n'
            'cobj.testing._config.MissingConfig: No config file found at ./n/o/h.ere\n')
    for paste in (text, text.splitlines()[-1], "No config file found at ./n/o/h.ere"):
        top = explain(lib, paste).matches[0]
        assert top.path == "cobj/testing/_config.py" and not top.confident
        assert "test code" in top.tie_note


def test_test_code_is_decided_by_folder_not_file_name() -> None:
    assert in_test_code("mako/testing/_config.py") and in_test_code("pkg/tests/helpers.py")
    assert in_test_code("pkg/conftest.py")
    assert not in_test_code("scipy/stats/_bws_test.py") and not in_test_code("testing/core.py")


def test_a_test_module_inside_the_package_is_test_code() -> None:
    """aenum 3.1.17 ships its suite as ``aenum/test.py`` (and ``aenum/test_stdlib_tests.py``): the test
    classes there raise ``ValueError("I don't like", x)`` by hand, which a traceback's frames reach."""
    assert in_test_code("aenum/test.py") and in_test_code("aenum/test_stdlib_tests.py")
    assert in_test_code("pkg/sub/tests.py")
    assert not in_test_code("test_utils.py") and not in_test_code("pkg/testing_utils.py")
    assert not in_test_code("pkg/latest.py") and not in_test_code("pkg/contest_.py")


def test_a_raise_in_the_packages_test_module_is_never_confident(lib: Catalog) -> None:
    text = ('Traceback (most recent call last):\n  File "/venv/site-packages/cobj/test.py", line 10, in __init__\n'
            '    raise ValueError("I don\'t like the value given here", x)\n'
            'ValueError: ("I don\'t like the value given here", \'a\')\n')
    for paste in (text, text.splitlines()[-1], text.splitlines()[-1].split(": ", 1)[1]):
        top = explain(lib, paste).matches[0]
        assert top.path == "cobj/test.py" and not top.confident
        assert "test code" in top.tie_note
