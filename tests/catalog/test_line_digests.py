"""Line digests (version inference's evidence), on every backend: stored with the snapshot, atomically."""

from __future__ import annotations

import dataclasses

from catalog_data import EMPTY_SIZE, REPO, result, snapshot

from errdex.catalog.sql import SqlCatalog
from errdex.extract.lines import text_digests
from errdex.model import ExtractResult

OLD = snapshot("a", "2024-01-01T10:00:00+00:00")
NEW = snapshot("b", "2024-03-01T10:00:00+00:00")
CORE = text_digests("import os\n\ndef f():\n    raise ValueError('x')\n")
UTIL = text_digests("x = 1\n")


def _with(digests: dict[str, bytes]) -> ExtractResult:
    return dataclasses.replace(result(EMPTY_SIZE), line_digests=digests)


def test_digests_of_the_asked_paths_per_snapshot(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, _with({"tinylib/core.py": CORE, "tinylib/util.py": UTIL}))
    catalog.replace_snapshot(NEW, _with({"tinylib/util.py": UTIL}))
    got = catalog.line_digests(REPO, ["tinylib/core.py", "tinylib/nowhere.py"])
    assert got == {OLD.key: {"tinylib/core.py": CORE}, NEW.key: {}}  # NEW has digests, not of core.py
    assert catalog.line_digests("other/lib", ["tinylib/core.py"]) == {}


def test_a_snapshot_indexed_without_digests_is_absent(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, result(EMPTY_SIZE))
    assert catalog.line_digests(REPO, ["tinylib/core.py"]) == {}


def test_replacing_and_deleting_a_snapshot_replaces_and_drops_its_digests(catalog: SqlCatalog) -> None:
    catalog.replace_snapshot(OLD, _with({"tinylib/core.py": CORE}))
    catalog.replace_snapshot(OLD, _with({"tinylib/core.py": UTIL}))
    assert catalog.line_digests(REPO, ["tinylib/core.py"]) == {OLD.key: {"tinylib/core.py": UTIL}}
    catalog.delete_snapshot(OLD.key)
    assert catalog.line_digests(REPO, ["tinylib/core.py"]) == {}
