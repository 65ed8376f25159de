"""``self`` passed or interpolated as text in a method of a plain class is what the instance's ``__str__``
(else ``__repr__``) says, for the class and each subclass it may be (hl7apy 1.3.5, round 23:
``raise ChildNotValid(name, self)`` in ``Element`` and its subclasses, printed ``'{0} is not a valid child for
{1}'.format(self.child, self.parent)`` with ``<Segment QPD>`` or ``<Field PID_3 (...) of type CX>``; read as a
bare ``{self}``, thirteen raises printed one text)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

EXCEPTIONS = '''
    class ChildNotValid(Exception):
        def __init__(self, child, parent):
            self.child = child
            self.parent = parent

        def __str__(self):
            return '{0} is not a valid child for {1}'.format(self.child, self.parent)
'''

CORE = '''
    from pkg.exceptions import ChildNotValid


    class Element(object):
        def add(self, child):
            if child is None:
                raise ChildNotValid(child, self)

        def __repr__(self):
            return "<{0} {1}>".format(self.classname, self.name or '')


    class Field(Element):
        def check(self, name):
            raise ChildNotValid(name, self)

        def __repr__(self):
            return '<{0} {1} of type {2}>'.format(self.classname, self.name, self.datatype)


    class Segment(Element):
        def find(self, name):
            raise ChildNotValid(name, self)

        def describe(self):
            raise ValueError(f"cannot describe {self}")


    class Plain(object):
        def find(self, name):
            raise ChildNotValid(name, self)


    def set_child(value, child_name):
        raise ChildNotValid(value, child_name)
'''


def test_self_shown_is_its_class_repr(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (tmp_path / "pkg" / "core.py").write_text(textwrap.dedent(CORE))
    found = {s.qualname: sorted({t.render() for t in s.templates}) for s in extract_dir(tmp_path).sites}
    element = "{child} is not a valid child for <{self.classname} {self.name or ''}>"
    field = "{child} is not a valid child for <{self.classname} {self.name} of type {self.datatype}>"
    assert found["Element.add"] == sorted([element, field])  # a method of Element may run on a Field
    assert found["Field.check"] == ["{name} is not a valid child for <{self.classname} {self.name} of type "
                                    "{self.datatype}>"]
    assert found["Segment.find"] == ["{name} is not a valid child for <{self.classname} {self.name or ''}>"]
    assert found["Segment.describe"] == ["cannot describe <{self.classname} {self.name or ''}>"]
    assert found["Plain.find"] == ["{name} is not a valid child for {self}"]  # object's repr: not known
    assert found["set_child"] == ["{value} is not a valid child for {child_name}"]


VERSIONS = '''
    class Matcher(object):
        def __init__(self, s):
            self._string = s

        def check(self, other):
            if type(self) != type(other):
                raise TypeError('cannot compare %s and %s' % (self, other))

        def __repr__(self):
            return "%s(%r)" % (self.__class__.__name__, self._string)

        def __str__(self):
            return self._string
'''


def test_a_str_that_returns_no_known_text_still_wins_over_repr(tmp_path: Path) -> None:
    # distlib 0.4.4's Matcher (round 15): `'%s' % (self,)` prints its __str__, `self._string`; reading its
    # __repr__ (`Matcher('foo')`) instead made the site's text `cannot compare {}({}) and {}`, which the event
    # `cannot compare foo and foo` does not fit, and another site answered it confidently
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(VERSIONS))
    [site] = [s for s in extract_dir(tmp_path).sites if s.qualname == "Matcher.check"]
    assert [t.render() for t in site.templates] == ["cannot compare {self} and {other}"]


ARGUMENTS = '''
    from typing import Generic, TypeVar

    T = TypeVar("T")


    class Argument(Generic[T]):
        def __str__(self):
            return 'optional argument {!r}'.format(self._name[1:])


    def validate_choice(attr: Argument[T], value, choices):
        if value not in choices:
            raise ValueError("invalid value {!r} for {}: must be one of {}".format(value, attr, tuple(choices)))


    def validate_minimum(attr: "Argument", value, minimum):
        raise ValueError(f"the value of {attr} must be at least {minimum}, not {value!r}")


    def validate_name(attr: int, value):
        raise ValueError(f"invalid {attr}: {value!r}")

'''


def test_an_annotated_parameter_shown_is_its_class_text(tmp_path: Path) -> None:
    # xmlschema 4.3.2's `validate_choice(attr: Argument[T], ...)`: a bare `{attr}` took any text, so a site
    # whose template ended in `{self._name[1:]}` and another's `{attr}` read alike up to the `: must be ...`
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "arguments.py").write_text(textwrap.dedent(ARGUMENTS))
    found = {s.qualname: sorted({t.render() for t in s.templates}) for s in extract_dir(tmp_path).sites}
    assert found["validate_choice"] == [
        "invalid value {value} for optional argument {self._name[1:]}: must be one of {tuple(choices)}"]
    assert found["validate_minimum"] == [
        "the value of optional argument {self._name[1:]} must be at least {minimum}, not {value}"]
    assert found["validate_name"] == ["invalid {attr}: {value}"]  # not a class of the package


TERMS = '''
    class Identifier(str):
        def __repr__(self):
            return "%s(%s)" % (self.__class__.__name__, str.__repr__(self))

        def load(self):
            raise ValueError("Could not load %s as either RDF/XML or N3" % self)


    class URIRef(Identifier):
        def resolve(self):
            raise ValueError(f"cannot resolve {self}")
'''


def test_a_class_with_a_builtin_base_prints_as_that_base_does(tmp_path: Path) -> None:
    # rdflib 7.6.0's `URIRef(Identifier(str))`: `str(self)` is the text itself (str's own __str__), not the
    # class's __repr__ `URIRef('...')`, which made a confident wrong answer of its messages (round 16)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(textwrap.dedent(TERMS))
    found = {s.qualname: sorted({t.render() for t in s.templates}) for s in extract_dir(tmp_path).sites}
    assert found["Identifier.load"] == ["Could not load {self} as either RDF/XML or N3"]
    assert found["URIRef.resolve"] == ["cannot resolve {self}"]
