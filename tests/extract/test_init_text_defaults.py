"""An ``__init__`` parameter's literal text default, printed when the raise leaves it out.

``class TimeoutFailed(Exception): def __init__(self, message="The operation timed out", *, seconds=None):
super().__init__(message)`` raised as ``TimeoutFailed(seconds=3)`` prints ``The operation timed out``;
confection 1.3.4's ``ConfigValidationError(desc=desc)`` prints its ``title="Config validation error"`` above
the description.  The raise's template read the parameter left out as a placeholder (``{message}``) or, behind
an ``if self.title:``, as absent; its default is now what it binds (``classmessage._class_attr_defaults``).
A parameter the raise passes keeps the raise's value, and a default of ``None`` stays unbound."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
class TimeoutFailed(Exception):
    def __init__(self, message="The operation timed out", *, seconds=None):
        self.seconds = seconds
        super().__init__(message)


class Closed(Exception):
    def __init__(self, reason="connection closed", code=None):
        self.reason = reason
        self.code = code
        super().__init__(f"Closed ({self.code}): {self.reason}")


def wait(seconds):
    raise TimeoutFailed(seconds=seconds)


def wait_for(name, seconds):
    raise TimeoutFailed(f"{name} did not answer", seconds=seconds)


def close(code):
    raise Closed(code=code)
'''


def _texts(tmp_path: Path, qualname: str) -> list[str]:
    root = tmp_path / "src"
    (root / "netio").mkdir(parents=True)
    (root / "netio" / "__init__.py").write_text("")
    (root / "netio" / "errors.py").write_text(ERRORS)
    site = site_in(extract_dir(root), "netio/errors.py", qualname)
    return [t.render() for t in site.templates]


def test_a_default_left_out_is_the_text(tmp_path: Path) -> None:
    assert _texts(tmp_path, "wait")[0] == "The operation timed out"


def test_a_text_passed_is_the_raises_own(tmp_path: Path) -> None:
    assert _texts(tmp_path, "wait_for")[0] == "{name} did not answer"


def test_a_default_inside_the_class_text_and_a_none_default_left_unbound(tmp_path: Path) -> None:
    assert _texts(tmp_path, "close")[0] == "Closed ({code}): connection closed"
