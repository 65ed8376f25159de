"""A message template the exception class holds, each subclass overriding it (fs 2.4.16's ``FSError``:
``default_message = "Unspecified error"``, ``self._msg = msg or self.default_message`` in ``__init__``,
``self._msg.format(**self.__dict__)`` in ``__str__``; ``ResourceNotFound.default_message = "resource
'{path}' not found"``; captured from its test suite: ``resource 'foofoo' not found``): a raise of a
subclass has that subclass's template (or the nearest base's), its fields placeholders."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class FSError(Exception):
        """Base exception for the filesystem."""

        default_message = "Unspecified error"

        def __init__(self, msg=None):
            self._msg = msg or self.default_message
            super(FSError, self).__init__()

        def __str__(self):
            msg = self._msg.format(**self.__dict__)
            return msg


    class FilesystemClosed(FSError):
        default_message = "attempt to use closed filesystem"


    class ResourceError(FSError):
        default_message = "failed on path {path}"

        def __init__(self, path, exc=None, msg=None):
            self.path = path
            self.exc = exc
            super(ResourceError, self).__init__(msg=msg)


    class ResourceNotFound(ResourceError):
        default_message = "resource '{path}' not found"


    class ResourceLocked(ResourceError):
        pass


    class NoURL(ResourceError):
        default_message = "path '{path}' has no '{purpose}' URL"

        def __init__(self, path, purpose, msg=None):
            self.purpose = purpose
            super(NoURL, self).__init__(path, msg=msg)
'''

BASE = '''
    from pkg import errors


    class FS:
        def desc(self, path):
            if not self.exists(path):
                raise errors.ResourceNotFound(path)
            if self.closed:
                raise errors.FilesystemClosed()
            if self.locked(path):
                raise errors.ResourceLocked(path)
            if self.remote:
                raise errors.NoURL(path, "download")
            raise errors.ResourceNotFound(path, msg="no such path: {path}")
'''


def _sites(tmp_path: Path, errors: str) -> list[list[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(errors))
    (tmp_path / "pkg" / "base.py").write_text(textwrap.dedent(BASE))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.path.endswith("base.py")), key=lambda s: s.line)
    return [[t.render() for t in s.templates] for s in sites]


def test_the_raised_class_template_with_its_fields(tmp_path: Path) -> None:
    missing, closed, locked, no_url, custom = _sites(tmp_path, ERRORS)
    assert missing[0] == "resource '{path}' not found"
    assert closed[0] == "attempt to use closed filesystem"
    assert locked[0] == "failed on path {path}"  # no override of its own: the nearest base's
    assert no_url[0] == "path '{path}' has no '{purpose}' URL"
    assert "no such path: {path}" in custom  # the caller's text, formatted the same way
    assert not any("Unspecified error" in t for ts in (missing, closed, locked, no_url) for t in ts)


def test_vars_of_self_and_the_text_read_elsewhere(tmp_path: Path) -> None:
    # `vars(self)` is the same mapping; the kept text read by another method of the class, not through a
    # raise of a known class, is the defining class's own
    errors = ERRORS.replace("self._msg.format(**self.__dict__)", "self._msg.format(**vars(self))").replace(
        "            return msg\n", "            return msg\n\n        def fail(self):\n"
        "            raise RuntimeError(self._msg)\n", 1)
    missing, closed, *_ = _sites(tmp_path, errors)
    assert missing[0] == "resource '{path}' not found"
    assert closed[0] == "attempt to use closed filesystem"
    fail = [s for s in extract_dir(tmp_path).sites if s.qualname == "FSError.fail"]
    assert "Unspecified error" in [t.render() for t in fail[0].templates]
