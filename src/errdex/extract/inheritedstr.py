"""A base's ``__str__`` printing what the raised class's own properties say.

clize 5.0.2's ``ArgumentError.__init__(self, message=None)`` keeps ``self.message = message`` and its
``__str__`` prints ``self.prefix_with_pname(self.message + usage)``; each subclass defines ``message`` as a
``@property`` (``"Missing required arguments: {0}".format(...)``), most with an ``__init__`` of their own
that never calls the base's (``def __init__(self, missing): self.missing = missing``).  Python looks
``__str__`` up on the instance's class and its bases, whatever ``__init__`` ran, and ``self.message`` on
the instance's class first: the subclass's property.  Read before, a subclass's ``__init__`` without a
``super().__init__`` call printed its arguments (``{unsatisfied}``), and a subclass without one printed the
base's text with ``{message}`` unknown; 28 of clize's 41 messages missed.

- ``inherited_str``: the first base (past the raised class's own ``__init__``) whose ``__str__`` prints,
  when the raised class's ``__init__`` never calls the base's; None otherwise.
- ``property_binds``: the parameters of the ``__init__`` that feeds that ``__str__`` which the raise
  leaves unbound (or which that ``__init__`` never received) and which name a method of the raised class
  (its property: ``self.message``, read through ``self.message = message``), each bound to that method's
  text, read in phase 2 like any call of the package's.
"""

from __future__ import annotations

from errdex.extract.ir import Node, Ref
from errdex.extract.tables import Tables


def inherited_str(t: Tables, chain: list[str], i: int) -> str | None:
    """``chain[j]`` (j > i) whose ``__str__`` prints when ``chain[i]``'s ``__init__`` never calls its base's."""
    entry = t.classes.get(chain[i])
    init = entry[0].init if entry is not None else None
    if init is None or init.super_args is not None or init.passes_args:
        return None
    return next((b for b in chain[i + 1:] if (e := t.classes.get(b)) is not None and e[0].str_message is not None),
                None)


def property_binds(t: Tables, raised: str, params: tuple[str, ...], bound: set[str]) -> dict[str, Node]:
    """Each of ``params`` not in ``bound`` that names a method of the raised class taking nothing but
    ``self`` (a property) defined on the raised class or a base below the one that set the attribute:
    the text that method returns."""
    out: dict[str, Node] = {}
    for p in params:
        if p in bound:
            continue
        key = t.method(raised, p)
        f = t.functions.get(key) if key is not None else None
        if key is None or f is None or not f.returns or f.params[1:]:
            continue
        out[p] = Ref(target=key, src=f"self.{p}", callee=f"self.{p}")
    return out
