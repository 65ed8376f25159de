"""An exception's ``__str__`` returning ``self.render()``, which loops over ``[template]`` (``template =
self._template`` unless one is passed) and returns ``t.format(*self.args, **self.kwargs)`` (quantiphy 2.22,
round 23: each subclass only sets ``_template``; its raises were read as ``{}: {t}`` and a bare
placeholder, message 10.8%).  Three links, each Python's: a loop over a display binds each item
(``loopitems.py``), ``t.format(...)`` with ``t`` holding ``self._template`` is that attribute formatted
(``msgforms._own_format``), and ``__str__``'s ``self.render()`` reads the raised class's attribute in what
``render`` returns (``ownformat.py``)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract import env as envmod
from errdex.extract.loopitems import bind_loop_target, loop_items

FILES = '''
    class QuantityError(Exception):
        _template = "{}"

        def __init__(self, *args, **kwargs):
            self.args = args
            self.kwargs = kwargs

        def render(self, template=None):
            if not template:
                template = self._template
            if isinstance(template, str):
                templates = [template]
            else:
                templates = template
            for t in templates:
                try:
                    msg = t.format(*self.args, **self.kwargs)
                    if msg == t and self.args:
                        break
                    return msg
                except (IndexError, KeyError):
                    continue
            else:
                raise ValueError("No valid template found.")
            culprits = ', '.join(str(a) for a in self.args)
            return '{}: {}'.format(culprits, t)

        def __str__(self):
            return self.render()


    class IncompatibleUnits(QuantityError, TypeError):
        _template = "incompatible units ({} and {})."


    class UnknownConversion(QuantityError, KeyError):
        _template = "unable to convert between {to_units} and {from_units}."


    class Plain(Exception):
        def describe(self, names):
            for name in names:
                return name.format(*self.args)

        def __str__(self):
            return self.describe(["x"])


    def add(a, b):
        if a.units != b.units:
            raise IncompatibleUnits(a, b)


    def convert(to_units, from_units):
        raise UnknownConversion(to_units=to_units, from_units=from_units)


    def other(v):
        raise Plain(v)
'''


def test_the_raised_class_template_formatted_through_a_loop(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "units.py").write_text(textwrap.dedent(FILES))
    found = {s.qualname: sorted({t.render() for t in s.templates}) for s in extract_dir(tmp_path).sites}
    assert "incompatible units ({?} and {?})." in found["add"]
    assert "unable to convert between {to_units} and {from_units}." in found["convert"]
    assert not any("incompatible" in t or "unable" in t for t in found["other"])


def _name(src: str) -> ast.expr:
    return ast.parse(src, mode="eval").body


def test_what_a_loop_binds() -> None:
    env = envmod.bind(None, "template", envmod.Binding(_name("self._template"), None))
    items = loop_items(_name("[template, 'b']"), env)
    assert items is not None and [ast.unparse(b.value) for b in items if b.value is not None] == ["template", "'b'"]
    assert loop_items(_name("[*more]"), env) is None  # a starred item: not read
    assert loop_items(_name("names"), env) is None  # nothing known about it
    joined = envmod.merge(env, [envmod.bind(env, "ts", envmod.Binding(_name("[template]"), env)),
                                envmod.bind(env, "ts", envmod.Binding(_name("template"), env))])
    items = loop_items(_name("ts"), joined)  # a display on one branch, another value on the other
    assert items is not None and [ast.unparse(b.value) if b.value is not None else None for b in items] == [
        "template", None]
    bound = bind_loop_target(env, _name("t"), _name("[template]"))
    assert bound is not None and envmod.lookup(bound, "t") is not None
    assert bind_loop_target(env, _name("(a, b)"), _name("[template]")) is None  # an unpacking target
