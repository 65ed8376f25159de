"""The raised expression: a class, a constructor call, a variable holding an instance or a
caught exception (part of ``MessageBuilder``, see ``messages.py``)."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable

from errdex.extract import classdocs, classtables, heldclasses, itemtypes
from errdex.extract import env as envmod
from errdex.extract.edited import edited_text
from errdex.extract.factories import held_class, is_by_name
from errdex.extract.guards import Spec
from errdex.extract.imports import class_like, dotted_source
from errdex.extract.ir import (
    EMPTY,
    TABLE_ITEM,
    Alt,
    Hole,
    Node,
    Param,
    Ref,
    alt,
)
from errdex.extract.msgbase import (
    _OPAQUE,
    Builder,
    Scope,
)
from errdex.extract.returnedclass import RETURNED, returned_call
from errdex.extract.strict import unclassified
from errdex.extract.tuplefields import member_of, member_ref


def isinstance_classes(name: str, guards: tuple[Spec, ...]) -> list[str]:
    """The classes (as written) an ``if isinstance(name, C)`` / ``(A, B)`` the expression sits under
    (innermost first, not negated) narrows ``name`` to: pint's ``if isinstance(stmt,
    common.DefinitionSyntaxError): raise stmt`` raises that class, built elsewhere."""
    for spec in reversed(guards):
        t = spec.node
        if spec.kind != "if" or spec.negated or not isinstance(t, ast.Call) or not isinstance(t.func, ast.Name) \
                or t.func.id != "isinstance" or len(t.args) != 2 or t.keywords:
            continue
        obj, cls = t.args
        if isinstance(obj, ast.Name) and obj.id == name:
            elts = cls.elts if isinstance(cls, ast.Tuple) else [cls]
            out = [d for e in elts if (d := dotted_source(e)) is not None]
            if out and all(class_like(d) for d in out):
                return out
    return []


def fluent(f: ast.Attribute) -> bool:
    """``raise FieldSpecError(msg).from_exc(None)``: a public method called on the instance a class-like name
    just built, the raise's value its result.  A method an exception class gives itself to be called that way
    returns the instance (dbf's ``def from_exc(self, exc): self.__cause__ = exc; return self``, a setter in
    the shape of ``with_traceback``), so the raise is the constructor's."""
    value = f.value
    if f.attr.startswith("_") or not isinstance(value, ast.Call):
        return False
    written = dotted_source(value.func)
    return written is not None and class_like(written)


class RaisedMixin(Builder):
    """What a ``raise`` raises: the class and its constructor's arguments."""

    __slots__ = ()

    def _caught(self, handler: ast.ExceptHandler, name: str, scope: Scope | None = None) -> Node:
        """``except (A, B) as e: ... raise e``: one of the caught classes, with an unknown message, or the
        text the handler gave it (``e.args = (e.args[0] + " while ...",)``, ``edited.py``)."""
        expr = edited_text(handler, name) if scope is not None else None
        edited = self.text(expr, scope) if expr is not None and scope is not None else None
        if handler.type is None:
            types: list[ast.expr] = []
        elif isinstance(handler.type, ast.Tuple):
            types = list(handler.type.elts)
        else:
            types = [handler.type]
        refs: list[Node] = []
        for t in types:
            d = dotted_source(t)
            if d is not None:
                refs.append(Ref(target=self.resolve_name(d) or d, src=d, callee=d, is_call=False, reraised=name,
                                edited=edited))
        if not refs:
            refs.append(Ref(target="BaseException", src="BaseException", is_call=False, reraised=name,
                            edited=edited))
        return alt(refs)

    def _class_variable(self, name: str, scope: Scope) -> list[Ref] | None:
        """The classes a local holds when it is assigned only class names (``A if c else B``), or on each
        path a branch (a ``try`` and its handler) joins; a class read from a table of tuples
        (``error_class, default_message = TABLE[code]``, ``keyedtables``) among them."""
        return self._held_classes(envmod.lookup(scope.env, name), scope, 0)

    def _held_classes(self, b: envmod.Binding | None, scope: Scope, depth: int,
                      handed: list[bool] | None = None) -> list[Ref] | None:
        """``handed`` given: a path taking the class from the caller (``classdocs.handed_in``) is noted there."""
        # an `if`/`elif` chain nests one join per branch (pygithub's `createException` picks among six classes)
        if b is not None and b.options and depth < _JOINS:
            out: list[Ref] = []
            for o in b.options:
                got = self._held_classes(o, scope, depth + 1, handed)
                if got is None:
                    return None
                out.extend(r for r in got if r not in out)
            return out
        if b is None or b.value is None or b.prev is not None or b.local_def is not None or b.caught is not None:
            return None
        if handed is not None and classdocs.handed_in(b.value, scope.params):
            handed.append(True)
            return []
        ir = self._held_attr(b.value, scope.at(b.env)) or self.exception(b.value, scope.at(b.env))
        refs = ir.options if isinstance(ir, Alt) else (ir,)
        if all(isinstance(r, Ref) and not r.is_call and not r.reraised
               and (class_like(r.target) or r.callee in (TABLE_ITEM, heldclasses.HOLDS)) for r in refs):
            return [r for r in refs if isinstance(r, Ref)]
        return None

    def _param_default(self, name: str, scope: Scope) -> tuple[Node, ...]:
        """``kind = kind or ZConfig.SchemaError`` on a parameter (its default None): the class named after the
        ``or``, raised when the caller passes none (``Ref.item`` of a ``param`` call, ``expand._param_class``)."""
        b = envmod.lookup(scope.env, name)
        v = b.value if b is not None and not b.options and b.prev is None else None
        if name not in scope.params or not isinstance(v, ast.BoolOp) or not isinstance(v.op, ast.Or) \
                or len(v.values) != 2 or not isinstance(first := v.values[0], ast.Name) or first.id != name \
                or b is None or (b.env is not None and envmod.lookup(b.env, name) is not None):
            return ()
        d = dotted_source(v.values[1])
        if d is None or not class_like(d):
            return ()
        return (Ref(target=self.resolve_name(d) or d, src=d, callee=d, is_call=False),)

    def _held_attr(self, value: ast.expr, scope: Scope) -> Node | None:
        """``cls.metadata_Error or MetadataError`` (or the attribute alone) in a method of a class: the class each
        subclass names in that attribute (``heldclasses``), then the default; None for any other value."""
        values = value.values if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) else [value]
        picked = frozenset(n for n in (v.value.id for v in values if isinstance(v, ast.Attribute)
                                       and isinstance(v.value, ast.Name)) if n[:1].isupper()
                           and envmod.lookup(scope.env, n) is not None)  # `Class = cls.metadata_select_class(...)`
        held = [heldclasses.holds_ref(v, self.module, scope.class_qualname, picked, self.src.segment(v)) for v in values]
        if not any(held):
            return None
        return alt([h if h is not None else self.exception(v, scope) for h, v in zip(held, values, strict=True)])

    def _doc_classes(self, name: str, node: ast.Call, args: tuple[Node, ...],
                     kwargs: tuple[tuple[str, Node], ...], scope: Scope) -> Node | None:
        """``raise exc(msg)``, ``msg`` reading ``exc.__doc__``, ``exc`` a class on every path but those taking
        it from the caller (``classdocs``): each named class, and the caller's as ``SIBLINGS`` of them, all
        marked as picked (the site names their common base)."""
        handed: list[bool] = []
        classes = self._held_classes(envmod.lookup(scope.env, name), scope, 0, handed)
        if not classes or not handed or any(r.callee == TABLE_ITEM for r in classes):
            return None
        src = self.src.segment(node)
        named = [dataclasses.replace(r, is_call=True, src=src, callee=r.src, args=args, kwargs=kwargs,
                                     item=classtables.PICKED) for r in classes]
        kin = Ref(target=classes[0].target, src=src, callee=classdocs.SIBLINGS, args=args, kwargs=kwargs,
                  item=tuple(classes))
        return alt([*named, kin])

    def exception(self, node: ast.expr, scope: Scope) -> Node:
        """The raised expression: a class, a constructor call, a variable holding an instance."""
        if (uncast := self.uncast(node)) is not None:
            return self.exception(uncast, scope)  # `cast(Callable[..., Exception], {...}[kind])`: the value
        if isinstance(node, (ast.Subscript, ast.Call)) and (picked := self.picked_classes(node, scope)) is not None:
            return picked  # `klass = {"pre": PreError, "post": PostError}[kind]`, then `raise klass(...)`
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and (f.attr == "with_traceback" or fluent(f)):
                return self.exception(f.value, scope)  # raise X(...).with_traceback(tb), X(...).from_exc(None)
            if (of := type_of(f)) is not None:
                # `raise type(exc)(f"... {exc}")`: the value's own class (as `exc.__class__(...)`), a new text
                target = self.callee(of, scope) or scope.receiver_method(of, self.module, self.resolve_name)
                return self._ref(node, target or of, scope, text_position=False)
            if (inner := returned_call(node)) is not None:
                # `raise engine.getCompilerError()(msg)`: a class returned by a call, its text the builtin rule's
                # (``returnedclass``)
                shown = self.src.segment(inner)
                return Ref(target=shown, src=self.src.segment(node), callee=RETURNED,
                           args=self.call_args(node.args, scope), kwargs=self.call_kwargs(node.keywords, scope))
            written = dotted_source(node.func)
            held = held_class(written, scope.types) if written is not None and written.startswith("self.") else None
            if held is not None:  # raise self._undefined_exception(msg): the class the attribute holds
                return Ref(target=self.resolve_name(held) or held, src=self.src.segment(node), callee=held,
                           args=self.call_args(node.args, scope), kwargs=self.call_kwargs(node.keywords, scope))
            if written is not None:
                if (member := member_of(written, scope.class_qualname, self.built_members)) is not None \
                        and envmod.lookup(scope.env, written.split(".", 1)[0]) is None:
                    # `raise cls.LIMIT.rangeexception(...)`, `LIMIT = Limit(..., SecondsError, "...")` in the
                    # class: the class held in that field of the named tuple (``tuplefields``)
                    owner = f"{self.module}.{scope.class_qualname}" if self.module else str(scope.class_qualname)
                    return dataclasses.replace(member_ref(owner, *member, written, False), is_call=True,
                                               args=self.call_args(node.args, scope),
                                               kwargs=self.call_kwargs(node.keywords, scope))
                target = self.callee(written, scope)
                if target is None and not class_like(written):  # raise self._src.parse_error(...): a factory
                    target = scope.receiver_method(written, self.module, self.resolve_name)
                if target is not None:
                    return self._ref(node, target, scope, text_position=False)
                args = self.call_args(node.args, scope)
                kwargs = self.call_kwargs(node.keywords, scope)
                param = ""
                if isinstance(f, ast.Name):
                    classes = self._class_variable(f.id, scope)
                    if classes is None and classdocs.reads_doc(alt([*args, *(v for _, v in kwargs)]), f.id) \
                            and (picked := self._doc_classes(f.id, node, args, kwargs, scope)) is not None:
                        return picked  # `exc = errmap[code]` or `exc = RarUserBreak`: "%s" % exc.__doc__
                    if classes is not None:  # err_type = ValueError if c else TypeError; raise err_type("...")
                        return alt([dataclasses.replace(r, is_call=True, src=self.src.segment(node),
                                                        callee=r.callee if r.callee in (TABLE_ITEM, heldclasses.HOLDS)
                                                        else r.src,
                                                        args=args, kwargs=kwargs) for r in classes])
                    holder = envmod.lookup(scope.env, f.id)
                    if f.id in scope.params and holder is None:
                        param = f.id  # raise exc_type(message): the class is the caller's
                    elif holder is None and f.id in scope.closure_params \
                            and all(envmod.lookup(o, f.id) is None for o in scope.outers):
                        # `raise error(...)` in a decorator factory's wrapper: the class the factory was handed
                        # where it is applied (``closure.py``)
                        param = f.id
                    elif holder is not None and holder.local_def is None and holder.caught is None and written.isidentifier():
                        # `exception_type = type(cause)` ... `exception_type(f"{message}")`: a class this code
                        # cannot name, so its text follows the builtin rule (one argument: that text)
                        param = f.id
                return Ref(target=written, src=self.src.segment(node), callee=written, args=args, kwargs=kwargs,
                           param=param, item=self._param_default(param, scope) if param else ())
            return Hole(self.src.segment(node.func))
        if isinstance(node, ast.Name):
            b = envmod.lookup(scope.env, node.id)
            caught = caught_by(b, 0) if b is not None else None
            if caught is not None:  # `except E as e: err = e` ... `raise err` too
                return self._caught(caught, node.id, scope)
            if b is not None and not b.options and isinstance(b.value, ast.Call) and type_of(b.value.func) is not None:
                # `exc = type(event._value)(*event._value.args)` ... `raise exc`: a copy, as its own class
                return self.exception(b.value, scope.at(b.env))
            if b is not None and not b.options and b.value is not None and returned_call(b.value) is not None:
                # `err = getattr(builtins, exc)(f"...")` ... `raise err`: a class returned by a call (``returnedclass``)
                return self.exception(b.value, scope.at(b.env))
            if b is not None and not b.options and b.prev is None and b.value is not None \
                    and (picked := self.picked_instances(b.value, scope.at(b.env))) is not None:
                return picked  # `error = ERRORS.get(code, Default(...))`, a table of prebuilt instances
            bound = self.binding(b, node, scope) if b is not None else None
            if isinstance(bound, Hole) and b is not None and not b.options and b.prev is None \
                    and isinstance(b.value, ast.Call) and (made := self._typed_factory(b.value, scope.at(b.env))):
                return made  # `diagnostic = self.diagnostics.error(...)` ... `raise diagnostic`: what it returns
            narrowed = isinstance_classes(node.id, scope.guards) if bound is None or isinstance(bound, Hole) else []
            if narrowed:  # `if isinstance(stmt, SyntaxError): raise stmt`: that class, its text unknown
                return alt([Ref(target=self.resolve_name(d) or d, src=d, callee=d, is_call=False, reraised=node.id)
                            for d in narrowed])
            if bound is not None:
                return bound
            if node.id in scope.params:
                return Param(node.id)
            instance = self.module_env.get(node.id)
            key = ("module-exc", node.id)
            if isinstance(instance, ast.Call) and key not in self._memo and class_like(
                    dotted_source(instance.func) or "_"):  # err = ValueError("...") at top level: an instance
                self._memo[key] = EMPTY  # guards `err = err(...)`
                try:
                    return self.exception(instance, Scope())
                finally:
                    del self._memo[key]
            target = self.resolve_name(node.id)
            return Ref(target=target or node.id, src=node.id, is_call=False)
        if isinstance(node, ast.Attribute):
            written = dotted_source(node)
            typed = next((t for r, t in scope.types if r == written and not t.startswith("<")), None) \
                if written is not None and written.count(".") == 1 and written.startswith("self.") else None
            if typed in _ANY_EXCEPTION:  # `self._exception: Optional[Exception]`: an instance of any class (a value)
                typed = None
            if typed is not None:  # `raise self.nm`, the class assigning it `NoMatch(...)`: that class's text
                return Ref(target=self.resolve_name(typed) or typed, src=written or typed, callee=typed, is_call=False)
            if written is not None:
                target = self.resolve_name(written)
                if target is None and written.startswith("self.") and not (shown := self.src.segment(node)).startswith("self"):
                    written = shown  # `raise ctx.NoConvergence`, the instance parameter read as `self` (``instancename``)
                return Ref(target=target or written, src=written, is_call=False)
            return Hole(self.src.segment(node))
        if isinstance(node, ast.IfExp):
            return alt([self.exception(node.body, scope), self.exception(node.orelse, scope)])
        if isinstance(node, ast.Subscript) and (item := self._table_item(node, scope)) is not None:
            return item  # `TABLE[code][0]`, a class read from a table of tuples (``keyedtables``)
        if isinstance(node, ast.Subscript) and (listed := itemtypes.item_ref(node, self.src.segment(node))) is not None:
            return listed  # `raise error_handler.schema_errors[0]`: the class its list is annotated with, in phase 2
        if isinstance(node, _OPAQUE):  # raise errors[k], raise a or b, even raise "text": values
            return Hole(self.src.segment(node))
        unclassified(f"raised expression {type(node).__name__}", self.where(node))
        return Hole(self.src.segment(node))


    def _typed_factory(self, call: ast.Call, scope: Scope) -> Node | None:
        """``self.diagnostics.error(self.version)`` held by a local the raise names, the receiver's class known
        (``self.diagnostics = _ParseDiagnostics()`` in ``__init__``, parver's ``Parser.finish``): read as
        ``raise self.diagnostics.error(...)`` is, the instance that method returns; None for any other call."""
        written = dotted_source(call.func)
        if written is None or not written.startswith("self.") or written.count(".") != 2:
            return None
        target = scope.receiver_method(written, self.module, self.resolve_name)
        if target is None or is_by_name(target):
            return None
        return self.exception(call, scope)

    def _table_lookup(self, scope: Scope) -> Callable[[str], ast.expr | None]:
        def lookup(name: str) -> ast.expr | None:
            b = envmod.lookup(scope.env, name)
            if b is not None:
                return b.value if not b.options else None
            return self.module_env.get(name)
        return lookup

    def picked_call(self, node: ast.Call, scope: Scope) -> Node | None:
        """A call of the class a dict display of classes holds under a key (``classtables``): each class (and the
        default), called with the call's arguments and marked as picked; None for any other call."""
        if not classtables.is_table_call(node):
            return None
        classes = classtables.table_classes(node.func, self._table_lookup(scope))
        if not classes:
            return None
        args, kwargs = self.call_args(node.args, scope), self.call_kwargs(node.keywords, scope)
        src = self.src.segment(node)
        return alt([Ref(target=self.resolve_name(d) or d, src=src, callee=d, args=args, kwargs=kwargs,
                        item=classtables.PICKED) for d in classes])

    def picked_classes(self, node: ast.Subscript | ast.Call, scope: Scope) -> Node | None:
        """``TABLE[key]`` / ``TABLE.get(key, Default)`` over a dict display of classes, read (not called): each
        class (and the default) as a class, marked as picked from a table (the site names their common base);
        a local bound to it and called (``raise klass(obj=obj)``) is a call of each.  None for any other
        expression."""
        classes = classtables.table_classes(node, self._table_lookup(scope))
        if not classes:
            return None
        return alt([Ref(target=self.resolve_name(d) or d, src=d, callee=d, is_call=False, item=classtables.PICKED)
                    for d in classes])

    def uncast(self, node: ast.expr | None) -> ast.expr | None:
        """``typing.cast(T, value)``'s value (a no-op at run time), else None."""
        if not (isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords):
            return None
        d = dotted_source(node.func)
        if d is None or d.rsplit(".", 1)[-1] != "cast" or self.resolve_name(d) not in _CASTS:
            return None
        return node.args[1]

    def picked_instances(self, node: ast.expr, scope: Scope) -> Node | None:
        """``ERRORS[code]`` / ``ERRORS.get(code, Default(...))`` over a dict display of prebuilt exception objects
        (``classtables.table_instances``): each object as raised, marked as picked from a table (the site names
        the classes' common base); None for any other expression."""
        if not isinstance(node, (ast.Call, ast.Subscript)):
            return None
        built = classtables.table_instances(node, self._table_lookup(scope))
        if not built:
            return None
        refs: list[Node] = []
        for b in built:
            ir = self.exception(b, scope)
            for o in ir.options if isinstance(ir, Alt) else (ir,):
                if not isinstance(o, Ref) or o.param or o.reraised:
                    return None  # not a class this module names
                refs.append(dataclasses.replace(o, item=classtables.PICKED))
        return alt(refs)

    def factory_call(self, node: ast.Call, scope: Scope) -> Node | None:
        """What a factory returns: ``exception(line, col, *args)`` (a class parameter) or
        ``self._src.parse_error(exception, *args)`` (a method by name), read as a raised exception; or
        ``error_class(message, pcode, token)`` with the class read from a table (``keyedtables``), on the
        paths that do not set it to a class; or a call of the classes a local holds on every path (pygithub's
        ``createException``: ``exc = GithubException.GithubException``, another class under each ``if``)."""
        ir = self.exception(node, scope)
        if isinstance(ir, Alt) and any(isinstance(o, Ref) and o.callee == TABLE_ITEM for o in ir.options) \
                and all(isinstance(o, Ref) and o.is_call for o in ir.options):
            return ir
        if isinstance(node.func, ast.Name) and self._class_variable(node.func.id, scope):
            # `exc = errors.Base` / `exc = errors.NotFound` under an `if`, `return exc(status, data)`: each class,
            # picked (the raise names their common base, as for a table's, ``resolve._common_base``)
            return alt([dataclasses.replace(o, item=classtables.PICKED) if isinstance(o, Ref) else o
                        for o in ir.options]) if isinstance(ir, Alt) else ir
        top = self.module.split(".", 1)[0] + "."
        if isinstance(ir, Ref) and ir.is_call and (ir.param or is_by_name(ir.target) or (
                ir.target.startswith(top) and not class_like(ir.target))):  # a typed receiver's method
            return ir
        return None


_CASTS = frozenset({"typing.cast", "typing_extensions.cast"})
_JOINS = 12  # nested branch joins read through for the classes a local holds
_ANY_EXCEPTION = frozenset({"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"})


def type_of(f: ast.expr) -> str | None:
    """``type(value)`` as a raise's callee (``raise type(exc)(msg)``): the value's class, written
    ``value.__class__`` as Python's attribute spells the same class; ``None`` for any other callee."""
    if isinstance(f, ast.Call) and isinstance(f.func, ast.Name) and f.func.id == "type" and len(f.args) == 1 \
            and not f.keywords and (d := dotted_source(f.args[0])) is not None:
        return f"{d}.__class__"
    return None


def caught_by(b: envmod.Binding, depth: int = 0) -> ast.ExceptHandler | None:
    """The handler whose caught exception a local holds: ``except E as e``, or a name assigned
    ``e`` (on some path; the paths where it is ``None`` do not raise it)."""
    if b.caught is not None:
        return b.caught
    if depth > 4:
        return None
    if isinstance(b.value, ast.Name):
        inner = envmod.lookup(b.env, b.value.id)
        return caught_by(inner, depth + 1) if inner is not None else None
    found: ast.ExceptHandler | None = None
    for o in b.options:
        if o is None or (isinstance(o.value, ast.Constant) and o.value.value is None):
            continue
        h = caught_by(o, depth + 1)
        if h is None:
            return None  # another path holds something else
        found = found or h
    return found
