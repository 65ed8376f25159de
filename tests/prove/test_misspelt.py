"""A module ``__getattr__``'s refusal proven on a misspelt name, not on the test's made-up one (``prove/misspelt.py``;
rating 10, 809c: ``module.no_such_attribute`` -> ``module.Argument`` was an unrelated name, labelled a non-fix)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from errdex.model import ErrorSite, Template
from errdex.pagenotes import arguments_note
from errdex.prove.distill import Distilled, distill
from errdex.prove.keep import arguments_mark
from errdex.prove.misspelt import near_miss, respelt, respelt_names
from errdex.prove.mistake import only_drops

SYMBOLS = {"climate": ("Command", "Group", "echo"), "climate.core": ("Command", "Context", "Group", "Parameter")}
SITE = ErrorSite(kind="raise", exception="AttributeError", exception_resolved="AttributeError",
                 templates=(Template.literal("{name}"),), path="climate/core.py", line=91, end_line=91,
                 qualname="__getattr__", module="climate.core")
WARN = ErrorSite(kind="warn", exception="DeprecationWarning", exception_resolved="DeprecationWarning",
                 templates=(Template.literal("'BaseCommand' is deprecated and will be removed in 9.0. Use 'Group' "
                                             "instead."),), path="climate/core.py", line=89, end_line=89,
                 qualname="__getattr__", module="climate.core")


def _distill(tmp_path: Path, body: str) -> Distilled:
    (tmp_path / "tests").mkdir(exist_ok=True)
    src = "import climate\nimport climate.core\n\n\ndef test_x():\n" + body
    (tmp_path / "tests" / "test_x.py").write_text(src)
    return distill(tmp_path, "tests/test_x.py::test_x", (f"t (tests/test_x.py:{len(src.splitlines())})",))[0]


def test_near_misses_correct_back_to_the_name() -> None:
    names = ("Command", "Context", "Group", "Parameter")
    assert near_miss("Command", names) == "Comand"  # a doubled letter written once
    assert near_miss("Group", names) == "group"  # else in lower case
    assert near_miss("Group", (*names, "group")) == "Grop"  # else the last letter but one dropped
    assert near_miss("Ab", ("Ab", "ab")) == ""


def test_the_made_up_name_becomes_a_near_miss_of_the_deprecations_replacement(tmp_path: Path) -> None:
    d = _distill(tmp_path, "    module = climate.core\n    _ = module.no_such_attribute\n")
    [(why, before, after)] = respelt(d, SITE, SYMBOLS, [WARN])
    assert before.endswith("module = climate.core\n_ = module.group\n")
    assert after.endswith("module = climate.core\n_ = module.Group\n")
    assert "named by its deprecation message" in why
    # without the deprecation: the module's first public name
    [(why, before, after)] = respelt(d, SITE, SYMBOLS)
    assert before.endswith("_ = module.Comand\n") and after.endswith("_ = module.Command\n")
    assert "one it defines" in why
    # a name near one the module defines stands as it is; another kind of raise, another module: nothing
    near = _distill(tmp_path, "    module = climate.core\n    _ = module.Contxt\n")
    assert respelt(near, SITE, SYMBOLS) == []
    assert respelt(d, replace(SITE, qualname="load"), SYMBOLS) == []
    other = _distill(tmp_path, "    _ = climate.no_such_attribute\n")
    assert respelt(other, SITE, SYMBOLS) == []


def test_a_respelt_name_is_a_fix_and_the_page_says_what_the_after_does() -> None:
    before, after = "import m\n_ = m.Comand\n", "import m\n_ = m.Command\n"
    assert respelt_names(before, after) == ("Comand", "Command")
    assert not only_drops(before, after)
    mark = arguments_mark(before, after)
    assert mark == "kept, respelt: Comand -> Command"
    assert arguments_note({"arguments": mark}).startswith(
        "The after reads `Command`, the name the module defines that is nearest to the misspelt `Comand`")
    # an unrelated name read instead is still no fix
    assert respelt_names("import m\n_ = m.no_such_attribute\n", "import m\n_ = m.Argument\n") is None
    assert only_drops("import m\n_ = m.no_such_attribute\n", "import m\n_ = m.Argument\n")
    # two names changed, or a name read off another object: not one name respelt
    assert respelt_names("import m, n\n_ = m.Comand, m.Grop\n", "import m, n\n_ = m.Command, m.Group\n") is None
    assert respelt_names("import m, n\n_ = m.Comand\n", "import m, n\n_ = n.Command\n") is None


def test_the_example_keeps_only_the_imports_it_reads() -> None:
    # click's test is parametrized over four modules and imports them all; the example reads one
    import ast

    from errdex.prove.misspelt import _used_imports

    m = ast.parse("import click\nimport click.core\nimport click.parser\nimport os.path\nimport x.y as z\n"
                  "module = click.core\n_ = module.Comand\n")
    assert ast.unparse(_used_imports(m)) == ("import click\nimport click.core\nimport os.path\nimport x.y as z\n"
                                            "module = click.core\n_ = module.Comand")
