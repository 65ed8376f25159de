"""``sep.join(<element> for x in xs)``: a text joined from parts a comprehension generates (python-jsonschema-objects
0.5.7's ``TypeProxy.__call__``, issue 17's forty-fourth round: ``"Unable to instantiate any valid types: \\n"
"".join("{0}: {1}\\n".format(k, e) for k, e in validation_errors)``, the heading being the separator by implicit
concatenation; one placeholder before, 28 of its round-24 events matched other sites; ``extract/joinedparts.py``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract.ir import Alt, Cat, Hole, Lit
from errdex.extract.joinedparts import has_literal
from errdex.match import explain_parsed, parse_safely
from errdex.match.index import build
from errdex.model import Snapshot

PROXY = '''
    import os


    class ValidationError(Exception):
        pass


    class TypeProxy:
        def __init__(self, types):
            self._types = types

        def __call__(self, *a, **kw):
            validation_errors = []
            for klass in self._types:
                try:
                    return klass(*a, **kw)
                except ValidationError as e:
                    validation_errors.append((klass, e))
            raise ValidationError(
                "Unable to instantiate any valid types: \\n"
                "".join("{0}: {1}\\n".format(k, e) for k, e in validation_errors)
            )


    def check_all(errors):
        raise ValueError("\\n".join([f"  - {name}: {why}" for name, why in errors]))


    def check_listed(errors):
        lines = [f"{key!r} is missing" for key in errors if key]
        raise ValueError("; ".join(lines))


    def plain(errors):
        raise ValueError("; ".join(str(e) for e in errors))


    def shadowed(items):
        w = "fixed"
        raise ValueError(", ".join(f"<{w}>" for w in items) + f" after {w}")


    def module_name(paths):
        raise ValueError(", ".join(f"[{os}]" for os in paths))
'''


def _sites(tmp_path: Path) -> dict[str, set[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "proxy.py").write_text(textwrap.dedent(PROXY))
    return {s.qualname: {t.render() for t in s.templates} for s in extract_dir(tmp_path).sites}


def test_the_element_once_or_twice_with_the_separator(tmp_path: Path) -> None:
    found = _sites(tmp_path)
    assert found["TypeProxy.__call__"] == {"{k}: {e}\n", "{k}: {e}\nUnable to instantiate any valid types: \n{k}: {e}\n"}
    assert found["check_all"] == {"  - {name}: {why}", "  - {name}: {why}\n  - {name}: {why}"}
    assert found["check_listed"] == {"{key} is missing", "{key} is missing; {key} is missing"}


def test_no_literal_of_its_own_and_names_of_the_module_stay_one_placeholder(tmp_path: Path) -> None:
    found = _sites(tmp_path)
    assert found["plain"] == {'{"; ".join(str(e) for e in errors)}'}
    assert len(found["module_name"]) == 1 and "[" not in next(iter(found["module_name"])).replace('"[', "")


def test_a_loop_variable_shadows_the_local_of_its_name(tmp_path: Path) -> None:
    found = _sites(tmp_path)
    assert "<{w}> after fixed" in found["shadowed"]  # the loop's `w`, not the local's "fixed"
    assert not any("<fixed>" in t for t in found["shadowed"])


def test_literal_text_of_its_own() -> None:
    assert has_literal(Cat((Hole("k"), Lit(": "), Hole("e"))))
    assert not has_literal(Cat((Hole("k"), Lit(""), Hole("e"))))
    assert not has_literal(Alt((Lit("x"), Hole("e"))))  # an option of no text of its own


def test_a_message_of_three_parts_matches_the_site(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "proxy.py").write_text(textwrap.dedent(PROXY))
    snap = Snapshot(repo="acme/shapes", ref="v1", url_base="https://github.com/acme/shapes/blob/v1")
    sites = extract_dir(tmp_path).sites
    idx = build((snap, s) for s in sites)
    want = next(s.error_id for s in sites if s.qualname == "TypeProxy.__call__")
    text = ("<class 'abc.Ref_0'>: Hi is neither an integer nor a float\nUnable to instantiate any valid types: \n"
            "<class 'abc.Ref_1'>: 0 is not a string\nUnable to instantiate any valid types: \n"
            "<class 'abc.Ref_2'>: 0 is not a boolean\n")
    top = explain_parsed(idx, parse_safely(text), top=3).matches[0]
    assert top.id == want and top.method == "exact"


EXTENDED = '''
    def report(problems):
        lines = ["Problems found:"]
        lines.extend(f"  * {p}" for p in problems)
        raise ValueError("\\n".join(lines))
'''


def test_parts_added_to_a_list_may_be_none(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "report.py").write_text(textwrap.dedent(EXTENDED))
    found = {t.render() for s in extract_dir(tmp_path).sites for t in s.templates}
    assert "Problems found:" in found  # no problem: the heading alone
    assert "Problems found:\n  * {p}" in found
    assert "Problems found:\n  * {p}\n  * {p}" in found
