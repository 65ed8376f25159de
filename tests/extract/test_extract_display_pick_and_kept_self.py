"""Two ways a raise's object is built off the raise's own expression (issue 17's fifty-ninth round).

- sismic 1.6.11's ``Interpreter._evaluate_contract_conditions``: ``exception_klass = cast(Callable[...,
  Exception], {'preconditions': PreconditionError, 'postconditions': PostconditionError}[cond_type])``, then
  ``raise exception_klass(configuration=..., obj=obj, assertion=condition)``: a class picked from a dict display
  written in place (through ``typing.cast``), each class's ``__str__`` the text;
- nox 2026.10.20's ``VirtualEnv._resolved_interpreter``: ``self._resolved = InterpreterNotFound(self.interpreter)``
  right before ``raise self._resolved``, the attribute holding a resolved path on other paths (a cache).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

CONTRACTS = '''
    from typing import Callable, cast


    class ContractError(Exception):
        def __init__(self, configuration=None, step=None, obj=None, assertion=None):
            super().__init__()
            self.configuration = configuration
            self.obj = obj
            self.assertion = assertion

        def __str__(self):
            return f"{self.__class__.__name__}\\nObject: {self.obj!r}\\nAssertion: {self.assertion}"


    class PreconditionError(ContractError):
        pass


    class PostconditionError(ContractError):
        pass


    KINDS = {"preconditions": PreconditionError, "postconditions": PostconditionError}


    class Interpreter:
        def _check(self, cond_type, obj, conditions):
            exception_klass = cast(Callable[..., Exception], {"preconditions": PreconditionError,
                                                              "postconditions": PostconditionError}[cond_type])
            for condition in conditions:
                raise exception_klass(configuration=self.configuration, obj=obj, assertion=condition)

        def _check_named(self, cond_type, obj, condition):
            klass = KINDS.get(cond_type, ContractError)
            raise klass(obj=obj, assertion=condition)
'''

VIRTUALENV = '''
    class InterpreterNotFound(OSError):
        def __init__(self, interpreter):
            super().__init__(f"Python interpreter {interpreter} not found")
            self.interpreter = interpreter


    class VirtualEnv:
        def __init__(self, interpreter):
            self.interpreter = interpreter
            self._resolved = None

        def _resolved_interpreter(self):
            if self._resolved is not None:
                if isinstance(self._resolved, Exception):
                    raise self._resolved
                return self._resolved
            found = _find_python(self.interpreter)
            if found:
                self._resolved = found
                return self._resolved
            self._resolved = InterpreterNotFound(self.interpreter)
            raise self._resolved


    def _find_python(name):
        return None
'''


def _package(root: Path, name: str, text: str) -> Path:
    (root / "pkg").mkdir(exist_ok=True)
    (root / "pkg" / "__init__.py").touch()
    (root / "pkg" / name).write_text(textwrap.dedent(text))
    return root


def test_a_class_picked_from_a_display_in_place_is_each_class(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path, "interpreter.py", CONTRACTS))
    site = site_in(result, "pkg/interpreter.py", "Interpreter._check")
    assert site.exception_resolved == "pkg.interpreter.ContractError"
    assert [t.render() for t in site.templates] == [
        "PreconditionError\nObject: {obj}\nAssertion: {condition}",
        "PostconditionError\nObject: {obj}\nAssertion: {condition}",
    ]
    named = site_in(result, "pkg/interpreter.py", "Interpreter._check_named")  # a named table with a default
    assert [t.render() for t in named.templates] == [
        "PreconditionError\nObject: {obj}\nAssertion: {condition}",
        "PostconditionError\nObject: {obj}\nAssertion: {condition}",
        "ContractError\nObject: {obj}\nAssertion: {condition}",
    ]


def test_an_instance_kept_on_self_right_before_its_raise(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path, "virtualenv.py", VIRTUALENV))
    cached, fresh = (site_in(result, "pkg/virtualenv.py", "VirtualEnv._resolved_interpreter", i) for i in (0, 1))
    assert fresh.exception_resolved == "pkg.virtualenv.InterpreterNotFound"
    assert [t.render() for t in fresh.templates] == ["Python interpreter {self.interpreter} not found"]
    # the earlier raise of the cached object is not right after an assignment: its object stays unknown
    assert [t.render() for t in cached.templates] == [""]
