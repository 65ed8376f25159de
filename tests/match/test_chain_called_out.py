"""A reported exception that the library's own frames called into being elsewhere is explained by no
site of the chain: jsonpatch 1.48's command-line module catches the ``ValueError`` its ``_load`` raised
and calls ``parser.exit(2, ...)``, so argparse raises ``SystemExit: 2`` "during handling of" that error.
The ``ValueError``'s site is still listed (it is what went wrong first), but not as a confident answer
for a ``SystemExit`` that the library's ``parser.exit`` line made argparse raise.  A user's own exception
raised over a library error (frames that never reach the library) keeps the chain's site confident
(``test_explain.py::test_chained_cause_finds_the_library_error_under_the_users``).  The traceback is in
the shape captured from jsonpatch's test suite (``bench/data/jsonpatch-1.48.jsonl``); the library is
written in its shape."""

from __future__ import annotations

import pytest
from matchkit import index_package

from errdex.catalog import open_catalog
from errdex.match import explain

CLI = '''import argparse
import json
import sys


def _load(stream, loads=json.loads):
    name = getattr(stream, "name", "<input>")
    try:
        return loads(stream.read())
    except ValueError as ex:
        raise ValueError("{0}: {1}".format(name, ex)) from ex


def _run(parser, program):
    try:
        program()
    except KeyboardInterrupt:
        sys.exit(1)
    except ValueError as ex:
        parser.exit(2, "{0}: error: {1}\\n".format(parser.prog, ex))


def patch_files(args):
    return _load(args.PATCH)


def main():
    parser = argparse.ArgumentParser()
    _run(parser, lambda: patch_files(parser.parse_args()))
'''


def _line(code: str, text: str) -> int:
    return next(n for n, line in enumerate(code.splitlines(), 1) if text in line)


def _traceback(site: str) -> str:
    lib = f"/venv/lib/python3.13/site-packages/{site}"
    return f'''Traceback (most recent call last):
  File "{lib}", line {_line(CLI, "return loads(stream.read())")}, in _load
    return loads(stream.read())
  File "/usr/lib/python3.13/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
  File "/usr/lib/python3.13/json/decoder.py", line 362, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Expecting value: line 1 column 2 (char 1)

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "{lib}", line {_line(CLI, "        program()")}, in _run
    program()
  File "{lib}", line {_line(CLI, "return _load(args.PATCH)")}, in patch_files
    return _load(args.PATCH)
  File "{lib}", line {_line(CLI, 'raise ValueError("{0}: {1}"')}, in _load
    raise ValueError("{{0}}: {{1}}".format(name, ex)) from ex
ValueError: <input>: Expecting value: line 1 column 2 (char 1)

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/home/me/tests.py", line 3507, in test_reports_invalid_json
    cli.main()
  File "{lib}", line {_line(CLI, "_run(parser, lambda")}, in main
    _run(parser, lambda: patch_files(parser.parse_args()))
  File "{lib}", line {_line(CLI, "parser.exit(2,")}, in _run
    parser.exit(2, "{{0}}: error: {{1}}\\n".format(parser.prog, ex))
  File "/usr/lib/python3.13/argparse.py", line 2652, in exit
    _sys.exit(status)
SystemExit: 2
'''


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("clitool")
    path = str(root / "c.sqlite")
    index_package(root, "clitool", {"__init__.py": "", "cli.py": CLI}, path)
    return path


def test_an_exit_the_library_called_for_is_no_confident_answer_of_its_chain(db: str) -> None:
    catalog = open_catalog(db)
    try:
        r = explain(catalog, _traceback("clitool/cli.py"))
    finally:
        catalog.close()
    assert r.matches and r.matches[0].path == "clitool/cli.py"
    assert r.matches[0].line == _line(CLI, 'raise ValueError("{0}: {1}"')  # what went wrong first, listed
    assert not r.confident and not r.matches[0].confident
    assert r.no_site is not None  # the SystemExit itself was raised by no site


def test_the_chain_member_alone_is_still_confident(db: str) -> None:
    """The same ``ValueError`` pasted as its own traceback is answered confidently: only the exit on
    top of it, which the library called for, takes the chain's confidence away."""
    text = _traceback("clitool/cli.py").split("\n\nDuring handling")[0] + "\n"
    catalog = open_catalog(db)
    try:
        r = explain(catalog, text)
    finally:
        catalog.close()
    assert r.confident and r.matches[0].line == _line(CLI, 'raise ValueError("{0}: {1}"')
