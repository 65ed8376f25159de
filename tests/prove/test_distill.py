"""The observed test distilled into a script, its after-variants, and the try / validate sample text
(parsing only: nothing here imports or runs the fixture library)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from errdex.extract import extract_tree
from errdex.model import ErrorSite, Snapshot
from errdex.prove.checks import distinct_regex, template_regex, try_script, validate_script
from errdex.prove.distill import NotDistillable, distill, parse_node_id
from errdex.prove.harness import adapter_for
from errdex.prove.mutate import variants
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

FIXTURE = Path(__file__).parents[1] / "fixtures" / "prove_cfglib"


def _chain(line: int) -> tuple[str, ...]:
    return (f"tests.test_core.t (tests/test_core.py:{line})", "cfglib.core.parse (cfglib/core.py:40)")


def _line(text: str) -> int:
    lines = (FIXTURE / "tests" / "test_core.py").read_text().splitlines()
    return next(i for i, ln in enumerate(lines, 1) if (ln.endswith(text[:-1]) if text.endswith("\n") else text in ln))


def _sites() -> list[ErrorSite]:
    root = FIXTURE / "cfglib"
    return list(extract_tree(SourceTree(Snapshot(repo="acme/cfglib"), root, walk_python_files(root)), jobs=1).sites)


@pytest.mark.parametrize(("node", "marker", "script"), [
    pytest.param("tests/test_core.py::test_required_with_default", 'Setting("host"',
                 "from cfglib import Setting\nSetting('host', required=True, default='localhost')\n",
                 id="pytest.raises unwrapped, match= dropped"),
    pytest.param("tests/test_core.py::test_int[port=eighty-None]", "cfglib.parse(text, [port])\n",
                 "import cfglib\nfrom cfglib import Setting\nport = Setting('port', kind='int')\n"
                 "text = 'port=eighty'\nexpect = None\nif expect is None:\n    cfglib.parse(text, [port])\n",
                 id="parameters bound from the node id, conftest fixture inlined"),
    pytest.param("tests/test_core.py::test_choices", 'cfglib.parse("mode=slow"',
                 "import cfglib\nfrom cfglib import Setting\nMODES = ('fast', 'safe')\n"
                 "mode = Setting('mode', choices=MODES)\ncfglib.parse('mode=slow', [mode])\n",
                 id="asserts dropped, module constant kept"),
    pytest.param("tests/test_core.py::TestSeparator::test_empty", 'sep="")',
                 "import cfglib\nfrom cfglib import Setting\nsettings = [Setting('a')]\n"
                 "cfglib.parse('a=1', settings, sep='')\n",
                 id="method of a test class, try body unwrapped"),
])
def test_distilled_script(node: str, marker: str, script: str) -> None:
    got = distill(FIXTURE, node, _chain(_line(marker)))
    assert got[0].source == script
    compile(got[0].source, "<distilled>", "exec")


def test_variants_prefer_another_case_of_the_same_test() -> None:
    d = distill(FIXTURE, "tests/test_core.py::test_int[port=eighty-None]",
                _chain(_line("cfglib.parse(text, [port])\n")))[0]
    whys = [w for w, _ in variants(d)]
    assert whys[0] == "'port=eighty' -> 'port=80' (another case of the test)"
    first = variants(d)[0][1]
    assert "text = 'port=80'" in first and "cfglib.parse(text, [port])" in first  # the same call, other input


def test_variants_change_only_arguments() -> None:
    d = distill(FIXTURE, "tests/test_core.py::test_required_with_default", _chain(_line('Setting("host"')))[0]
    vs = dict(variants(d))
    assert vs["True -> False"].endswith("Setting('host', required=False, default='localhost')\n")
    assert vs["without default="].endswith("Setting('host', required=True)\n")
    for src in vs.values():  # every variant still calls Setting
        assert any(isinstance(n, ast.Call) and ast.unparse(n.func) == "Setting" for n in ast.walk(ast.parse(src)))


def test_not_distillable_reasons() -> None:
    with pytest.raises(NotDistillable, match="not in the observed workspace"):
        distill(FIXTURE, "tests/nope.py::test_x", _chain(3))
    with pytest.raises(NotDistillable, match="no test frame"):
        distill(FIXTURE, "tests/test_core.py::test_choices", ("cfglib.core.parse (cfglib/core.py:40)",))


def test_node_id_parts() -> None:
    assert parse_node_id("tests/t.py::C::test_x[a-b]") == ("tests/t.py", ["C", "test_x"], "a-b")


def test_click_invoke_rewritten_into_main() -> None:
    src = ("def test_x(runner):\n    result = runner.invoke(cli, ['--n', 'x'], env={'A': '1'}, catch_exceptions=False)\n")
    rewrite = adapter_for("click.testing.CliRunner.invoke", ())
    assert rewrite is not None
    out = rewrite(ast.parse(src).body[0].body)  # type: ignore[attr-defined]
    assert out is not None
    assert [ast.unparse(s) for s in out] == ["import os", "os.environ.update({'A': '1'})",
                                             "result = cli.main(['--n', 'x'], standalone_mode=False)"]
    assert adapter_for("cfglib.core.parse", ("cfglib.core.parse (x.py:1)",)) is None
    split = rewrite(ast.parse("runner.invoke(cli, '--name \"a b\" run')").body)
    assert split is not None and ast.unparse(split[0]) == "cli.main(['--name', 'a b', 'run'], standalone_mode=False)"


def test_template_regex_and_rivals() -> None:
    sites = _sites()
    choice = next(s for s in sites if "is not one of {" in s.template.render())
    default = next(s for s in sites if s.template.render().startswith("default "))
    rx = template_regex(choice)
    assert re.match(rx, "mode: 'slow' is not one of ['fast', 'safe']")
    assert not re.match(rx, "default 'x' is not one of the choices of 'mode'")
    # the other message that also says "is not one of" does not match: the check is this error's
    assert distinct_regex(choice, sites) == rx and distinct_regex(default, sites)


def test_try_and_validate_text() -> None:
    sites = _sites()
    site = next(s for s in sites if "cannot have a default" in s.template.render())
    m = ast.parse("from cfglib import Setting\nSetting('host', required=True, default='localhost')\n")
    t = try_script(m, 1, "builtins.TypeError", template_regex(site))
    assert "except TypeError as exc:" in t and "raise  # another error" in t and "return None" not in t
    call = next(i for i, n in enumerate(ast.walk(m)) if isinstance(n, ast.Call))
    v = validate_script(m, 1, call, site)
    assert "options = {'required': True, 'default': 'localhost'}" in v
    assert "if options.get('required') and options.get('default') is not None:" in v
    assert v.rstrip().endswith("Setting('host', **options)")


def test_raising_decorator_inside_pytest_raises_and_raising_with_header(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\nimport lib\n\n\ndef test_deco():\n    with pytest.raises(TypeError):\n\n"
        "        @lib.command(bad=True)\n        def f():\n            pass\n\n\n"
        "def test_header():\n    with pytest.raises(ValueError):\n        with lib.setting('invalid'):\n"
        "            pass\n")
    deco = distill(tmp_path, "tests/test_x.py::test_deco", ("t (tests/test_x.py:8)",))[0]
    assert deco.source == "import lib\n\n@lib.command(bad=True)\ndef f():\n    pass\n"
    header = distill(tmp_path, "tests/test_x.py::test_header", ("t (tests/test_x.py:15)",))[0]
    assert header.source == "import lib\nwith lib.setting('invalid'):\n    pass\n"
