"""An exception class whose text its ``__init__`` builds in a way extraction cannot follow (a property
joining lists, schema 0.7.8's ``SchemaError(autos, errors)``) keeps that opaque text and adds the raise's
first argument's; a re-raise that extends the caught exception's own list (``[None] + x.autos``) forwards
the caught text, and a ``try`` body calling the same method on a part (``sub.validate(data)`` inside a
``validate``) reaches every method of that name, this one too."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from errdex.model import ErrorSite

VALID = '''
    class ValidationError(Exception):
        def __init__(self, autos, errors=None):
            self.autos = autos if isinstance(autos, list) else [autos]
            self.errors = errors if isinstance(errors, list) else [errors]
            Exception.__init__(self, self.code)

        @property
        def code(self):
            def uniq(seq):
                return [x for x in dict.fromkeys(seq) if x is not None]
            return "\\n".join(uniq(self.errors) or uniq(self.autos))


    class WrongTypeError(ValidationError):
        pass


    class Finalized(Exception):
        def __str__(self):
            return self._final


    def finalize(target):
        raise Finalized("target {0!r} did not match", target)


    class Choice:
        def __init__(self, *parts):
            self.parts = parts

        def validate(self, data):
            autos = []
            for part in self.parts:
                try:
                    return part.validate(data)
                except ValidationError as x:
                    autos += x.autos
            raise ValidationError(["%r matched no choice" % (data,)] + autos)


    class Pattern:
        def __init__(self, pattern):
            self.pattern = pattern

        def validate(self, data):
            if self.pattern not in data:
                message = "%r does not contain %r" % (data, self.pattern)
                raise ValidationError(message)
            return data


    class Spec:
        def __init__(self, spec):
            self.spec = spec

        def validate(self, data):
            if isinstance(self.spec, type):
                if not isinstance(data, self.spec):
                    message = "%r is not of type %r" % (data, self.spec.__name__)
                    raise WrongTypeError(message, None)
                return data
            spec = self.spec
            try:
                return spec.validate(data)
            except ValidationError as x:
                raise ValidationError([None] + x.autos, [None] + x.errors)
'''


def _texts(site: ErrorSite) -> list[str]:
    return [t.render() for t in site.templates]


def _extract(tmp_path: Path):  # type: ignore[no-untyped-def]
    pkg = tmp_path / "valid"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(VALID))
    return extract_dir(tmp_path)


def test_an_opaque_class_text_adds_the_first_argument(tmp_path: Path) -> None:
    result = _extract(tmp_path)
    pattern = site_in(result, "valid/__init__.py", "Pattern.validate")
    assert "{data} does not contain {self.pattern}" in _texts(pattern)
    spec_type = site_in(result, "valid/__init__.py", "Spec.validate")
    assert "{data} is not of type {self.spec.__name__}" in _texts(spec_type)


def test_a_reraise_extending_the_caught_list_forwards_the_caught_texts(tmp_path: Path) -> None:
    result = _extract(tmp_path)
    reraise = site_in(result, "valid/__init__.py", "Spec.validate", 1)
    texts = _texts(reraise)
    # `spec.validate(data)` inside `Spec.validate`: every `validate` of the package, itself too
    assert "{data} does not contain {self.pattern}" in texts
    assert "{data} is not of type {self.spec.__name__}" in texts


def test_a_class_printing_through_its_own_str_keeps_its_text(tmp_path: Path) -> None:
    # glom's `GlomError.__str__` returns a text finalized later, not its arguments
    site = site_in(_extract(tmp_path), "valid/__init__.py", "finalize")
    assert _texts(site) == ["{self._final}"]
