"""The Example fix and Defensive patterns texts when no sample is proven (``errdex.pagenotes``)."""

from __future__ import annotations

from errdex.pagenotes import NO_DEFENSIVE, defensive_note, example_note


def _seen(test: str, entry: str, args: list[dict[str, str]] | None = None, escaped: bool = True,
          line: int = 230) -> dict[str, object]:
    return {"test": test, "entry": entry, "test_path": "tests/test_termui.py", "test_line": line,
            "entry_args": args or [], "escaped": escaped}


def test_the_observed_test_is_the_example_when_none_is_proven() -> None:
    note = example_note([_seen("tests/test_termui.py::test_progressbar_init_exceptions", "click.progressbar",
                               [{"name": "iterable", "type": "NoneType", "repr": "None"}])])
    assert note == ("No example could be proven. The library's own test `test_progressbar_init_exceptions` "
                    "(`tests/test_termui.py:230`) raises this error through `click.progressbar(iterable=None)`: it "
                    "is a real call that reaches it.")


def test_import_time_probing_and_private_entries_are_not_shown_as_the_call() -> None:
    assert example_note([_seen("tests/test_shell_completion.py", "click.core.__getattr__")]) == (
        "No example could be proven for this error.")  # a module node id: a look-up at import, not a test
    note = example_note([_seen("tests/t.py::test_open", "click.types._NumberRangeBase.convert")])
    assert "through" not in note and "`test_open`" in note
    assert example_note([]) == "No example could be proven for this error."


def test_the_defensive_note_only_without_a_proven_sample() -> None:
    a = {"guard_note": "What you can check before calling `f`: that `n` is positive.", "try_proof": None}
    assert defensive_note(a) == f"{NO_DEFENSIVE} What you can check before calling `f`: that `n` is positive."
    assert defensive_note({**a, "try_proof": {"library": "x"}}) == ""


def test_collection_is_no_test() -> None:
    assert example_note([_seen("<collect>::tests/test_shell_completion.py", "click.core.__getattr__")]) == (
        "No example could be proven for this error.")


def test_a_test_the_error_reached_is_named_before_one_where_the_library_caught_it() -> None:
    caught = _seen("tests/test_basic.py::test_path_option", "click.testing.CliRunner.invoke", escaped=False)
    reached = _seen("tests/test_options.py::test_unknown_option", "click.testing.CliRunner.invoke")
    assert "`test_unknown_option`" in example_note([caught, reached])
    only = example_note([caught])  # all there is: named, but not as a call that raises the error
    assert "`test_path_option`" in only and "caught the error itself" in only
    assert "raises this error" not in only and "real call that reaches it" not in only


def test_a_caught_run_is_said_as_observed_not_as_no_user_meeting_it() -> None:
    # rating 6 (9161): click catches NoSuchOption in test_path_option, yet ``cli.main(['--nope'])`` raises it
    only = example_note([_seen("tests/test_basic.py::test_path_option", "click.testing.CliRunner.invoke",
                               escaped=False)])
    assert "no observed call shows a user meeting" not in only and "users never see" not in only
    assert "what the tests observed" in only


def test_a_library_helper_wrapping_the_test_is_not_the_library_catching_it() -> None:
    # rating 6 (abf6): jax's ``with_explicit_mesh`` wraps the test; the test's ``assertRaisesRegex`` caught it
    o = {**_seen("tests/shard_map_test.py::T::test_eager_shmap_new_ref",
                 "jax._src.test_util.with_explicit_mesh.<locals>.decorator.<locals>.mesh_fn", escaped=False),
         "chain": ["jax._src.test_util.with_explicit_mesh.<locals>.decorator.<locals>.mesh_fn (jax/_src/test_util.py:1556)",
                   "tests.shard_map_test.T.test_eager_shmap_new_ref (tests/shard_map_test.py:5309)",
                   "jax._src.shard_map._ref_raise_valueerror (jax/_src/shard_map.py:1522)"]}
    note = example_note([o])
    assert "caught the error itself" not in note and "raises this error" in note


def test_a_test_located_without_a_line_is_named_by_its_file() -> None:
    note = example_note([_seen("tests/shard_map_test.py::T::test_eager", "jax.shard_map", line=0)])
    assert "(`tests/termui.py`)" not in note and "(`tests/test_termui.py`)" in note


def test_the_environment_a_proof_ran_with_is_said_on_every_proven_line() -> None:
    """A proof run with ``prove --env`` may need that environment (rating 12: bce3's after reshapes 8 forced CPU
    devices and fails on one): the "Proven on" line names it in Markdown, the terminal and the web page."""
    from errdex.commands.page_view import _proven as terminal_line
    from errdex.model import Proof, ProofAfter, ProofBefore
    from errdex.pagenotes import environment_note
    from errdex.web.export_markdown import _proven as markdown_line
    from errdex.web.render import make_env

    flags = "XLA_FLAGS=--xla_force_host_platform_device_count=8"
    assert environment_note(()) == "" and environment_note(None) == ""
    assert environment_note((flags,)) == f", with `{flags}` set"
    proof = Proof(before=ProofBefore(exception="ValueError", error_id="bce341e616c9a0c6", output="..."),
                  after=ProofAfter(exit=0), library="jax", version="0.10.2", python="3.13.0", date="2026-12-06",
                  env=(flags,))
    assert f"Python 3.13, with `{flags}` set." in markdown_line(
        {"library": "jax", "version": "0.10.2", "python": "3.13.0", "env": [flags]}, "example")
    assert markdown_line({"library": "jax", "version": "0.10.2", "python": "3.13.0"}, "example") == (
        "Proven on jax 0.10.2, Python 3.13.\n\n")
    assert terminal_line(proof, "validate sample").plain.endswith(f"Python 3.13, with `{flags}` set")
    html = str(make_env().from_string("{{ env | proof_env | prose }}").render(env=[flags]))
    assert html == f", with <code>{flags}</code> set"
