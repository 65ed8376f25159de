"""After-variants that edit the function a script hands to the library, or the transform receiving it
(tracing.py, trace_adapters.py): parsing only, one small script per edit."""

from __future__ import annotations

import ast

import pytest

from errdex.prove.trace_adapters import trace_adapter
from errdex.prove.tracing import passed_functions, traced_variants


def _afters(src: str, package: str = "jax") -> dict[str, str]:
    return {why: ast.unparse(m) for why, m in traced_variants(ast.parse(src), trace_adapter(package))}


@pytest.mark.parametrize(("src", "why", "after_has"), [
    pytest.param("from jax import jit\nfor castfun in [hex, oct]:\n    f = lambda x: castfun(x)\n    jit(f)(0)\n",
                 "castfun(x) -> x in the traced function", "f = lambda x: x", id="conversion-dropped"),
    pytest.param("import jax\ndef f(x):\n    return x.item()\njax.jit(f)(jax.numpy.array(1.0))\n",
                 "x.item() -> x in the traced function", "return x\n", id="method-on-tracer"),
    pytest.param("from jax import jit\ndef f(x):\n    return int(x)\njit(f)(1)\n",
                 "static_argnums=0 given to jit", "jit(f, static_argnums=0)(1)", id="static-argnums"),
    pytest.param("import jax\n@jax.jit\ndef f(x):\n    return int(x)\nf(1)\n",
                 "@jax.jit(static_argnums=0)", "@jax.jit(static_argnums=0)", id="static-argnums-decorator"),
    pytest.param("from jax import grad\nimport numpy as np\ndef f(x):\n    return np.exp(x)\ngrad(f)(1.0)\n",
                 "np.exp -> jax.numpy.exp in the traced function", "import jax.numpy as jnp", id="numpy-twin"),
    pytest.param("import jax\n@jax.jit\ndef f(x):\n    if x > 0:\n        return 1.0\n    return 0.0\nf(1.0)\n",
                 "if x > 0 -> jax.numpy.where(...)", "return jnp.where(x > 0, 1.0, 0.0)", id="branch-to-where"),
    pytest.param("from jax import jit\ndef gen(x):\n    yield x\njit(gen)\n",
                 "yield -> return in the traced function", "return x", id="generator"),
    pytest.param("from jax import jit\nlst = []\n@jit\ndef f(x):\n    lst.append(x)\n    return x\nf(3)\n",
                 "without lst.append(x) in the traced function", "def f(x):\n    return x", id="side-effect"),
    pytest.param("from jax import jit\nclass A:\n    @jit\n    @staticmethod\n    def m(x):\n        return x\n",
                 "decorators in the other order", "@staticmethod\n    @jit\n", id="decorator-order"),
    pytest.param("from jax import eval_shape\ndef f(x):\n    return (2.0, f)\neval_shape(f, 1)\n",
                 "return (2.0, f) -> its first element", "return 2.0", id="returned-tuple"),
    pytest.param("from jax import grad\ngrad(lambda x: x * 2)(1 + 2j)\n",
                 "holomorphic=True given to grad", "grad(lambda x: x * 2, holomorphic=True)", id="holomorphic"),
])
def test_traced_edit(src: str, why: str, after_has: str) -> None:
    afters = _afters(src)
    assert why in afters, list(afters)
    assert after_has in afters[why]


def test_calls_the_script_defines_are_never_dropped() -> None:
    # inbetween is a step of the example (itself jitted); f is the library's compiled function
    src = ("from jax import jit, vmap\n@jit\ndef inbetween(x):\n    return x\n"
           "@jit\ndef outer(x):\n    return 2 + inbetween(x)\nf = jit(lambda x: x).lower(1.0).compile()\n"
           "vmap(lambda x: f(x) + 2)(1.0)\n")
    whys = list(_afters(src))
    assert not any(w.startswith(("inbetween(x) ->", "f(x) ->")) for w in whys), whys


def test_library_knowledge_only_from_its_adapter() -> None:
    src = "from jax import jit\nimport numpy as np\ndef f(x):\n    return np.exp(int(x))\njit(f)(1)\n"
    generic = _afters(src, package="otherlib")
    assert "int(x) -> x in the traced function" in generic  # a generic edit
    assert not any("static_argnums" in w or "jax.numpy" in w for w in generic)
    assert trace_adapter("otherlib") is None and trace_adapter("jax") is not None


def test_passed_functions_are_arguments_or_decorated() -> None:
    m = ast.parse("import lib\ndef helper(x):\n    return x\ndef cb(x):\n    return x\n"
                  "g = lambda y: y\nlib.apply(cb, g, lambda z: z)\n")
    names = []
    for i in passed_functions(m):
        n = list(ast.walk(m))[i]
        names.append(n.name if isinstance(n, ast.FunctionDef) else ast.unparse(n))
    assert names == ["cb", "lambda y: y", "lambda z: z"]  # helper is passed to nothing


def test_variant_that_ran_clean_keeps_the_call() -> None:
    src = "from jax import jit\ndef f(x):\n    return int(x)\njit(f)(1)\n"
    for after in _afters(src).values():
        assert after.rstrip().splitlines()[-1].startswith("jit(f")  # the public call is still made


def test_function_handed_through_the_adapters_wrapper() -> None:
    src = "import jax\ndef f(x):\n    return jax.new_ref(x)\njax.shard_map(f, out_specs=None)(1)\n"
    afters = _afters(src)
    assert afters["f given to shard_map through jax.jit"].endswith("jax.shard_map(jax.jit(f), out_specs=None)(1)")
    assert not any("through" in w for w in _afters(src, package="otherlib"))
