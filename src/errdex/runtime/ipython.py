"""IPython / Jupyter extension: ``%load_ext errdex.runtime.ipython``.

IPython shows its own traceback first; errdex's note (``hook.explain_text``,
the same path as the installed hook) follows it in the cell's output.
"""

from __future__ import annotations

from typing import Any

from errdex.runtime.hook import explain_exception


def _handler(shell: Any, etype: type[BaseException], evalue: BaseException, tb: Any, tb_offset: Any = None) -> Any:
    structured = shell.showtraceback((etype, evalue, tb), tb_offset=tb_offset)
    if getattr(type(shell).showtraceback, "_errdex", False):
        return structured  # the installed hook already wrapped showtraceback: it has printed the note
    note = explain_exception(etype, evalue, tb)
    if note:
        print(note)
    return structured


def load_ipython_extension(ipython: Any) -> None:
    """Called by ``%load_ext``: explain every exception a cell raises."""
    ipython.set_custom_exc((Exception,), _handler)


def unload_ipython_extension(ipython: Any) -> None:
    ipython.set_custom_exc((), None)
