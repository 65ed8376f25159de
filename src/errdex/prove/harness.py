"""Harness calls that swallow the exception, rewritten into the direct public call (small adapters).

A library's test helper often runs the public call and catches what it raises (click's
``CliRunner.invoke`` turns an exception into ``result.exception``).  A user meets the error
through the direct call, so the distilled script makes that call instead.  One adapter per
harness entry point, keyed by the recorded entry (``observe``'s outermost library frame);
everything else in ``prove/`` is generic.

A test's decorator may set up what the raise needs (jax's ``@jtu.with_explicit_mesh((2,), 'x')`` makes a
mesh, sets it and passes it as ``mesh``; ``@jtu.with_config(jax_debug_nans=True)`` turns options on):
``TEST_DECORATORS`` turn one, by its name, into the statements a user writes (``jax.make_mesh`` and
``jax.set_mesh``; ``jax.config.update``), and the names it gives the test.

A library may also hide what a user would see unless a documented switch is set: ``RUN_ENV``
holds, per package, the environment variables every proof run gets (JAX filters its own frames
out of tracebacks and drops the unfiltered cause unless ``JAX_TRACEBACK_FILTERING=off``).
"""

from __future__ import annotations

import ast
import copy
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from errdex.model import Observation

Adapter = Callable[[list[ast.stmt]], list[ast.stmt] | None]

# click: runner.invoke(cli, args, **kw) -> cli.main(args, standalone_mode=False, **kw)
_CLICK_MAIN_KW = {"obj", "prog_name", "terminal_width", "max_content_width", "auto_envvar_prefix", "default_map",
                  "help_option_names", "token_normalize_func", "show_default", "resilient_parsing",
                  "allow_extra_args", "allow_interspersed_args", "ignore_unknown_options", "info_name"}
_CLICK_DROP_KW = {"catch_exceptions", "color", "standalone_mode"}
_CLICK_SPREAD = """\
import io, os, sys
_invoke_kw = dict({kw})
for _k in {drop!r}:
    _invoke_kw.pop(_k, None)
if 'env' in _invoke_kw:
    os.environ.update(_invoke_kw.pop('env') or {{}})
if 'input' in _invoke_kw:
    sys.stdin = io.StringIO(_invoke_kw.pop('input'))
"""


def _click_invoke(call: ast.Call) -> tuple[ast.expr, list[ast.stmt]] | None:
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "invoke" and call.args):
        return None
    cmd = call.args[0]
    args: ast.expr | None = call.args[1] if len(call.args) > 1 else None
    kws: list[ast.keyword] = []
    pre: list[ast.stmt] = []
    for k in call.keywords:
        if k.arg == "args":
            args = k.value
        elif k.arg in _CLICK_DROP_KW:
            continue
        elif k.arg == "env":
            pre.append(ast.parse("import os").body[0])
            pre.append(ast.Expr(ast.Call(ast.Attribute(ast.Attribute(ast.Name("os", ast.Load()), "environ", ast.Load()),
                                                       "update", ast.Load()), [k.value], [])))
        elif k.arg == "input":
            pre.append(ast.parse("import io, sys").body[0])
            pre.append(ast.Assign([ast.Attribute(ast.Name("sys", ast.Load()), "stdin", ast.Store())],
                                  ast.Call(ast.Attribute(ast.Name("io", ast.Load()), "StringIO", ast.Load()),
                                           [k.value], [])))
        elif k.arg is None:  # ``**options``: the same rules, applied to the dict when the script runs
            pre.extend(ast.parse(_CLICK_SPREAD.format(kw=ast.unparse(k.value), drop=tuple(sorted(_CLICK_DROP_KW)))).body)
            kws.append(ast.keyword(None, ast.Name("_invoke_kw", ast.Load())))
        elif k.arg in _CLICK_MAIN_KW:
            kws.append(k)
        else:
            return None
    if len(call.args) > 2:
        return None
    if isinstance(args, ast.Constant) and isinstance(args.value, str):  # invoke splits a string like a shell
        args = ast.List([ast.Constant(a) for a in shlex.split(args.value)], ast.Load())
    new_args: list[ast.expr] = [args] if args is not None else [ast.List([], ast.Load())]
    fixed = ast.Constant(False)
    fixed.errdex_fixed = True  # type: ignore[attr-defined]  # the rewrite's own argument: variants keep it
    main = ast.Call(ast.Attribute(cmd, "main", ast.Load()), new_args, [*kws, ast.keyword("standalone_mode", fixed)])
    return ast.copy_location(main, call), pre


class _Rewriter(ast.NodeTransformer):
    def __init__(self, fn: Callable[[ast.Call], tuple[ast.expr, list[ast.stmt]] | None]) -> None:
        self.fn = fn
        self.pre: list[ast.stmt] = []
        self.failed = False
        self.done = 0

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "invoke":
            got = self.fn(node)
            if got is None:
                self.failed = True
                return node
            self.done += 1
            self.pre.extend(got[1])
            return got[0]
        return node


def _statement_rewriter(fn: Callable[[ast.Call], tuple[ast.expr, list[ast.stmt]] | None]) -> Adapter:
    def rewrite(stmts: list[ast.stmt]) -> list[ast.stmt] | None:
        out: list[ast.stmt] = []
        for s in stmts:
            r = _Rewriter(fn)
            new = r.visit(copy.deepcopy(s))
            if r.failed:
                return None
            out.extend([*(ast.copy_location(p, s) for p in r.pre), new])
        return out
    return rewrite


ADAPTERS: dict[str, Adapter] = {
    "click.testing.CliRunner.invoke": _statement_rewriter(_click_invoke),
}
# Harness entries that catch whatever the call raises (the test reads it off a result object): observe records
# every raise under them as caught inside the library, also one that left the library's own code and only the
# runner caught.  Their adapter (above) makes the direct call that lets the error out.
CATCHING_RUNNERS = frozenset({"click.testing.CliRunner.invoke"})


def runner_caught(entry: str) -> bool:
    """Whether an observation's entry is a test runner's wrapper that catches what the call raises."""
    return entry in CATCHING_RUNNERS


def runner_first(observed: Sequence[Observation]) -> list[Observation]:
    """For an error only ever seen caught, when a test runner's wrapper caught some of it (``CliRunner.invoke``):
    its observations in the order to try them ([] when no runner caught any).  Those may have left the library
    and reach a direct call.  A raise the library handles in its normal work recurs, with the same text, across
    many tests and within one; a test that provokes the error on purpose makes its own: the runner's first, the
    rarest messages first, the least seen first."""
    if not any(runner_caught(o.entry) for o in observed) or any(o.escaped for o in observed):
        return []
    seen: dict[str, int] = {}
    for o in observed:
        seen[o.message] = seen.get(o.message, 0) + o.count
    return sorted(observed, key=lambda o: (not runner_caught(o.entry), seen[o.message], o.count))


@dataclass(frozen=True, slots=True)
class Setup:
    """What a test's decorators stand for: imports, statements run before the test's, names given to it."""

    imports: tuple[str, ...] = ()
    statements: tuple[ast.stmt, ...] = ()
    gives: frozenset[str] = frozenset()


def _arg(call: ast.Call, i: int, name: str) -> ast.expr | None:
    kw = next((k.value for k in call.keywords if k.arg == name), None)
    return kw if kw is not None else call.args[i] if len(call.args) > i else None


def _jax_explicit_mesh(call: ast.Call) -> Setup | None:
    """``@jtu.with_explicit_mesh(sizes, names, axis_types=None)``: the mesh made and set, given as ``mesh``."""
    sizes, names, types = _arg(call, 0, "sizes"), _arg(call, 1, "names"), _arg(call, 2, "axis_types")
    if sizes is None or names is None:
        return None
    kinds = ast.unparse(types) if types is not None else f"(jax.sharding.AxisType.Explicit,) * len({ast.unparse(names)})"
    body = ast.parse(f"mesh = jax.make_mesh({ast.unparse(sizes)}, {ast.unparse(names)}, axis_types={kinds})\n"
                     "jax.set_mesh(mesh)\n").body
    return Setup(("import jax",), tuple(body), frozenset({"mesh"}))


def _jax_with_config(call: ast.Call) -> Setup | None:
    """``@jtu.with_config(jax_debug_nans=True)``: each option set with ``jax.config.update``."""
    if call.args or any(k.arg is None for k in call.keywords):
        return None
    body = [ast.parse(f"jax.config.update({k.arg!r}, {ast.unparse(k.value)})").body[0] for k in call.keywords]
    return Setup(("import jax",), tuple(body))


TEST_DECORATORS: dict[str, Callable[[ast.Call], Setup | None]] = {
    "with_explicit_mesh": _jax_explicit_mesh,
    "with_config": _jax_with_config,
}


# Decorators a library's tests use that hand absl's ``parameterized`` its cases (the cases are computed when
# the test module runs, so they are bound by evaluating the decorator: ``params.evaluated_case``); absl's own
# ``parameters`` / ``named_parameters`` / ``product`` are generic.  jax: ``jtu.sample_product(**grid)`` is
# ``parameterized.parameters(*cases sampled from the grid with a fixed seed)``.
CASE_DECORATORS: frozenset[str] = frozenset({"sample_product"})


def decorator_setup(decorators: Sequence[ast.expr]) -> Setup:
    """The setup the test's (and its class's) decorators stand for, by ``TEST_DECORATORS``."""
    imports: list[str] = []
    stmts: list[ast.stmt] = []
    gives: set[str] = set()
    for d in decorators:
        if not isinstance(d, ast.Call):
            continue
        f = d.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        got = TEST_DECORATORS[name](d) if name in TEST_DECORATORS else None
        if got is not None:
            imports += got.imports
            stmts += got.statements
            gives |= got.gives
    return Setup(tuple(dict.fromkeys(imports)), tuple(stmts), frozenset(gives))


RUN_ENV: dict[str, dict[str, str]] = {
    "jax": {"JAX_TRACEBACK_FILTERING": "off"},
}


def run_env(package: str) -> dict[str, str]:
    """Environment variables for every proof run of ``package`` (its documented switches)."""
    return dict(RUN_ENV.get(package.split("[")[0].strip().lower().replace("_", "-"), {}))


def adapter_for(entry: str, chain: Sequence[str]) -> Adapter | None:
    """The adapter for the harness on the way to the raise (entry first, then any chain frame)."""
    if entry in ADAPTERS:
        return ADAPTERS[entry]
    for frame in chain:
        func = frame.split(" (", 1)[0]
        if func in ADAPTERS:
            return ADAPTERS[func]
    return None
