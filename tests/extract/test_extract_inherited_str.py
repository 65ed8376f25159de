"""A base's ``__str__`` prints for a subclass whose ``__init__`` never calls the base's, and ``self.message``
there is the subclass's ``message`` property (clize 5.0.2, round 23: ``ArgumentError.__str__`` prints
``self.prefix_with_pname(self.message + usage)``; ``MissingRequiredArguments.__init__(self, missing)`` only
keeps ``self.missing`` and defines ``message`` as a property; read as its arguments (``{unsatisfied}``) and
as ``{message}``, 28 of 41 messages missed)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

FILES = '''
    class UserError(ValueError):
        def __str__(self):
            return self.prefix_with_pname(super(UserError, self).__str__())

        def prefix_with_pname(self, message):
            return '{0}: {1}'.format(self.get_pname('Error'), message)

        def get_pname(self, default='command'):
            try:
                return self.pname
            except AttributeError:
                return default


    class ArgumentError(UserError):
        def __init__(self, message=None):
            if message is not None:
                self.message = message

        def __str__(self):
            usage = ''
            try:
                usage = '\\n' + '\\n'.join(self.cli.helper.show_usage(self.get_pname()))
            except Exception:
                pass
            return self.prefix_with_pname(self.message + usage)


    class MissingRequiredArguments(ArgumentError):
        def __init__(self, missing):
            self.missing = missing

        @property
        def message(self):
            return "Missing required arguments: {0}".format(', '.join(arg.display_name for arg in self.missing))


    class MissingValue(ArgumentError):
        @property
        def message(self):
            return "No value found after {0}".format(self.param.display_name)


    class Plain(ValueError):
        def __init__(self, missing):
            self.missing = missing


    def parse(missing, arg):
        if missing:
            raise MissingRequiredArguments(missing)
        if arg is None:
            raise MissingValue
        raise ArgumentError(f"bad {arg}")


    def plain(missing):
        raise Plain(missing)
'''


def test_a_base_str_prints_the_subclass_property(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(FILES))
    sites = sorted((s for s in extract_dir(tmp_path).sites if s.qualname == "parse"), key=lambda s: s.line)
    first = [sorted({t.render() for t in s.templates})[0] for s in sites]
    assert first[0].startswith("{self.get_pname('Error')}: Missing required arguments: ")
    assert first[1] == "{self.get_pname('Error')}: No value found after {self.param.display_name}"
    assert first[2] == "{self.get_pname('Error')}: bad {arg}"  # the base's own __init__ ran: its parameter
    plain = next(s for s in extract_dir(tmp_path).sites if s.qualname == "plain")
    assert sorted({t.render() for t in plain.templates}) == ["{missing}"]  # no __str__ anywhere: its arguments
