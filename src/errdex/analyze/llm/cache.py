"""The answer cache: re-analysis after re-indexing pays only for the errors whose facts changed.

The key is sha256 of (the prompt's facts as sent, model, ``PROMPT_VERSION``):
the user message is the canonical JSON of everything the model sees about the
error, so equal keys mean an equal question (the system message and the
answer's schema are hashed too: ``Prompt.fingerprint``).  The value is the validated
answer after the sample round (the sections the model got right), with the
tokens it cost.  Samples are verified again on every hit, because the
library's symbol table may have changed while the facts did not.

Where: ``llm_cache.sqlite`` next to a SQLite catalog (its own file and
connection, so the catalog's schema and transactions stay the catalog's
business); for a PostgreSQL catalog, in the errdex data directory;
``ERRDEX_LLM_CACHE`` overrides both.  Deleting the file only costs requests.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from errdex import paths

_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_answers (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    error_id TEXT NOT NULL,
    answer TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    created TEXT NOT NULL
)
"""


def cache_key(question: str, model: str, prompt_version: str) -> str:
    raw = "\x1f".join([prompt_version, model, question])
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class CachedAnswer:
    answer: dict[str, Any]  # SectionsOut as JSON, restricted to the sections that passed
    prompt_tokens: int
    completion_tokens: int


def default_cache_path(catalog_path: Path | None) -> Path:
    env = os.environ.get("ERRDEX_LLM_CACHE")
    if env:
        return Path(env)
    if catalog_path is not None:
        return catalog_path.parent / "llm_cache.sqlite"
    return paths.data_dir() / "llm_cache.sqlite"


class AnswerCache:
    """A small SQLite file; one connection guarded by a lock (writes are tiny and rare)."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        """``create=False`` (a dry run): a missing file is an empty cache, and nothing is written."""
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        if not create and not path.exists():
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute(_SCHEMA)

    def get(self, key: str) -> CachedAnswer | None:
        if self._conn is None:
            return None
        with self._lock:
            row = self._conn.execute(
                "SELECT answer, prompt_tokens, completion_tokens FROM llm_answers WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            answer = json.loads(row[0])
        except json.JSONDecodeError:
            return None
        return CachedAnswer(answer=answer, prompt_tokens=int(row[1]), completion_tokens=int(row[2]))

    def put(self, key: str, *, model: str, prompt_version: str, error_id: str, answer: dict[str, Any],
            prompt_tokens: int, completion_tokens: int) -> None:
        if self._conn is None:
            return
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO llm_answers VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, model, prompt_version, error_id, json.dumps(answer, ensure_ascii=False, sort_keys=True),
                 prompt_tokens, completion_tokens, now))

    def __len__(self) -> int:
        if self._conn is None:
            return 0
        with self._lock:
            row = self._conn.execute("SELECT count(*) FROM llm_answers").fetchone()
        return int(row[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
