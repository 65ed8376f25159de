"""A message built by a function an instance holds (everett 3.5.0's ``ConfigManager(msg_builder=build_msg)``
keeps ``self.msg_builder = msg_builder`` and raises ``InvalidValueError(self.msg_builder(key=..., msg=...))``):
``self.msg_builder(...)`` calls the module's ``build_msg`` unless a caller passes another, whose lines
``"\\n".join([line for line in text if line])`` joins, the empty ones left out (those phase 1 knows empty:
a parameter's default ``""`` is bound later, and stays a line of its own)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

MANAGER = '''
    class ConfigError(Exception):
        def __init__(self, msg, key):
            self.msg = msg
            self.key = key
            super().__init__(msg, key)

        def __str__(self):
            return self.msg


    def build_msg(key, parser, msg="", config_doc=""):
        text = [msg]
        if key and parser:
            text.append(f"{key.upper()} requires a value parseable by {parser.__name__}")
        if config_doc:
            text.append(f"Project docs: {config_doc}")
        return "\\n".join([line for line in text if line])


    class Manager:
        def __init__(self, doc="", msg_builder=build_msg):
            self.doc = doc
            self.msg_builder = msg_builder

        def get(self, key, parser, val):
            try:
                return parser(val)
            except Exception as exc:
                msg = self.msg_builder(key=key, parser=parser, msg=f"{type(exc).__name__}: {exc}",
                                       config_doc=self.doc)
                raise ConfigError(msg, key) from exc

'''


def test_the_held_function_builds_the_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "manager.py").write_text(textwrap.dedent(MANAGER))
    result = extract_dir(tmp_path)
    texts = {t.render() for t in site_in(result, "pkg/manager.py", "Manager.get").templates}
    assert "{type(exc).__name__}: {exc}\n{key.upper()} requires a value parseable by {parser.__name__}" in texts, texts
