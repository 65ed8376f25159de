"""The parser on real output: every fixture was printed by a real Python, pytest, IPython or JAX run."""

from __future__ import annotations

import pytest
from match_fixtures import tb

from errdex.match import parse

RESHAPE = "cannot reshape array of size 3 into shape (2, 2)"
DTYPE = "dtype 'complex64' is not a valid tinyjit dtype; expected one of ('float32', 'int32', 'bool')"

# (fixture, format, exception, message starts with, innermost frame path ends with, its line)
CASES = [
    ("cpython_multiline_raise", "cpython", "ValueError", RESHAPE, "tinyjit/_src/arrays.py", 11),
    ("cpython_shared_template_jit", "cpython", "RuntimeError", "re-tracing function len for `jit`",
     "tinyjit/_src/api.py", 18),
    ("cpython_shared_template_pmap", "cpython", "RuntimeError", "re-tracing function len for `jit`",
     "tinyjit/_src/api.py", 28),
    ("cpython_interpreter", "cpython", "TypeError", "'int' object is not iterable", "tinyjit/_src/arrays.py", 19),
    ("cpython_native", "cpython", "struct.error", "'h' format requires", "tinyjit/_src/arrays.py", 25),
    ("cpython_user_code", "cpython", "KeyError", "'missing a'", "work/main.py", 3),
    ("cpython_chained_cause", "cpython", "RuntimeError", "could not load float8", "work/main.py", 6),
    ("cpython_chained_context", "cpython", "ValueError", "cannot reshape array of size 1", "tinyjit/_src/arrays.py", 11),
    ("cpython_notes", "cpython", "tinyjit._src.dtypes.DtypeError", "dtype 'uint8' is not", "tinyjit/_src/dtypes.py", 12),
    ("cpython_syntax_error", "cpython", "SyntaxError", "'(' was never closed", "work/main.py", 1),
    ("cpython_group", "cpython", "tinyjit._src.dtypes.DtypeError", "dtype 'int4' is not", "tinyjit/_src/dtypes.py", 12),
    ("pytest_long", "pytest", "ValueError", RESHAPE, "tinyjit/_src/arrays.py", 11),
    ("pytest_short", "pytest", "ValueError", RESHAPE, "tinyjit/_src/arrays.py", 11),
    ("pytest_line", "pytest", "ValueError", RESHAPE, "tinyjit/_src/arrays.py", 11),
    ("pytest_native", "cpython", "ValueError", RESHAPE, "tinyjit/_src/arrays.py", 11),
    ("ipython", "ipython", "DtypeError", DTYPE, "tinyjit/_src/dtypes.py", 12),
    ("ipython_ansi", "ipython", "DtypeError", DTYPE, "tinyjit/_src/dtypes.py", 12),
    ("jax_filtered", "cpython", "TypeError", "cannot reshape array of shape (4,)", "jax/_src/numpy/array_methods.py", 542),
    ("jax_remove_frames", "cpython", "TypeError", "cannot reshape array of shape (4,)",
     "jax/_src/numpy/array_methods.py", 542),
    ("jax_concretization", "cpython", "jax.errors.TracerBoolConversionError", "Attempted boolean conversion",
     "jax/_src/core.py", 1961),
    ("jax_before_transformation", "cpython", "ValueError", "Reverse-mode differentiation does not work",
     "work/main.py", 4),
]


@pytest.mark.parametrize(("name", "fmt", "exc", "msg", "path", "line"), CASES, ids=[c[0] for c in CASES])
def test_fixture(name: str, fmt: str, exc: str, msg: str, path: str, line: int) -> None:
    p = parse(tb(name))
    assert p.format == fmt
    assert p.exception == exc
    assert p.message.startswith(msg)
    assert p.frames, "no frame parsed"
    assert p.frames[-1].path.endswith(path)
    assert p.frames[-1].line == line


def test_message_ends_before_pytest_banners() -> None:
    assert parse(tb("pytest_native")).message == RESHAPE
    assert parse(tb("pytest_long")).message == RESHAPE


def test_pytest_long_frame_has_function_and_code() -> None:
    inner = parse(tb("pytest_long")).frames[-1]
    assert inner.function == "reshape"
    assert inner.code.startswith("raise ValueError(")


def test_ipython_frames_and_ansi() -> None:
    p = parse(tb("ipython_ansi"))
    assert "\x1b" not in p.message
    assert [f.path for f in p.frames][:2] == ["Cell In[1]", "Cell In[1]"]
    assert p.frames[1].line == 3 and p.frames[1].function == "f"
    assert p.frames[-1].code.startswith("raise DtypeError(")


def test_chain_roles() -> None:
    cause = parse(tb("cpython_chained_cause"))
    assert [(e.role, e.exception_name) for e in cause.chain] == [("cause", "DtypeError"), ("primary", "RuntimeError")]
    assert cause.chain[0].frames[-1].path.endswith("tinyjit/_src/dtypes.py")
    context = parse(tb("cpython_chained_context"))
    assert [e.role for e in context.chain] == ["context", "primary"]


def test_exception_group_members() -> None:
    p = parse(tb("cpython_group"))
    roles = [(e.role, e.exception_name, e.message.split(" (", 1)[0]) for e in p.chain]
    assert roles == [
        ("group", "ExceptionGroup", "dtype checks failed"),
        ("group-member", "DtypeError", "dtype 'int4' is not a valid tinyjit dtype; expected one of"),
        ("group-member", "DtypeError", "dtype 'int2' is not a valid tinyjit dtype; expected one of"),
        ("group", "ExceptionGroup", "inner"),
        ("group-member", "ValueError", "v"),
    ]


def test_notes_follow_the_message() -> None:
    p = parse(tb("cpython_notes"))
    assert p.message.endswith("while loading checkpoint step_100")


def test_jax_note_is_split_off() -> None:
    p = parse(tb("jax_filtered"))
    assert p.message == "cannot reshape array of shape (4,) (size 4) into shape (3, 3) (size 9)"
    assert p.notes and "JAX_TRACEBACK_FILTERING=off" in p.notes[0]


def test_jax_wrappers_are_unwrapped() -> None:
    p = parse(tb("jax_remove_frames"))
    wrapper = p.chain[0]
    assert wrapper.role == "wrapper" and wrapper.exception == "TypeError"
    assert wrapper.message == p.message  # the "The preceding is the original exception" tail is cut
    before = parse(tb("jax_before_transformation"))
    assert before.chain[0].role == "wrapper"
    assert before.chain[0].message.startswith("Reverse-mode differentiation")
    assert "preceding stack trace" not in before.chain[0].message


def test_caret_lines_are_not_code() -> None:
    p = parse(tb("cpython_shared_template_jit"))
    assert all("^^^" not in f.code and "~~~" not in f.code for f in p.frames)


@pytest.mark.parametrize(
    ("text", "exc", "msg"),
    [
        ("ValueError: bad shape", "ValueError", "bad shape"),
        ("jax.errors.ConcretizationTypeError: Abstract tracer value", "jax.errors.ConcretizationTypeError",
         "Abstract tracer value"),
        ("just some words that went wrong", "", "just some words that went wrong"),
        ("2024-05-01 12:00:03 ERROR worker: TypeError: expected int, got str", "TypeError", "expected int, got str"),
        ("$ python train.py\nRuntimeError: out of memory\n", "RuntimeError", "out of memory"),
        ("FAILED tests/test_a.py::test_x - KeyError: 'k'", "KeyError", "'k'"),
        ("ValueError: first line\n  second line\nthird", "ValueError", "first line\n  second line\nthird"),
        ("INVALID_ARGUMENT: buffer size mismatch", "", "INVALID_ARGUMENT: buffer size mismatch"),
        # any class but a builtin is printed with its module: a name not ending in "Error" too
        ("networkx.exception.NetworkXNoPath: No path between 0 and 3.", "networkx.exception.NetworkXNoPath",
         "No path between 0 and 3."),
        ("jax._src.export.shape_poly.InconclusiveDimensionOperation: Symbolic dimension comparison",
         "jax._src.export.shape_poly.InconclusiveDimensionOperation", "Symbolic dimension comparison"),
        ("NetworkXNoPath: no path", "", "NetworkXNoPath: no path"),  # unqualified: prose or a type, who knows
        ("Foo.Bar: baz", "", "Foo.Bar: baz"),  # a package name is lower-case
        # a package laid out one class per module (pygithub): the module is named after its class
        ('github.GithubException.RateLimitExceededExceedsMaxWait: 403 {"message": "API rate limit exceeded"}',
         "github.GithubException.RateLimitExceededExceedsMaxWait", '403 {"message": "API rate limit exceeded"}'),
        ("Foo.Bar.Baz: qux", "", "Foo.Bar.Baz: qux"),  # no lower-case package first: prose or a type, who knows
        ("jax.DTYPE: not a class", "", "jax.DTYPE: not a class"),  # a constant, not a class
    ],
)
def test_messages(text: str, exc: str, msg: str) -> None:
    p = parse(text)
    assert (p.exception, p.message) == (exc, msg)


@pytest.mark.parametrize("junk", ["", "   \n\n", "\x00\x01", "Ã©Ã¨ mojibake â€™", "Traceback (most recent call last):\n",
                                  '  File "x.py", line', "E   ", "+-+---- 1 ----", "Cell In[", "File x.py:12, in"])
def test_junk_never_crashes(junk: str) -> None:
    parse(junk)


def test_long_lines_keep_their_whole_message() -> None:
    value = "[" + "0.5, " * 100_000 + "]"
    p = parse(f"ValueError: got {value} into shape (2,)")
    assert p.exception == "ValueError" and p.message.endswith("into shape (2,)") and value in p.message


def test_a_huge_paste_keeps_its_last_exception() -> None:
    text = "log line\n" * 20_000 + 'Traceback (most recent call last):\n  File "/x/site-packages/lib/m.py", line 3, in f\n' \
        "    raise ValueError(msg)\nValueError: the end\n"
    p = parse(text)
    assert (p.exception, p.message, p.frames[-1].line) == ("ValueError", "the end", 3)


def test_a_qualified_class_without_message_after_the_frames() -> None:
    text = ('Traceback (most recent call last):\n  File "/x/site-packages/networkx/tests/t.py", line 35, in t\n'
            "    raise nx.NetworkXNoPath\nnetworkx.exception.NetworkXNoPath\n")
    p = parse(text)
    assert (p.exception, p.message) == ("networkx.exception.NetworkXNoPath", "")


# trio 0.35.0's test suite (bench/data/trio-0.35.0.jsonl): a nursery's group is the cause of the error raised from it
_GROUP_THEN_RAISED = """\
  + Exception Group Traceback (most recent call last):
  |   File "/venv/lib/python3.13/site-packages/trio/_core/_run.py", line 1117, in __aexit__
  |     raise combined_error_from_nursery
  | ExceptionGroup: Exceptions from Trio nursery (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/venv/lib/python3.13/site-packages/trio/_core/_tests/test_run.py", line 2940, in error_func
    |     raise ValueError
    | ValueError
    +---------------- 2 ----------------
    | Traceback (most recent call last):
    |   File "/venv/lib/python3.13/site-packages/trio/_core/_tests/test_run.py", line 2940, in error_func
    |     raise ValueError
    | ValueError
    +------------------------------------

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/venv/lib/python3.13/site-packages/trio/_core/_run.py", line 1461, in start
    raise TrioInternalError(
    ...<3 lines>...
    ) from exc
trio.TrioInternalError: Internal nursery should not have multiple tasks.
"""


def test_an_exception_raised_from_a_group_is_the_reported_one() -> None:
    p = parse(_GROUP_THEN_RAISED)
    assert (p.exception, p.message) == ("trio.TrioInternalError", "Internal nursery should not have multiple tasks.")
    assert [f.line for f in p.frames] == [1461]
    assert [(e.role, e.exception_name) for e in p.chain] == [
        ("cause", "ExceptionGroup"), ("cause", "ValueError"), ("cause", "ValueError"),
        ("primary", "TrioInternalError")]


def test_a_message_quoting_another_errors_last_line_keeps_the_text_before_it() -> None:
    # glom 25.12.0 (bench/data/glom-25.12.0.jsonl): str() of a wrapped error ends with the inner error's last line
    text = ("error raised while processing, details below.\n Target-spec trace (most recent last):\n"
            " - Target: {}\n - Spec: <object object at 0x7f6e973a1b00>\n"
            "TypeError: expected spec to be dict, list, tuple, callable, string, or other Spec-like type, not: x")
    p = parse(text)
    assert p.exception == "TypeError" and p.message == text
    assert parse("TypeError: expected spec to be dict, not: x").message == "expected spec to be dict, not: x"
