"""A method's first parameter is the instance, whatever its name (``extract/instancename.py``, issue 17's
fortieth round): mpmath 1.4.1's ``MPContext.hypsum(ctx, ...)`` raises ``ctx.NoConvergence(ctx._hypsum_msg %
(prec, prec+extraprec))`` with ``_hypsum_msg`` a class constant, read as a placeholder since every rule reading
the instance looks for ``self``."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

CONTEXT = '''
    class NoConvergence(Exception):
        pass


    class Context:
        NoConvergence = NoConvergence
        _hypsum_msg = "hypsum() failed to converge to the requested %i bits of accuracy"
        _overflow_msg = "the exact result does not fit in memory"

        def hypsum(ctx, prec, extraprec):
            if extraprec > 100:
                raise ctx.NoConvergence(ctx._hypsum_msg % (prec + extraprec))
            return prec

        def exact(ctx, n):
            if n > 10 ** 6:
                raise OverflowError(ctx._overflow_msg)
            return n

        def rebound(ctx, n):
            ctx = ctx.parent
            if n < 0:
                raise ValueError(ctx._overflow_msg)
            return n

        def closure(ctx, n):
            def check(self):
                if not self:
                    raise ValueError(ctx._overflow_msg)
            return check

        def __new__(typ, *args):
            if args and args[0] is None:
                raise ValueError(typ._overflow_msg)
            return object.__new__(typ)

        @staticmethod
        def convert(ctx, n):
            if n is None:
                raise TypeError(ctx._overflow_msg)
            return n
'''


def _result(tmp_path: Path) -> object:
    (tmp_path / "numctx").mkdir()
    (tmp_path / "numctx" / "__init__.py").write_text(textwrap.dedent(CONTEXT))
    return extract_dir(tmp_path)


def _texts(result: object, qualname: str) -> list[str]:
    return [t.render() for t in site_in(result, "numctx/__init__.py", qualname).templates]  # type: ignore[arg-type]


def test_the_class_constants_read_through_a_differently_named_instance(tmp_path: Path) -> None:
    result = _result(tmp_path)
    assert _texts(result, "Context.hypsum") == [
        "hypsum() failed to converge to the requested {prec + extraprec} bits of accuracy"]
    assert _texts(result, "Context.exact") == ["the exact result does not fit in memory"]
    # the source shown is the library's: the exception as written
    assert site_in(result, "numctx/__init__.py", "Context.hypsum").exception == "ctx.NoConvergence"  # type: ignore[arg-type]


def test_a_rebound_name_a_closure_taking_self_static_methods_and_new_are_left_as_they_were(tmp_path: Path) -> None:
    result = _result(tmp_path)
    assert _texts(result, "Context.rebound") == ["{ctx._overflow_msg}"]
    assert _texts(result, "Context.closure.<locals>.check") == ["{ctx._overflow_msg}"]
    assert _texts(result, "Context.convert") == ["{ctx._overflow_msg}"]
    assert _texts(result, "Context.__new__") == ["{typ._overflow_msg}"]  # the class, though undecorated
