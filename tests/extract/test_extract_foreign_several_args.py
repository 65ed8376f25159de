"""Another package's class handed several arguments: SQLObject 3.14.0's ``UnicodeStringValidator.from_python``
raises ``validators.Invalid("expected a str or a unicode in the UnicodeCol '%s', got %s %r instead" % (...),
value, state)``; formencode's ``Invalid.__str__`` prints the message alone, while errdex only held the arguments
tuple (``("expected ...", {value}, {state})``).  errdex cannot read the dependency, so such a site carries both
readings; the package's own class with several arguments and no ``__str__`` still prints the tuple alone."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

COL = '''
    from formencode import validators


    class ColumnError(Exception):
        pass


    class UnicodeStringValidator(validators.Validator):

        def from_python(self, value, state):
            if isinstance(value, str):
                return value
            raise validators.Invalid(
                "expected a str or a unicode in the UnicodeCol '%s', "
                "got %s %r instead" % (
                    self.name, type(value), value), value, state)

        def check_length(self, value, state):
            if len(value) > 255:
                raise ColumnError("value too long for column", self.name)
            if not value:
                raise validators.Invalid("an empty value")
'''


def test_a_foreign_class_with_several_arguments_reads_both_ways(tmp_path: Path) -> None:
    (tmp_path / "sqlobj").mkdir()
    (tmp_path / "sqlobj" / "__init__.py").write_text("")
    (tmp_path / "sqlobj" / "col.py").write_text(textwrap.dedent(COL))
    result = extract_dir(tmp_path)
    by_func = {s.qualname.rsplit(".", 1)[-1]: [t.render() for t in s.templates] for s in result.sites
               if s.line != 0}
    texts = [t.render() for s in result.sites if s.qualname.endswith("from_python") for t in s.templates]
    assert "expected a str or a unicode in the UnicodeCol '{self.name}', got {type(value)} {value} instead" \
        in texts, texts
    assert any(t.startswith('("expected a str') for t in texts), texts
    own = [t.render() for s in result.sites if s.exception.endswith("ColumnError") for t in s.templates]
    assert own and all(t.startswith("(") for t in own), own
    one = [t.render() for s in result.sites if s.exception.endswith("Invalid") and s.line > 20
           for t in s.templates]
    assert one == ["an empty value"], (one, by_func)
