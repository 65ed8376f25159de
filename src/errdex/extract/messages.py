"""Phase 1 template reconstruction: an AST expression → message IR.

Two positions matter.  In *text position* the expression is message text
(the argument of ``ValueError(...)``, an operand of ``+``, a ``.format``
receiver): an unknown there is an unresolved hole.  In *value position* it is
a runtime value interpolated into known text (an f-string field, a ``%`` or
``.format`` argument): an ordinary placeholder.  Calls and imported names
become ``Ref`` nodes that phase 2 resolves against every module's summary.

``MessageBuilder`` is assembled from parts by responsibility: names, text
position, call arguments and local bindings here; value position (placeholders, parameters, constants)
in ``msgvalue.py``; message forms (f-strings, ``%``, ``.format``,
slices) in ``msgforms.py``; joins and the items of lists in ``msgjoin.py``; calls (helpers, gettext, ``textwrap``) in
``msgcalls.py``; the raised expression (classes, constructor calls, caught
exceptions) in ``msgraise.py``.  ``msgbase.py`` holds ``Scope``.
"""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass, field

from errdex.extract import env as envmod
from errdex.extract.calltexts import is_base_str
from errdex.extract.heldclasses import HOLDS
from errdex.extract.imports import BUILTIN_NAMES, STAR, class_like, dotted_source
from errdex.extract.ir import (
    CLS_PARAM,
    EMPTY,
    KEYED,
    SHOWN_REPR,
    TABLE_ITEM,
    Dedent,
    Hole,
    Lit,
    Node,
    Param,
    Ref,
    alt,
    cat,
)
from errdex.extract.kepttexts import KeptAttrs
from errdex.extract.msgbase import (
    _GETTEXT,
    _OPAQUE,
    _STRIPS,
    MAX_EVAL_DEPTH,
    MESSAGE_TABLE,
    Scope,
    translator,
)
from errdex.extract.msgcalls import CallsMixin, replacement
from errdex.extract.msgforms import FormsMixin, _repeated
from errdex.extract.msgjoin import JoinMixin
from errdex.extract.msgraise import RaisedMixin
from errdex.extract.msgtemplate import SUBSTITUTE, substituted
from errdex.extract.msgvalue import CLASS_NAME, ValuesMixin, _is_own_class, _own_arg
from errdex.extract.properties import property_read
from errdex.extract.raisedattrs import raised_attr
from errdex.extract.source import SourceText
from errdex.extract.stdlib_texts import codec_error_texts, os_error_texts
from errdex.extract.strict import unclassified
from errdex.limits import current

__all__ = ["CLASS_NAME", "MessageBuilder", "Scope"]


@dataclass(slots=True)
class MessageBuilder(ValuesMixin, FormsMixin, JoinMixin, CallsMixin, RaisedMixin):
    """Builds IR for one module; holds the module's names for resolution."""

    src: SourceText
    module: str
    imports: dict[str, str]
    top_defs: set[str]
    module_env: dict[str, ast.expr]
    path: str
    _memo: dict[object, Node] = field(default_factory=dict)  # keyed by Binding identity / ("module", name)
    _depth: int = 0
    # the file's budget of text readings (``limits.text_steps_per_file``) and whether it ran out: the walk's
    # reading is recursive over bindings, calls and joins, and a shape missed by its memos must cost a
    # placeholder, not the run
    step_budget: int = field(default_factory=lambda: current().text_steps_per_file)
    steps: int = 0
    over_budget: bool = False
    # a plain class → the `self.<attr>` texts it may keep (``kepttexts.KeptAttrs``), set as the walk enters it
    kept_classes: dict[str, KeptAttrs] = field(default_factory=dict)
    # `Cls.CONST` of the module's class-level `CONST = Limit(... "text" ...)` calls (``tuplefields.class_built``)
    built_members: frozenset[str] = frozenset()
    kwargs_name: str | None = None  # the `**kwargs` of the function being walked: a mapping (``textops.percent_fails``)
    # "Cls.NAME" -> the text node a class body's constant put in its `self` attributes (``owntexts``)
    class_texts: dict[str, Node] = field(default_factory=dict)
    # a module function -> the texts appended to each list it returns, by key (``returnedlists``)
    helper_lists: dict[str, dict[str, tuple[Node, ...]]] = field(default_factory=dict)
    # the module star-imports a module of its package (its imports are all known before it is built)
    _stars: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self._stars = any(k.startswith(STAR) for k in self.imports)

    # ----------------------------------------------------------------- names

    def resolve_name(self, written: str) -> str | None:
        """Dotted target of a name/attribute chain, or None for a local value."""
        head, _, rest = written.partition(".")
        if head in self.imports:
            target = self.imports[head]
            return f"{target}.{rest}" if rest else target
        if head in self.top_defs:
            return f"{self.module}.{written}" if self.module else written
        if head in BUILTIN_NAMES and not rest:
            return head
        if self._stars and head not in BUILTIN_NAMES and self.module:
            return f"{self.module}.{written}"  # maybe from a star import: phase 2 follows it (or drops the module)
        return None

    def callee(self, written: str, scope: Scope) -> str | None:
        """What a call's function names: a nested ``def`` of this function, a method of this
        class (``self._error``), or a module-level / imported / builtin name."""
        if scope.own_class(written):  # `return cls(message, code=...)` in a factory classmethod
            return f"{self.module}.{scope.class_qualname}" if self.module else str(scope.class_qualname)
        if "." not in written:
            b = envmod.lookup(scope.env, written)
            if b is not None:
                return b.local_def  # a local variable (None) or a nested helper
            if written not in scope.params:
                for outer in scope.outers:  # a helper of the enclosing function, called from a nested one
                    b = envmod.lookup(outer, written)
                    if b is not None:
                        return b.local_def
        elif (written.startswith("self.") and written.count(".") == 1 and scope.class_qualname
              and self._named(written, scope) is None):
            return f"{self.module}.{scope.class_qualname}.{written[5:]}"
        elif (written.startswith("self.") and written.count(".") == 1 and scope.class_qualname is None
              and "self" in scope.params and envmod.lookup(scope.env, "self") is None):
            # `def select__axis(self: XPathAxis, ...)` at module level (a method registered by a decorator):
            # a method of the annotated class, else the package's one method of that name
            return scope.receiver_method(written, self.module, self.resolve_name)
        elif (scope.cls_alias and written.count(".") == 1 and scope.own_class(written.split(".", 1)[0])
              and self._named(written, scope) is None):
            # `cls._format_error("...", st)` in a classmethod: a method of the class, as `self.` is
            return f"{self.module}.{scope.class_qualname}.{written.split('.', 1)[1]}" if self.module \
                else f"{scope.class_qualname}.{written.split('.', 1)[1]}"
        return self._named(written, scope)

    def _named(self, written: str, scope: Scope) -> str | None:
        """``resolve_name`` of a name this function does not bind: a parameter shadows the module's names, and
        above all a star import's (``resolve_name`` takes any unknown name of a star-importing module for one of
        that module's: python-bitcoinlib's ``err_raiser(cls, *args)`` raising ``cls(*args, ...)`` in a module
        that does ``from bitcoin.core.script import *`` named a module attribute ``cls``)."""
        head = written.partition(".")[0]
        if head in scope.params and envmod.lookup(scope.env, head) is None:
            return None
        return self.resolve_name(written)

    def where(self, node: ast.AST) -> str:
        return f"{self.path}:{getattr(node, 'lineno', 0)}"

    def text(self, node: ast.expr, scope: Scope) -> Node:
        """``node`` as message text."""
        self.steps += 1
        if self._depth > MAX_EVAL_DEPTH or self.steps > self.step_budget:
            self.over_budget = self.over_budget or self.steps > self.step_budget
            return Hole(self.src.segment(node), unresolved=True)
        self._depth += 1
        try:
            return self._text(node, scope)
        finally:
            self._depth -= 1

    def _text(self, node: ast.expr, scope: Scope) -> Node:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return Lit(node.value)
            if node.value is None:
                return EMPTY
            return Lit(str(node.value))
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node, scope)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):  # a + b + c nests to the left: flatten without recursing
                operands: list[ast.expr] = []
                cur: ast.expr = node
                while isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Add):
                    operands.append(cur.right)
                    cur = cur.left
                operands.append(cur)
                return cat(*(self.text(o, scope) for o in reversed(operands)))
            if isinstance(node.op, ast.Mod):
                return self._percent(node, scope)
            repeated = _repeated(node)
            if repeated is not None:
                return repeated
            return Hole(self.src.segment(node), unresolved=True)
        if isinstance(node, ast.Call):
            return self._call(node, scope, text_position=True)
        if isinstance(node, ast.Name):
            return self._name(node, scope, text_position=True)
        if isinstance(node, ast.IfExp):
            return alt([self.text(node.body, scope), self.text(node.orelse, scope)])
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            # `(self.error or message).format(...)`: the value of `a or b` is one of its operands
            return alt([self.text(v, scope) for v in node.values])
        if isinstance(node, ast.Attribute):
            const = self._constant_ref(node, scope, text_position=True)
            if const is not None:
                return const
            if (read := property_read(self, node, scope)) is not None \
                    and self._own_call(got := self._call(read, scope, text_position=True)):
                return got  # `return self.message` in __str__: what the property returns
            if scope.class_qualname is not None and node.attr == "__name__" and _is_own_class(node.value):
                return self.value(node, scope)  # `self.__class__.__name__ + ': ' + ...`: the raised class's name
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            sliced = self._slice(node, node.slice, scope)
            if sliced is not None:
                return sliced
        if isinstance(node, ast.Subscript) and (keyed := self._keyed(node, scope)) is not None:
            return keyed
        own = _own_arg(node, scope)
        if own is not None:
            return Param(own, text_position=True, shown=self.src.segment(node))
        if isinstance(node, _OPAQUE):
            return Hole(self.src.segment(node), unresolved=True)
        unclassified(f"message expression {type(node).__name__}", self.where(node))
        return Hole(self.src.segment(node), unresolved=True)

    def arg(self, node: ast.expr, scope: Scope) -> Node:
        """A call argument: text when it looks like text, else a value to bind later."""
        if (os_text := self._os_error_value(node, scope)) is not None:
            return Lit(os_text)  # OSError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            sliced = self._slice(node, node.slice, scope)
            if sliced is not None:
                return sliced
        if isinstance(node, ast.Subscript) and (keyed := self._keyed(node, scope)) is not None:
            return keyed
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and any(_texty(v) for v in node.values):
            # `self.error = error or self.default_message`: the caller's text, else the class's
            return alt([self.arg(v, scope) for v in node.values])
        if isinstance(node, (ast.Constant, ast.JoinedStr, ast.IfExp)) or (
            isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod))
        ):
            return self.text(node, scope)
        if isinstance(node, ast.Call) and (own := raised_attr(self.module, node, scope, self.src.segment(node))):
            return own  # `getattr(self, "_BASE_MESSAGE", "...")` that each subclass sets (``raisedattrs``)
        if isinstance(node, ast.Call) and (default := _read_default(node)) is not None and _texty(default) \
                and not isinstance(default, ast.Attribute):
            # `getattr(request, "authdebug_message", "Unauthorized: %s failed permission check" % name)`,
            # `reasons.get(code, f"unknown error {code}")`: the attribute's (the entry's) value, or the default text
            return alt([Hole(self.src.segment(node)), self.text(default, scope)])
        if isinstance(node, ast.Call):
            if (picked := self.picked_call(node, scope)) is not None:
                return picked  # `exc = ERROR_MAP[code](reason, lang)`: one of a table's classes (``classtables``)
            f = node.func
            if isinstance(f, ast.Attribute) and (f.attr in ("format", "join", *_STRIPS) or (
                    f.attr == "replace" and replacement(node, self.src.segment) is not None)):
                return self.text(node, scope)
            if isinstance(f, ast.Attribute) and f.attr in SUBSTITUTE and (filled := substituted(self, node, scope)):
                return filled  # `message = s.substitute(MSG=msg, ...)` of a `string.Template`
            d = dotted_source(f)
            if (d is not None and d.rsplit(".", 1)[-1] in _GETTEXT) or self._bound_format(f, scope) is not None \
                    or (d is not None and d.isidentifier() and (b := envmod.lookup(scope.env, d)) is not None
                        and translator(b)):
                return self.text(node, scope)
            if d is not None and self.callee(d, scope) is not None:
                return self._call(node, scope, text_position=False)
            if isinstance(f, ast.Name) and (held := self._held_call(node, f.id, scope)) is not None:
                return held  # `Error = cls.metadata_Error or ...`; `E(Error(note=note))`: each class (``heldclasses``)
        if isinstance(node, ast.Name):
            if envmod.lookup(scope.env, node.id) is not None:
                return self._name(node, scope, text_position=False)
            if node.id in scope.params:
                return Param(node.id)
            if node.id in self.module_env or node.id in self.imports:
                return self._name(node, scope, text_position=False)
        if (shown := self.display(node, scope)) is not None:
            return Dedent(shown, SHOWN_REPR)  # a container's text is its repr: unquoted among an exception's args
        return self.value(node, scope)

    def _held_call(self, node: ast.Call, name: str, scope: Scope) -> Node | None:
        """A call of a local holding a class each subclass names in a class attribute (``heldclasses``)."""
        handed: list[bool] = []  # `Error = error_class` / `if not Error: Error = cls.metadata_Error or ...`
        b = envmod.lookup(scope.env, name)
        classes = self._held_classes(b, scope, 0, handed) if b is not None else None
        if not classes or not any(r.callee == HOLDS for r in classes):
            return None
        args, kwargs = self.call_args(node.args, scope), self.call_kwargs(node.keywords, scope)
        src = self.src.segment(node)
        own = [Ref(target=name, src=src, callee=name, args=args, kwargs=kwargs, param=name)] if handed else []
        return alt([*(dataclasses.replace(r, is_call=True, src=src, callee=r.callee if r.callee == HOLDS else r.src,
                                          args=args, kwargs=kwargs) for r in classes), *own])  # (the caller's too)

    def _keyed(self, node: ast.Subscript, scope: Scope) -> Node | None:
        item = self._table_item(node, scope)
        if item is not None:
            return item
        return self._class_keyed(node, scope)

    def _table_item(self, node: ast.Subscript, scope: Scope) -> Ref | None:
        """``TABLE[key][i]``, ``TABLE`` a module-level dict of tuples and ``key`` a literal or a value the
        function got (elementpath's ``error_class, default_message = XPATH_ERROR_CODES[code]``, bound so by
        ``walkbind.assign``): the entry's item, read in phase 2 per key the caller passed (``expand``)."""
        inner, pos = node.value, node.slice
        if not (isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name)
                and isinstance(pos, ast.Constant) and type(pos.value) is int
                and isinstance(self.module_env.get(inner.value.id), ast.Dict)
                and envmod.lookup(scope.env, inner.value.id) is None and inner.value.id not in scope.params):
            return None
        k = inner.slice
        key = Lit(k.value) if isinstance(k, ast.Constant) and isinstance(k.value, str) else self.arg(k, scope)
        table = f"{self.module}.{inner.value.id}" if self.module else inner.value.id
        return Ref(target=table, src=self.src.segment(node), callee=TABLE_ITEM, item=(key, Lit(str(pos.value))),
                   is_call=False, text_position=True)

    def _class_keyed(self, node: ast.Subscript, scope: Scope) -> Node | None:
        """``self.error_messages[key]`` in a method: a read of the class's message table by a literal key
        or a parameter (bound by the caller: ``self.make_error("invalid")``), resolved in phase 2 over
        the class the method runs on, its subclasses and its bases (``expand.py``)."""
        v, k = node.value, node.slice
        if not (scope.class_qualname and isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name)
                and v.value.id == "self" and MESSAGE_TABLE.search(v.attr)):
            return None
        key: Node
        if isinstance(k, ast.Constant) and isinstance(k.value, str):
            key = Lit(k.value)
        elif isinstance(k, ast.Name) and k.id in scope.params and envmod.lookup(scope.env, k.id) is None:
            key = Param(k.id)
        else:
            return None
        owner = f"{self.module}.{scope.class_qualname}" if self.module else scope.class_qualname
        return Ref(target=f"{owner}.{v.attr}", src=self.src.segment(node), callee=KEYED,
                   args=(key, Param(CLS_PARAM)), is_call=False, text_position=True)

    def _name(self, node: ast.Name, scope: Scope, text_position: bool) -> Node:
        b = envmod.lookup(scope.env, node.id)
        if b is not None:
            return self.binding(b, node, scope)
        if node.id in scope.params:
            return Param(node.id, text_position=text_position)
        if node.id in self.module_env:
            key: object = ("module", node.id)
            hit = self._memo.get(key)
            if hit is None:
                self._memo[key] = Hole(node.id, unresolved=text_position)  # guards self-reference
                hit = self.arg(self.module_env[node.id], Scope())
                self._memo[key] = hit
            return hit
        target = self.resolve_name(node.id)
        if target is not None and target != node.id:
            return Ref(target=target, src=node.id, is_call=False, text_position=text_position)
        return Hole(node.id, unresolved=text_position)

    def binding(self, b: envmod.Binding, node: ast.expr, scope: Scope) -> Node:
        """The IR for a local binding (memoized: the same binding read twice costs once)."""
        hit = self._memo.get(b)
        if hit is not None:
            return hit
        self._memo[b] = Hole(self.src.segment(node), unresolved=True)  # cycles read as unknown
        result: Node
        if b.options:
            opts: list[Node] = []
            unset: Node = Hole(self.src.segment(node), unresolved=True)
            if isinstance(node, ast.Name) and node.id in scope.params:
                unset = Param(node.id)  # `if message is None: message = name`: else the parameter as passed
            for o in b.options:
                opts.append(self.binding(o, node, scope) if o is not None else unset)
            result = alt(opts)
        elif b.value is None and b.caught is not None and self._caught_os_error(b.caught):
            # `except OSError as e: raise LibError(e)`: the text the operating system's error prints
            # (mutagen's `raise MutagenError(e) from e` around `open()`), or another an OSError was given
            name = self.src.segment(node)
            result = alt([Hole(name, unresolved=True), *(cat(*parts) for parts in os_error_texts(name))])
        elif b.grow and grown_list(b):
            # `errors = []; ... errors.append(...); raise E(errors)`: the list's repr, its items unknown
            # (pyOpenSSL's `exception_from_error_queue` prints `[('SSL routines', '', 'no cipher match')]`)
            result = cat(Lit("["), Hole(self.src.segment(node), unresolved=True), Lit("]"))
        elif b.value is None and b.caught is not None and (codec := self._caught_codec_error(b.caught)):
            # `except UnicodeDecodeError as e: raise ValueError(e)`: the codec's text over the caught error's
            # attributes (latexcodec's lexer), or another such error was given (``stdlib_texts``)
            name = self.src.segment(node)
            result = alt([Hole(name, unresolved=True), *codec_error_texts(codec, name)])
        elif b.value is None or b.grow or (isinstance(b.value, ast.Constant) and not isinstance(b.value.value, str)):
            result = Hole(self.src.segment(node), unresolved=True)  # unknown, or a number that may change
        else:
            inner = scope.at(b.env)
            if b.prev is not None:
                first = self.binding(b.prev, node, scope)
                if isinstance(first, Param):  # `msg += "..."` on a parameter: its value is text
                    first = dataclasses.replace(first, text_position=True)
                result = cat(first, self.text(b.value, inner))
            else:
                result = self.arg(b.value, inner)
        # An opaque value reached through a local shows the name the raise used, not the bound expression.
        # (Not the base's `__str__`: `base = super().__str__(); base += f" (string: {self.string})"` in
        # multiaddr's `StringParseError.__str__` is the text `__init__` handed the base, ``calltexts.base_str``.)
        if isinstance(result, Hole) and not is_base_str(result.expr):
            result = Hole(self.src.segment(node), result.conversion, result.format_spec, result.unresolved)
        elif isinstance(result, Param):
            result = dataclasses.replace(result, shown=self.src.segment(node))
        elif isinstance(result, Ref) and not class_like(result.target):
            result = dataclasses.replace(result, src=self.src.segment(node))
        self._memo[b] = result
        return result


def grown_list(b: envmod.Binding) -> bool:
    """Whether a binding grown by ``append`` / ``extend`` / ``insert(0, x)`` grew from a list display (``errors = []``,
    ``parts = ["header"]``), on every branch that joined into it: a list, whatever it holds, whose ``str`` is its
    ``repr`` between brackets."""
    stack: list[envmod.Binding | None] = [b]
    steps = 0
    while stack:
        cur = stack.pop()
        steps += 1
        if cur is None or steps > envmod.MAX_DEPTH:
            return False
        if cur.grow:
            stack.append(cur.prev)
        elif cur.options:
            stack.extend(cur.options)
        elif not isinstance(cur.value, ast.List):
            return False
    return True


def _read_default(node: ast.Call) -> ast.expr | None:
    """The default of a read that has one: ``getattr(obj, name, DEFAULT)``, ``mapping.get(key, DEFAULT)``."""
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    f = node.func
    if isinstance(f, ast.Name) and f.id == "getattr" and len(node.args) == 3:
        return node.args[2]
    if isinstance(f, ast.Attribute) and f.attr == "get" and len(node.args) == 2:
        return node.args[1]
    return None


def _texty(node: ast.expr) -> bool:
    """Literal text, or a class attribute read through ``self`` (``self.default_message``), or literal text
    formatted (``msg or "%d and %d are not relatively prime" % (a, b)``, ``"...".format(x)``): the default
    an exception's ``__init__`` falls back on when its caller passes no message of its own."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        return _texty(node.left) and not isinstance(node.left, ast.Attribute)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
            and isinstance(node.func.value, (ast.Constant, ast.JoinedStr))):
        return _texty(node.func.value)
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self")
