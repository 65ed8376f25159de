"""The caught exception's arguments handed on whole to another class: rosbags 0.11.9's
``AnyReader.deserialize`` catches the type store's ``SerdeError`` and raises ``AnyReaderError(*err.args) from
None``, so ``Invalid or unsupported CDR encapsulation.`` is printed again, whole, as an ``AnyReaderError``.
``*err.args`` was not read as the caught text (``indexdata.caught``): the re-raise was no rewrap, and the
message alone named the store's raise confidently.  Read as one, the message alone names the store's raise
tied with the re-raise (not confident), and the printed class names the re-raise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

SERDE = '''
class SerdeError(Exception):
    """Serialization and deserialization error."""
'''

STORE = '''
from bags.serde import SerdeError


class Typestore:
    def deserialize_cdr(self, rawdata, typename):
        if rawdata[1:2] not in (b"\\x00", b"\\x01"):
            msg = "Invalid or unsupported CDR encapsulation."
            raise SerdeError(msg)
        return self.decode(rawdata[4:], typename)
'''

READER = '''
from bags.serde import SerdeError


class AnyReaderError(Exception):
    """Reader error."""


class AnyReader:
    def __init__(self, typestore):
        self.typestore = typestore

    def deserialize(self, rawdata, typ):
        try:
            return self.typestore.deserialize_cdr(rawdata, typ)
        except SerdeError as err:
            raise AnyReaderError(*err.args) from None
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "caught_args_rewrap", "bags",
                               {"__init__.py": "", "serde.py": SERDE, "store.py": STORE, "reader.py": READER})


def test_the_message_alone_ties_the_raise_with_its_rewrap(lib: Catalog) -> None:
    top = explain(lib, "Invalid or unsupported CDR encapsulation.").matches[0]
    assert top.qualname == "Typestore.deserialize_cdr"
    assert "AnyReader.deserialize" in {t.qualname for t in top.tied}
    assert not top.confident


def test_the_printed_class_names_the_rewrap(lib: Catalog) -> None:
    top = explain(lib, "bags.reader.AnyReaderError: Invalid or unsupported CDR encapsulation.").matches[0]
    assert top.qualname == "AnyReader.deserialize"
