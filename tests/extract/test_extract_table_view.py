"""A class's message table written as a read-only view or a copy of a dict display (dynaconf 3.3.5's
``Validator.default_messages = MappingProxyType({...})``, copied by ``self.messages =
dict(self.default_messages)`` and read as ``self.messages["must_exist_true"].format(name=name, env=env)``;
captured texts from its suite: ``value_a is required in env main``).  ``MappingProxyType(d)`` and
``dict(d)`` hold ``d``'s entries, so the table is read as the display is."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

VALIDATOR = '''
    from types import MappingProxyType


    class ValidationError(Exception):
        def __init__(self, message, *args, details=None, **kwargs):
            self.details = details
            super().__init__(message, *args, **kwargs)


    class Validator:
        default_messages = MappingProxyType(
            {
                "must_exist_true": "{name} is required in env {env}",
                "operations": (
                    "{name} must {operation} {op_value} "
                    "but it is {value} in env {env}"
                ),
            }
        )

        def __init__(self, name, messages=None, **operations):
            self.name = name
            self.messages = dict(self.default_messages)
            if messages:
                self.messages.update(messages)
            self.operations = operations

        def validate(self, settings, env):
            value = settings.get(self.name)
            if value is None:
                _message = self.messages["must_exist_true"].format(name=self.name, env=env)
                raise ValidationError(_message, details=[(self, _message)])
            for op_name, op_value in self.operations.items():
                if value != op_value:
                    _message = self.messages["operations"].format(
                        name=self.name, operation=op_name, op_value=op_value, value=value, env=env)
                    raise ValidationError(_message, details=[(self, _message)])
'''


def test_a_table_behind_mapping_proxy_is_read(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "__init__.py").touch()
    (tmp_path / "conf" / "validator.py").write_text(textwrap.dedent(VALIDATOR))
    result = extract_dir(tmp_path)
    first = [t.render() for t in site_in(result, "conf/validator.py", "Validator.validate", 0).templates]
    assert first[0] == "{name} is required in env {env}", first
    second = [t.render() for t in site_in(result, "conf/validator.py", "Validator.validate", 1).templates]
    assert second[0] == "{name} must {operation} {op_value} but it is {value} in env {env}", second


def test_a_table_the_caller_updates_may_hold_any_text(tmp_path: Path) -> None:
    """``self.messages.update(messages)`` in ``__init__``: a caller's ``Validator(messages={...})`` puts its
    own text in the table (dynaconf's suite: ``You cannot set VERSION to 1 in env DEVELOPMENT``), so a keyed
    read is the table's entry or any text; without the update, only the entry."""
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "__init__.py").touch()
    (tmp_path / "conf" / "validator.py").write_text(textwrap.dedent(VALIDATOR))
    (tmp_path / "conf" / "fixed.py").write_text(textwrap.dedent(VALIDATOR).replace(
        "        if messages:\n            self.messages.update(messages)\n", ""))
    result = extract_dir(tmp_path)
    opened = [t.render() for t in site_in(result, "conf/validator.py", "Validator.validate", 0).templates]
    assert opened[0] == "{name} is required in env {env}" and len(opened) == 2, opened
    assert opened[1].startswith("{") and opened[1].endswith("}"), opened
    fixed = [t.render() for t in site_in(result, "conf/fixed.py", "Validator.validate", 0).templates]
    assert fixed == ["{name} is required in env {env}"], fixed
