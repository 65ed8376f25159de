"""An exception whose ``__init__`` passes ``*args`` on to its base (``ValueError.__init__(self,
message, *args, **kwargs)``): a raise with one argument prints that text, not a tuple
(wtforms' ``ValidationError``/``StopValidation``; captured text from its own test suite:
``This field is required.``, ``Invalid URL.``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

VALIDATORS = '''
    class ValidationError(ValueError):
        """Raised when a validator fails to validate its input."""

        def __init__(self, message="", *args, **kwargs):
            ValueError.__init__(self, message, *args, **kwargs)


    class StopValidation(Exception):
        """Causes the validation chain to stop."""

        def __init__(self, message="", *args, **kwargs):
            Exception.__init__(self, message, *args, **kwargs)


    class URL:
        def __call__(self, form, field, message=None):
            if message is None:
                message = field.gettext("Invalid URL.")
            raise ValidationError(message)


    class DataRequired:
        def __call__(self, form, field):
            raise StopValidation("This field is required.")


    def two(a, b):
        raise ValidationError("first", b)
'''


def test_surplus_args_passed_on_are_none_when_the_raise_passes_one(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "validators.py").write_text(textwrap.dedent(VALIDATORS))
    url, required, two = (
        [t.render() for t in s.templates]
        for s in sorted(extract_dir(tmp_path).sites, key=lambda s: s.line))
    assert url[0] == "Invalid URL."
    assert required == ["This field is required."]
    assert two == ["('first', {b})"]  # two arguments reach ValueError: str() prints the tuple
