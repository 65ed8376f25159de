"""A message joined from a list grown by many independent optional appends, more combinations than the
cap (cantools 45.1.0's ``UnsupportedDatabaseFormatError.__init__``: one ``f'DBC: "{e_dbc}"'``-style chunk per
format whose parser failed, five of them, ``message = ', '.join(message_chunks)``; captured texts from its
suite: ``DBC: "unused VAL_ entries in DBC: ..."`` when one format was asked for).  When no cut of the
combinations keeps a known first item, each item alone and the fullest lists are kept, rather than one
placeholder for the whole text."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    class Error(Exception):
        pass


    class UnsupportedDatabaseFormatError(Error):
        def __init__(self, e_arxml, e_dbc, e_kcd, e_sym, e_cdd):
            message_chunks = []
            if e_arxml is not None:
                message_chunks.append(f'ARXML: "{e_arxml}"')
            if e_dbc is not None:
                message_chunks.append(f'DBC: "{e_dbc}"')
            if e_kcd is not None:
                message_chunks.append(f'KCD: "{e_kcd}"')
            if e_sym is not None:
                message_chunks.append(f'SYM: "{e_sym}"')
            if e_cdd is not None:
                message_chunks.append(f'CDD: "{e_cdd}"')
            message = ', '.join(message_chunks)
            super().__init__(message)
'''

LOAD = '''
    from db.errors import UnsupportedDatabaseFormatError


    def load_string(string, database_format=None):
        e_arxml = e_dbc = e_kcd = e_sym = e_cdd = None
        if database_format in ['dbc', None]:
            try:
                return parse_dbc(string)
            except Exception as e:
                e_dbc = e
        raise UnsupportedDatabaseFormatError(e_arxml, e_dbc, e_kcd, e_sym, e_cdd)


    def parse_dbc(string):
        return string.split()
'''


def test_each_optional_item_alone_is_a_text(tmp_path: Path) -> None:
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "__init__.py").write_text(textwrap.dedent(LOAD))
    (tmp_path / "db" / "errors.py").write_text(textwrap.dedent(ERRORS))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "db/__init__.py", "load_string").templates]
    assert 'DBC: "{e_dbc}"' in texts and 'ARXML: "{e_arxml}"' in texts, texts
    # the fullest list is kept too, its later items one placeholder
    assert any(t.startswith('ARXML: "{e_arxml}", ') for t in texts), texts
