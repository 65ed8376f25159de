"""An exception whose ``__init__`` builds its text from class attributes the subclasses set (oauthlib
4.0.1's ``OAuth2Error``, captured texts from its test suite: ``(invalid_request) Missing redirect URI.
<oauthlib.Request url=...>``): ``message = '({}) {}'.format(self.error, self.description)``, extended with
the request's repr, is handed to ``Exception.__init__``; the base sets ``error = None`` and ``description =
''``, each subclass only ``error = 'invalid_request'`` / ``description = 'Missing redirect URI.'``, and
``self.description`` is replaced only when the raise passes one.  The raises had ``({self.error})
{description}`` and tied on any text; the raised class's own attributes now fill them (``expand.py``,
``_class_attrs`` and the left-out parameter's class attribute)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class OAuthError(Exception):
        error = None
        status_code = 400
        description = ''

        def __init__(self, description=None, uri=None, state=None, request=None):
            if description is not None:
                self.description = description

            message = '({}) {}'.format(self.error, self.description)
            if request:
                message += ' ' + repr(request)
            super().__init__(message)
            self.uri = uri
            self.state = state


    class FatalClientError(OAuthError):
        pass


    class InvalidRequestFatalError(FatalClientError):
        error = 'invalid_request'


    class MissingRedirectURIError(InvalidRequestFatalError):
        description = 'Missing redirect URI.'


    class InvalidScopeError(OAuthError):
        error = 'invalid_scope'
        status_code = 400
'''

GRANT = '''
    from pkg import errors


    def validate_redirect(request, validator):
        if not request.redirect_uri:
            raise errors.MissingRedirectURIError(request=request)


    def validate_scopes(request, validator):
        if not validator.scopes(request.scopes):
            raise errors.InvalidScopeError(request=request)
        if request.scopes == ["bad"]:
            raise errors.InvalidScopeError(description="Bad scope requested.")
'''


def test_the_raised_class_attributes_fill_the_text_init_builds(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "pkg" / "grant.py").write_text(textwrap.dedent(GRANT))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path.endswith("grant.py")), key=lambda s: s.line)
    missing, scope, bad = ([t.render() for t in s.templates] for s in sites)
    assert "(invalid_request) Missing redirect URI. {repr(request)}" in missing
    assert "(invalid_request) Missing redirect URI." in missing
    # the base's empty description when the raise passes none; the passed one when it does
    assert "(invalid_scope)  {repr(request)}" in scope
    assert "(invalid_scope) Bad scope requested." in bad
    assert not any("self.error" in t for t in (*missing, *scope, *bad))
