"""The observed test distilled into a script, its after-variants, and the try / validate sample text
(parsing only: nothing here imports or runs the fixture library)."""

from __future__ import annotations

import ast
import itertools
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
    with pytest.raises(NotDistillable, match="no test frame"):  # and no block that expects the raise
        distill(FIXTURE, "tests/test_core.py::test_choices_ok", ("cfglib.core.parse (cfglib/core.py:40)",))


def test_chain_without_the_test_frame_takes_the_block_that_expects_the_raise() -> None:
    """Raised in a thread the library runs a callback in, the recorded stack has no test frame: the
    statement the test's ``pytest.raises`` block runs is the raising one."""
    d = distill(FIXTURE, "tests/test_core.py::test_choices", ("cfglib.core.parse (cfglib/core.py:40)",))[0]
    assert d.source.endswith("cfglib.parse('mode=slow', [mode])\n")


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
    # a constructor's ``self.required`` is its ``required`` argument, bound as ``Setting`` binds it
    assert "given = inspect.signature(Setting).bind(*args, **kwargs)" in v
    assert "if required and default is not None:" in v
    assert "problem = setting_problem('host', required=True, default='localhost')" in v
    assert v.rstrip().endswith("Setting('host', required=True, default='localhost')")


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


def test_unittest_method_gets_its_instance_and_runs() -> None:
    lines = (FIXTURE / "tests" / "test_unit.py").read_text().splitlines()
    line = next(i for i, ln in enumerate(lines, 1) if 'self.make("float")' in ln)
    d = distill(FIXTURE, "tests/test_unit.py::KindTest::test_unknown_kind",
                (f"t (tests/test_unit.py:{line})", "cfglib.core.Setting.__init__ (cfglib/core.py:13)"))[0]
    src = d.source
    # the class without its test methods, instantiated and set up; the call through self kept
    assert "class KindTest(unittest.TestCase):" in src and "def make(self, kind):" in src
    assert "def test_" not in src
    assert src.endswith("self = KindTest()\nself.setUp()\nself.make('float')\n")
    # the script runs against the fixture library and raises the library's error
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, cwd=FIXTURE, timeout=60,
                       check=False)
    assert r.returncode == 1 and "ValueError: unknown kind 'float'" in r.stderr
    vs = dict(variants(d))  # variants change the call through self, never the instance's set-up
    assert vs and all(v.count("self = KindTest()\nself.setUp()\n") == 1 and "self.make(" in v for v in vs.values())


def test_self_outside_a_class_is_not_distillable(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("import lib\n\n\ndef test_f(self):\n    lib.f(self)\n")
    with pytest.raises(NotDistillable, match="self outside a class"):
        distill(tmp_path, "tests/test_x.py::test_f", ("t (tests/test_x.py:5)",))


def test_click_invoke_spreads_a_keyword_dict() -> None:
    rewrite = adapter_for("click.testing.CliRunner.invoke", ())
    assert rewrite is not None
    src = ("opts = {'standalone_mode': False, 'input': 'y\\n'}\nresult = runner.invoke(cli, ['--flag'], **opts)\n")
    out = rewrite(ast.parse(src).body)
    assert out is not None
    code = "\n".join(ast.unparse(s) for s in out)
    assert code.endswith("result = cli.main(['--flag'], **_invoke_kw, standalone_mode=False)")
    # run the rewritten statements with a stand-in command: the dict loses invoke's own keywords,
    # input becomes stdin, and main gets the rest
    seen: dict[str, object] = {}

    class Cmd:
        def main(self, args: list[str], **kw: object) -> None:
            import sys
            seen.update(kw, args=args, stdin=sys.stdin.read())

    import sys
    saved = sys.stdin
    try:
        exec(compile(code, "<rewritten>", "exec"), {"cli": Cmd()})
    finally:
        sys.stdin = saved
    assert seen == {"standalone_mode": False, "args": ["--flag"], "stdin": "y\n"}


def test_run_env_is_the_library_switch_only() -> None:
    from errdex.prove.harness import run_env
    assert run_env("jax") == {"JAX_TRACEBACK_FILTERING": "off"}
    assert run_env("click") == {} and run_env("cfglib") == {}


def test_absl_class_parameters_from_a_generator_over_literals(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "from absl.testing import parameterized\nimport lib\n\n\n"
        "@parameterized.named_parameters(\n    {'testcase_name': f'_{m}', 'mode': m} for m in ('fast', 'safe'))\n"
        "class T(parameterized.TestCase):\n\n    def test_run(self, mode):\n        lib.run(mode)\n")
    d = distill(tmp_path, "tests/test_x.py::T::test_run_safe", ("t (tests/test_x.py:10)",))[0]
    assert d.source == "import lib\nmode = 'safe'\nlib.run(mode)\n"
    with pytest.raises(NotDistillable, match="not literal cases"):  # no such case
        distill(tmp_path, "tests/test_x.py::T::test_run_slow", ("t (tests/test_x.py:10)",))


def test_helper_that_expects_the_raise_is_replaced_by_its_raising_statement(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import unittest\nimport lib\n\n\n"
        "def check(test, etype, f, mode='x'):\n    with lib.mode(mode):\n        test.assertRaises(etype, f)\n\n\n"
        "class T(unittest.TestCase):\n    def test_run(self):\n        def bad():\n            return lib.run(1)\n"
        "        check(self, TypeError, bad)\n")
    chain = ("tests.test_x.T.test_run (tests/test_x.py:14)", "tests.test_x.check (tests/test_x.py:7)",
             "unittest.case.TestCase.assertRaises (case.py:795)", "tests.test_x.T.test_run.<locals>.bad (tests/test_x.py:13)",
             "lib.run (lib.py:3)")
    d = distill(tmp_path, "tests/test_x.py::T::test_run", chain)[0]
    # the error escapes as it would for a user: no helper, no assertRaises, no instance needed
    assert d.source == "import lib\n\ndef bad():\n    return lib.run(1)\nbad()\n"
    # without the helper frame in the chain the test keeps its call, and gets its instance
    plain = distill(tmp_path, "tests/test_x.py::T::test_run", chain[:1])[0].source
    assert plain.endswith("self = T()\nself.setUp()\n\ndef bad():\n    return lib.run(1)\ncheck(self, TypeError, bad)\n")


def test_parametrize_built_from_module_constants(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\nimport lib\n\nBOOL = [({'a': 1}, 'x'), ({'a': 2}, 'y')]\nOTHER = [({'b': 3}, 'z')]\n\n\n"
        "@pytest.mark.parametrize(('decl', 'params', 'arg'),\n"
        "    [('--f/--no-f', *c) for c in BOOL] + [('--f', *c) for c in OTHER])\n"
        "def test_run(decl, params, arg):\n    lib.run(decl, params, arg)\n")
    d = distill(tmp_path, "tests/test_x.py::test_run[--f-params2-z]", ("t (tests/test_x.py:11)",))[0]
    assert d.source == "import lib\ndecl = '--f'\nparams = {'b': 3}\narg = 'z'\nlib.run(decl, params, arg)\n"
    d = distill(tmp_path, "tests/test_x.py::test_run[--f/--no-f-params1-y]", ("t (tests/test_x.py:11)",))[0]
    assert "params = {'a': 2}" in d.source


def test_variant_gives_integers_as_floats(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import lib\n\n\ndef test_grad():\n    f = lambda: lib.grad(lib.array([1, 2]))\n    f()\n")
    d = distill(tmp_path, "tests/test_x.py::test_grad", ("t (tests/test_x.py:6)",))[0]
    vs = dict(variants(d))
    assert vs["[1, 2] -> as floats"].endswith("f = lambda: lib.grad(lib.array([1.0, 2.0]))\nf()\n")
    assert list(vs).index("[1, 2] -> as floats") < list(vs).index("1 -> 0")  # before single numbers


def test_variant_names_what_the_script_defines(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import lib\n\n\ndef test_lookup():\n    app = lib.App()\n\n    @app.command()\n    def push():\n"
        "        pass\n\n    app.run(['pause'])\n")
    d = distill(tmp_path, "tests/test_x.py::test_lookup", ("t (tests/test_x.py:11)",))[0]
    vs = dict(variants(d))
    assert vs["'pause' -> 'push' (defined above)"].endswith("app.run(['push'])\n")


def test_variants_change_a_literal_assigned_before_the_call(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import lib\n\n\ndef test_prefix():\n    prefix = (1, {'a': 0})\n    full = (0, {'a': 0, 'b': 0})\n"
        "    lib.broadcast(prefix, full)\n")
    d = distill(tmp_path, "tests/test_x.py::test_prefix", ("t (tests/test_x.py:7)",))[0]
    vs = [v for _, v in variants(d)]
    assert "prefix = (1, {'a': 0})\nfull = (0, {'a': 0})\nlib.broadcast(prefix, full)\n" in [v[v.index("prefix"):] for v in vs]


def test_variant_gives_a_literal_leaf_in_a_list(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import lib\n\n\ndef test_flatten():\n    with pytest.raises(ValueError):\n"
        "        lib.flatten_one_level(1, True)\n")
    d = distill(tmp_path, "tests/test_x.py::test_flatten", ("t (tests/test_x.py:6)",))[0]
    vs = dict(variants(d))
    assert vs["1 -> [1] (in a list)"].endswith("lib.flatten_one_level([1], True)\n")
    assert not any("[True]" in v for v in vs.values())  # a switch is flipped, never put in a list


def test_variant_gives_leaves_for_the_containers_of_a_literal(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import lib\n\n\ndef test_specs():\n    tree = lib.structure({'a': 1, 'b': 2})\n"
        "    specs = {'a': [None, None], 'b': (None, None)}\n    lib.flatten_specs('spec', tree, specs)\n")
    d = distill(tmp_path, "tests/test_x.py::test_specs", ("t (tests/test_x.py:7)",))[0]
    got = [v for why, v in variants(d) if why.endswith("with leaves for its containers")]
    assert any("specs = {'a': None, 'b': None}\n" in v for v in got), got


def test_absl_parameters_given_as_one_list(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import lib\nfrom absl.testing import parameterized\n\n\nclass T(parameterized.TestCase):\n\n"
        "    @parameterized.parameters([False, True])\n    def test_run(self, jit):\n        lib.run(jit)\n")
    d = distill(tmp_path, "tests/test_x.py::T::test_run1", ("t (tests/test_x.py:9)",))[0]
    assert d.source.endswith("jit = True\nlib.run(jit)\n")


def test_absl_cases_computed_by_a_decorator_are_evaluated(tmp_path: Path) -> None:
    """absl's ``product`` (and a library's sampler such as jax's ``sample_product``) computes its cases when
    the module runs: ``test_run3`` is bound to the decorator evaluated and absl's fourth case read back."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import lib\nfrom absl.testing import parameterized\n\nMODES = ['fast', 'safe']\n\n\n"
        "class T(parameterized.TestCase):\n\n    @parameterized.product(mode=MODES, n=[1, 2])\n"
        "    def test_run(self, mode, n, verbose=False):\n        lib.run(mode, n)\n")
    d = distill(tmp_path, "tests/test_x.py::T::test_run3", ("t (tests/test_x.py:11)",))[0]
    cases = "parameterized.product(mode=MODES, n=[1, 2])(lambda self, **kw: None).testcases[3]"
    assert f"mode = {cases}['mode']" in d.source and f"n = {cases}['n']" in d.source
    assert "MODES = ['fast', 'safe']" in d.source and "verbose" not in d.source

    class Iter:  # what absl's decorator returns for a function: its cases kept as ``testcases``
        def __init__(self, cases: list[dict[str, object]]) -> None:
            self.testcases = cases

    def product(**grid: list[object]) -> object:
        names = list(grid)
        cases = [dict(zip(names, vs, strict=True)) for vs in itertools.product(*grid.values())]
        return lambda fn: Iter(cases)

    ran: list[tuple[object, ...]] = []
    lib = type("lib", (), {"run": staticmethod(lambda *a: ran.append(a))})
    absl = type("m", (), {"product": staticmethod(product)})
    code = d.source.replace("import lib\n", "").replace("from absl.testing import parameterized\n", "")
    exec(code, {"lib": lib, "parameterized": absl})
    assert ran == [("safe", 2)]


def test_method_a_subclass_inherits_is_distilled_with_every_class_configuration(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import unittest\nimport lib\nfrom lib import testing as ltu\n\n\n"
        "@ltu.with_config(lib_fast=False)\nclass Base(unittest.TestCase):\n"
        "    def test_run(self):\n        lib.run(1)\n\n\n"
        "@ltu.with_config(lib_fast=True)\nclass Fast(Base):\n    def test_other(self):\n        pass\n")
    d = distill(tmp_path, "tests/test_x.py::Fast::test_run", ("t (tests/test_x.py:9)",))[0]
    # the base's test under the subclass's name, the subclass's setting last (it wins, as unittest has it)
    assert d.source == ("import jax\nimport lib\njax.config.update('lib_fast', False)\n"
                        "jax.config.update('lib_fast', True)\nlib.run(1)\n")
    with pytest.raises(NotDistillable, match="test function test_gone not found"):
        distill(tmp_path, "tests/test_x.py::Fast::test_gone", ("t (tests/test_x.py:9)",))
