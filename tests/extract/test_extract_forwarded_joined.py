"""A raise whose message joins the texts of the exceptions a loop caught (dynaconf 3.3.5's
``ValidatorList.validate_all``: ``except ValidationError as e: errors.append(e)`` for each validator, then
``raise ValidationError("; ".join(str(e) for e in errors), ...)``; captured texts from its suite: ``value_a is
required in env main``, one caught text, and ``...; value_int must eq 42 but it is 41 in env main``, two).
The site carries the caught class's texts, so that one caught text ties with the site that raised it; when
the ``try`` body's calls cannot be followed (``validator.validate(...)`` on an object of unknown type), every
site of the package raising that class may have been caught."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

VALIDATOR = '''
    class ValidationError(Exception):
        pass


    class Validator:
        def __init__(self, name):
            self.name = name

        def validate(self, settings):
            if self.name not in settings:
                raise ValidationError(f"{self.name} is required")


    class ValidatorList(list):
        def validate_all(self, settings):
            errors = []
            for validator in self:
                try:
                    validator.validate(settings)
                except ValidationError as e:
                    errors.append(e)
                    continue
            if errors:
                raise ValidationError("; ".join(str(e) for e in errors))

        def validate_some(self, settings, extra):
            errors = []
            for validator in self:
                try:
                    validator.validate(settings)
                except ValidationError as e:
                    errors.append(e)
            errors.append(extra)
            if errors:
                raise ValidationError("; ".join(str(e) for e in errors))
'''


def test_a_join_of_caught_texts_carries_them(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "__init__.py").touch()
    (tmp_path / "conf" / "validator.py").write_text(textwrap.dedent(VALIDATOR))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "conf/validator.py", "ValidatorList.validate_all").templates]
    assert "{self.name} is required" in texts[1:], texts
    # a list that holds something else too (`errors.append(extra)`) is not only caught texts
    other = [t.render() for t in site_in(result, "conf/validator.py", "ValidatorList.validate_some").templates]
    assert len(other) == 1, other
