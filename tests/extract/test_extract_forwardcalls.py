"""A helper whose raise prints the caught exception's text its callers pass it (``self.error(str(ex), ex)``
in ``except (TypeError, KeyError) as ex``, jsonargparse 4.49.0's parsers, issue 17's round 20): the helper's
site carries the templates of the sites raising a caught class that each caller's ``try`` body reaches
(``extract/forwardcalls.py``, ``forwarded.attach``) that begin with their own text; a caller catching everything (``except Exception``) that
reaches more than ``MAX_PASSED`` texts adds none, and a caught text handed to another object's method
(``log.debug(str(ex))`` of a parameter ``log``, though the package has a ``debug`` method) is no call of the package."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from extract_helpers import extract_dir, site_in

from errdex.extract import forwarded

PARSER = '''
    from argparse import ArgumentError


    class NSKeyError(KeyError):
        pass


    def check_key(cfg, key):
        if key not in cfg:
            raise NSKeyError(f"Option '{key}' is not accepted")


    def check_type(value):
        if not isinstance(value, int):
            raise TypeError(f"Expected an int. Got value: {value}")
        if value < 0:
            raise TypeError(f"{value} is below the range")


    def unrelated(value):
        raise ValueError(f"never caught here: {value}")


    class Recorder:
        def debug(self, message):
            raise RuntimeError(message)


    class Parser:
        def error(self, message, ex=None):
            raise ArgumentError(None, message) from ex

        def parse_args(self, args):
            if not args:
                self.error(f"unrecognized arguments: {args}")
            try:
                check_key({}, args[0])
                check_type(args[1])
            except (TypeError, KeyError) as ex:
                self.error(str(ex), ex)

        def parse_object(self, cfg, log):
            if cfg is None:
                raise ValueError("no config given")
            try:
                unrelated(cfg)
            except ValueError as ex:
                log.debug(str(ex))
'''


def _write(root: Path) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").touch()
    (root / "pkg" / "parser.py").write_text(textwrap.dedent(PARSER))


def test_the_helper_raises_the_texts_its_callers_catch(tmp_path: Path) -> None:
    _write(tmp_path)
    site = site_in(extract_dir(tmp_path), "pkg/parser.py", "Parser.error")
    shown = [t.render() for t in site.templates]
    assert shown[:2] == ["unrecognized arguments: {args}", "{message}"]  # its own first: the id hashes them
    # str() of a KeyError is the repr of its key: the quotes are what the user reads; a text that begins with a
    # value (`{value} is below the range`) is left out: a class's frame around a message begins so too
    # KeyError's repr of a text holding a `'` is double-quoted, as Python prints it
    assert set(shown[2:]) == {'"Option \'{key}\' is not accepted"', "Expected an int. Got value: {value}"}


def test_a_catch_all_reaching_too_many_texts_adds_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path)
    monkeypatch.setattr(forwarded, "MAX_PASSED", 1)
    site = site_in(extract_dir(tmp_path), "pkg/parser.py", "Parser.error")
    assert [t.render() for t in site.templates] == ["unrecognized arguments: {args}", "{message}"]


def test_a_caught_text_handed_to_a_logger_is_not_a_message(tmp_path: Path) -> None:
    _write(tmp_path)
    result = extract_dir(tmp_path)
    holding = [s.qualname for s in result.sites if any("never caught" in t.render() for t in s.templates)]
    assert holding == ["unrelated"]


HANDED = '''
    class SchemaError(Exception):
        pass


    def check(value):
        if not value:
            raise ValueError(f"not a valid value: {value!r}")


    class Component:
        def parse_error(self, error):
            raise SchemaError(f"{error}")

        def parse(self, value):
            if value is None:
                self.parse_error(f"no value given for {self}")
            try:
                check(value)
            except ValueError as err:
                self.parse_error(err)
'''


def test_a_caught_exception_handed_on_as_itself_is_not_its_text(tmp_path: Path) -> None:
    """``self.parse_error(err)``: the helper gets the exception object, which it may wrap, collect or keep
    (xmlschema 4.3.2's ``parse_error``, round 16): only a caught *text* (``str(err)``) is followed."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "comp.py").write_text(textwrap.dedent(HANDED))
    site = site_in(extract_dir(tmp_path), "pkg/comp.py", "Component.parse_error")
    assert not any("not a valid value" in t.render() for t in site.templates)
