"""Tied sites of one class-built text told apart by the value a ``name=value`` part shows and one raise passes by
keyword (pathvalidate 3.3.1, round 25: ``InvalidCharError(..., platform=Platform.UNIVERSAL, value=name)`` at one
site, ``platform=Platform.WINDOWS`` at others, the class's ``__str__`` joining ``platform={self.platform.value}``
among its parts).  Extraction keeps each keyword's value when it is one literal text (``extract/kwvalues.py``);
the sites passing the shown value, and those passing the keyword a run-time value, are kept, as a hint: never
confident (``match/keyvalues.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

CONST = '''
import enum


class Platform(enum.Enum):
    POSIX = "POSIX"
    UNIVERSAL = "universal"
    WINDOWS = "Windows"
'''

ERROR = '''
from typing import Final, Optional

from ._const import Platform


class ErrorAttrKey:
    PLATFORM: Final = "platform"
    VALUE: Final = "value"


class ValidationError(ValueError):
    def __init__(self, *args, **kwargs) -> None:
        self.__platform: Optional[Platform] = kwargs.pop(ErrorAttrKey.PLATFORM, None)
        self.__value: Optional[str] = kwargs.pop(ErrorAttrKey.VALUE, None)
        super().__init__(*args)

    @property
    def platform(self) -> Optional[Platform]:
        return self.__platform

    def __str__(self) -> str:
        item_list = []
        header = "[PV1100] invalid characters found"
        if Exception.__str__(self):
            item_list.append(Exception.__str__(self))
        if self.platform:
            item_list.append(f"{ErrorAttrKey.PLATFORM}={self.platform.value}")
        if self.__value:
            item_list.append(f"{ErrorAttrKey.VALUE}={self.__value!r}")
        if item_list:
            header += ": "
        return header + ", ".join(item_list).strip()


class InvalidCharError(ValidationError):
    pass
'''

FILENAME = '''
import re

from ._const import Platform
from .error import ErrorAttrKey, InvalidCharError

_RE_INVALID = re.compile("[/]")
_RE_INVALID_WIN = re.compile("[*?]")


def findall_to_str(match):
    return ", ".join([repr(text) for text in match])


class FileNameValidator:
    def __init__(self, platform):
        self.platform = platform

    def validate_universal(self, name: str) -> None:
        match = _RE_INVALID.findall(name)
        if match:
            raise InvalidCharError("invalids=({})".format(findall_to_str(match)), platform=Platform.UNIVERSAL, value=name)

    def validate_win(self, name: str) -> None:
        match = _RE_INVALID_WIN.findall(name)
        if match:
            raise InvalidCharError("invalids=({})".format(findall_to_str(match)), platform=Platform.WINDOWS, value=name)

    def validate_win_end(self, name: str) -> None:
        if name[-1:] in (" ", "."):
            err_kwargs = {ErrorAttrKey.PLATFORM: Platform.WINDOWS, ErrorAttrKey.VALUE: name}
            raise InvalidCharError("invalids=('.')", **err_kwargs)

    def validate_posix(self, name: str) -> None:
        if "\\0" in name:
            raise InvalidCharError("invalids=('\\\\x00')", platform="POSIX", value=name)

    def validate_any(self, name: str) -> None:
        if ":" in name:
            raise InvalidCharError("invalids=(':')", platform=self.platform, value=name)

    def validate_symbol(self, name: str) -> None:
        if "#" in name:
            raise InvalidCharError("invalids=('#')", value=name)
'''

_ALL = ["validate_any", "validate_posix", "validate_symbol", "validate_universal", "validate_win", "validate_win_end"]


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "keyvalues", "pathkit",
                               {"__init__.py": "", "_const.py": CONST, "error.py": ERROR, "_filename.py": FILENAME})


def _places(r: object) -> list[str]:
    top = r.matches[0]  # type: ignore[attr-defined]
    return sorted(q.rsplit(".", 1)[-1] for q in [top.qualname, *(t.qualname for t in top.tied)])


def test_an_enum_members_value_keeps_the_raise_passing_it_and_the_run_time_one(lib: Catalog) -> None:
    r = explain(lib, "pathkit.error.InvalidCharError: [PV1100] invalid characters found: invalids=('/'), "
                     "platform=universal, value='a/b'")
    assert _places(r) == ["validate_any", "validate_universal"]
    assert "'platform=universal'" in r.matches[0].tie_note and not r.confident


def test_a_member_passed_through_a_spread_dict_of_constant_keys(lib: Catalog) -> None:
    r = explain(lib, "[PV1100] invalid characters found: invalids=('*'), platform=Windows, value='a*b'")
    assert _places(r) == ["validate_any", "validate_win", "validate_win_end"]
    assert not r.confident


def test_a_string_literal_keyword(lib: Catalog) -> None:
    r = explain(lib, "[PV1100] invalid characters found: invalids=('\\x00'), platform=POSIX, value='a\\x00'")
    assert _places(r) == ["validate_any", "validate_posix"]


def test_a_value_no_raise_passes_leaves_the_group_whole(lib: Catalog) -> None:
    r = explain(lib, "[PV1100] invalid characters found: invalids=('#'), platform=macOS, value='a#b'")
    assert _places(r) == _ALL and not r.confident
