"""Turn an exception (or its printed traceback) into errdex's short note.

The note comes from the errdex CLI (``errdex explain --brief``), run by
``hook.explain_text`` exactly as the hook installed in another environment
runs it: the pytest plugin, the IPython extension and ``install()`` answer
the same way, index the same missing distributions, and fail the same way
(one line, never instead of the user's traceback).
"""

from __future__ import annotations

from errdex.runtime.hook import explain_exception, explain_text


def describe_exception(exc: BaseException, *, db: str | None = None) -> str | None:
    """The note for ``exc``, or None when errdex knows nothing confident about it."""
    return explain_exception(type(exc), exc, exc.__traceback__, db=db)


def describe_text(text: str, *, db: str | None = None) -> str | None:
    """The note for a traceback or message; errors inside errdex become a one-line note."""
    return explain_text(text, db=db)
