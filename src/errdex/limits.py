"""Every bound that indexing puts on untrusted input, in one settings object.

A package errdex indexes is hostile until proven otherwise: an archive may
claim gigabytes, a file may hold 50,000 raises on one line.  Each stage reads
its bounds from ``current()``, which starts from the defaults below and
applies the ``ERRDEX_LIMIT_<NAME>`` environment variables; ``errdex index
--limit NAME=VALUE`` sets the same variables for its run (and so for its
worker processes).  docs/security.md lists every limit with its default.

Sizes accept a binary suffix (``512MiB``, ``2G``, ``64k``: powers of 1024).
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass

ENV_PREFIX = "ERRDEX_LIMIT_"
KiB, MiB, GiB = 1024, 1024**2, 1024**3


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds of one indexing run.  Defaults are far above real libraries (the jax wheel:
    ~900 members, ~30 MB unpacked, at most a few hundred sites in a file) and far below what
    hurts a machine."""

    archive_members: int = 100_000  # members of one archive, of any kind
    archive_bytes: int = 2 * GiB  # uncompressed bytes of all members together (declared and written)
    archive_member_bytes: int = 512 * MiB  # uncompressed bytes of one member
    archive_ratio: float = 100.0  # uncompressed / compressed, for a member and for the whole archive
    archive_ratio_floor: int = 1 * MiB  # below this many uncompressed bytes the ratio is not checked
    unpack_cache_bytes: int = 512 * MiB  # unpacked archives kept on disk; least recently used go first
    download_cache_bytes: int = 2 * GiB  # pypi: downloads kept on disk; least recently used go first
    file_bytes: int = 4 * MiB  # one source file; larger ones are skipped (on the skipped-files ledger)
    sites_per_file: int = 5_000  # error sites kept from one file; the rest are dropped with a warning
    sites_per_snapshot: int = 200_000  # error sites kept from one snapshot
    template_chars: int = 4_000  # characters of one message template; longer ones are cut, marked "…"
    # readings of an expression as message text in one file (a few thousand in the largest real modules): past it
    # the file's remaining texts are placeholders, with a warning, so that no shape of code holds a run for hours
    text_steps_per_file: int = 1_000_000


DEFAULTS = Limits()
NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Limits))
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": KiB, "m": MiB, "g": GiB, "t": 1024 * GiB}


class LimitError(ValueError):
    """A limit name or value that does not parse; the message says which and how it should look."""


def env_var(name: str) -> str:
    return ENV_PREFIX + name.upper()


def parse_value(name: str, raw: str) -> int | float:
    """``raw`` as the type of limit ``name``: a float for ratios, else a size or count (``2GiB``)."""
    if name not in NAMES:
        raise LimitError(f"unknown limit {name!r} (known: {', '.join(NAMES)})")
    if isinstance(getattr(DEFAULTS, name), float):
        try:
            value: float = float(raw)
        except ValueError:
            raise LimitError(f"limit {name}: {raw!r} is not a number") from None
        if not value > 0:
            raise LimitError(f"limit {name}: {raw!r} must be greater than 0")
        return value
    m = _SIZE.match(raw)
    if not m:
        raise LimitError(f"limit {name}: {raw!r} is not a whole number (a size may end in K, M, G: 512MiB)")
    count = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if count < 1:
        raise LimitError(f"limit {name}: {raw!r} must be at least 1")
    return count


def parse_assignment(text: str) -> tuple[str, int | float]:
    """``NAME=VALUE`` (``--limit``): the normalised name and the parsed value."""
    name, sep, raw = text.partition("=")
    name = name.strip().lower().replace("-", "_")
    if not sep:
        raise LimitError(f"--limit {text!r}: expected NAME=VALUE (known names: {', '.join(NAMES)})")
    return name, parse_value(name, raw)


def current() -> Limits:
    """The defaults with every ``ERRDEX_LIMIT_*`` variable applied; LimitError for a bad one."""
    changes: dict[str, int | float] = {}
    for name in NAMES:
        raw = os.environ.get(env_var(name))
        if raw not in (None, ""):
            try:
                changes[name] = parse_value(name, raw)
            except LimitError as exc:
                raise LimitError(f"{env_var(name)}: {exc}") from None
    return dataclasses.replace(DEFAULTS, **changes) if changes else DEFAULTS  # type: ignore[arg-type]


def hint(name: str, value: object = None) -> str:
    """Which limit was hit (and its value) and how the user raises it: in every such message."""
    shown = f" = {value}" if value is not None else ""
    return f"limit {name}{shown}; raise it with --limit {name}=N or {env_var(name)}"


def size_text(n: float) -> str:
    """``2 GiB``, ``7 MiB``, ``512 bytes``: a limit as a reader writes it."""
    for unit, size in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= size:
            return f"{n / size:.4g} {unit}"
    return f"{int(n)} bytes"
