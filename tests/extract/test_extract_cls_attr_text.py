"""``cls.<name>`` in the text a classmethod raises: the class attribute of its class or of a subclass that
inherits the method (webvtt-py 0.6.0, round 22: ``_Settings.from_string`` raises ``f'Invalid {cls._KIND}s
{value!r}'``, ``Region`` sets ``_KIND = 'region setting'``; ``Invalid region settings None`` went confidently
to ``Region.from_string``'s own raise of that text).  The written template stays first (the site's id is made
from it)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

MODELS = '''
    class MalformedCaptionError(Exception):
        pass


    class _Settings:
        _KIND = "setting"

        @classmethod
        def from_string(cls, value):
            if type(value) is not str:
                raise MalformedCaptionError(f"Invalid {cls._KIND}s {value}")
            return cls()

        def check(self, value):
            raise MalformedCaptionError(f"Bad {self._KIND}: {value}")


    class CueSettings(_Settings):
        _KIND = "cue setting"


    class Region(_Settings):
        _KIND = "region setting"
'''


def test_a_classmethods_cls_attribute_is_each_classs_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "models.py").write_text(textwrap.dedent(MODELS))
    found = {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}
    assert found["_Settings.from_string"] == ["Invalid {cls._KIND}s {value}", "Invalid settings {value}",
                                              "Invalid cue settings {value}", "Invalid region settings {value}"]
