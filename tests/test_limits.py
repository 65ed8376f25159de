"""The limits settings: parsing, the environment, and docs/security.md listing every one with its default."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from errdex import limits
from errdex.limits import DEFAULTS, LimitError, Limits, current, parse_assignment, parse_value, size_text

DOC = Path(__file__).resolve().parents[1] / "docs" / "security.md"


@pytest.mark.parametrize(("raw", "value"), [("7", 7), ("64k", 64 * 1024), ("512MiB", 512 * 1024**2), ("2G", 2 * 1024**3),
                                            ("1.5 GiB", 3 * 1024**3 // 2), ("3kb", 3072)])
def test_sizes_parse(raw: str, value: int) -> None:
    assert parse_value("archive_bytes", raw) == value


@pytest.mark.parametrize(("name", "raw", "message"), [
    ("archive_bytes", "lots", "is not a whole number"), ("archive_bytes", "0", "at least 1"),
    ("archive_ratio", "x", "is not a number"), ("archive_ratio", "-1", "greater than 0"), ("nope", "1", "unknown limit"),
])
def test_bad_values_say_why(name: str, raw: str, message: str) -> None:
    with pytest.raises(LimitError, match=message):
        parse_value(name, raw)


def test_assignment_names_are_normalised() -> None:
    assert parse_assignment("Sites-Per-File=10") == ("sites_per_file", 10)
    with pytest.raises(LimitError, match="expected NAME=VALUE"):
        parse_assignment("sites_per_file")


def test_environment_applies_over_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in limits.NAMES:
        monkeypatch.delenv(limits.env_var(name), raising=False)
    assert current() == DEFAULTS
    monkeypatch.setenv("ERRDEX_LIMIT_ARCHIVE_RATIO", "12.5")
    monkeypatch.setenv("ERRDEX_LIMIT_UNPACK_CACHE_BYTES", "1M")
    assert current() == dataclasses.replace(DEFAULTS, archive_ratio=12.5, unpack_cache_bytes=1024**2)
    monkeypatch.setenv("ERRDEX_LIMIT_SITES_PER_FILE", "many")
    with pytest.raises(LimitError, match="ERRDEX_LIMIT_SITES_PER_FILE"):
        current()


def test_security_doc_lists_every_limit_with_its_default() -> None:
    text = DOC.read_text()
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \|", text, re.MULTILINE))
    assert set(rows) == {f.name for f in dataclasses.fields(Limits)}
    for f in dataclasses.fields(Limits):
        default = getattr(DEFAULTS, f.name)
        shown = rows[f.name].strip()
        expected = {size_text(default), str(default), f"{default:g}"} if isinstance(default, (int, float)) else set()
        assert shown in expected, (f.name, shown, expected)
