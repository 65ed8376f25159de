"""Pages in the user's terms on a click-shaped fixture: each kind of raise gets its own words
(docs/pages-rating.md's findings: Exit treated as a bug, ``python -O`` advice, "checks nothing",
``ParamType.fail`` addressed as the user's call, private attributes in conditions)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.analyze.context import SnapshotContext, load_context
from errdex.analyze.facts import gather_facts
from errdex.analyze.static import analyze_static
from errdex.catalog import SqliteCatalog
from errdex.extract import extract_tree
from errdex.model import Analysis
from errdex.sources import open_source

CLILIKE = Path(__file__).resolve().parents[1] / "fixtures" / "an_clilike"


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SqliteCatalog, SnapshotContext]]:
    cat = SqliteCatalog(tmp_path_factory.mktemp("cli") / "c.sqlite")
    with open_source(str(CLILIKE), repo="example/clilike", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    yield cat, load_context(cat, cat.snapshots()[0])
    cat.close()


def _page(ctx: tuple[SqliteCatalog, SnapshotContext], qualname: str) -> Analysis:
    cat, c = ctx
    (site,) = [s for s in c.sites if s.qualname == qualname and s.kind != "warning"]
    return analyze_static(gather_facts(cat, c.snapshot, site, context=c), c.all_symbols)


def _all(a: Analysis) -> str:
    return "\n".join([a.meaning, *(s.text for s in a.solutions), *a.prevention, a.trigger, *a.situations])


def test_exit_is_how_it_works_not_a_bug(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "Context.exit")
    assert "not a failure" in a.meaning
    assert a.solutions[0].text.startswith("Let it propagate")
    assert "for a report" not in _all(a) and "change how you call it" not in _all(a)
    assert any("subclass of `RuntimeError`" in p for p in a.prevention)


def test_a_raise_only_helper_speaks_of_the_option_and_its_value(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "ParamType.fail")
    assert a.meaning.startswith("A value given for an option or argument was rejected by its type")
    assert "value" in a.solutions[0].text and "option or argument" in a.solutions[0].text
    assert "Every call that reaches" not in _all(a) and "change how you call it" not in _all(a)


def test_usage_error_names_the_command_line_not_private_attributes(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "_Parser.match_long_opt")
    assert "_long_opt" not in a.meaning + a.solutions[0].text and "self._long_opt" not in a.trigger  # nor a worked-out value
    assert "command line" in a.meaning and "command line" in a.solutions[0].text


def test_debug_is_never_the_fix_and_an_instance_is(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "convert_type")
    # never the fix; When it happens may say that ``python -O`` removes the check (rating 8, a1ee: test_debug_only)
    fix = " ".join([a.meaning, *(s.text for s in a.solutions), *a.prevention])
    assert "__debug__" not in fix and "-O" not in fix
    assert any("Pass an instance of a `ParamType` subclass" in s.text for s in a.solutions)
    assert any("give an instance of a `ParamType` subclass (`MyType()`), never the class" in p for p in a.prevention)


def test_module_getattr_is_a_missing_name_and_lists_the_names_it_provides(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "__getattr__")
    assert "checks nothing" not in a.meaning and "has no attribute" in a.meaning
    assert "`BaseCommand`" in a.solutions[0].text


def test_an_internal_assertion_says_report_it_without_its_locals(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "check_table")
    assert "consistency check" in a.meaning and "`seen`" not in a.meaning
    assert any(s.text.startswith("Report it at https://github.com/example/clilike/issues") for s in a.solutions)
    assert a.prevention == ()  # nothing to prevent from the user's side: said as nothing, not padded


def test_the_objects_attribute_reads_as_the_objects_and_the_message_advice_leads(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "ProgressBar.generator")
    assert "`self.entered`" not in _all(a) and "the `ProgressBar`'s `entered`" in a.meaning
    assert a.solutions[0].text == 'Do what the message says: "You need to use progress bars in a with block."'


def test_a_constructor_is_the_class_and_the_function_that_builds_it(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "ProgressBar.__init__")
    assert a.meaning.startswith("Creating a `clilike.core.ProgressBar` (directly or through `clilike.progressbar`)")
    assert "`iterable` is None and `length` is None" in a.meaning


def _observed_page(tmp: Path, message: str, test: str, test_path: str, test_line: int, entry: str,
                   arg: tuple[str, str, str], escaped: bool, count: int) -> Analysis:
    """The page of clilike's ``_Parser.match_long_opt`` after ``errdex observe`` saw one test raise it."""
    from errdex.model import Observation, ObservedArg, ObserveRun

    cat = SqliteCatalog(tmp / "c.sqlite")
    try:
        with open_source(str(CLILIKE), repo="example/clilike", ref="v1") as tree:
            cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
        snap = cat.snapshots()[0]
        (site,) = [s for s in cat.sites(snap.key) if s.qualname == "_Parser.match_long_opt"]
        cat.replace_observations(ObserveRun(snapshot=snap.key), [Observation(
            snapshot=snap.key, kind="site", path=site.path, line=site.line, exception="clilike.NoSuchOption",
            message=message, test=test, error_id=site.error_id, test_path=test_path, test_line=test_line,
            entry=entry, entry_args=(ObservedArg(name=arg[0], type=arg[1], repr=arg[2]),), escaped=escaped,
            count=count)])
        c = load_context(cat, snap)
        return analyze_static(gather_facts(cat, snap, site, context=c), c.all_symbols)
    finally:
        cat.close()


def test_observed_runs_of_the_librarys_tests_are_stated(tmp_path: Path) -> None:
    """With ``errdex observe`` data, the page says what the library's own test did to raise it."""
    a = _observed_page(tmp_path, "No such option --colour.", "tests/test_options.py::test_unknown_option",
                       "tests/test_options.py", 12, "clilike.core._Parser.match_long_opt", ("opt", "str", "'--colour'"),
                       escaped=False, count=3)
    assert "own tests raised it 3 times in 1 test, e.g. `test_unknown_option` with \"No such option --colour.\"" \
        in a.meaning
    assert "caught it itself" in a.meaning
    assert a.situations[0] == ("The library's test `test_unknown_option` (`tests/test_options.py:12`) raised it "
                               "through `clilike.core._Parser.match_long_opt(opt='--colour')`: "
                               "\"No such option --colour.\" (clilike caught this one itself)")


def test_an_observed_usage_error_gives_no_test_prevention_and_a_cut_argument_is_not_quoted(tmp_path: Path) -> None:
    """A usage error comes from the end user's command line: a test of the program does not prevent it;
    an argument whose recorded text was cut is shown as `...`, never with an unclosed quote."""
    a = _observed_page(tmp_path, "No such option -f.", "tests/test_basic.py::test_path_option", "tests/test_basic.py",
                       471, "clilike.core.Context.invoke",
                       ("args", "list", "['-f', '/tmp/pytest-of-root/pytest-0/test_path_opt"), escaped=True, count=1)
    assert not any("Test your own code" in p for p in a.prevention)
    assert a.situations[0].startswith("The library's test `test_path_option` (`tests/test_basic.py:471`) raised it "
                                      "through `clilike.core.Context.invoke(args=...)`")


def test_situations_show_cases_of_different_forms(tmp_path: Path) -> None:
    """Observations that repeat one case (single-dash options) give way to one of another form (a long
    option), and one the library caught itself says so (rating 8 on click's long-option raise)."""
    from errdex.analyze.static.observed import distinct_cases, message_form
    from errdex.model import Observation

    def ob(message: str, test: str) -> Observation:
        return Observation(snapshot="s", kind="site", path="p.py", line=1, exception="E", message=message,
                           test=f"tests/t.py::{test}")

    obs = [ob("No such option '-f'.", "t1"), ob("No such option '-a'.", "t2"), ob("No such option '-a'.", "t3"),
           ob("No such option '--foo'.", "t4"), ob("No such option '--muhaha'.", "t5")]
    assert message_form("No such option '-f'.") == message_form("No such option '-vvv'.")
    assert message_form("No such option '-f'.") != message_form("No such option '--foo'.")
    assert [o.test for o in distinct_cases(obs, 3)] == ["tests/t.py::t1", "tests/t.py::t2", "tests/t.py::t4"]
    assert [o.test for o in distinct_cases(obs, 2)] == ["tests/t.py::t1", "tests/t.py::t4"]
    assert [o.test for o in distinct_cases(obs[:3], 3)] == ["tests/t.py::t1", "tests/t.py::t2", "tests/t.py::t3"]
    a = _observed_page(tmp_path, "No such option -f.", "tests/test_basic.py::test_path_option", "tests/test_basic.py",
                       471, "clilike.core.Context.invoke", ("args", "list", "['-f']"), escaped=True, count=1)
    assert "caught this one itself" not in a.situations[0]


def test_roles_read_from_names_only_where_they_hold() -> None:
    """A rule's stage comes from its name; the 'compiled function runs' reading only for ``__call__``."""
    from errdex.analyze.public_path import rule_operation

    assert rule_operation("_run_scoped_lowering_rule") == "run_scoped"
    assert rule_operation("_approx_top_k_abstract_eval") == "approx_top_k"
    assert rule_operation("_run_scoped_physicalize_rule") == "run_scoped"
    assert rule_operation("lower_jaxpr_to_mosaic_gpu") == ""


def test_a_module_or_class_in_a_guard_is_never_an_argument(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "check_rows")
    text = _all(a)
    assert "(its `rows` argument)" in text
    assert "`collections` argument" not in text and "`collections.abc` argument" not in text
    assert "`rows` is not a `collections.abc.Sequence`" in a.meaning


def test_an_abstract_method_says_use_a_subclass_that_defines_it(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "Formatter.render")
    assert "`render` of `Formatter` is abstract" in a.meaning
    assert a.solutions[0].text.startswith("Use an object of a subclass of `Formatter` that defines `render`")
    assert not any("does not implement this case" in s.text for s in a.solutions)


def test_assert_false_must_override_is_abstract_not_a_bug(ctx) -> None:  # type: ignore[no-untyped-def]
    a = _page(ctx, "Renderer.abstract_eval")
    assert "is abstract" in a.meaning and not any(s.text.startswith("Report it") for s in a.solutions)


def test_an_exit_reached_through_other_public_calls_is_every_time_only_for_its_own(tmp_path: Path) -> None:
    # rating 5 on click's Exit: "`help_option` ... raises Exit every time" was false (its callback does, when given)
    pkg = tmp_path / "exitlike"
    (pkg / "exitlike").mkdir(parents=True)
    (pkg / "exitlike" / "__init__.py").write_text(
        "from exitlike.core import Context, Exit, help_option\n__all__ = ['Context', 'Exit', 'help_option']\n")
    (pkg / "exitlike" / "core.py").write_text(
        'class Exit(RuntimeError):\n    """An exception that indicates that the application should exit."""\n\n\n'
        "class Context:\n"
        "    def exit(self, code=0):\n"
        '        """Exits the application with a given exit code."""\n'
        "        raise Exit(code)\n\n\n"
        "def help_option(ctx, value):\n"
        '    """Show the help and exit when the option is given."""\n'
        "    if value:\n"
        "        ctx.exit()\n")
    cat = SqliteCatalog(tmp_path / "c.sqlite")
    with open_source(str(pkg), repo="example/exitlike", ref="v1") as tree:
        cat.replace_snapshot(tree.snapshot, extract_tree(tree, jobs=1))
    c = load_context(cat, cat.snapshots()[0])
    a = _page((cat, c), "Context.exit")
    cat.close()
    assert "Calling `exitlike.Context.exit` raises `exitlike.Exit` every time" in a.meaning
    assert "`exitlike.help_option` raise it only when a call of theirs gets there" in a.meaning
    assert "help_option` raises" not in a.meaning
