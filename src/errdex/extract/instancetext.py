"""A property (or a method taking nothing) an ``__init__`` hands its base, read with the instance's arguments.

pyspnego 0.12.4's ``spnego/exceptions.py``:

```python
class SpnegoError(Exception, metaclass=_SpnegoErrorRegistry):
    def __init__(self, error_code=None, base_error=None, context_msg=None):
        self.base_error = base_error
        self._error_code = error_code
        self._context_message = context_msg

        super(SpnegoError, self).__init__(self.message)

    @property
    def message(self) -> str:
        ...
        msg = "SpnegoError (%d): %s" % (error_code, base_message)
        if self._context_message:
            msg += ", Context: %s" % self._context_message
        return msg
```

and ``raise OperationNotAvailableError(context_msg="CredSSP does not have a session key to share")``.  Phase 1
reads ``self._context_message`` in the property as the ``__init__`` parameter it keeps (``context_msg``); the
property's text reached the base's ``args`` as a call of the method, expanded later with no binding, so every
raise printed ``{context_msg}``.  ``same_instance`` reads the method where ``__init__`` hands it on: its returns
with the raise's bindings (the same instance: ``calltexts.call_bind``), the raised class's override of the
method first (``Tables.method``).
"""

from __future__ import annotations

from errdex.extract.binding import Bind, as_text, subst
from errdex.extract.calltexts import call_bind
from errdex.extract.ir import Node, Ref, alt
from errdex.extract.tables import Tables


def same_instance(t: Tables, node: Node, bind: Bind, raised: str) -> Node:
    """``node`` (an argument an ``__init__`` passes to its base) when it is ``self.name`` of a method taking
    nothing but ``self`` (a property): the texts that method returns for this raise; else ``node``."""
    if not isinstance(node, Ref) or not node.is_call or node.args or node.kwargs \
            or not node.callee.startswith("self.") or not bind:
        return node
    name = node.callee.removeprefix("self.")
    key = t.method(raised, name) if name.isidentifier() else None
    f, owner = t.function(key) if key is not None else (None, None)
    if f is None or owner is None or not f.returns or f.params or f.vararg or f.varkw:
        return node
    inner = call_bind(f, owner, node, bind)
    return alt([subst(as_text(r) if node.text_position else r, inner) for r in f.returns])
