"""A ``__str__`` that returns ``repr(self)`` while the class writes its own ``__repr__``: ``str()`` of the instance
is that ``__repr__``'s text, a value it shows with ``!r`` quoted as a repr (stone 3.5.5's ``InvalidSpec``:
``def __str__(self): return repr(self)``, ``def __repr__(self): return 'InvalidSpec({!r}, {!r}, {!r})'.format(
self.msg, self.lineno, self.path)``; captured from its test suite: ``InvalidSpec('A route cannot be referenced
here.', 5, 'test.stone')`` and ``InvalidSpec("Symbol 'A' already defined (test.stone:3).", 4, 'test.stone')``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

EXCEPTION = '''
    class InvalidSpec(Exception):
        """Raise this to indicate there was an error in a specification."""

        def __init__(self, msg, lineno, path=None):
            super().__init__()
            assert isinstance(msg, str), type(msg)
            self.msg = msg
            self.lineno = lineno
            self.path = path

        def __str__(self):
            return repr(self)

        def __repr__(self):
            return 'InvalidSpec({!r}, {!r}, {!r})'.format(
                self.msg,
                self.lineno,
                self.path,
            )
'''

GENERATOR = '''
    from specs.exception import InvalidSpec


    class IRGenerator:
        def _resolve_type(self, env, type_ref):
            loc = type_ref.lineno, type_ref.path
            if type_ref.name not in env:
                raise InvalidSpec('A route cannot be referenced here.', *loc)
            return env[type_ref.name]

        def _create_alias(self, env, item, existing):
            if item.name in env:
                raise InvalidSpec(
                    'Symbol %s already defined (%s:%d).' % (
                        quote(item.name), existing.path, existing.lineno),
                    item.lineno, item.path)
            env[item.name] = item

        def _check_field(self, field, seen):
            if field.name in seen:
                raise InvalidSpec(
                    "Field '%s' already defined on line %d." % (field.name, seen[field.name]),
                    field.lineno, field.path)


    def quote(name):
        return "'%s'" % name
'''


def _extract(tmp_path: Path, exception: str = EXCEPTION) -> dict[str, list[str]]:
    pkg = tmp_path / "specs"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    for name, text in (("exception", exception), ("ir_generator", GENERATOR)):
        (pkg / f"{name}.py").write_text(textwrap.dedent(text))
    result = extract_dir(tmp_path)
    return {q: [t.render() for t in site_in(result, "specs/ir_generator.py", f"IRGenerator.{q}").templates]
            for q in ("_resolve_type", "_create_alias", "_check_field")}


def test_str_returning_repr_self_prints_the_class_repr(tmp_path: Path) -> None:
    texts = _extract(tmp_path)
    assert texts["_resolve_type"] == ["InvalidSpec('A route cannot be referenced here.', {type_ref.lineno}, "
                                      "{type_ref.path})"]
    # a text with a `'` of its own prints between double quotes
    assert texts["_check_field"] == ["InvalidSpec(\"Field '{field.name}' already defined on line "
                                     "{seen[field.name]}.\", {field.lineno}, {field.path})"]


def test_a_value_that_may_print_a_quote_gives_either_quotes(tmp_path: Path) -> None:
    texts = _extract(tmp_path)
    body = "Symbol {quote(item.name)} already defined ({existing.path}:{existing.lineno})."
    assert texts["_create_alias"] == [f"InvalidSpec('{body}', {{item.lineno}}, {{item.path}})",
                                      f'InvalidSpec("{body}", {{item.lineno}}, {{item.path}})']


def test_str_aliased_to_repr_reads_the_same(tmp_path: Path) -> None:
    body = EXCEPTION.replace("        def __str__(self):\n            return repr(self)\n\n", "") + \
        "\n        __str__ = __repr__\n"
    texts = _extract(tmp_path, body)
    assert texts["_resolve_type"] == ["InvalidSpec('A route cannot be referenced here.', {type_ref.lineno}, "
                                      "{type_ref.path})"]


def test_str_through_the_inherited_repr_keeps_the_exception_repr(tmp_path: Path) -> None:
    """No `__repr__` of the class's own: `BaseException.__repr__` prints its arguments (as before)."""
    body = EXCEPTION.split("        def __repr__(self):")[0]
    texts = _extract(tmp_path, body)
    assert texts["_resolve_type"] != ["InvalidSpec('A route cannot be referenced here.', {type_ref.lineno}, "
                                      "{type_ref.path})"]
