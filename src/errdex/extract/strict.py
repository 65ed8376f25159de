"""``ERRDEX_STRICT``: unknown shapes are quiet for users and loud in tests.

pyflakes' trick (STYLE.md item 5): in production an expression the extractor
has no rule for becomes a placeholder counted as unresolved; with
``ERRDEX_STRICT=1`` (set by ``scripts/test.sh``) it raises, so a gap in the
rules shows up as a failing test instead of a silently worse catalog.
"""

from __future__ import annotations

import os


class UnclassifiedShape(Exception):
    """A raise/warn/assert expression of a shape no extractor rule classifies."""


def strict_enabled() -> bool:
    """Read the variable each time: tests toggle it with ``monkeypatch.setenv``."""
    return os.environ.get("ERRDEX_STRICT", "") not in ("", "0", "false", "no")


def unclassified(what: str, where: str) -> None:
    """Report an unclassified shape: raise under strict mode, else do nothing."""
    if strict_enabled():
        raise UnclassifiedShape(f"unclassified {what} at {where} (ERRDEX_STRICT is set)")
