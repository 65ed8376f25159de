"""Narrowing by an earlier dispatch (extract/narrowing.py): a fall-through raise in a loop over the
items an earlier loop's exhaustive dispatch already checked is reached only by what the earlier
loop let through and this one does not handle (jax 0.10.2's ``transform_swap_array``: the read loop
handles indexers, bitcasts and reshapes, the write loop only indexers)."""

from __future__ import annotations

import ast
import textwrap

from extract_helpers import FIXTURES, extract_dir, site_in

from errdex.extract.narrowing import narrowed_guards

VIEWLIB = FIXTURES / "an_viewlib"


def _narrowed(code: str) -> list[tuple[str, str, int]]:
    (func,) = [n for n in ast.parse(textwrap.dedent(code)).body if isinstance(n, ast.FunctionDef)]
    return [(g.source, g.normalized, g.line) for g in narrowed_guards(func).values()]


def test_the_write_loop_raise_is_reached_by_bitcasts_and_reshapes() -> None:
    result = extract_dir(VIEWLIB, repo="acme/viewlib")
    write = site_in(result, "viewlib/discharge.py", "swap_through_views", 1)
    assert write.line == 59
    assert [(g.kind, g.normalized) for g in write.guards] == [
        ("else", "not (isinstance(view, tf.Indexer))"),
        ("narrowed", "isinstance(view, (tf.BitcastView, tf.ReshapeView))"),
    ]
    assert write.guards[-1].source == "isinstance(view, (tf.Indexer, tf.BitcastView, tf.ReshapeView))"
    assert write.guards[-1].line == 41  # the read loop's `match view:`
    read = site_in(result, "viewlib/discharge.py", "swap_through_views", 0)
    assert [g.kind for g in read.guards] == ["match"]  # the first loop is not narrowed by anything
    (one_loop,) = [s for s in result.sites if s.qualname == "apply_views"]
    assert all(g.kind != "narrowed" for g in one_loop.guards)


def test_values_and_if_chains_narrow_too() -> None:
    assert _narrowed('''
        def f(modes):
            for m in modes:
                if m == "a":
                    pass
                elif m in ("b", "c"):
                    pass
                else:
                    raise ValueError(m)
            for i, m in enumerate(modes):
                if m == "b":
                    pass
                else:
                    raise ValueError(m)
    ''') == [("m in ('a', 'b', 'c')", "m in ('a', 'c')", 4)]


def test_nothing_is_claimed_when_the_code_does_not_prove_it() -> None:
    body = '''
        def f(items):
            for t in items:
                {before}match t:
                    case A():
                        pass
                    case B():
                        {in_case}
                    case _:
                        raise TypeError(t)
            {between}
            for t in items:
                if isinstance(t, A):
                    pass
                else:
                    raise TypeError(t)
    '''

    def narrowed(**kw: str) -> list[tuple[str, str, int]]:
        parts = {"before": "", "in_case": "pass", "between": ""} | kw
        return _narrowed(body.format(**parts))

    assert narrowed() == [("isinstance(t, (A, B))", "isinstance(t, B)", 4)]
    # a `continue` before the dispatch lets anything through; a `break` leaves items unchecked
    assert narrowed(before="if t is None:\n                    continue\n                ") == []
    assert narrowed(in_case="break") == []
    # a case that raises lets nothing through: only the other handled types remain (none here)
    assert narrowed(in_case="raise KeyError(t)") == []
    # the items changed between the loops
    assert narrowed(between="items = other") == []
    assert narrowed(between="items.append(C())") == []


def test_a_guarded_case_is_not_handled_by_the_later_loop() -> None:
    assert _narrowed('''
        def f(items):
            for t in items:
                match t:
                    case A() | B():
                        pass
                    case _:
                        raise TypeError(t)
            for t in items:
                match t:
                    case A() if t.ok:
                        pass
                    case _:
                        raise TypeError(t)
    ''') == []  # the later `case A() if t.ok` handles only some A: both A and B still reach it


def test_a_later_loop_over_other_items_is_not_narrowed() -> None:
    assert _narrowed('''
        def f(items, others):
            for t in items:
                if isinstance(t, A):
                    pass
                else:
                    raise TypeError(t)
            for t in others:
                if isinstance(t, B):
                    pass
                else:
                    raise TypeError(t)
    ''') == []


def test_an_earlier_loop_that_may_not_have_run_narrows_nothing() -> None:
    template = '''
        def f(items, check):
            {head}
                for t in items:
                    match t:
                        case A() | B():
                            pass
                        case _:
                            raise TypeError(t)
            {tail}
            for t in items:
                if isinstance(t, A):
                    pass
                else:
                    raise TypeError(t)
    '''
    assert _narrowed(template.format(head="if check:", tail="")) == []  # the check may be off
    assert _narrowed(template.format(head="try:", tail="except TypeError:\n                pass")) == []  # caught
    # both in the same `with` block: the earlier one ran (or raised) before the later one
    assert _narrowed('''
        def f(items, check):
            with check:
                for t in items:
                    match t:
                        case A() | B():
                            pass
                        case _:
                            raise TypeError(t)
                for t in items:
                    if isinstance(t, A):
                        pass
                    else:
                        raise TypeError(t)
    ''') == [("isinstance(t, (A, B))", "isinstance(t, B)", 5)]
