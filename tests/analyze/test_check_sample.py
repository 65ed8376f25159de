"""The Defensive section's check as code when no sample is proven (``analyze/static/checksample.py``,
``pagenotes.defensive_sample``): rating 7 graded the prose-only check weak on 12 of 15 jax pages."""

from __future__ import annotations

import ast

from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.model import Analysis
from errdex.pagenotes import CHECK_NOT_RUN, SETUP_MISTAKE, TRY_NOT_RUN, defensive_sample

from .pagekit import PageCtx


def _page(c: PageCtx, qualname: str, text: str = "") -> Analysis:
    cat, ctx = c
    (site,) = [s for s in ctx.sites if s.qualname == qualname and text in s.template.render()]
    return analyze_static(gather_facts(cat, ctx.snapshot, site, context=ctx), ctx.all_symbols)


def _run(code: str, name: str, **kwargs: object) -> object:
    ns: dict[str, object] = {}
    exec(compile(ast.parse(code), "<check>", "exec"), ns)  # the sample only defines a function of builtins
    fn = ns[name]
    assert callable(fn)
    return fn(**kwargs)


class _Meta:
    def __init__(self, *shape: int) -> None:
        self.shape = shape


def test_a_guard_on_the_callers_argument_becomes_a_function_that_runs(cli: PageCtx) -> None:
    # b806's shape: ``m, k, _2 = meta.shape; if _2 != 2: raise`` -- the check reads what the caller passed
    a = _page(cli, "sparse_meta")
    code = a.check_sample
    assert code.startswith("def sparse_meta_would_raise(meta):"), code
    assert "meta.shape[2] != 2" in code and "_2" not in code
    assert _run(code, "sparse_meta_would_raise", meta=_Meta(4, 4, 3)) is True
    assert _run(code, "sparse_meta_would_raise", meta=_Meta(4, 4, 2)) is False


def test_no_code_for_a_rebuilt_argument_or_a_name_the_caller_does_not_pass(cli: PageCtx) -> None:
    # ``scoped`` rebuilds ``axes = (axes,)`` before its check (4423, 91c3): code on ``axes`` would pass ``None``
    assert _page(cli, "scoped").check_sample == ""
    # ``isinstance(mesh, Sequence)``: ``Sequence`` is the library's import, not an argument (707f)
    assert _page(cli, "kernel", "as a decorator").check_sample == ""
    # a rule below the public call: ``pad`` passes ``width`` on rebuilt (``abs(width or 0) - 1``), so code on
    # the argument ``width`` would be wrong (``run_scoped`` wraps ``collective_axes`` before its rules check it)
    assert _page(cli, "_pad_rule").check_sample == ""


def test_the_defensive_section_shows_the_check_else_the_try_labelled_not_run() -> None:
    check = {"check_sample": "def f_would_raise(x):\n    return x < 0\n", "guard_note": "What you can check ..."}
    assert defensive_sample(check) == (CHECK_NOT_RUN, check["check_sample"])
    assert "not run" in CHECK_NOT_RUN and "not run" in TRY_NOT_RUN
    catching = {"try_sample": "try:\n    pass\nexcept ValueError:\n    raise\n",
                "guard_note": "to handle it, catch `ValueError` around the call"}
    assert defensive_sample(catching)[0] == TRY_NOT_RUN
    # a set-up mistake is fixed, not handled: no try / except, even one not run
    assert defensive_sample({**catching, "guard_note": SETUP_MISTAKE + ": ... catch `ValueError` ..."}) == ("", "")
    # a note that says not to guard (``Context.exit``) gets no try either
    assert defensive_sample({**catching, "guard_note": "Do not guard against it: ..."}) == ("", "")
    # whatever is proven is shown instead (as proven)
    assert defensive_sample({**check, "validate_proof": {"library": "x"}}) == ("", "")
    assert defensive_sample({**catching, "try_proof": {"library": "x"}}) == ("", "")


def test_a_walrus_reads_as_its_value_and_a_default_is_no_value_the_function_made(cli: PageCtx) -> None:
    # 5d88: ``a_scale: T | None = None`` in the signature is the argument's default, not a rebuilt value
    code = _page(cli, "scaled").check_sample
    assert code.startswith("def scaled_would_raise(a_scale, b_scale):") and ":=" not in code, code
    assert _run(code, "scaled_would_raise", a_scale=1, b_scale=None) is True
    assert _run(code, "scaled_would_raise", a_scale=1, b_scale=2) is False


def test_a_dataclass_post_init_checks_the_constructors_arguments(cli: PageCtx) -> None:
    # 5739: ``plgpu.Mesh.__post_init__`` reads ``self.thread_name``: the field the caller passes
    code = _page(cli, "Threads.__post_init__").check_sample
    assert "self" not in code.split('"""')[0] + code.split('"""')[-1], code
    assert _run(code, "threads_would_raise", thread_name="x", num_threads=None) is True
    assert _run(code, "threads_would_raise", thread_name="x", num_threads=2) is False


def test_the_solution_quotes_what_the_docstring_says_of_the_argument(cli: PageCtx) -> None:
    # rating 8 (b806): the check `meta.shape[2]` equals `2` was stated, the documented layout was only in Source
    from errdex.analyze.static.argdocs import arg_doc

    a = _page(cli, "sparse_meta")
    (s,) = [s.text for s in a.solutions if s.text.startswith("Make sure that")]
    assert s.endswith("(`meta` is documented as \"Metadata of shape (M, K // 4, 2)\")."), s
    numpy = "Pad it.\n\nParameters\n----------\nwidth : int\n    How far to pad,\n    never negative.\n\nReturns\n-------\nx\n"
    assert arg_doc(numpy, "width") == "How far to pad, never negative."
    assert arg_doc(":param size: the size in bytes,\n    never negative.\n", "size") == "the size in bytes, never negative."
    assert arg_doc("Args:\n  axis (int): The axis.\n", "axis") == "The axis." and arg_doc("Args:\n  axis: x\n", "ax") == ""


def test_an_attribute_deep_inside_the_argument_is_not_what_its_docstring_describes(cli: PageCtx) -> None:
    # jax's `emit_python_callback`: "`ctx.module_context.platforms` ..." quoted "`ctx` is documented as "The
    # lowering context"", which says nothing of what is checked
    from dataclasses import replace

    from errdex.analyze.static.argdocs import documented

    cat, ctx = cli
    (site,) = [s for s in ctx.sites if s.qualname == "sparse_meta"]
    f = gather_facts(cat, ctx.snapshot, site, context=ctx)
    (g,) = [g for g in f.guards if g.words]
    assert documented(f, [g]).startswith(" (`meta` is documented as")
    deep = replace(g, names=("meta.layout.tiles", "meta.layout", "meta"), words="`meta.layout.tiles` is empty")
    assert documented(f, [deep]) == ""
