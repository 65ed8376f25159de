"""A method's local bound to ``self`` reads the instance's attributes (cfgv 3.5.0, round 23: its
``ValidationError.__str__`` walks a chain of wrapped errors with ``err = self`` ... ``err = err.error_msg`` and
prints ``f'=====> {err.error_msg}'``; read as the placeholder ``{err.error_msg}``, its fifteen raises printed the
same bare text and no message named its raise: last line and message 0.0%)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract import env as envmod
from errdex.extract.selfalias import self_reads

FILES = '''
    class ValidationError(ValueError):
        def __init__(self, error_msg, ctx=None):
            super().__init__(error_msg)
            self.error_msg = error_msg
            self.ctx = ctx

        def __str__(self):
            out = '\\n'
            err = self
            while err.ctx is not None:
                out += f'==> {err.ctx}\\n'
                err = err.error_msg
            out += f'=====> {err.error_msg}'
            return out


    class Plain(ValueError):
        def __init__(self, reason):
            super().__init__(reason)
            self.reason = reason

        def __str__(self):
            me = self
            return f'failed: {me.reason}'


    class Other(ValueError):
        def __init__(self, reason, other):
            super().__init__(reason)
            self.reason = reason
            self.other = other

        def __str__(self):
            me = self.other
            return f'failed: {me.reason}'


    def check_one_of(possible, v):
        if v not in possible:
            raise ValidationError(f'Expected one of {possible} but got: {v!r}')


    def check_plain(v):
        raise Plain(f'no {v}')


    def check_other(v):
        raise Other(f'no {v}', v)
'''


def test_a_local_holding_self_reads_the_instances_attributes(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "checks.py").write_text(textwrap.dedent(FILES))
    found = {s.qualname: sorted({t.render() for t in s.templates}) for s in extract_dir(tmp_path).sites}
    # no iteration: `err` is `self`; one: the loop's context before it, the last text the raise's own
    assert found["check_one_of"] == ["\n=====> Expected one of {possible} but got: {v}",
                                     "\n==> {ctx}\n=====> Expected one of {possible} but got: {v}"]
    assert found["check_plain"] == ["failed: no {v}"]
    assert found["check_other"] == ["failed: {me.reason}"]  # another object's attribute: unknown


def _env(code: str) -> envmod.Env | None:
    env: envmod.Env | None = None
    for stmt in ast.parse(textwrap.dedent(code)).body:
        assert isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)
        env = envmod.bind(env, stmt.targets[0].id, envmod.Binding(stmt.value, env))
    return env


def _attr(src: str) -> ast.Attribute:
    node = ast.parse(src, mode="eval").body
    assert isinstance(node, ast.Attribute)
    return node


def test_which_locals_are_self() -> None:
    env = _env("me = self")
    reads = self_reads(_attr("me.reason"), True, env)
    assert reads is not None and [ast.unparse(r) if r else None for r in reads] == ["self.reason"]
    assert self_reads(_attr("me.reason"), False, env) is None  # not a method
    assert self_reads(_attr("me.reason"), True, _env("me = self.other")) is None
    assert self_reads(_attr("me.reason"), True, _env("me = self\nself = other")) is None  # `self` rebound
    merged = envmod.merge(env, [env, envmod.bind(env, "me", envmod.Binding(_attr("me.inner"), env))])
    reads = self_reads(_attr("me.reason"), True, merged)  # `self` on one path, another object on the other
    assert reads is not None and [ast.unparse(r) if r else None for r in reads] == ["self.reason", None]
