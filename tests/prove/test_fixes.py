"""Afters that give the call what it needs (``prove/fixes.py``), each built from the error's own facts and run on
a small package this test writes (a command-line toolkit with typed options, a count checked against its type,
a class/instance check and an exit signal), in a plain subprocess: the before raises, the fix runs clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from errdex.extract import extract_tree
from errdex.model import ClassInfo, ErrorSite, Snapshot
from errdex.prove.fixes import (
    caught,
    caught_class,
    instantiated,
    message_line,
    message_values,
    real_fixes,
    signals,
)
from errdex.prove.keep import variants
from errdex.prove.mistake import change_sentence, only_drops, setup_note
from errdex.sources.base import SourceTree
from errdex.sources.files import walk_python_files

LIB = '''\
class ParamType:
    """Converts a command-line string to a value."""

    def convert(self, value):
        return value


class IntType(ParamType):
    def convert(self, value):
        return int(value)


class Exit(RuntimeError):
    """An exception that indicates that the application should exit with some status code."""

    def __init__(self, code=0):
        super().__init__(code)
        self.exit_code = code


def convert_type(ty):
    guessed = ty
    if isinstance(guessed, ParamType):
        return guessed
    try:
        if issubclass(guessed, ParamType):
            raise AssertionError(f"Attempted to use an uninstantiated parameter type ({guessed}).")
    except TypeError:
        pass
    return ParamType()


def option(name, type=None, nargs=1):
    arity = len(type) if isinstance(type, tuple) else 1
    if isinstance(type, tuple) and nargs != arity:
        raise ValueError(f"'nargs' must be {arity} (or None) for type {type!r}, but it was {nargs}.")
    return (name, convert_type(type) if not isinstance(type, tuple) and type is not None else type, nargs)


def run(args):
    if "--help" in args:
        raise Exit(0)
    return list(args)
'''


def _package(tmp: Path) -> list[ErrorSite]:
    pkg = tmp / "clikit"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text(LIB)
    return list(extract_tree(SourceTree(Snapshot(repo="acme/clikit"), pkg, walk_python_files(pkg)), jobs=1).sites)


def _site(sites: list[ErrorSite], text: str) -> ErrorSite:
    return next(s for s in sites if text in s.template.render())


def _run(tmp: Path, code: str) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp, timeout=60, check=False)
    return p.returncode, p.stdout, p.stderr


def test_the_value_the_message_asks_for(tmp_path: Path) -> None:
    site = _site(_package(tmp_path), "'nargs' must be")
    before = "import clikit\nprint(clikit.option('--pt', type=(str, int), nargs=3))\n"
    rc, _, err = _run(tmp_path, before)
    assert rc == 1
    message = message_line(err, "ValueError")
    assert message.startswith("'nargs' must be 2 (or None)")
    wanted = message_values(site, message)
    assert wanted.get("nargs") == ("2",)  # "it was {nargs}" is the current value, not the wanted one
    assert "3" not in wanted.get("nargs", ())
    # the proven after dropped ``type=``: the message's value comes first among those that keep every argument
    dropped_type = "import clikit\nprint(clikit.option('--pt', nargs=3))\n"
    label, fix = variants(before, dropped_type, site, {}, wanted)[0]
    assert label.startswith("nargs=2") and "type=(str, int), nargs=2" in fix
    assert _run(tmp_path, fix)[0] == 0
    assert not only_drops(before, fix)


def test_no_value_without_a_filled_message(tmp_path: Path) -> None:
    site = _site(_package(tmp_path), "'nargs' must be")
    assert message_values(site, "") == {}
    assert message_values(site, "something else entirely") == {}


def test_a_class_where_an_instance_is_expected(tmp_path: Path) -> None:
    sites = _package(tmp_path)
    site = _site(sites, "uninstantiated parameter type")
    before = ("import clikit\n\nclass Upper(clikit.ParamType):\n    pass\n"
              "print(clikit.option('--name', type=Upper))\n")
    rc, _, err = _run(tmp_path, before)
    assert rc == 1 and "uninstantiated parameter type" in err
    fixes = instantiated(site, before)
    assert [label for label, _ in fixes] == ["Upper -> Upper() (an instance, not the class)"]
    assert "type=Upper()" in fixes[0][1] and _run(tmp_path, fixes[0][1])[0] == 0
    assert not only_drops(before, fixes[0][1])
    # a library class by its dotted name too
    dotted = "import clikit\nprint(clikit.option('--n', type=clikit.IntType))\n"
    assert "type=clikit.IntType()" in instantiated(site, dotted)[0][1]
    # no issubclass / isinstance(x, type) check: nothing to instantiate
    other = _site(sites, "'nargs' must be")
    assert instantiated(other, before) == []


DOC = "An exception that indicates that the application should exit with some status code."


def test_a_signal_caught_the_documented_way(tmp_path: Path) -> None:
    sites = _package(tmp_path)
    before = "import clikit\nclikit.run(['--help'])\n"
    rc, _, err = _run(tmp_path, before)
    assert rc == 1 and "clikit.Exit: 0" in err
    (label, fix), = caught(before, "clikit.Exit", DOC, ("clikit.Exit",))
    assert label == "clikit.Exit caught as the signal it is"
    assert "except clikit.Exit as signal:  # An exception that indicates" in fix
    rc, out, err = _run(tmp_path, fix)
    assert rc == 0 and not err and "Exit caught:" in out
    assert caught_class(before, fix) == "clikit.Exit"
    assert not only_drops(before, fix)
    assert "catches `clikit.Exit` around `clikit.run`" in change_sentence(before, fix)
    assert setup_note(before, fix, "clikit.Exit", False) == ""  # a signal, not a set-up mistake
    # the same through the class facts of the catalog
    infos = [ClassInfo("clikit.Exit", "clikit/__init__.py", 14, ("RuntimeError",), DOC, ("clikit.Exit",))]
    site = next(s for s in sites if s.exception.endswith("Exit"))
    assert [src for _, src in real_fixes(infos, site, before, "clikit.Exit")] == [fix]


def test_errors_are_no_signals() -> None:
    assert signals("clikit.Exit", DOC)
    assert not signals("clikit.UsageError", "Raised if the command line says to exit with an unknown option.")
    assert not signals("clikit.NoSuchOption", "Raised if click attempted to handle an option that does not exist.")
    assert caught("import clikit\nclikit.run([])\n", "clikit.BadThing", "A thing went wrong.") == []


def test_caught_class_only_for_the_wrapped_raising_statement() -> None:
    before = "import clikit\nx = 1\nclikit.run(['--help'])\n"
    other = "import clikit\nx = 2\ntry:\n    clikit.run(['--help'])\nexcept clikit.Exit as signal:\n    pass\n"
    assert caught_class(before, other) == ""  # something else changed too
    assert caught_class(before, "import clikit\nx = 1\nclikit.run([])\n") == ""


def test_a_caught_signal_keeps_every_argument() -> None:
    from errdex.prove.keep import dropped

    before = "import clikit\nclikit.run(['--help'])\n"
    (_, fix), = caught(before, "clikit.Exit", DOC, ("clikit.Exit",))
    assert dropped(before, fix) == ()


def test_a_caught_signal_is_not_said_to_take_the_trigger_away() -> None:
    from errdex.prove.mistake import taken_away

    before = "import clikit\nclikit.run(['--help'])\n"
    (_, fix), = caught(before, "clikit.Exit", DOC, ("clikit.Exit",))
    assert taken_away(before, fix) == ""
    assert taken_away(before, "import clikit\nclikit.run([])\n")  # the non-fix it replaces is


def test_an_object_used_in_its_with_block_is_said_so() -> None:
    from errdex.prove.fixes import entered

    before = "import barlib\n\nfor item in barlib.progress(items=[1]).steps():\n    break\n"
    after = "import barlib\n\nwith barlib.progress(items=[1]) as obj:\n    for item in obj.steps():\n        break\n"
    assert entered(before, after) == "barlib.progress(items=[1])"
    assert change_sentence(before, after).startswith(
        "The proven example below uses the object `barlib.progress(items=[1])` makes inside its `with` block")
    assert entered(after, after) == ""  # already in its block: nothing changed
    assert entered(before, "import barlib\nbarlib.progress(items=[2])\n") == ""


def test_the_mark_says_what_a_kept_after_did() -> None:
    from errdex.pagenotes import arguments_note
    from errdex.prove.keep import KEPT, KEPT_CAUGHT, KEPT_WITH, arguments_mark

    before = "import clikit\nclikit.run(['--help'])\n"
    (_, fix), = caught(before, "clikit.Exit", DOC, ("clikit.Exit",))
    assert arguments_mark(before, fix) == KEPT_CAUGHT
    assert "catches the signal" in arguments_note({"arguments": KEPT_CAUGHT})
    bare = "import barlib\n\nfor item in barlib.progress(items=[1]).steps():\n    break\n"
    block = "import barlib\n\nwith barlib.progress(items=[1]) as bar:\n    for item in bar.steps():\n        break\n"
    assert arguments_mark(bare, block) == KEPT_WITH
    assert "inside its `with` block" in arguments_note({"arguments": KEPT_WITH})
    assert arguments_mark(before, "import clikit\nclikit.run(['-h'])\n") == KEPT


def test_the_wanted_value_given_to_every_call_that_passes_the_keyword(tmp_path: Path) -> None:
    from errdex.prove.fixes import given_wanted

    _package(tmp_path)
    before = "import clikit\nprint(clikit.option('--pt', type=(str, int), nargs=3))\n"
    (label, fix), = given_wanted(before, {"nargs": ("2",), "unused": ("1",)})
    assert label == "nargs=2 (the value the message asks for)" and "nargs=2" in fix
    assert _run(tmp_path, fix)[0] == 0
    assert given_wanted(before, {"nargs": ("3",)}) == []  # already that value: no after


def test_a_caught_signal_does_not_replace_an_after_that_does_more() -> None:
    from errdex.prove.mistake import instead_of

    before = ("import io, sys\nimport clikit\nclikit.stand_in = lambda: None\nclikit.run(['--help'])\n")
    (label, fix), = caught(before, "clikit.Exit", DOC, ("clikit.Exit",))
    typed = "import io, sys\nimport clikit\nsys.stdin = io.StringIO('y\\n')\nclikit.run(['--help'])\n"
    assert instead_of([(label, fix)], before, typed) == []  # the stand-in replaced by a line typed: kept
    nothing = "import io, sys\nimport clikit\nclikit.stand_in = lambda: None\nclikit.run([])\n"
    assert instead_of([(label, fix)], before, nothing) == [(label, fix)]  # a non-fix gives way


def test_only_a_set_up_change_replaces_a_non_fix() -> None:
    from errdex.prove.mistake import sets_up

    before = ("import click\n\n@click.command()\n@click.version_option(package_name='plug')\ndef cli():\n    pass\n"
              "cli.main(['--version'], standalone_mode=False)\n")
    configured = before.replace("package_name='plug')", "package_name='plug', version='1.0')")
    other_data = before.replace("['--version']", "['cli']")
    assert sets_up(before, configured)
    assert not sets_up(before, other_data)  # another value where the trigger was: no better than dropping it
