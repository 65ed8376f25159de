"""``str.format`` with a starred last argument: elementpath 5.1.4's ``ElementPathError.__str__`` returns
``'{2} at line {3}, column {4}: [{1}] {0}'.format(self.message, self.code, self.token, *self.token.position)``,
read as one placeholder until the fields from the starred argument's index on were read as its items (issue
17's twenty-seventh round).  A starred argument before others leaves the indexes unknown: still a placeholder."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    class ElementPathError(Exception):
        def __init__(self, message, code=None, token=None):
            super().__init__(message)
            self.message = message
            self.code = code
            self.token = token

        def __str__(self):
            if self.token is None:
                return self.message
            return '{2} at line {3}, column {4}: [{1}] {0}'.format(
                self.message, self.code, self.token, *self.token.position
            )


    def check(name, token):
        raise ElementPathError(f"unknown name {name!r}", "err:XPST0008", token)


    def spread_first(parts, where):
        raise ValueError("{0} at {1}".format(*parts, where))
'''


def test_fields_from_the_starred_argument_on_are_its_items(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    result = extract_dir(tmp_path)
    texts = [t.render() for t in site_in(result, "pkg/errors.py", "check").templates]
    assert "{token} at line {self.token.position[0]}, column {self.token.position[1]}: [err:XPST0008] " \
        "unknown name {name}" in texts
    assert "unknown name {name}" in texts
    spread = [t.render() for t in site_in(result, "pkg/errors.py", "spread_first").templates]
    assert spread == ['{"{0} at {1}".format(*parts, where)}']
