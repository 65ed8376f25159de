"""An exception whose ``__str__`` prints ``str(self.reason)``, an ``Enum`` member kept from a keyword its
``__init__`` pops out of ``**kwargs`` by a class constant's value (pathvalidate 3.3.1's ``ValidationError``,
issue 17's thirtieth round): ``kwkeys.py`` (the popped keyword, ``kwargs[KEY] = ...`` in a subclass, a
``**err_kwargs`` dict display), ``properties.property_attrs`` (a property returning the attribute, defined
before ``__init__``) and ``enummembers.py`` (``str()`` of a member through its class's ``__init__`` and
``__str__``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ERRORS = '''
    import enum
    from typing import Final


    def _to_code(code: int) -> str:
        return f"SV{code:04d}"


    class Keys:
        REASON: Final = "reason"
        PLATFORM: Final = "platform"


    @enum.unique
    class Reason(enum.Enum):
        EMPTY = (_to_code(1001), "EMPTY", "the value must not be empty")
        BAD_CHAR = (_to_code(1100), "BAD_CHAR", "invalid characters found")
        TOO_LONG = (_to_code(1101), "TOO_LONG", "the value is too long")

        def __init__(self, code: str, name: str, description: str) -> None:
            self.__code = code
            self.__description = description

        def __str__(self) -> str:
            return f"[{self.__code}] {self.__description}"


    class Plain(enum.Enum):
        ONE = ("one", 1)

        def __init__(self, word, number):
            self.word = word


    class SlugError(ValueError):
        @property
        def reason(self) -> Reason:
            return self.__reason

        def __init__(self, *args, **kwargs) -> None:
            self.__reason: Reason = kwargs.pop(Keys.REASON)
            self.__platform = kwargs.pop(Keys.PLATFORM, None)
            super().__init__(*args, **kwargs)

        def __str__(self) -> str:
            header = str(self.reason)
            items = []
            if self.__platform:
                items.append(f"platform={self.__platform}")
            if items:
                header += ": "
            return header + ", ".join(items)


    class BadCharError(SlugError):
        def __init__(self, *args, **kwargs) -> None:
            kwargs[Keys.REASON] = Reason.BAD_CHAR
            super().__init__(args, **kwargs)
'''

CHECKS = '''
    from .errors import BadCharError, Keys, Reason, SlugError


    def check(value, platform, max_len):
        if not value:
            raise SlugError(reason=Reason.EMPTY)
        if "/" in value:
            raise BadCharError("found '/'", platform=platform)
        err_kwargs = {Keys.REASON: Reason.TOO_LONG, Keys.PLATFORM: platform}
        if len(value) > max_len:
            raise SlugError(["too long"], **err_kwargs)


    def describe(reason: Reason) -> str:
        return str(reason)
'''


def _package(tmp_path: Path) -> Path:
    (tmp_path / "slug").mkdir()
    (tmp_path / "slug" / "__init__.py").write_text("")
    (tmp_path / "slug" / "errors.py").write_text(textwrap.dedent(ERRORS))
    (tmp_path / "slug" / "checks.py").write_text(textwrap.dedent(CHECKS))
    return tmp_path


def _texts(result, index: int) -> list[str]:
    return [t.render() for t in site_in(result, "slug/checks.py", "check", index).templates]


def test_a_keyword_popped_by_a_constant_prints_its_enum_members_str(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    texts = _texts(result, 0)
    assert any(t.startswith("[SV1001] the value must not be empty") for t in texts), texts  # code, description
    assert not any("header" in t or "reason" in t for t in texts)


def test_a_subclass_sets_the_keyword_before_passing_kwargs_on(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    texts = _texts(result, 1)
    assert any(t.startswith("[SV1100] invalid characters found: ") for t in texts), texts
    assert not any("SV1001" in t for t in texts)  # not another member's


def test_a_local_dict_of_constant_keys_passed_with_double_star(tmp_path: Path) -> None:
    result = extract_dir(_package(tmp_path))
    texts = _texts(result, 2)
    assert any(t.startswith("[SV1101] the value is too long") for t in texts), texts


def test_an_enum_without_its_own_str_is_not_read_through_its_init(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    (pkg / "slug" / "plain.py").write_text(textwrap.dedent('''
        from .errors import Plain


        def fail():
            raise ValueError(Plain.ONE)
    '''))
    result = extract_dir(pkg)
    texts = [t.render() for t in site_in(result, "slug/plain.py", "fail").templates]
    assert not any("one" in t.lower().replace("plain.one", "") for t in texts), texts  # not `('one', 1)`
