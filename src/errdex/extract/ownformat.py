"""An exception's ``__str__`` returning ``self.m()``, whose ``m`` formats a class attribute through a local.

quantiphy 2.22's ``QuantiPhyError.__str__`` returns ``self.render()``; ``render`` picks ``template =
self._template`` (each subclass sets ``_template = "incompatible units ({} and {})."``), loops ``for t in
[template]`` and returns ``t.format(*self.args, **self.kwargs)``.  The walker reads that call as
``self._template.format(...)`` (``msgforms._own_format``: the local holds the attribute), and phase 2 reads
``self.<attr>.format(...)`` as the raised class's own attribute formatted (``classmessage._own_attrs``) -- but
only in the text ``__str__`` itself returns.  ``own_method_returns`` puts the returns of such a method
(called on ``self`` with no arguments, found on the raised class's chain) in place of the call, so that
the raised class's attribute is read there too.  A method none of whose returns formats a class
attribute so is left a call, as before.
"""

from __future__ import annotations

import re

from errdex.extract.ir import Alt, Node, Ref, alt
from errdex.extract.tables import Tables

ATTR_FORMAT = re.compile(r"self\.(\w+)\.format\(.*\)")


def own_method_returns(t: Tables, node: Node) -> Node:
    """``node`` (what ``__str__`` returns) with a no-argument call of one of the instance's methods that
    formats ``self.<attr>`` replaced by that method's returns."""
    if isinstance(node, Alt):
        return alt([own_method_returns(t, o) for o in node.options])
    if not (isinstance(node, Ref) and node.is_call and not node.args and not node.kwargs):
        return node
    f, owner = t.function(node.target)
    if f is None or owner is None or not f.returns or not any(_formats_attr(r) for r in f.returns):
        return node
    return alt(list(f.returns))


def _formats_attr(node: Node) -> bool:
    if isinstance(node, Alt):
        return any(_formats_attr(o) for o in node.options)
    return isinstance(node, Ref) and node.is_call and ATTR_FORMAT.fullmatch(node.src) is not None
