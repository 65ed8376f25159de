"""The runtime stage: explain errors as they happen, in Python, IPython/Jupyter and pytest.

Each hook formats the exception as Python would print it, hands that text to
the ``match`` stage, and prints a short note after the traceback naming the
error page.  A hook never hides or replaces the original traceback, and a
failure inside errdex (no catalog, a broken index) is reported in one line
rather than raised: the user's error is what matters.
"""

from __future__ import annotations

from errdex.runtime.describe import describe_exception, describe_text
from errdex.runtime.excepthook import install, uninstall

__all__ = ["describe_exception", "describe_text", "install", "uninstall"]
