"""A codec error caught and raised again as another class (issue 17's fifty-eighth round): latexcodec 3.0.1's
lexer catches the codec's ``UnicodeDecodeError``/``UnicodeEncodeError`` and raises ``ValueError(e)``, whose text
is CPython's (``'utf-8' codec can't decode byte 0xe9 in position 0: invalid continuation byte``).  The raise
reads that text over the caught error's attributes (``extract/stdlib_texts.codec_error_texts``), and a match on
it is never confident without a traceback: the same data fails with the same text wherever it is decoded
(``match/honesty.caught_codec_text``).  The library's own codec error, which writes its encoding
(``'latex' codec can't decode ...``), keeps its confidence.  The package is written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

LEXER = '''
import codecs


class LatexIncrementalDecoder(codecs.IncrementalDecoder):
    inputenc = "ascii"

    def __init__(self, errors="strict"):
        super().__init__(errors)
        self.decoder = codecs.getincrementaldecoder(self.inputenc)(errors)

    def get_tokens(self, chars, pos):
        if chars.endswith("\\\\"):
            raise UnicodeDecodeError("latex", chars.encode(), pos, pos + 1, "unknown token '\\\\'")
        return list(chars)

    def decode(self, bytes_, final=False):
        try:
            chars = self.decoder.decode(bytes_, final=final)
        except UnicodeDecodeError as e:
            # API requires that the decode method raises a ValueError
            raise ValueError(e)
        return "".join(self.get_tokens(chars, 0))


class LatexIncrementalEncoder(codecs.IncrementalEncoder):
    inputenc = "ascii"

    def encode(self, unicode_, final=False):
        try:
            return unicode_.encode(self.inputenc, self.errors)
        except UnicodeEncodeError as e:
            raise ValueError(e)
'''

DECODE = "'utf-8' codec can't decode byte 0xe9 in position 0: invalid continuation byte"
ENCODE = "'ascii' codec can't encode character '\\xff' in position 0: ordinal not in range(128)"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "codec", "latexlike", {"__init__.py": "", "lexer.py": LEXER})


def test_the_caught_codec_text_is_the_reraise_s_text(lib: Catalog) -> None:
    r = explain(lib, f"ValueError: {DECODE}")
    assert r.matches[0].qualname == "LatexIncrementalDecoder.decode" and r.matches[0].method == "exact"
    r = explain(lib, ENCODE)
    assert r.matches[0].qualname == "LatexIncrementalEncoder.encode" and r.matches[0].method == "exact"


def test_a_caught_codec_text_is_never_confident_without_frames(lib: Catalog) -> None:
    # the codec's own error under the library's call prints the same text: the re-raise is no certainty
    for text in (DECODE, f"ValueError: {DECODE}", f"UnicodeDecodeError: {DECODE}", ENCODE):
        assert not explain(lib, text).matches[0].confident
    r = explain(lib, "UnicodeDecodeError: 'latex' codec can't decode byte 0x5c in position 9: unknown token '\\\\'")
    assert r.matches[0].qualname == "LatexIncrementalDecoder.get_tokens" and r.matches[0].confident
