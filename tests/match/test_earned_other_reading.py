"""A rival reads the top's text in any of its readings (``verify.other_readings``), not only its first.

codext 1.16.5 (round 39): its base-2^n codecs raise ``'base{n}' codec can't decode character '{c}' in position
{i}`` and its generic error handler ``'{name}' codec can't {['en','de'][decode]}code {kind} '{token}' in {item}
{position}``; ``'base36' codec can't decode character '?' in position 22`` was raised by the handler.  The
first reading of the handler's template shares the space before ``{item}`` with an empty item and gives
``{position}`` the two words ``position 22``, so it did not seem to read the word ``position`` that the top
writes, and the top stayed confident: 5 confident-wrong message-only events.  Read with the values first, the
handler accounts for every word of the top: nothing in the text rules it out, the top is no longer confident,
and the handler's raise is listed in its tied group."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from codecshape import BASE2N
from errdex.catalog.base import Catalog
from errdex.match import explain

HANDLER = '''
class CodecError(ValueError):
    pass


def handle_error(ename, decode=False, kind="character", item="position"):
    def _handle_error(token, position):
        raise CodecError(f"'{ename}' codec can't {['en', 'de'][decode]}code {kind} '{token}' in {item} {position}")
    return _handle_error
'''


@pytest.fixture(scope="module")
def codecs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "otherreading", "codeclike",
                               {"__init__.py": "", "base2n.py": BASE2N, "common.py": HANDLER})


def test_a_rival_read_with_its_values_first_takes_the_top_s_confidence(codecs: Catalog) -> None:
    r = explain(codecs, "'base36' codec can't decode character '?' in position 22")
    top = r.matches[0]
    assert top.path.endswith("base2n.py") and top.method == "exact"
    assert not top.confident and not r.confident
    assert "common.py:8" in top.tie_note
    assert any(m.path.endswith("common.py") for m in r.matches[1:])
    # the rival joins the tied group: the text cannot tell the two raises apart
    assert top.tied_count == 1 and [t.path for t in top.tied] == ["codeclike/common.py"]


def test_the_printed_class_still_decides(codecs: Catalog) -> None:
    top = explain(codecs, "codeclike.base2n.Base2NDecodeError: 'base36' codec can't decode character '?' in "
                          "position 22").matches[0]
    assert top.path.endswith("base2n.py") and top.confident
