"""A module-level list of literals interpolated into a message reads as its repr (fluids 1.3.1's ``fittings.py``,
round 34: twelve ``..._methods_error = f"Specified method not recognized; methods are {..._methods}"`` texts read
alike as ``... methods are {...}`` and tied in groups of twelve, while the message prints the list)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

FITTINGS = '''
    entrance_rounded_methods = ["Rennels", "Crane", "Miller"]
    entrance_rounded_methods_error = f"Specified method not recognized; methods are {entrance_rounded_methods}"

    entrance_angled_methods = ("Idelchik",)
    entrance_angled_methods_error = f"Specified method not recognized; methods are {entrance_angled_methods!r}"

    registered_methods = ["Rennels"]
    known_sizes = [1, 2.5, None]
    rebound = ["a"]
    rebound = ["a", "b"]


    def register(name):
        registered_methods.append(name)


    def entrance_rounded(Di, rc, method="Rennels"):
        if method not in entrance_rounded_methods:
            raise ValueError(entrance_rounded_methods_error)
        return rc / Di


    def entrance_angled(angle, method="Idelchik"):
        if method != "Idelchik":
            raise ValueError(entrance_angled_methods_error)
        return angle


    def entrance_registered(method):
        raise ValueError(f"methods are {registered_methods}")


    def sized(size):
        raise ValueError(f"size {size} not in {known_sizes}")


    def twice(x):
        raise ValueError(f"{x} not in {rebound}")


    def shadowed(entrance_rounded_methods):
        raise ValueError(f"methods are {entrance_rounded_methods}")
'''


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "fl").mkdir()
    (tmp_path / "fl" / "__init__.py").touch()
    (tmp_path / "fl" / "fittings.py").write_text(textwrap.dedent(FITTINGS))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_a_module_list_of_literals_reads_as_its_repr(tmp_path: Path) -> None:
    t = _templates(tmp_path)
    assert t["entrance_rounded"] == ["Specified method not recognized; methods are ['Rennels', 'Crane', 'Miller']"]
    assert t["entrance_angled"] == ["Specified method not recognized; methods are ('Idelchik',)"]
    assert t["sized"] == ["size {size} not in [1, 2.5, None]"]


def test_a_list_the_module_edits_rebinds_or_a_local_shadows_stays_a_placeholder(tmp_path: Path) -> None:
    t = _templates(tmp_path)
    assert t["entrance_registered"] == ["methods are {registered_methods}"]  # `registered_methods.append(name)`
    assert t["twice"] == ["{x} not in {rebound}"]  # bound twice at the top level
    assert t["shadowed"] == ["methods are {entrance_rounded_methods}"]  # the parameter, not the module's list
