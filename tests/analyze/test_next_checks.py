"""Prevention and Defensive from the same function's other checks and its module's constants (sixteenth pages
round; rating 8 on 0480, 5d88, a28d, bce3), on ``an_jaxlike/jax/experimental/grid.py``."""

from __future__ import annotations

import ast

from errdex.analyze.guardwords import words_for
from errdex.analyze.static.guardnote import with_prevention

from .test_page_rules import Ctx, _all, _page


def test_the_next_check_of_the_same_function_on_the_same_argument_is_named(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "_grid_layout", "is not 2D")
    assert ("Once that holds, the private function `jax.experimental.grid._grid_layout` checks the same arguments "
            "again further on: it raises \"Shape {shape} is not a multiple of 64x8\" when `shape[0]` is not a "
            "multiple of `64` or `shape[1]` is not a multiple of `8`.") in a.prevention
    # the later check's own page does not name the earlier one as "next"
    assert not any(p.startswith("Once that holds") for p in _page(jaxpages, "_grid_layout", "64x8").prevention)


def test_a_name_the_check_binds_is_read_as_its_value_and_checks_on_locals_are_left_out(jaxpages: Ctx) -> None:
    # 5d88: the parameters come from another raise's snippet (this one starts below the ``def``), and
    # ``is_scaled`` is read as ``a_scale is not None``; ``m != 128`` reads a local the user cannot check
    a = _page(jaxpages, "scaled_matmul", "Either none or both")
    (later,) = [p for p in a.prevention if p.startswith("Once that holds")]
    assert ("it raises \"A in tile memory unsupported for block-scaled matmuls\" when `a` is a `Tile` and "
            "`a_scale` is not None.") in later
    assert "M=128" not in later and "swizzle" not in later  # a local's check; an earlier check


def test_a_private_function_that_returns_a_public_constant_names_the_constant(jaxpages: Ctx) -> None:
    a = _page(jaxpages, "_grid_layout", "is not 2D")
    said = ("Where your code needs what the private function `jax.experimental.grid._grid_layout` returns, use the "
            "public `jax.experimental.grid.GRID_LAYOUT` instead: the function returns that constant whenever its "
            "checks pass")
    assert a.prevention[0].startswith(said) and any(s.text.startswith(said) for s in a.solutions)
    assert "GRID_LAYOUT" not in _all(_page(jaxpages, "_row_layout"))  # it returns its argument
    # a rule the package registers (held in a table) is not the user's to call: no constant offered
    assert "RECURSED" not in _all(_page(jaxpages, "_grid_lowering_rule"))


def test_the_defensive_note_states_the_check_it_cannot_write_as_a_test(jaxpages: Ctx) -> None:
    # bce3: the call rebuilds its argument before the check, so no test on what the user passes is written;
    # the note says the check and why, not only that it has none
    note = _page(jaxpages, "make_grid").guard_note
    assert ("(the check: `devices.ndim` does not equal `len(names)`, on what the call makes of the `devices` and "
            "`names` you pass before it checks); a try / except would not help either") in note, note


def test_the_defensive_note_says_the_prevention_guard_itself() -> None:
    note = ("errdex cannot state this check in terms of what you pass to `f` (the check: `n` is odd), so it names "
            "no test to make before the call; a try / except would not help either: errdex knows no fallback for "
            "that call, and one that only re-raises `ValueError` leaves the program failing as before.")
    note = note.replace(" (the check: `n` is odd), so it names no test to make before the call",
                        ", so it names no test to make before the call (the check: `n` is odd)")
    out = with_prevention(note, ("Keep a test like `test_f`.", "Before calling `f`, check the `n` you pass: the "
                                 "call raises when it is odd."))
    assert out.startswith("Guard it before the call rather than catching it: before calling `f`, check the `n` you "
                          "pass: the call raises when it is odd. Where `n` fails that check, stop with an error of "
                          "your own that says what it must be, before the call.")
    assert out.endswith("A try / except is no substitute for it: errdex knows no fallback for that call, and one "
                        "that only re-raises `ValueError` leaves the program failing as before.")
    # a Prevention that states no guard (a habit) is only pointed to
    assert with_prevention(note, ("Keep a test like `test_f`.",)).startswith(
        "What to do before calling `f` is under Prevention; a try / except would not help either")


def test_a_remainder_compared_with_zero_is_said_as_a_multiple() -> None:
    def words(cond: str, neg: bool = False) -> str | None:
        out = words_for(ast.parse(cond, mode="eval").body, neg, ())
        return out[0] if out else None

    assert words("n % 64 != 0") == "`n` is not a multiple of `64`"
    assert words("n % 64 == 0") == "`n` is a multiple of `64`"
    assert words("n % 64 != 0", neg=True) == "`n` is a multiple of `64`"
    assert words("n % 2 != 0") == "`n` is odd"
    assert words("n % 64 != 1") == "`n % 64` does not equal `1`"  # not a test of divisibility



def test_the_check_words_make_no_claim_about_what_they_cannot_see(cli: Ctx) -> None:
    # 03ef: ``click.progressbar`` hands `iterable` and `length` down to ``ProgressBar.__init__``, whose ``def``
    # the snippet does not show: the check is not said to be on "a value click works out"
    note = _page(cli, "Bar.__init__").guard_note
    assert "works out" not in note and "(the check:" not in note, note


def test_a_command_line_prevention_is_no_guard_around_one_call() -> None:
    # a9dd: the usage Prevention ("a command line typed by a person needs no prevention") is pointed to only
    note = ("errdex cannot state this check in terms of what you pass to `f`, so it names no test to make before the "
            "call; a try / except would not help either: errdex knows no fallback for that call.")
    usage = ("Where your code builds the command line itself (a list passed to `f`, `main(args)` or a test runner), "
             "put in it only the options and arguments the command declares.")
    assert with_prevention(note, (usage,)).startswith("What to do before calling `f` is under Prevention; ")


def test_a_raise_in_an_except_handler_is_no_next_check(jaxpages: Ctx) -> None:
    # jax.lax.scan: the concreteness error is raised only when ``int(length)`` failed, not by a test on `length`
    a = _page(jaxpages, "repeat_rows", "must not be negative")
    assert any(p.startswith("Before calling `jax.experimental.grid.repeat_rows`") for p in a.prevention), a.prevention
    assert not any("concrete" in p for p in a.prevention), a.prevention


def test_an_internal_check_under_one_setting_is_prevented_by_the_other_value(cli: Ctx) -> None:
    # 8ee0: "run every call under that setting once in a test" fits any error; the other value jax's own checks
    # compare the setting with is this error's own way around it
    (p,) = _page(cli, "_lower_body").prevention
    assert p.startswith("Where your code sets `lowering_semantics` to `Semantics.Warpgroup` (`clilike.Semantics`), "
                        "keep the same code able to run with `Semantics.Lane` (the other value clilike's own checks "
                        "compare `lowering_semantics` with; given as "
                        "`clilike.CompilerParams(lowering_semantics=clilike.Semantics.Lane)`), chosen in one place"), p
    assert "in a test" not in p
