"""A top match is confident only when its text rules the other readings out (``match/earned.py``).

The texts are captured from round 25's test suites (``bench/data/*.jsonl``), the packages written in
their shape:

- RestrictedPython 9.0: ``Guards.py`` writes ``NotImplementedError("string.Formatter is not safe")`` out,
  and ``Utilities.py``'s module proxy raises ``f"{self.__mod.__name__}.{attr} is not safe"``, which
  printed the very text in the test suite;
- asn1tools 0.169.0: ``type_checker.py``'s generic ``Type.encode`` raises ``{location}: Expected data of
  type {self.TYPE.__name__}, but got {data}.``, its string checker ``Expected data of type str, but got
  {data}.`` through an ``EncodeError`` whose ``__str__`` puts the location in front (``A: ...``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match import verify as V
from errdex.match.earned import converted_elsewhere, covers, lead

GUARDS = '''
import argparse
import string


def parallel_arg(value):
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid parallel value {value!r} (expected a positive integer)") from None


class Formatter(string.Formatter):
    def format_field(self, value, spec):
        raise NotImplementedError("string.Formatter is not safe")


class SafeModule:
    def __init__(self, mod):
        self.__mod = mod

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise NotImplementedError(f"{self.__mod.__name__}.{attr} is not safe")
        return getattr(self.__mod, attr)


def compile_files(paths):
    py_count = sum(p.endswith(".py") for p in paths)
    if py_count != 1:
        raise Exception("Expected one .py-file, but got {}.".format(py_count))
    return paths


def check_option(name, options):
    if name not in options:
        raise ValueError(f"Unknown option {name}")
    return name


def pick_option(name, options):
    if name not in options:
        raise ValueError(f"Unknown option {name}. Valid options: {', '.join(options)}")
    return name
'''

CHECKER = '''
class EncodeError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.location = []


class Type:
    TYPE = object

    def __init__(self, name):
        self.name = name

    def encode(self, data):
        if not isinstance(data, self.TYPE):
            raise EncodeError(
                f"{self.name}: Expected data of type {self.TYPE.__name__}, but got {data}.")
        return data


def add_member(cls_name, key, names):
    if key in names:
        raise TypeError(f"{cls_name}: attempt to reuse name: {key}")
    names.append(key)


class Constant:
    def __setattr__(self, key, value):
        if key in self.__dict__:
            raise TypeError(f"attempt to reuse name: {key}")
        object.__setattr__(self, key, value)


class String(Type):
    TYPE = str

    def encode_string(self, data):
        if not isinstance(data, str):
            raise EncodeError(f"Expected data of type str, but got {data}.")
        return data
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "earned", "rpy",
                               {"__init__.py": "", "guards.py": GUARDS, "checker.py": CHECKER})


@pytest.mark.parametrize("text", ["NotImplementedError: string.Formatter is not safe", "string.Formatter is not safe"])
def test_a_literal_text_another_template_prints_with_its_values_is_not_confident(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname == "Formatter.format_field" and not r.confident
    assert "guards.py" in top.tie_note and "rules it out" in top.tie_note
    assert not any(m.confident for m in r.matches)  # the rival listed below is no more certain than the top


@pytest.mark.parametrize("text", ["rpy.checker.EncodeError: A: Expected data of type str, but got 1.",
                                  "A: Expected data of type str, but got None."])
def test_a_placeholder_where_another_template_writes_the_word_is_not_confident(lib: Catalog, text: str) -> None:
    r = explain(lib, text)
    assert r.matches[0].qualname == "Type.encode" and not r.confident
    assert not any(m.confident for m in r.matches)


def test_a_word_only_the_top_writes_outside_the_others_reading_keeps_it_confident(lib: Catalog) -> None:
    """``Valid options`` sits in a value of ``Unknown option {name}`` that holds blanks: no word the
    value happened to be; and the generic checker's type name is ``int`` where the other writes ``str``."""
    r = explain(lib, "ValueError: Unknown option foo. Valid options: a, b")
    assert r.matches[0].qualname == "pick_option" and r.confident
    r = explain(lib, "rpy.checker.EncodeError: A: Expected data of type int, but got 'x'.")
    assert r.matches[0].qualname == "Type.encode" and r.confident


def test_a_top_that_explains_more_and_writes_every_word_of_the_other_stays_confident(lib: Catalog) -> None:
    """aenum 3.1.17: ``{cls_name}: attempt to reuse name: {key}`` explains the lead the other leaves over,
    and ``attempt to reuse name: {key}`` writes no word it does not."""
    r = explain(lib, "TypeError: 'Color1': attempt to reuse name: 'red'")
    assert r.matches[0].qualname == "add_member" and r.confident


def test_a_traceback_pinning_the_top_decides(lib: Catalog) -> None:
    line = GUARDS.splitlines().index('        raise NotImplementedError("string.Formatter is not safe")') + 1
    text = (f'Traceback (most recent call last):\n  File "/venv/site-packages/rpy/guards.py", line {line}, '
            'in format_field\n    raise NotImplementedError("string.Formatter is not safe")\n'
            'NotImplementedError: string.Formatter is not safe\n')
    r = explain(lib, text)
    assert r.matches[0].qualname == "Formatter.format_field" and r.confident


CHAINED = (
    'Traceback (most recent call last):\n'
    '  File "/usr/lib/python3.13/argparse.py", line 2565, in _get_value\n    result = type_func(arg_string)\n'
    '  File "/venv/lib/python3.13/site-packages/rpy/guards.py", line LINE, in parallel_arg\n'
    '    raise argparse.ArgumentTypeError(f"invalid parallel value {value!r} (expected a positive integer)") from None\n'
    "argparse.ArgumentTypeError: invalid parallel value 'nope' (expected a positive integer)\n\n"
    'During handling of the above exception, another exception occurred:\n\n'
    'Traceback (most recent call last):\n'
    '  File "/home/u/tests/test_cli.py", line 9, in test_parallel\n    parser.parse_args(["-j", "nope"])\n'
    'OUTER\n')
ARGPARSE_EXIT = ('  File "/usr/lib/python3.13/argparse.py", line 2665, in error\n'
                 "    self.exit(2, _('%(prog)s: error: %(message)s\\n') % args)\n"
                 '  File "/usr/lib/python3.13/argparse.py", line 2652, in exit\n    _sys.exit(status)\nSystemExit: 2')
USER_RAISE = '  File "/home/u/app.py", line 30, in main\n    raise RuntimeError("bad options") from e\nRuntimeError: bad options'


def test_a_chain_whose_reported_error_the_standard_library_raised_is_not_confident(lib: Catalog) -> None:
    """nox 2026.10.20's ``-j nope``: argparse turned the ``type=`` callback's error into ``SystemExit: 2``."""
    line = GUARDS.splitlines().index("        raise argparse.ArgumentTypeError(f\"invalid parallel value {value!r} "
                                     "(expected a positive integer)\") from None") + 1
    text = CHAINED.replace("LINE", str(line))
    r = explain(lib, text.replace("OUTER", ARGPARSE_EXIT))
    assert r.matches[0].qualname == "parallel_arg" and not r.confident
    r = explain(lib, text.replace("OUTER", ARGPARSE_EXIT.replace("/usr/lib/python3.13/", "/venv/lib/python3.13/"
                                                                 "site-packages/clickish/")))
    assert r.matches[0].qualname == "parallel_arg" and not r.confident
    # the user's own ``raise ... from e`` leaves the library's raise its confidence (by design)
    r = explain(lib, text.replace("OUTER", USER_RAISE))
    assert r.matches[0].qualname == "parallel_arg" and r.confident


def test_converted_elsewhere_is_the_standard_library_or_another_package() -> None:
    assert converted_elsewhere("/root/.pyenv/versions/3.13.0/lib/python3.13/argparse.py")
    assert converted_elsewhere("C:\\Python313\\Lib\\python3.13\\argparse.py")
    assert converted_elsewhere("/venv/lib/python3.13/site-packages/click/core.py")
    assert not converted_elsewhere("/home/u/tests/test_cli.py") and not converted_elsewhere("/home/u/lib/app.py")


def test_words_before_the_text_that_no_raise_wrote_leave_it_unconfident(lib: Catalog) -> None:
    """asn1tools 0.169.0 and cantools 45.1.0 print a caught error as ``sys.exit('error: {}'.format(str(e)))``."""
    r = explain(lib, "error: Expected one .py-file, but got 2.")
    assert r.matches[0].qualname == "compile_files" and not r.confident
    assert "'error:'" in r.matches[0].tie_note
    assert explain(lib, "Expected one .py-file, but got 2.").confident
    assert lead(((True, "Expected one .py-file, but got "), (False, "n"), (True, ".")),
                "error: Expected one .py-file, but got 2.") == "error: "
    assert lead(((False, "prefix"), (True, "Expected one")), "error: Expected one") == ""


def test_covers_counts_letters_in_literals_and_in_single_word_values() -> None:
    text = "string.Formatter is not safe"
    literal = ((True, text),)
    general = ((False, "mod"), (True, "."), (False, "attr"), (True, " is not safe"))
    assert covers(literal, V.verify(literal, text), general, V.verify(general, text), text)
    text = "Unknown option foo. Valid options: a, b"
    special = ((True, "Unknown option "), (False, "name"), (True, ". Valid options: "), (False, "opts"))
    short = ((True, "Unknown option "), (False, "name"))
    assert not covers(special, V.verify(special, text), short, V.verify(short, text), text)
    # a rival starting with literal text found after the top's own words does not read them
    tail = ((True, "is not safe"),)
    assert not covers(literal, V.verify(literal, "string.Formatter is not safe"), tail,
                      V.verify(tail, "string.Formatter is not safe"), "string.Formatter is not safe")
