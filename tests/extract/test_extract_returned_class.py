"""A class returned by a call, called with the text (issue 17's ninetieth round, ``extract/returnedclass.py``).

zope.tales 7.0's ``expressions.py`` raises ``engine.getCompilerError()('Path element may not be empty in %r' %
path)`` (the engine's method returns its ``CompilerError`` class); codext 1.16.5's ``handle_error`` builds ``err =
getattr(builtins, exc)(f"'{ename}' codec can't ...")``, the class made at run time, and raises ``err``.  The class
is unknown here, so the text follows the builtin rule (the one argument); before, the site's text was the
whole raised expression (``{engine.getCompilerError()}``, ``{err}``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

from codecshape import COMMON
from talesshape import ENGINE

EXPRESSIONS = '''
    class SubPathExpr:
        def __init__(self, path, engine):
            for element in path.split("/"):
                if not element:
                    raise engine.getCompilerError()(
                        'Path element may not be empty in %r' % path)
                if element.startswith("?"):
                    raise self.error_class()("Dynamic name specified in first subpath element")
            self._path = path
'''



def test_the_class_returned_by_a_call_takes_the_text(tmp_path: Path) -> None:
    (tmp_path / "tales").mkdir()
    (tmp_path / "tales" / "__init__.py").touch()
    (tmp_path / "tales" / "engine.py").write_text(textwrap.dedent(ENGINE))
    (tmp_path / "tales" / "expressions.py").write_text(textwrap.dedent(EXPRESSIONS))
    result = extract_dir(tmp_path)
    empty = site_in(result, "tales/expressions.py", "SubPathExpr.__init__")
    assert [t.render() for t in empty.templates] == ["Path element may not be empty in {path}"]
    assert empty.exception == "engine.getCompilerError()", empty.exception
    dynamic = site_in(result, "tales/expressions.py", "SubPathExpr.__init__", 1)
    assert [t.render() for t in dynamic.templates] == ["Dynamic name specified in first subpath element"]


def test_a_local_holding_such_an_instance_raised_later(tmp_path: Path) -> None:
    (tmp_path / "codecs_kit").mkdir()
    (tmp_path / "codecs_kit" / "__init__.py").touch()
    (tmp_path / "codecs_kit" / "common.py").write_text(textwrap.dedent(COMMON))
    site = site_in(extract_dir(tmp_path), "codecs_kit/common.py", "handle_error.<locals>._handle_error")
    assert [t.render() for t in site.templates] == [
        "'{ename}' codec can't {['en', 'de'][decode]}code {kind} '{token}' in {item} {position}"]
    assert site.exception == "getattr(builtins, exc)", site.exception
