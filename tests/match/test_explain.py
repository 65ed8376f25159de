"""``explain`` end to end on a catalog of the ``tinyjit`` fixture, fed real tracebacks."""

from __future__ import annotations

from match_fixtures import tb

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.model import to_json

RETRACE = "re-tracing function {fun.__name__} for `jit`, but 'no_tracing' is set"


def test_message_only_matches_with_values(tiny: Catalog) -> None:
    r = explain(tiny, "ValueError: cannot reshape array of size 3 into shape (2, 2)")
    top = r.matches[0]
    assert r.confident and top.confident and top.method == "exact"
    assert (top.path, top.line, top.end_line) == ("tests/fixtures/match_tinyjit/tinyjit/_src/arrays.py", 11, 13)
    assert [(v.placeholder, v.value) for v in top.values] == [("{len(values)}", "3"), ("{tuple(shape)}", "(2, 2)")]
    assert top.url.endswith("tests/fixtures/match_tinyjit/tinyjit/_src/arrays.py#L11-L13")
    assert top.repo == "example/tinyjit" and len(top.id) == 16
    assert r.no_site is None


def test_shared_template_is_pinned_by_the_innermost_frame(tiny: Catalog) -> None:
    jit = explain(tiny, tb("cpython_shared_template_jit"))
    pmap = explain(tiny, tb("cpython_shared_template_pmap"))
    assert jit.matches[0].template == pmap.matches[0].template == RETRACE
    assert (jit.matches[0].line, pmap.matches[0].line) == (18, 28)
    assert jit.matches[0].pinned_by_frame and pmap.matches[0].pinned_by_frame
    assert jit.matches[0].score > jit.matches[1].score  # the other site of the template ranks below
    assert jit.matches[1].line == 28


def test_shared_template_without_frames_is_a_tie(tiny: Catalog) -> None:
    r = explain(tiny, "RuntimeError: re-tracing function my_fn for `jit`, but 'no_tracing' is set")
    assert {m.line for m in r.matches[:2]} == {18, 28}
    assert r.matches[0].score == r.matches[1].score
    assert r.matches[0].values[0].value == "my_fn"


def test_a_tie_is_reported_and_not_confident(tiny: Catalog) -> None:
    r = explain(tiny, "RuntimeError: re-tracing function my_fn for `jit`, but 'no_tracing' is set")
    top, second = r.matches[0], r.matches[1]
    assert top.tied_count == 1 and [(t.id, t.line) for t in top.tied] == [(second.id, second.line)]
    assert top.tied[0].qualname in ("jit.<locals>.cache_miss", "pmap.<locals>.pmap_f")
    assert top.tied[0].path == "tests/fixtures/match_tinyjit/tinyjit/_src/api.py"
    assert not top.confident and not second.confident and not r.confident
    assert top.tie_note.startswith("2 places raise this exact message in 1 file and 2 functions")
    assert "full traceback" in top.tie_note
    doc = to_json(r)["matches"][0]
    assert doc["tied"] == [{"id": second.id, "path": second.path, "line": second.line,
                            "qualname": second.qualname, "exception": "RuntimeError"}]


def test_frames_decide_a_tie(tiny: Catalog) -> None:
    r = explain(tiny, tb("cpython_shared_template_jit"))
    assert r.matches[0].pinned_by_frame and r.matches[0].tied == () and r.matches[0].tied_count == 0
    assert r.confident and r.matches[0].confident


def test_a_type_that_fits_neither_site_keeps_the_tie(tiny: Catalog) -> None:
    # the printed type agrees with neither site: both are equally wrong, still a tie
    r = explain(tiny, "TypeError: re-tracing function my_fn for `jit`, but 'no_tracing' is set")
    assert r.matches[0].tied_count == 1
    # a message without a shared template has no tie
    one = explain(tiny, "ValueError: cannot reshape array of size 3 into shape (2, 2)")
    assert one.matches[0].tied == () and one.confident


def test_every_dialect_finds_the_reshape_site(tiny: Catalog) -> None:
    for name in ("cpython_multiline_raise", "pytest_long", "pytest_short", "pytest_line", "pytest_native"):
        top = explain(tiny, tb(name)).matches[0]
        assert (top.line, top.pinned_by_frame) == (11, True), name


def test_ipython_and_notes_and_groups(tiny: Catalog) -> None:
    for name in ("ipython", "ipython_ansi", "cpython_notes", "cpython_group"):
        r = explain(tiny, tb(name))
        assert r.confident, name
        assert r.matches[0].exception == "tinyjit._src.dtypes.DtypeError", name
        assert r.matches[0].line == 12


def test_chained_cause_finds_the_library_error_under_the_users(tiny: Catalog) -> None:
    r = explain(tiny, tb("cpython_chained_cause"))
    assert r.matches[0].line == 12 and r.matches[0].confident
    assert r.no_site is not None and r.no_site.origin == "user-code"  # the RuntimeError itself is the user's


def test_interpreter_error_in_a_library_frame(tiny: Catalog) -> None:
    r = explain(tiny, tb("cpython_interpreter"))
    assert not r.confident
    assert r.no_site is not None and r.no_site.origin == "interpreter"
    f = r.no_site.frame
    assert f is not None and (f.path, f.line, f.function) == ("tinyjit/_src/arrays.py", 19, "total")
    assert f.code == "for v in values:" and f.url.endswith("tinyjit/_src/arrays.py#L19")


def test_native_error_in_a_library_frame(tiny: Catalog) -> None:
    r = explain(tiny, tb("cpython_native"))
    assert not r.confident
    assert r.no_site is not None and r.no_site.origin == "native"
    assert r.no_site.frame is not None and r.no_site.frame.line == 25


def test_user_code_error(tiny: Catalog) -> None:
    r = explain(tiny, tb("cpython_user_code"))
    assert not r.confident
    assert r.no_site is not None and r.no_site.origin == "user-code"


def test_native_message_without_traceback(tiny: Catalog) -> None:
    r = explain(tiny, "jax.errors.JaxRuntimeError: INVALID_ARGUMENT: Executable expected parameter 0 of size 8")
    assert not r.confident and r.no_site is not None and r.no_site.origin == "native"


def test_version_drift_is_found_with_a_lower_score(tiny: Catalog) -> None:
    exact = explain(tiny, "ValueError: cannot reshape array of size 3 into shape (2, 2)").matches[0]
    drift = explain(tiny, "ValueError: cannot reshape an array of size 3 into the shape (2, 2)").matches[0]
    assert drift.id == exact.id
    assert drift.method == "fuzzy" and drift.score < exact.score


def test_unrelated_text_is_not_confident(tiny: Catalog) -> None:
    r = explain(tiny, "the weather is nice today")
    assert not r.confident
    assert all(not m.confident for m in r.matches)


def test_type_disagreement_lowers_the_score(tiny: Catalog) -> None:
    right = explain(tiny, "ValueError: pmap got axis_size=0, but it must be positive").matches[0]
    wrong = explain(tiny, "KeyError: pmap got axis_size=0, but it must be positive").matches[0]
    assert right.id == wrong.id and wrong.score < right.score


def test_repo_filter(tiny: Catalog) -> None:
    assert explain(tiny, "cannot reshape array of size 3 into shape (2, 2)", repo="someone/else").matches == ()
    assert explain(tiny, "cannot reshape array of size 3 into shape (2, 2)", repo="example/tinyjit").matches


def test_json_shape(tiny: Catalog) -> None:
    data = to_json(explain(tiny, tb("cpython_shared_template_jit"), top=2))
    assert set(data) == {"matches", "parsed", "confident", "threshold", "no_site"}
    m = data["matches"][0]
    for key in ("id", "score", "kind", "exception", "template", "values", "repo", "commit", "path", "line", "url"):
        assert key in m
    assert m["values"] == [{"placeholder": "{fun.__name__}", "value": "len"}]
    assert set(data["parsed"]) == {"format", "exception", "message", "frames", "notes", "chain"}
    assert data["parsed"]["frames"][-1]["line"] == 18
    assert len(data["matches"]) == 2


def test_keyerror_prints_the_repr_of_its_message(tiny: Catalog) -> None:
    r = explain(tiny, "KeyError: \"no lowering rule for primitive 'sin'\"")
    top = r.matches[0]
    assert r.confident and top.path.endswith("tinyjit/_src/registry.py") and top.line == 10
    assert [(v.placeholder, v.value) for v in top.values] == [("{name}", "'sin'")]


def test_template_without_indexable_words_is_found_by_its_text(tiny: Catalog) -> None:
    r = explain(tiny, "ValueError: a <= 1.0")
    assert r.confident and r.matches[0].path.endswith("tinyjit/_src/registry.py")


def test_traceback_from_a_version_whose_lines_moved(tiny: Catalog) -> None:
    # the real traceback, as a version of tinyjit two lines shorter above the raise would print it
    text = tb("cpython_multiline_raise").replace('arrays.py", line 11,', 'arrays.py", line 9,')
    assert 'arrays.py", line 9,' in text
    r = explain(tiny, text)
    assert r.confident and r.matches[0].line == 11 and not r.matches[0].pinned_by_frame


def test_interpreter_words_in_a_library_file_are_not_a_drifted_raise(tiny: Catalog) -> None:
    r = explain(tiny, tb("cpython_interpreter"))
    assert all(not m.confident for m in r.matches)


def test_str_of_a_class_that_prints_its_own_name(tiny: Catalog) -> None:
    # `str(exc)` alone reads like "Type: message", but here the type's name is part of the message
    r = explain(tiny, "ConversionError: 'abc'")
    assert r.confident and r.matches[0].template == "ConversionError: {value}"  # self.expr: the argument
    assert r.matches[0].path.endswith("tinyjit/_src/convert.py")
    assert [(v.placeholder, v.value) for v in r.matches[0].values] == [("{value}", "'abc'")]
