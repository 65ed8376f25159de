"""A plain class keeping an ``__init__`` parameter whose default is text, for its methods' raises.

confection 1.3.4's ``SimpleFrozenDict``::

    DEFAULT_FROZEN_DICT_ERROR = "Can't write to frozen dictionary. ..."

    class SimpleFrozenDict(dict):
        def __init__(self, *args, error: str = DEFAULT_FROZEN_DICT_ERROR, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.error = error

        def __setitem__(self, key, value):
            raise NotImplementedError(self.error)

``self.error`` was the parameter (``{error}``): the default text, what every raise of an instance built
without ``error=`` prints, was not a template.  It now is, before the placeholder (a caller may pass its
own: ``SimpleFrozenDict(error="custom error")``); a parameter with no text default stays the placeholder."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

UTIL = '''
DEFAULT_FROZEN_DICT_ERROR = (
    "Can't write to frozen dictionary. This is likely an internal "
    "error. Are you writing to a default function argument?"
)


class SimpleFrozenDict(dict):
    def __init__(self, *args, error: str = DEFAULT_FROZEN_DICT_ERROR, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.error = error

    def __setitem__(self, key, value):
        raise NotImplementedError(self.error)


class SimpleFrozenList(list):
    def __init__(self, *args, error="Can't write to frozen list.") -> None:
        self.error = error
        super().__init__(*args)

    def append(self, *args, **kwargs):
        raise NotImplementedError(self.error)


class Sealed(list):
    def __init__(self, *args, error) -> None:
        self.error = error
        super().__init__(*args)

    def append(self, *args, **kwargs):
        raise NotImplementedError(self.error)
'''


def _texts(tmp_path: Path, qualname: str) -> list[str]:
    root = tmp_path / "src"
    (root / "conflike").mkdir(parents=True)
    (root / "conflike" / "__init__.py").write_text("")
    (root / "conflike" / "util.py").write_text(UTIL)
    return [t.render() for t in site_in(extract_dir(root), "conflike/util.py", qualname).templates]


def test_a_module_constant_default_is_the_text(tmp_path: Path) -> None:
    assert _texts(tmp_path, "SimpleFrozenDict.__setitem__") == [
        "Can't write to frozen dictionary. This is likely an internal error. Are you writing to a default "
        "function argument?", "{error}"]


def test_a_literal_default_is_the_text(tmp_path: Path) -> None:
    assert _texts(tmp_path, "SimpleFrozenList.append") == ["Can't write to frozen list.", "{error}"]


def test_a_parameter_with_no_default_stays_a_placeholder(tmp_path: Path) -> None:
    assert _texts(tmp_path, "Sealed.append") == ["{error}"]
