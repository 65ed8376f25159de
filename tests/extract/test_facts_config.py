"""Configuration facts: the JAX adapter, absl flags and generic environment reads."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from errdex.extract.facts import collect_facts
from jaxsrc import JaxSource

CONFIG = Path(__file__).resolve().parents[1] / "fixtures" / "an_jaxlike" / "jax" / "_src" / "config.py"


def _options(source: str, path: str = "pkg/mod.py") -> list:  # type: ignore[type-arg]
    options, tests = collect_facts(ast.parse(source), path, source, False)
    assert tests == []
    return options


def test_jax_bool_state_gives_name_default_help_env_and_set_hint() -> None:
    src = CONFIG.read_text()
    opts = {o.name: o for o in _options(src, "jax/_src/config.py")}
    o = opts["jax_no_execution"]
    assert (o.default, o.help, o.env_var) == ("False", "Disallow JAX executions.", "JAX_NO_EXECUTION")
    assert o.holder == "jax._src.config.no_execution"
    assert o.set_call == "jax.config.update" and o.read_attr == "jax.config.jax_no_execution"
    assert o.set_hint == 'jax.config.update("jax_no_execution", True)'
    assert (o.path, o.line) == ("jax/_src/config.py", src.splitlines().index("no_execution = bool_state(") + 1)
    assert opts["JAX_CACHE_DIR"].kind == "env" and opts["JAX_CACHE_DIR"].holder == "jax._src.config.CACHE_DIR"


def test_jax_adapter_ignores_other_packages() -> None:
    assert _options("x = bool_state(name='jax_x', default=False, help='h')\n", "other/mod.py") == []


def test_real_jax_config(jax_source: JaxSource) -> None:
    src = (jax_source.path / "jax/_src/config.py").read_text()
    opts = {o.name: o for o in _options(src, "jax/_src/config.py")}
    assert opts["jax_no_tracing"].help == "Disallow tracing for JIT compilation."
    assert opts["jax_no_execution"].env_var == "JAX_NO_EXECUTION"
    assert sum(1 for o in opts.values() if o.adapter.startswith("jax:")) >= 90


def test_absl_flags() -> None:
    src = ("from absl import flags\n"
           "_VERBOSE = flags.DEFINE_bool('verbose_log', False, 'Log more.')\n"
           "flags.DEFINE_enum('mode', 'fast', ['fast', 'slow'], 'Which mode.')\n")
    opts = {o.name: o for o in _options(src)}
    assert opts["verbose_log"].kind == "flag" and opts["verbose_log"].holder == "pkg.mod._VERBOSE"
    assert opts["mode"].help == "Which mode." and opts["mode"].default == "'fast'"
    assert opts["verbose_log"].set_hint.startswith("--verbose_log=")


@pytest.mark.parametrize(("src", "name", "default"), [
    ("import os\nX = os.environ.get('MY_VAR', '1')\n", "MY_VAR", "'1'"),
    ("import os\nX = int(os.getenv('MY_N', '0'))\n", "MY_N", "'0'"),
    ("import os\ndef f():\n    return os.environ['MY_KEY']\n", "MY_KEY", None),
    ("import os\nif 'MY_FLAG' in os.environ:\n    pass\n", "MY_FLAG", None),
])
def test_generic_env_reads(src: str, name: str, default: str | None) -> None:
    (o,) = _options(src)
    assert (o.name, o.kind, o.env_var, o.default) == (name, "env", name, default)


def test_dynamic_env_names_are_not_options() -> None:
    assert _options("import os\ndef f(n):\n    return os.getenv(n.upper())\n") == []


def test_settings_object_with_get_and_set_config() -> None:
    src = ("import os\n_global_config = {\n    'assume_finite': bool(os.environ.get('LIB_ASSUME_FINITE', False)),\n"
           "    'display': 'text',\n    'internal': 1,\n}\n\n"
           "def get_config():\n    return dict(_global_config)\n\n"
           "def set_config(assume_finite=None, display=None):\n    pass\n")
    opts = {o.name: o for o in _options(src, "lib/_config.py") if o.kind == "setting"}
    assert set(opts) == {"assume_finite", "display"}  # "internal" is not a set_config parameter
    o = opts["assume_finite"]
    assert (o.env_var, o.set_call, o.holder) == ("LIB_ASSUME_FINITE", "lib.set_config", "lib._config._global_config")
    assert o.default == "bool(os.environ.get('LIB_ASSUME_FINITE', False))"
