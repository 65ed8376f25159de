"""An exception's ``__str__`` returning ``self.m()``, whose ``m`` hands the kept text to a renderer.

tatsu 5.24.0's ``FailedParse`` keeps the raise's text (``self.msg = msg``) and prints a report built
around it by a function of the package::

    class FailedParse(ParseException):
        def __init__(self, cursor: Cursor, stack: list[RuleInfo], msg: str):
            super().__init__(cursor, stack, msg)
            ...
            self.msg = msg

        def render(self, color: Color = MEMENTO_DEFAULT_COLOR) -> str:
            text = self.cursor.textstr
            msg = self.message
            ...
            return memento(msg, text, info, stack, color=color)

        def __str__(self):
            return self.render()

``memento`` ``print(...)``s coloured lines into a ``StringIO`` (``error: {msg}``, the source line, a caret, the
rule stack): no template of the report can be read, but the text the raise handed in is in it.  The method's
returns are unread (the walk keeps none that is not text), and its call of the package function passes a
parameter the instance kept from its constructor (``Param``: ``self.msg`` read as ``__init__``'s ``msg``).
``rendered_text`` reads such a ``__str__`` as that text with anything around it, ``{self.render()<before>}<the text>
{self.render()<after>}`` (``templatemarks.AROUND``: placeholders that cut no word of the text beside them), so the raise's own text (``'Expecting end of text'``) finds its site, where the lone
``{self.render()}`` said nothing (issue 17's sixty-eighth round).  When the text reaches the renderer through a
property (``msg = self.message``, ``FailedParse.message`` returning ``self.msg``) that the raised class overrides
(``FailedToken.message`` returns ``'expecting {}'.format(repr(self.token))``), the override's text is read.

Only a method called with no argument on the instance, that returns nothing the walk read, and whose calls of
the package's functions pass exactly one of the constructor's kept parameters (not the method's own): a
renderer handed two kept texts, or none, is left a call, as before.
"""

from __future__ import annotations

from errdex.extract.ir import Hole, Node, Param, Ref, cat
from errdex.extract.tables import Tables
from errdex.templatemarks import AROUND


def rendered_text(t: Tables, node: Node, raised: str) -> Node:
    """``node`` (what ``__str__`` returns): a no-argument call of the instance's method that renders one kept
    parameter through a package function, read as that parameter with a placeholder either side; else ``node``."""
    if not (isinstance(node, Ref) and node.is_call and not node.args and not node.kwargs):
        return node
    f, owner = t.function(node.target)
    if f is None or owner is None or f.returns:
        return node
    own = set(f.params)
    kept = {a.name: a for c in f.calls if _package_function(t, c.target)
            for a in c.args if isinstance(a, Param) and a.name not in own and not a.name.startswith("*")}
    if len(kept) != 1:
        return node
    (param,) = kept.values()
    return cat(Hole(node.src + AROUND[0]), _overridden(t, owner, raised, param.name) or Param(param.name),
               Hole(node.src + AROUND[1]))


def _overridden(t: Tables, owner: str, raised: str, param: str) -> Ref | None:
    """The raised class's own property in place of the owner's property that returns the kept ``param``
    (tatsu's ``FailedParse.message`` returns ``self.msg``; ``FailedToken.message`` returns ``'expecting
    {}'.format(repr(self.token))``, and ``render`` reads ``self.message``); None when the raised class
    overrides no such property."""
    prefix = owner + "."
    for key, f in t.functions.items():
        if not key.startswith(prefix) or f.params or f.returns != (Param(param),):
            continue
        name = key[len(prefix):]
        mine = t.method(raised, name)
        g = t.functions.get(mine) if mine is not None and mine != key else None
        if g is not None and not g.params and g.returns:
            return Ref(target=mine or "", src=f"self.{name}", callee=f"self.{name}")
    return None


def _package_function(t: Tables, target: str) -> bool:
    """A function of one of the package's modules (not a class: a constructor's text is another rule's)."""
    name = t.canonical(target)
    return name in t.functions or (name.rpartition(".")[0] in t.modules and name not in t.classes)
