"""Exception classes of one family: leaf classes a package defines side by side on the same base.

Rating 8 (5b54): the page of click's `Exit` (raised only by `Context.exit`) listed no related error, where
`click.Abort` is its neighbour: both derive directly from `RuntimeError`, are defined next to each other in
`click/exceptions.py`, and are the two signals `standalone_mode` turns into an exit.  A program that handles
one usually has to handle the other.

Two classes are of one family when they are defined in the same file one after the other (no other class of the
package between them), with the same bases, and neither has a subclass in the package (a base with subclasses
is a hierarchy, which ``related`` already reads).  Parsing only: the extractor's ``ClassInfo`` records.
"""

from __future__ import annotations

from collections.abc import Mapping

from errdex.model import ClassInfo


def class_siblings(qualname: str, classes: Mapping[str, ClassInfo]) -> tuple[ClassInfo, ...]:
    """The classes defined right before and after ``qualname`` in its file that share its bases, leaves both."""
    me = classes.get(qualname)
    if me is None or not me.bases or not me.line:
        return ()
    based = {b for c in classes.values() for b in c.bases}
    if qualname in based:
        return ()
    same_file = sorted((c for c in classes.values() if c.path == me.path and c.line), key=lambda c: c.line)
    at = next((i for i, c in enumerate(same_file) if c.qualname == qualname), -1)
    out: list[ClassInfo] = []
    for i in (at - 1, at + 1):
        if at >= 0 and 0 <= i < len(same_file):
            c = same_file[i]
            if c.bases == me.bases and c.qualname not in based:
                out.append(c)
    return tuple(out)
