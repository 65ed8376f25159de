"""``"text" % value`` with no ``%`` field in the text raises Python's ``TypeError: not all arguments
converted during string formatting`` (``textops.unconverted``, issue 17's fortieth round): num2words 0.5.14's
``Num2Word_ID`` sets ``errmsg_floatord = "Cannot treat float number as ordinal"`` where the base's reads
``"Cannot treat float %s as ordinal."``, and ``verify_ordinal`` raises ``TypeError(self.errmsg_floatord %
value)``: what the user sees is Python's text, raised at that line.  A value that may be a mapping (a name)
keeps the text too; a dict or an empty tuple formats to the text unchanged; a field formats as before."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

UNCONVERTED = "not all arguments converted during string formatting"

WORDS = '''
    class Num2WordBase:
        def __init__(self):
            self.errmsg_floatord = "Cannot treat float %s as ordinal."
            self.errmsg_nonnum = "type(%s) not in [long, int, float]"

        def verify_ordinal(self, value):
            if not value == int(value):
                raise TypeError(self.errmsg_floatord % value)


    class Num2WordID(Num2WordBase):
        errmsg_floatord = "Cannot treat float number as ordinal"
        errmsg_negord = "Cannot treat negative number as ordinal"

        def verify_ordinal(self, value):
            if not value == int(value):
                raise TypeError(self.errmsg_floatord % value)
            if not abs(value) == value:
                raise TypeError(self.errmsg_negord % (value,))


    def check(value, opts):
        if value is None:
            raise ValueError("no value given" % {"value": value})
        if not opts:
            raise ValueError("no options given" % ())
'''


def _result(tmp_path: Path) -> object:
    (tmp_path / "words").mkdir()
    (tmp_path / "words" / "__init__.py").write_text(textwrap.dedent(WORDS))
    return extract_dir(tmp_path)


def _texts(result: object, qualname: str, index: int = 0) -> list[str]:
    return [t.render() for t in site_in(result, "words/__init__.py", qualname, index).templates]  # type: ignore[arg-type]


def test_a_text_without_fields_formatted_with_a_value_is_pythons_type_error(tmp_path: Path) -> None:
    result = _result(tmp_path)
    assert _texts(result, "Num2WordID.verify_ordinal") == ["Cannot treat float number as ordinal", UNCONVERTED]
    assert _texts(result, "Num2WordID.verify_ordinal", 1) == [UNCONVERTED]  # a tuple: always


def test_a_field_a_mapping_and_an_empty_tuple_format_as_before(tmp_path: Path) -> None:
    result = _result(tmp_path)
    # the base's own text has a field; the family's text of the subclass has none (its error comes last)
    assert _texts(result, "Num2WordBase.verify_ordinal")[0] == "Cannot treat float {value} as ordinal."
    assert _texts(result, "check") == ["no value given"]
    assert _texts(result, "check", 1) == ["no options given"]
