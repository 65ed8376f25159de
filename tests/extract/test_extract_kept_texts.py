"""Texts a plain class keeps on ``self`` for its methods (``extract/kepttexts.py``): num2words 0.5.14's
``Num2Word_Base.__init__`` sets ``self.errmsg_floatord = "Cannot treat float %s as ordinal."``, a language's
subclass sets its own in ``setup()`` or as a class attribute, and ``verify_ordinal`` raises
``TypeError(self.errmsg_floatord % value)``, read as ``{self.errmsg_floatord % value}`` (issue 17's
twenty-seventh round).  The raise's texts are the class's (or its nearest base's) and each subclass's own;
an attribute some class sets to a value that is no literal, or that no class sets, stays a placeholder."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

BASE = '''
    class Num2Word_Base:
        def __init__(self):
            self.precision = 2
            self.errmsg_floatord = "Cannot treat float %s as ordinal."
            self.errmsg_toobig = "abs(%s) must be less than %s."
            self.setup()

        def setup(self):
            pass

        def verify_ordinal(self, value):
            if not value == int(value):
                raise TypeError(self.errmsg_floatord % value)

        def to_cardinal(self, value, limit):
            if value >= limit:
                raise OverflowError(self.errmsg_toobig % (value, limit))

        def replay(self):
            raise RuntimeError(self.last_msg)

        def remember(self, text):
            self.last_msg = text
'''

LANG_DE = '''
    from .base import Num2Word_Base


    class Num2Word_DE(Num2Word_Base):
        def setup(self):
            self.errmsg_floatord = (
                "Die Gleitkommazahl %s kann nicht in eine Ordnungszahl " +
                "konvertiert werden."
            )
'''

LANG_AR = '''
    from .base import Num2Word_Base


    class Num2Word_AR(Num2Word_Base):
        errmsg_toobig = "abs(%s) must be less than %s (Arabic)."

        def to_cardinal(self, number, limit=10**51):
            if number >= limit:
                raise OverflowError(self.errmsg_toobig % (number, limit))
'''


def _pkg(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "base.py").write_text(textwrap.dedent(BASE))
    (tmp_path / "pkg" / "lang_de.py").write_text(textwrap.dedent(LANG_DE))
    (tmp_path / "pkg" / "lang_ar.py").write_text(textwrap.dedent(LANG_AR))
    return tmp_path


def _texts(result: object, path: str, qualname: str) -> list[str]:
    return [t.render() for t in site_in(result, path, qualname).templates]  # type: ignore[arg-type]


def test_the_class_and_its_subclasses_texts_are_the_raises(tmp_path: Path) -> None:
    result = extract_dir(_pkg(tmp_path))
    assert _texts(result, "pkg/base.py", "Num2Word_Base.verify_ordinal") == [
        "Cannot treat float {value} as ordinal.",
        "Die Gleitkommazahl {value} kann nicht in eine Ordnungszahl konvertiert werden.",
    ]
    assert _texts(result, "pkg/base.py", "Num2Word_Base.to_cardinal") == [
        "abs({value}) must be less than {limit}.", "abs({value}) must be less than {limit} (Arabic).",
    ]
    # a subclass's own raise: its own class attribute (no subclass of its own)
    assert _texts(result, "pkg/lang_ar.py", "Num2Word_AR.to_cardinal") == [
        "abs({number}) must be less than {limit} (Arabic).",
    ]


def test_a_text_set_from_a_value_stays_a_placeholder(tmp_path: Path) -> None:
    result = extract_dir(_pkg(tmp_path))
    assert _texts(result, "pkg/base.py", "Num2Word_Base.replay") == ["{self.last_msg}"]


VALIDATORS = '''
    from attr import attrib, attrs


    @attrs(slots=True)
    class _NotValidator:
        msg = attrib(default="not_ validator child {validator!r} did not raise a captured error")

        def __call__(self, inst, attr, value):
            raise ValueError(self.msg.format(validator=self))
'''


def test_a_class_that_sets_no_text_and_has_no_base_reads_its_own_value(tmp_path: Path) -> None:
    # attrs 26.1.0's `_NotValidator`: `msg` is an attrs field of the instance, no class keeps it
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "validators.py").write_text(textwrap.dedent(VALIDATORS))
    result = extract_dir(tmp_path)
    assert _texts(result, "pkg/validators.py", "_NotValidator.__call__") == ["{self.msg.format(validator=self)}"]
