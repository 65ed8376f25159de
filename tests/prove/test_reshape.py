"""After-variants that change what surrounds the call (``prove/reshape.py``) and parameter ids an
``ids=`` function gives (``prove/params.py``): parsing only, on small test files of a CLI-like library."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.prove.distill import Distilled, distill
from errdex.prove.reshape import defined_first, reshaped, without_stand_ins


def _distill(tmp_path: Path, body: str, params: str = "") -> Distilled:
    (tmp_path / "tests").mkdir(exist_ok=True)
    src = "import pytest\nimport climate\nimport climate.core\n\n\ndef test_x(" + params + "):\n" + body
    (tmp_path / "tests" / "test_x.py").write_text(src)
    return distill(tmp_path, "tests/test_x.py::test_x", (f"t (tests/test_x.py:{len(src.splitlines())})",))[0]


def test_object_used_in_its_with_block(tmp_path: Path) -> None:
    d = _distill(tmp_path, "    bar = climate.progress(length=2)\n    iter(bar)\n")
    got = dict(reshaped(d))
    assert got["climate.progress(length=2) used in its with block"].endswith(
        "with climate.progress(length=2) as bar:\n    iter(bar)\n")


def test_value_set_up_before_the_call_changed_inside_the_raising_block(tmp_path: Path) -> None:
    d = _distill(tmp_path, "    with climate.stub('run') as run:\n        run.return_value.status = 1\n"
                           "        climate.edit(['f.txt'])\n")
    got = dict(reshaped(d))
    assert got["run.return_value.status = 1 -> 0"].endswith(
        "    run.return_value.status = 0\n    climate.edit(['f.txt'])\n")


def test_configuration_gets_the_guard_parameter_and_an_installed_name(tmp_path: Path) -> None:
    body = ("    @climate.command()\n    @climate.version_option(package_name='nonexistent')\n"
            "    def cli():\n        pass\n    cli.main(['--version'])\n")
    d = _distill(tmp_path, body)
    got = dict(reshaped(d, guard_names=("version", "package_name"), package="climate"))
    assert "@climate.version_option(package_name='nonexistent', version='1.0')" in got["with version='1.0'"]
    assert "@climate.version_option(package_name='climate')" in \
        got["package_name='nonexistent' -> 'climate' (an installed distribution)"]
    assert not any("package_name='nonexistent', package_name" in src for src in got.values())  # passed already
    assert not any("main(['--version'], version" in src for src in got.values())  # the raising call: mutate's


def test_a_name_the_module_defines_replaces_a_missing_one(tmp_path: Path) -> None:
    d = _distill(tmp_path, "    module = climate.core\n    _ = module.Comand\n")
    symbols = defined_first({"climate.core": ("ABC", "Command", "Context", "_private")},
                            ["climate.core.Context", "climate.core.Command"])
    assert symbols["climate.core"][:2] == ("Command", "Context")
    exported = defined_first({"climate": ("echo",), "climate.utils": ("ModuleType", "annotations", "echo")}, [])
    assert exported["climate.utils"] == ("echo", "ModuleType")  # the package's own name first; no __future__
    got = dict(reshaped(d, symbols=symbols))
    assert got["climate.core.Comand -> climate.core.Command (a name the module defines)"].endswith(
        "module = climate.core\n_ = module.Command\n")
    d = _distill(tmp_path, "    _ = climate.core.no_such_name\n")  # nothing close: the module's own class first
    assert [src.splitlines()[-1] for src in dict(reshaped(d, symbols=symbols)).values()] == ["_ = climate.core.Command"]
    d = _distill(tmp_path, "    _ = climate.core.Command\n")  # a name that exists: nothing to change
    assert reshaped(d, symbols=symbols) == []


def test_stand_in_left_out_and_a_line_on_standard_input(tmp_path: Path) -> None:
    body = ("    def interrupt(_):\n        raise KeyboardInterrupt()\n"
            "    monkeypatch.setattr('climate.termui.hidden_prompt', interrupt)\n"
            "    climate.prompt('Password', hide_input=True)\n")
    d = _distill(tmp_path, body, params="monkeypatch")
    assert "monkeypatch = pytest.MonkeyPatch()" in d.source
    src = next(s for why, s in reshaped(d) if why.endswith("'y\\n' on standard input"))
    assert "setattr" not in src
    assert src.endswith("sys.stdin = io.StringIO('y\\n')\nclimate.prompt('Password', hide_input=True)\n")


def test_reshaped_keeps_each_kind_and_its_cap(tmp_path: Path) -> None:
    body = "".join(f"    o{i} = climate.progress(length={i})\n    o{i}.mode.level = {i % 2}\n" for i in range(20)) + \
        "    climate.show(" + ", ".join(f"o{i}" for i in range(20)) + ")\n"
    d = _distill(tmp_path, body)
    got = reshaped(d, guard_names=("strict",))
    assert len(got) == 16 and len({src for _, src in got}) == 16 and d.source not in {src for _, src in got}
    whys = [why for why, _ in got]
    # one of each kind first (with block, set-up value, configuration), then the seconds, ...
    assert whys[0].endswith("used in its with block") and " = 0 -> 1" in whys[1] and whys[2] == "with strict='1.0'"
    counts = (sum(w.endswith("with block") for w in whys), sum(" = " in w for w in whys), whys.count("with strict='1.0'"))
    assert counts == (2, 7, 7)  # with blocks at their own cap (2), the other two kinds share the rest


def test_parameter_ids_from_an_ids_function(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\nimport climate\nimport climate.core\nimport climate.utils\n\n\n"
        "@pytest.mark.parametrize('module', [climate, climate.core, climate.utils], ids=lambda m: m.__name__)\n"
        "def test_unknown(module):\n    _ = module.no_such_attribute\n\n\n"
        "@pytest.mark.parametrize(('module', 'name'), [(climate, 'echo'), (climate.utils, 'safecall')],\n"
        "                         ids=lambda v: getattr(v, '__name__', v))\n"
        "def test_attr(module, name):\n    getattr(module, name)\n")
    d = distill(tmp_path, "tests/test_x.py::test_unknown[climate.core]", ("t (tests/test_x.py:9)",))[0]
    assert "module = climate.core\n" in d.source
    d = distill(tmp_path, "tests/test_x.py::test_unknown[climate.utils]", ("t (tests/test_x.py:9)",))[0]
    assert "module = climate.utils\n" in d.source
    d = distill(tmp_path, "tests/test_x.py::test_attr[climate.utils-safecall]", ("t (tests/test_x.py:15)",))[0]
    assert "module = climate.utils\nname = 'safecall'\n" in d.source


def test_one_more_value_for_the_raising_calls_list(tmp_path: Path) -> None:
    d = _distill(tmp_path, "    cli = climate.Command('cli')\n    cli.make_context('cli', ['a'])\n")
    got = dict(reshaped(d))
    assert got["['a'] with 'a' once more"].endswith("cli.make_context('cli', ['a', 'a'])\n")
    assert not any("Command('cli', 'cli')" in src for src in got.values())  # only the raising call's lists


def test_without_stand_ins_keeps_the_library_behaviour(tmp_path: Path) -> None:
    body = ("    def fake_version(name):\n        raise LookupError(name)\n"
            "    monkeypatch.setattr(climate.meta, 'version', fake_version)\n"
            "    @climate.command()\n    @climate.version_option(package_name='nonexistent')\n"
            "    def cli():\n        pass\n    cli.main(['--version'])\n")
    d = _distill(tmp_path, body, params="monkeypatch")
    plain = without_stand_ins(d)
    assert plain is not None
    # the stand-in goes, and what only it used (its function, the MonkeyPatch, pytest's import)
    assert plain.source == ("import climate\nimport climate.core\n\n@climate.command()\n@climate.version_option(package_name='nonexistent')\n"
                            "def cli():\n    pass\ncli.main(['--version'])\n")
    nodes = list(ast.walk(plain.module))
    assert {ast.unparse(nodes[i]) for i in plain.focus} >= {"cli.main(['--version'])",
                                                            "climate.version_option(package_name='nonexistent')"}
    assert without_stand_ins(plain) is None


def test_function_called_through_the_wrapper_the_script_made_of_it(tmp_path: Path) -> None:
    d = _distill(tmp_path, "    def f(x):\n        return climate.collective(x, 'i')\n"
                           "    f_mapped = climate.mapped(f, axis='i')\n    climate.run(f_mapped, 3)\n    f(3)\n")
    got = dict(reshaped(d))  # the test ran the wrapped form first, then the bare function (the error)
    assert got["f(...) called as f_mapped(...), the wrapper made of it above"].endswith(
        "f_mapped = climate.mapped(f, axis='i')\nclimate.run(f_mapped, 3)\nf_mapped(3)\n")
    plain = _distill(tmp_path, "    def f(x):\n        return climate.collective(x, 'i')\n    f(3)\n")
    assert not any("wrapper" in why for why, _ in reshaped(plain))  # nothing made of f: no such after
