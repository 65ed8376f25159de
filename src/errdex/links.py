"""Pinned source links, in a module of their own so that ``errdex explain`` can build one
without importing the whole data model (``model.py``) on its fast path."""

from __future__ import annotations


def source_url(url_base: str, path_prefix: str, path: str, line: int | None = None,
               end_line: int | None = None) -> str:
    """Link to ``path`` (package-relative) under ``url_base``, or "" when the base is unknown."""
    if not url_base:
        return ""
    url = f"{url_base.rstrip('/')}/{path_prefix}{path}"
    if line is not None:
        url += f"#L{line}"
        if end_line is not None and end_line != line:
            url += f"-L{end_line}"
    return url
