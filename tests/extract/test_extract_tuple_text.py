"""A tuple passed where text is expected prints its ``repr`` (oauthlib 4.0.1's signature check, captured text
from its test suite: ``(invalid_request) ('oauth_ params must come from only 1 signaturetype but were found in
%s', 'BODY, QUERY')``): ``InvalidRequestError(description=('... found in %s', ', '.join(found_types)))``, a
``%`` never applied, is formatted by ``'({}) {}'.format(self.error, self.description)``.  The description was
one placeholder; a tuple display shown as text is now its repr (``messages.value``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class OAuth1Error(Exception):
        error = None
        description = ''

        def __init__(self, description=None, uri=None):
            self.description = description or self.description
            message = '({}) {}'.format(self.error, self.description)
            super().__init__(message)


    class InvalidRequestError(OAuth1Error):
        error = 'invalid_request'


    def check(found_types, one):
        if len(found_types) > 1:
            raise InvalidRequestError(
                description=('oauth_ params must come from only 1 signature'
                             'type but were found in %s',
                             ', '.join(found_types)))
        raise ValueError(f"got {(one,)}")
'''


def test_a_tuple_shown_as_text_is_its_repr(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    first, second = sorted((s for s in extract_dir(tmp_path).sites if s.qualname == "check"), key=lambda s: s.line)
    texts = [t.render() for t in first.templates]
    assert "(invalid_request) ('oauth_ params must come from only 1 signaturetype but were found in %s', " \
           "{', '.join(found_types)})" in texts
    assert [t.render() for t in second.templates] == ["got ({one},)"]
