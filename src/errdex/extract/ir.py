"""The message IR: what phase 1 knows about a message before other modules are seen.

A raise's message is reconstructed per file (phase 1, in a worker process),
but parts of it may live elsewhere: a helper function in another module, an
exception class whose ``__init__`` builds the text, a module constant.  So
phase 1 produces a small tree of these frozen nodes, with ``Ref`` for calls
and names still to be resolved, and phase 2 (``expand``) turns it into
``Template`` variants once every module's summary is known.

The nodes are plain picklable values: they cross the process boundary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import overload

from errdex.extract.pickling import fast_pickle
from errdex.model import Segment


@fast_pickle
@dataclass(frozen=True, slots=True)
class Lit:
    """Literal text."""

    text: str


@fast_pickle
@dataclass(frozen=True, slots=True)
class Hole:
    """A runtime value: rendered ``{expr}``.

    ``unresolved`` marks a hole that stands for message *text* we could not
    reconstruct (``raise ValueError(msg)`` with ``msg`` a parameter), as
    opposed to a value interpolated into known text (``f"bad {x}"``).
    """

    expr: str
    conversion: str | None = None
    format_spec: str | None = None
    unresolved: bool = False


@fast_pickle
@dataclass(frozen=True, slots=True)
class Param:
    """A parameter of a helper function or ``__init__``, bound at the call."""

    name: str
    conversion: str | None = None
    format_spec: str | None = None
    text_position: bool = False
    shown: str | None = None  # the expression the raise wrote, when it reached the parameter via a local


@fast_pickle
@dataclass(frozen=True, slots=True)
class Cat:
    """Concatenation."""

    parts: tuple[Node, ...]


@fast_pickle
@dataclass(frozen=True, slots=True)
class Alt:
    """One of several messages (branches assigning a variable, ``a if c else b``)."""

    options: tuple[Node, ...]


@fast_pickle
@dataclass(frozen=True, slots=True)
class Ref:
    """A call or a global name to resolve in phase 2.

    ``target`` is the resolved dotted name (``jax._src.errors.JAXTypeError``,
    ``pkg.mod._mismatch_err``) or a builtin (``ValueError``); ``src`` is the
    expression's source, used as the placeholder when it does not resolve.
    ``is_call`` is False for a bare name (a module constant).
    """

    target: str
    src: str
    callee: str = ""  # the function as written: "errors.JAXTypeError", "_error"
    args: tuple[Node, ...] = ()
    kwargs: tuple[tuple[str, Node], ...] = ()
    is_call: bool = True
    text_position: bool = False
    reraised: str = ""  # ``raise e`` of a caught exception: the variable, whose message is unknown
    param: str = ""  # ``raise exc_type(msg)``: the callee is this parameter of the enclosing function
    edited: Node | None = None  # ``raise e`` after ``e.args = (TEXT,) + ...``: that text (``edited.py``)
    item: tuple[Node, ...] = ()  # ``TABLE_ITEM``: the key and the position (a literal) read


# ``param`` of a classmethod's ``cls(...)``: bound to the class the method was called on
# (``NotFound.for_field(...)`` of an inherited factory); unbound, the class that defines it.
CLS_PARAM = "<cls>"
# ``Ref.callee`` of a keyed read of a class's message table, ``self.error_messages[key]``: ``target`` is
# the class and table, ``args`` the key and the class the method runs on (``CLS_PARAM``, when bound)
KEYED = "[]"
# ``Ref.callee`` of a parameter with a literal default set when it is None (``if message is None: message =
# "..."``), args ``(the parameter, the default)``: the caller's text when it passes some, else both
DEFAULTED = "??"
# ``Ref.callee`` of an item of a module-level table of tuples read by a key, ``TABLE[code][1]`` (after
# ``error_class, default_message = TABLE[code]``): ``target`` the table, ``item`` the key and the position;
# called (``error_class(message, pcode, token)``), ``args`` are the call's
TABLE_ITEM = "[][i]"
# ``Ref.callee`` of ``text.format(a, b, key=c)`` where ``text`` is known only in phase 2 (a class attribute read
# through ``self``, a parameter): ``args`` the text then the positional arguments, ``kwargs`` the named ones;
# phase 2 puts each argument's text in its field (``expand._formatted``)
FORMATTED = "str.format()"


def exc_arg(i: int) -> str:
    """The parameter that stands for ``self.args[i]`` in an exception's ``__str__`` (and the methods
    it calls): bound to the i-th argument that reached ``BaseException.__init__``."""
    return f"<args[{i}]>"


def default_key(param: str) -> str:
    """The binding (a marker, carried into every call) of the raising function's parameter ``param``'s
    literal default: a table's key that reaches the table through that parameter, unbound at the raise, is
    also the default (elementpath's ``expected(..., code='XPST0003')`` -> ``self.wrong_syntax(message, code)``
    -> ``XPATH_ERROR_CODES[code]``, ``binding.subst``; issue 17's thirtieth round)."""
    return f"<default {param}>"


def is_marker(name: str) -> bool:
    """A parameter errdex binds itself (``<cls>``, ``<args[0]>``, the class name): not an identifier,
    so it cannot clash with a real parameter, and a called method of the same object keeps it."""
    return not name.isidentifier()


@fast_pickle
@dataclass(frozen=True, slots=True)
class Dedent:
    """A transformation of text known in phase 2: ``textwrap.dedent`` / ``inspect.cleandoc`` /
    ``.strip()``, ``.format(...)`` of a parameter's text (``FORMAT_FIELDS``), ``.replace(old, new)``."""

    inner: Node
    how: str  # "dedent", "cleandoc", "strip", "lstrip", "rstrip", FORMAT_FIELDS, PERCENT_FIELDS + source, REPLACED...


# ``Dedent.how`` of ``text.format(...)`` where ``text`` is known only in phase 2 (a parameter, a constant):
# its ``{name}`` fields become placeholders
FORMAT_FIELDS = "format"
# ``Dedent.how`` of ``text % values`` where ``text`` is known only in phase 2 (``self.args[0] % self.args[1:]``
# in an exception's ``__str__``): ``PERCENT_FIELDS + <the values' source>``; its ``%s`` fields become placeholders
PERCENT_FIELDS = "%:"
# ``Dedent.how`` of ``text.replace(old, new)`` (hjson's ``errmsg`` puts the offending character where the
# caller's text says ``%r``): ``REPLACED + old + REPLACE_SEP`` then ``=`` and the new literal text, or ``{``
# and the source of the value that takes its place (a placeholder)
REPLACED = "replace:"
REPLACE_SEP = "\x00"
# ``Dedent.how`` of a tuple, list or dict display passed as a call argument: its text is its own ``repr``
# (``raise ValueError("a %d", (x, 4))`` prints ``('a %d', (x, 4))``, not a quoted string); the text unchanged
SHOWN_REPR = "repr"


Node = Lit | Hole | Param | Cat | Alt | Ref | Dedent

EMPTY = Lit("")


def cat(*parts: Node) -> Node:
    """A ``Cat`` that flattens nested concatenations and drops empty literals."""
    flat: list[Node] = []
    for p in parts:
        if isinstance(p, Cat):
            flat.extend(p.parts)
        elif isinstance(p, Lit) and not p.text:
            continue
        else:
            flat.append(p)
    if not flat:
        return EMPTY
    if len(flat) == 1:
        return flat[0]
    return Cat(tuple(flat))


def alt(options: list[Node]) -> Node:
    """An ``Alt`` of distinct options (a single option is returned as is)."""
    uniq: list[Node] = []
    for o in options:
        if isinstance(o, Alt):
            for inner in o.options:
                if inner not in uniq:
                    uniq.append(inner)
        elif o not in uniq:
            uniq.append(o)
    if len(uniq) == 1:
        return uniq[0]
    return Alt(tuple(uniq))


def literal_text(node: Node) -> str | None:
    """The text of a node made only of literals, else None."""
    if isinstance(node, Lit):
        return node.text
    if isinstance(node, Cat):
        out: list[str] = []
        for p in node.parts:
            t = literal_text(p)
            if t is None:
                return None
            out.append(t)
        return "".join(out)
    return None


# A segment as it flows through expansion: the model's Segment plus whether the
# placeholder is an unresolved message part (counted in ErrorSite.unresolved).
@fast_pickle
@dataclass(frozen=True, slots=True)
class Piece:
    segment: Segment
    unresolved: bool = False


Variant = tuple[Piece, ...]


def parts_of(node: Node) -> tuple[Node, ...]:
    """The nodes ``node`` is made of: a ``Cat``'s parts, an ``Alt``'s options, a ``Dedent``'s text, a ``Ref``'s
    arguments (positional, then each keyword's value); none for a leaf.  A ``Ref``'s ``edited`` text and
    ``item`` key are not parts: what it says is its call."""
    if isinstance(node, Cat):
        return node.parts
    if isinstance(node, Alt):
        return node.options
    if isinstance(node, Dedent):
        return (node.inner,)
    if isinstance(node, Ref):
        return (*node.args, *(v for _, v in node.kwargs))
    return ()


def reaches(node: Node, found: Callable[[Node], bool], limit: int, depth: int = 0) -> bool:
    """Whether ``node`` or a node it is made of (``parts_of``), at most ``limit`` levels down, is ``found``."""
    if depth > limit:
        return False
    return found(node) or any(reaches(p, found, limit, depth + 1) for p in parts_of(node))


@overload
def with_parts(node: Ref, each: Callable[[Node], Node]) -> Ref: ...
@overload
def with_parts(node: Node, each: Callable[[Node], Node]) -> Node: ...
def with_parts(node: Node, each: Callable[[Node], Node]) -> Node:
    """``node`` with each node it is made of (``parts_of``) replaced by ``each(part)``, as the same kind of
    node (an ``Alt`` stays an ``Alt`` as it was: no options merged); ``node`` itself when none changes."""
    if isinstance(node, Cat):
        return Cat(tuple(each(p) for p in node.parts))
    if isinstance(node, Alt):
        return Alt(tuple(each(o) for o in node.options))
    if isinstance(node, Dedent):
        return Dedent(each(node.inner), node.how)
    if isinstance(node, Ref) and (node.args or node.kwargs):
        args = tuple(each(a) for a in node.args)
        kwargs = tuple((k, each(v)) for k, v in node.kwargs)
        return node if args == node.args and kwargs == node.kwargs else replace(node, args=args, kwargs=kwargs)
    return node


def reads_param(node: Node | None) -> bool:
    """Whether an IR tree holds a parameter (as text, a value, or a class called)."""
    return bool(param_names(node))


def param_names(node: Node | None, depth: int = 0) -> set[str]:
    """The parameters an IR tree reads (as text, a value, or a class called)."""
    if node is None or depth > 32:
        return set()
    if isinstance(node, Param):
        return {node.name}
    own = {node.param} if isinstance(node, Ref) and node.param else set()
    return own.union(*(param_names(p, depth + 1) for p in parts_of(node)))
