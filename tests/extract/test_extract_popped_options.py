"""Options an exception class pops from its keywords keep their defaults when a raise leaves them out, so the
``__str__`` branch their tests select is what prints (doit 0.37 and zeep 4.3, round 26: ``raise
InvalidCommand(msg % task_name)`` read only as the class's "task not found" text, 11+ sites tied; ``raise
ValidationError("Missing element for Any")`` read as ``{self.message} ({path})``, the message the base's
``__init__`` keeps through ``super().__init__(*args, **kwargs)`` unknown)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from extract_helpers import extract_dir

from errdex.extract import poppedopts

ERRORS = '''
    class InvalidCommand(Exception):
        """Invalid command line argument."""
        def __init__(self, *args, **kwargs):
            self.not_found = kwargs.pop('not_found', None)
            super(InvalidCommand, self).__init__(*args, **kwargs)
            self.cmd_used = None

        def __str__(self):
            if self.not_found is None:
                return super(InvalidCommand, self).__str__()
            if self.cmd_used:
                return 'command `{}` invalid parameter: "{}".'.format(self.cmd_used, self.not_found)
            return 'Invalid parameter: "{}". Must be a command, task, or a target.'.format(self.not_found)


    class UsageError(Exception):
        def __init__(self, *args, **kwargs):
            self.hint = kwargs.pop("hint", None)
            super().__init__(*args, **kwargs)

        def __str__(self):
            if self.hint is None:
                return super().__str__()
            return "%s (hint: %s)" % (self.args[0], self.hint)


    class Error(Exception):
        def __init__(self, message=""):
            super(Exception, self).__init__(message)
            self.message = message


    class XMLParseError(Error):
        def __init__(self, *args, **kwargs):
            self.filename = kwargs.pop("filename", None)
            self.sourceline = kwargs.pop("sourceline", None)
            super().__init__(*args, **kwargs)

        def __str__(self):
            location = None
            if self.filename and self.sourceline:
                location = "%s:%s" % (self.filename, self.sourceline)
            if location:
                return "%s (%s)" % (self.message, location)
            return self.message


    class ValidationError(Error):
        def __init__(self, *args, **kwargs):
            self.path = kwargs.pop("path", [])
            super().__init__(*args, **kwargs)

        def __str__(self):
            if self.path:
                path = ".".join(str(x) for x in self.path)
                return "%s (%s)" % (self.message, path)
            return self.message


    class ChoiceError(ValidationError):
        def __init__(self, choice, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.path = [choice]
'''

USE = '''
    from shop.errors import ChoiceError, InvalidCommand, UsageError, ValidationError, XMLParseError


    def select(task_name, tasks, target):
        if target is not None:
            raise InvalidCommand(not_found=target)
        if task_name not in tasks:
            msg = "'%s' is not a task."
            raise InvalidCommand(msg % task_name)


    def run(argv):
        try:
            if not argv:
                raise UsageError("no command given")
        except UsageError as err:
            err.hint = "try --help"
            raise


    def validate(value, name, path):
        if value is None:
            raise ValidationError("Missing element for Any")
        if path:
            raise ValidationError("Missing element %s" % name, path=path)
        raise ChoiceError(name, "No matching choice")


    def parse(content, url, line):
        if line:
            raise XMLParseError("Invalid XML content received", filename=url, sourceline=line)
        raise XMLParseError("Unexpected element %r" % content)
'''


def _templates(tmp_path: Path) -> dict[tuple[str, int], list[str]]:
    pkg = tmp_path / "shop"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "errors.py").write_text(textwrap.dedent(ERRORS))
    (pkg / "client.py").write_text(textwrap.dedent(USE))
    out: dict[tuple[str, int], list[str]] = {}
    for s in sorted((s for s in extract_dir(tmp_path).sites if s.path == "shop/client.py"), key=lambda s: s.line):
        out.setdefault((s.qualname, len([k for k in out if k[0] == s.qualname])), [t.display() for t in s.templates])
    return out


def test_a_raise_without_the_option_prints_the_base_text(tmp_path: Path) -> None:
    t = _templates(tmp_path)
    assert t[("select", 1)] == ["'{task_name}' is not a task."]  # `super(Cls, self).__str__()`: the raise's own
    assert any(x.startswith("Invalid parameter:") for x in t[("select", 0)])  # `not_found=` passed: every branch
    assert any(x.startswith("command `") for x in t[("select", 0)])


def test_the_message_a_base_keeps_through_forwarded_arguments(tmp_path: Path) -> None:
    t = _templates(tmp_path)
    assert t[("validate", 0)] == ["Missing element for Any"]
    assert sorted(t[("validate", 1)]) == ["Missing element {name}", "Missing element {name} ({path})"]
    # a local a decided branch would have set (`location`) stays at its literal: the plain branch
    assert t[("parse", 1)] == ["Unexpected element {content!r}"] or t[("parse", 1)] == ["Unexpected element {content}"]
    assert len(t[("parse", 0)]) == 2


def test_an_option_set_after_the_raise_or_by_a_subclass_keeps_every_branch(tmp_path: Path) -> None:
    t = _templates(tmp_path)
    assert len(t[("run", 0)]) == 2  # `err.hint = ...` in the module: the test on it is not decided
    assert len(t[("validate", 2)]) == 2  # `ChoiceError.__init__` sets `self.path` after the base popped it


def _pruned(src: str) -> str | None:
    tree = ast.parse(textwrap.dedent(src))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    fn, _ = poppedopts.pruned_str(cls, tree)
    return ast.unparse(fn) if fn is not None else None


def test_tests_on_defaults_and_unknown_operands() -> None:
    src = '''
        class E(Exception):
            def __init__(self, msg, code=0, *, token=None):
                self.msg, self.code, self.token = msg, code, token
                self.extra = kwargs_free = None

            def __str__(self):
                if self.token is not None and self.msg:
                    return "at token"
                if self.code or self.msg:
                    return "maybe coded"
                if not self.code:
                    return self.msg
                return "never"
        '''
    # a tuple assignment is not read as options: nothing decided
    assert _pruned(src) is None
    src = src.replace("self.msg, self.code, self.token = msg, code, token",
                      "self.msg = msg\n                self.code = code\n                self.token = token")
    pruned = _pruned(src)
    assert pruned is not None
    assert "at token" not in pruned  # `None is not None and ...`: False whatever msg is
    assert "maybe coded" in pruned  # `0 or self.msg`: undecided, kept
    assert "never" not in pruned  # `not 0`: the return before it always runs


def test_a_str_that_raises_or_options_set_twice_are_left_alone() -> None:
    assert _pruned('''
        class E(Exception):
            def __init__(self, *args, **kwargs):
                self.path = kwargs.pop("path", None)
                if not self.path:
                    self.path = []
                super().__init__(*args)

            def __str__(self):
                if self.path:
                    return "at %s" % self.path
                return "plain"
        ''') is None
    assert _pruned('''
        class E(Exception):
            def __init__(self, *args, **kwargs):
                self.path = kwargs.pop("path", None)
                super().__init__(*args)

            def __str__(self):
                if self.path is None:
                    raise RuntimeError("no path")
                return "at %s" % self.path
        ''') is None
