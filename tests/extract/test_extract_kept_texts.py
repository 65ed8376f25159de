"""Texts a plain class keeps for its methods: num2words 0.5.14's ``Num2Word_Base.__init__`` sets
``self.errmsg_floatord = "Cannot treat float %s as ordinal."`` and ``verify_ordinal`` raises
``TypeError(self.errmsg_floatord % value)``, read as ``{self.errmsg_floatord % value}`` (issue 17's
twenty-seventh round).  An ``__init__`` assigning a literal to a ``self`` attribute named like a message
(err, msg, message) is walked, and its texts are the class's raises'; an attribute another method sets
again holds whatever that method set, and stays a value."""

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
            self.last_msg = "nothing yet"

        def verify_ordinal(self, value):
            if not value == int(value):
                raise TypeError(self.errmsg_floatord % value)

        def to_cardinal(self, value, limit):
            if value >= limit:
                raise OverflowError(self.errmsg_toobig % (value, limit))

        def remember(self, text):
            self.last_msg = text

        def replay(self):
            raise RuntimeError(self.last_msg)
'''


def test_a_plain_class_keeps_literal_texts_for_its_raises(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "base.py").write_text(textwrap.dedent(BASE))
    result = extract_dir(tmp_path)
    ordinal = site_in(result, "pkg/base.py", "Num2Word_Base.verify_ordinal")
    assert [t.render() for t in ordinal.templates] == ["Cannot treat float {value} as ordinal."]
    big = site_in(result, "pkg/base.py", "Num2Word_Base.to_cardinal")
    assert [t.render() for t in big.templates] == ["abs({value}) must be less than {limit}."]
    # `remember` sets `last_msg` again: the raise shows the latest value, not the text __init__ set
    assert [t.render() for t in site_in(result, "pkg/base.py", "Num2Word_Base.replay").templates] \
        == ["{self.last_msg}"]
