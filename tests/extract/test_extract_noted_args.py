"""A caught exception's arguments re-raised as another class with a caller's note (issue 17's fifty-eighth
round): prance 26.7.19.0's ``raise_from(klass, from_value, extra_message)`` copies ``from_value.args``,
appends `` -- <note>`` to a text first argument or the note as one more argument, and raises ``klass(*args)``;
its callers pass literal notes and several classes (``extract/notedargs.py``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

EXCEPTIONS = '''
    def raise_from(klass, from_value, extra_message=None):
        try:
            if from_value is None:
                if extra_message is not None:
                    raise klass(extra_message)
                raise klass()

            args = list(from_value.args)
            if extra_message is not None:
                if len(args) and isinstance(args[0], str):
                    args[0] += " -- " + extra_message
                else:
                    args.append(extra_message)
            raise klass(*args) from from_value
        finally:
            klass = None


    def copied_elsewhere(klass, from_value, extra_message):
        args = list(from_value.args)
        args[0] += " -- " + extra_message
        args = rewrite(args)
        raise klass(*args)
'''

API = '''
    from .exceptions import raise_from


    class ValidationError(Exception):
        pass


    class ResolutionError(LookupError):
        pass


    def validate(spec, strict):
        try:
            spec.check()
        except TypeError as ex:
            raise_from(ValidationError, ex, "Strict mode enabled, so this could be due to an integer key.")


    def fetch(url):
        try:
            return open(url.path)
        except OSError as ex:
            raise_from(ResolutionError, ex, f"File not found: {url.path}")
'''


def _result(tmp_path: Path) -> object:
    (tmp_path / "prance").mkdir()
    (tmp_path / "prance" / "__init__.py").touch()
    (tmp_path / "prance" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (tmp_path / "prance" / "api.py").write_text(textwrap.dedent(API))
    return extract_dir(tmp_path)


def test_the_copied_args_with_the_callers_note_after_the_first_or_as_one_more(tmp_path: Path) -> None:
    s = site_in(_result(tmp_path), "prance/exceptions.py", "raise_from", 2)  # type: ignore[arg-type]
    texts = [t.render() for t in s.templates]
    assert "{from_value.args[0]} -- Strict mode enabled, so this could be due to an integer key." in texts
    assert "{from_value.args[0]} -- File not found: {url.path}" in texts
    assert "({*from_value.args}, 'File not found: {url.path}')" in texts
    # the callers raise two classes: the site names neither (the parameter as written)
    assert s.exception_resolved == "klass"


def test_a_copy_rebound_otherwise_keeps_the_raise_as_it_was(tmp_path: Path) -> None:
    s = site_in(_result(tmp_path), "prance/exceptions.py", "copied_elsewhere")  # type: ignore[arg-type]
    assert not any("--" in t.render() for t in s.templates)
