"""``cls.<name>`` in the text a classmethod raises: the class attribute of the class it runs on.

webvtt-py 0.6.0's ``_Settings.from_string`` raises ``MalformedCaptionError(f'Invalid {cls._KIND}s
{value!r}')``; ``_Settings`` sets ``_KIND = 'setting'``, ``CueSettings`` ``'cue setting'``, ``Region``
``'region setting'``, and both inherit the classmethod.  The site read ``Invalid {cls._KIND}s {value}``,
too little literal text to be found, so ``Invalid region settings None`` went confidently to the other
site that writes it out (``Region.from_string``), though the inherited one raised it (round 22).

A classmethod's ``cls`` is the class it was called on: the method's own class or a subclass, each
reading its nearest literal attribute.  The site keeps its written template first (its id is made from
it), then the texts of its class and of the subclasses (``classattrs.attrs_of_caller``).
"""

from __future__ import annotations

import dataclasses

from errdex.extract.classattrs import attrs_of_caller
from errdex.extract.ir import Alt, Cat, Hole, Node, Ref
from errdex.extract.tables import Tables

MAX_DEPTH = 32


def with_class_attrs(t: Tables, value: Node, owner: str) -> Node:
    """A raised ``Ref``'s arguments with ``cls.<name>`` read as ``owner``'s and its subclasses' literal
    attributes, the placeholder first; ``value`` itself when it holds none."""
    if not isinstance(value, Ref) or not value.is_call or owner not in t.classes:
        return value
    args = tuple(_read(t, a, owner, 0) for a in value.args)
    kwargs = tuple((k, _read(t, v, owner, 0)) for k, v in value.kwargs)
    if args == value.args and kwargs == value.kwargs:
        return value
    return dataclasses.replace(value, args=args, kwargs=kwargs)


def _read(t: Tables, node: Node, owner: str, depth: int) -> Node:
    if depth > MAX_DEPTH:
        return node
    if isinstance(node, Alt):
        return Alt(tuple(_read(t, o, owner, depth + 1) for o in node.options))
    if isinstance(node, Cat):
        return Cat(tuple(_read(t, p, owner, depth + 1) for p in node.parts))
    if isinstance(node, Hole) and node.expr.startswith("cls."):
        read = attrs_of_caller(t, node, owner)  # the owner's text, the placeholder, the subclasses' texts
        if isinstance(read, Alt) and len(read.options) > 1:
            return Alt((node, *(o for o in read.options if o != node)))
    return node
