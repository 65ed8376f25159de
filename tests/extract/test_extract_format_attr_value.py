"""A ``.format`` argument read from an attribute that holds a value on one path and a literal on another
(mimesis 19.1.0's ``NonEnumerableError``: ``self.items = ", ".join(map(str, enum_obj))`` or ``""``, printed by
``self.message.format(self.items, self.name.__name__)``).  Only the empty text reads, so the eighty-first round's
``.format`` of a text known in phase 2 (``msgforms._format_arg``, ``formatted.py``) filled the field with it and the
site lost the template the enum's members print into; the field keeps a placeholder beside the literal."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

EXCEPTIONS = '''
    import typing as t


    class NonEnumerableError(TypeError):
        """Raised when an object is not an instance of Enum."""

        message = "You should use one item of: «{}» of the object mimesis.enums.{}"

        def __init__(self, enum_obj: t.Any) -> None:
            if enum_obj:
                self.name = enum_obj
                self.items = ", ".join(map(str, enum_obj))
            else:
                self.items = ""

        def __str__(self) -> str:
            return self.message.format(self.items, self.name.__name__)
'''

PAYMENT = '''
    from .exceptions import NonEnumerableError


    class Payment:
        def credit_card_number(self, card_type, known):
            if card_type not in known:
                raise NonEnumerableError(type(card_type))
            return known[card_type]
'''


def test_a_field_read_from_an_attribute_keeps_a_placeholder_beside_its_literal(tmp_path: Path) -> None:
    (tmp_path / "fakerish").mkdir()
    (tmp_path / "fakerish" / "__init__.py").touch()
    (tmp_path / "fakerish" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    (tmp_path / "fakerish" / "payment.py").write_text(textwrap.dedent(PAYMENT))
    site = site_in(extract_dir(tmp_path), "fakerish/payment.py", "Payment.credit_card_number", 0)
    rendered = [t.render() for t in site.templates]
    assert any(r.startswith("You should use one item of: «{") and "» of the object mimesis.enums." in r
               for r in rendered), rendered
