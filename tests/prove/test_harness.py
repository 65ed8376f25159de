"""Test decorators that set up what the raise needs, turned into a user's statements (harness.TEST_DECORATORS)."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.prove.distill import distill
from errdex.prove.harness import decorator_setup


def test_explicit_mesh_decorator_becomes_make_mesh_and_set_mesh(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import jax\nfrom jax._src import test_util as jtu\n\n\n"
        "class T(jtu.JaxTestCase):\n\n    @jtu.with_explicit_mesh((2,), 'x')\n"
        "    def test_eager(self, mesh):\n        jax.shard_map(f, out_specs=None)(1)\n")
    d = distill(tmp_path, "tests/test_x.py::T::test_eager", ("t (tests/test_x.py:9)",))[0]
    assert d.source.endswith(
        "mesh = jax.make_mesh((2,), 'x', axis_types=(jax.sharding.AxisType.Explicit,) * len('x'))\n"
        "jax.set_mesh(mesh)\njax.shard_map(f, out_specs=None)(1)\n")  # mesh is no fixture to look for


def test_mesh_given_to_the_test_is_bound(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import jax\nfrom jax._src import test_util as jtu\n\n\n"
        "@jtu.with_explicit_mesh((2, 2), ('x', 'y'), axis_types=(jax.sharding.AxisType.Auto,) * 2)\n"
        "def test_run(mesh):\n    jax.device_put(1, jax.NamedSharding(mesh, None))\n")
    d = distill(tmp_path, "tests/test_x.py::test_run", ("t (tests/test_x.py:7)",))[0]
    assert "mesh = jax.make_mesh((2, 2), ('x', 'y'), axis_types=(jax.sharding.AxisType.Auto,) * 2)\n" in d.source


def test_config_decorator_sets_each_option_and_others_are_ignored() -> None:
    decos = [ast.parse(s, mode="eval").body for s in
             ("jtu.with_config(jax_debug_nans=True, jax_enable_x64=False)", "pytest.mark.slow", "unknown(1)")]
    got = decorator_setup(decos)
    assert [ast.unparse(s) for s in got.statements] == ["jax.config.update('jax_debug_nans', True)",
                                                        "jax.config.update('jax_enable_x64', False)"]
    assert got.imports == ("import jax",) and not got.gives


def test_a_raise_only_a_test_runner_caught_is_tried_from_its_rarest_messages() -> None:
    """click's CliRunner.invoke catches what the command raises: observe records those raises as caught inside
    the library, with the parser's own (an option tried long, then short) that recur across tests; the runner's
    observations come first, the rarest message first, so the direct call's candidate is reached (9161)."""
    from errdex.model import Observation
    from errdex.prove.harness import runner_caught, runner_first

    def obs(test: str, message: str, count: int, entry: str = "click.testing.CliRunner.invoke",
            escaped: bool = False) -> Observation:
        return Observation(snapshot="s", kind="site", path="click/parser.py", line=1, exception="NoSuchOption",
                           message=message, test=test, entry=entry, count=count, escaped=escaped)

    parser = [obs(f"t.py::test_{i}", "No such option '-f'.", 1) for i in range(4)]
    completion = obs("t.py::test_complete", "No such option '-c'.", 4, entry="click.shell_completion.ShellComplete.x")
    unknown = obs("t.py::test_unknown[--foo]", "No such option '--foo'.", 1)
    assert runner_caught(unknown.entry) and not runner_caught(completion.entry)
    got = runner_first([completion, *parser, unknown])
    assert got[0] is unknown and got[-1] is completion
    assert runner_first([completion]) == []  # no runner caught it: the usual order
    assert runner_first([*parser, obs("t.py::x", "m", 1, escaped=True)]) == []  # one escaped: not only caught
