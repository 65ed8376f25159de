"""A message helper reached through ``__getattr__`` on an instance held by a base class's attribute
(cssutils 2.15.0: ``_ErrorHandler.__getattr__`` returns ``self.__handle`` for ``error``/``warn``/...,
which raises ``error(msg)``; ``Base._log = ErrorHandler()``, and every subclass calls
``self._log.error("CSSStyleRule: No selector found: ...", token, error=xml.dom.SyntaxErr)``; captured
texts from its suite: ``CSSStyleRule: No start { of style declaration found: '}' [1:1: }]``).  The calls are
the helper's callers: the raise gets one template per caller's message, each with the helper's suffix."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

HANDLER = '''
    import xml.dom


    class _ErrorHandler:
        def __init__(self, raiseExceptions=True):
            self.raiseExceptions = raiseExceptions

        def __getattr__(self, name):
            calls = ('debug', 'info', 'warn', 'error')
            other = ('setLevel', 'addHandler')
            if name in calls:
                return self.__handle
            elif name in other:
                return getattr(self._log, name)
            else:
                raise AttributeError('(errorhandler) No Attribute %r found' % name)

        def __handle(self, msg='', token=None, error=xml.dom.SyntaxErr, neverraise=False):
            if token:
                value, line, col = token.value, token.line, token.col
                msg = f'{msg} [{line}:{col}: {value}]'
            if error and self.raiseExceptions and not neverraise:
                raise error(msg)


    class ErrorHandler(_ErrorHandler):
        pass
'''

UTIL = '''
    from pkg import errorhandler


    class Base:
        _log = errorhandler.ErrorHandler()
'''

RULES = '''
    import xml.dom

    from pkg.util import Base


    class StyleRule(Base):
        def _setCssText(self, text, token):
            if not text:
                self._log.error('CSSStyleRule: No selector found: %r.' % text, token)
            if text.startswith("@"):
                self._log.error('CSSStyleRule: Not a style rule.', error=xml.dom.InvalidModificationErr)


    class SAXHandler:
        def error(self, message):
            print(message)
'''


def test_getattr_helper_called_through_inherited_attribute(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errorhandler.py").write_text(textwrap.dedent(HANDLER))
    (tmp_path / "pkg" / "util.py").write_text(textwrap.dedent(UTIL))
    (tmp_path / "pkg" / "rules.py").write_text(textwrap.dedent(RULES))
    result = extract_dir(tmp_path)
    site = site_in(result, "pkg/errorhandler.py", "_ErrorHandler.__handle")
    texts = {t.render() for t in site.templates}
    # not `SAXHandler.error`, the package's one method named `error`: the receiver's class says which
    assert "CSSStyleRule: No selector found: {text}. [{line}:{col}: {value}]" in texts, texts
    assert "CSSStyleRule: Not a style rule." in texts, texts


def test_many_callers_each_with_two_forms_and_a_class(tmp_path: Path) -> None:
    """140 calls, each message with and without the helper's position suffix: 280 templates, past the
    old cap of 64 (which left the one placeholder ``{msg} [{line}:{col}: {value}]``)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errorhandler.py").write_text(textwrap.dedent(HANDLER))
    (tmp_path / "pkg" / "util.py").write_text(textwrap.dedent(UTIL))
    calls = "\n".join(f"            self._log.error('Rule: problem number {i} found.', token)" for i in range(140))
    (tmp_path / "pkg" / "rules.py").write_text(
        "from pkg.util import Base\n\n\nclass Rule(Base):\n    def parse(self, token):\n        if token:\n"
        + calls.replace("            ", "            ", 1) + "\n")
    result = extract_dir(tmp_path)
    texts = {t.render() for t in site_in(result, "pkg/errorhandler.py", "_ErrorHandler.__handle").templates}
    assert "Rule: problem number 139 found. [{line}:{col}: {value}]" in texts, sorted(texts)[:5]
