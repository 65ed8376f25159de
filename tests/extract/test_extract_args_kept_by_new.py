"""An ``__init__`` that hands its text to a base whose ``__init__`` only keeps it (``self.message = message``)
and never calls ``BaseException.__init__``: the instance's ``args`` are still what the raise passed
(``BaseException.__new__`` keeps them), and ``str()`` prints those, not the text handed on (rule-engine
5.0.2's ``EngineError``; captured from its test suite: ``SymbolResolutionError('email')`` prints ``email``,
``AttributeResolutionError('abc', obj)`` prints ``('abc', <_MappingDataTypeDef ...>)``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class EngineError(Exception):
        def __init__(self, message=''):
            self.message = message


    class EvaluationError(EngineError):
        """Evaluation failed."""


    class SymbolResolutionError(EvaluationError):
        def __init__(self, symbol_name, symbol_scope=None, suggestion=None):
            self.symbol_name = symbol_name
            self.suggestion = suggestion
            super(SymbolResolutionError, self).__init__("unknown symbol: {0!r}".format(symbol_name))


    class AttributeResolutionError(EvaluationError):
        def __init__(self, attribute_name, object_, suggestion=None):
            self.attribute_name = attribute_name
            self.object = object_
            super(AttributeResolutionError, self).__init__("unknown attribute: {0!r}".format(attribute_name))


    class PassedOn(Exception):
        def __init__(self, name):
            super().__init__("no such name: " + name)
'''

ENGINE = '''
    from pkg import errors


    def resolve(thing, name):
        if name not in thing:
            raise errors.SymbolResolutionError(name, suggestion="x")
        if not hasattr(thing, name):
            raise errors.AttributeResolutionError(name, thing)
        if thing is None:
            raise errors.PassedOn(name)
        raise errors.EvaluationError("data type mismatch")
'''


def test_the_raise_arguments_are_the_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "pkg" / "engine.py").write_text(textwrap.dedent(ENGINE))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path.endswith("engine.py")), key=lambda s: s.line)
    symbol, attribute, passed, mismatch = ([t.render() for t in s.templates] for s in sites)
    assert symbol == ["{name}"]  # not "unknown symbol: ...": that text only sits in `self.message`
    assert attribute == ["({name}, {thing})"]
    assert passed == ["no such name: {name}"]  # a base that is BaseException itself: the text handed on
    assert mismatch == ["data type mismatch"]
