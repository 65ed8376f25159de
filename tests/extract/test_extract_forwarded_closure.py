"""A raise forwarding a caught text (``except TypeError as e: raise AttributeError(*e.args)``) whose ``try``
body calls the closure a package function returns (``arggetter(func)(name, args, kwargs)``): the
closure's raises are reached as the outer function's, since calling the result runs them.  funcy 2.1's
``Call.__getattr__`` re-raises ``get_arg``'s ``TypeError`` as an ``AttributeError`` (captured:
``AttributeError: <lambda>() doesn't have argument named x``); without the closure's texts a pasted
message named only the ``TypeError`` site, confidently, and wrongly.  A closure the ``try`` body does
not reach adds nothing.  The package is written in its shape."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

DECORATORS = '''
    class Call(object):
        def __init__(self, func, args, kwargs):
            self._func, self._args, self._kwargs = func, args, kwargs

        def __getattr__(self, name):
            try:
                res = self.__dict__[name] = arggetter(self._func)(name, self._args, self._kwargs)
                return res
            except TypeError as e:
                raise AttributeError(*e.args)

        def other(self, name):
            try:
                return unrelated(name)
            except TypeError as e:
                raise AttributeError(*e.args)


    def arggetter(func, _cache={}):
        names = set(func.__code__.co_varnames)

        def get_arg(name, args, kwargs):
            if name not in names:
                raise TypeError("%s() doesn't have argument named %s" % (func.__name__, name))
            return args[0]

        _cache[func] = get_arg
        return get_arg


    def unrelated(name):
        if not name:
            raise TypeError("no name")
        return name
'''


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "decorators.py").write_text(textwrap.dedent(DECORATORS))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_a_returned_closure_s_raise_is_forwarded(tmp_path: Path) -> None:
    assert _templates(tmp_path)["Call.__getattr__"] == [
        "{*e.args}", "{func.__name__}() doesn't have argument named {name}"]


def test_a_closure_not_reached_adds_nothing(tmp_path: Path) -> None:
    assert _templates(tmp_path)["Call.other"] == ["{*e.args}", "no name"]
