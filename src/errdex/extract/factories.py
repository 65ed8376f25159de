"""Exception factories: calls that make (or raise) an exception of the package for the caller.

``raise self.parse_error(UnexpectedChar, char)`` → ``self._src.parse_error(exception, *args, **kwargs)``
→ ``return exception(line, col, *args, **kwargs)``; ``tokens.syntax_error("Expected a comma")``, a
method of a parameter that raises; ``raise make_error("name", name)``.  Two things let phase 2 follow
them to the class that is instantiated, whose own ``__init__``/``__str__`` text is the message:

- **a method called on another object** (``self._src.parse_error``, ``tokens.syntax_error``): phase 1
  cannot name the receiver's class, so the target is the method *by name*
  (``by_name``); phase 2 resolves it to the package's one class method of that name, leaving out
  the calling method itself (a delegating ``Parser.parse_error`` calls ``Source.parse_error``);
  two or more candidates leave it unresolved;
- **forwarded ``*args`` / ``**kwargs``**: phase 1 keeps a starred parameter as ``Param("*args")``
  (``Param("**kwargs")`` under the key ``"**"``), phase 2 binds a called function's ``*args`` to
  the surplus positional arguments and ``**kwargs`` to the surplus keywords (a ``PACK`` reference)
  and splices them where they are passed on.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping

from errdex.extract import env as envmod
from errdex.extract.astwalk import statements
from errdex.extract.imports import dotted_source
from errdex.extract.ir import Node, Param, Ref
from errdex.extract.stmts import param_defaults

BY_NAME = "?"  # a method target known by name only: "?<caller>:<method>"
PACK = "*pack*"  # ``Ref.callee`` of the surplus arguments bound to a ``*args`` / ``**kwargs`` parameter
STAR_KW = "**"  # the keyword under which ``**kwargs`` is passed on


def by_name(method: str, caller: str, via: str = "") -> str:
    """``?<caller>:<method>``, or ``?<caller>:<via>.<method>`` for ``self.<via>.<method>(...)``."""
    return f"{BY_NAME}{caller}:{via}.{method}" if via else f"{BY_NAME}{caller}:{method}"


def by_name_parts(target: str) -> tuple[str, str, str]:
    """A by-name target's caller, receiver attribute (or "") and method."""
    caller, _, rest = target[len(BY_NAME):].rpartition(":")
    via, _, method = rest.rpartition(".")
    return caller, via, method


def is_by_name(target: str) -> bool:
    return target.startswith(BY_NAME)


Types = tuple[tuple[str, str], ...]  # receiver ("self._src", "tokens") → its class as written


def receiver_method(written: str, params: frozenset[str], env: envmod.Env | None, module: str,
                    class_qualname: str | None, qual: str, types: Types = (),
                    resolve: Callable[[str], str | None] | None = None) -> str | None:
    """``self.attr.meth`` / ``param.meth`` / ``local.meth``: a method of another object.  When the
    receiver's class is known (``types``: a parameter's annotation, ``self._src = Source(...)`` in
    ``__init__``) and resolves, that class's method; else a by-name target (``qual`` is the calling
    function's key in its module)."""
    parts = written.split(".")
    head = parts[0]
    if len(parts) < 2 or not parts[-1].isidentifier():
        return None
    # `self` of a method; a module-level function's `self: XPathAxis` (registered as a method later) is a
    # parameter like any other
    own_self = head == "self" and (class_qualname is not None or "self" not in params)
    if own_self:
        if len(parts) < 3 or class_qualname is None:
            return None
    elif head not in params and envmod.lookup(env, head) is None:
        return None
    receiver = ".".join(parts[:-1])
    typed = next((t for r, t in types if r == receiver), None)
    if typed is not None and resolve is not None and (not own_self or len(parts) == 3) and (
            own_self or envmod.lookup(env, head) is None):
        cls = resolve(typed)
        if cls is not None and "." in cls and module and cls.split(".", 1)[0] == module.split(".", 1)[0]:
            return f"{cls}.{parts[-1]}"
    caller = f"{module}.{qual}" if module else qual
    return by_name(parts[-1], caller, parts[1] if own_self and len(parts) == 3 else "")


def class_attr_types(node: ast.ClassDef) -> Types:
    """``self.X = Cls(...)`` in ``__init__`` and ``X: Cls`` in the class body: the classes of attributes."""
    out: list[tuple[str, str]] = []
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            t = _type_name(stmt.annotation)
            if t is not None:
                out.append((f"self.{stmt.target.id}", t))
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__init__":
            for sub in statements(stmt):  # assignments are statements: no need to enter expressions
                if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.value, ast.Call):
                    target, t, named = sub.targets[0], _type_name(sub.value.func), _class_named
                elif isinstance(sub, ast.AnnAssign):
                    # an annotation may name a private type alias (responses' ``self.body: "_Body" = body``,
                    # ``_Body = Union[str, BaseException, ...]``): only a capitalised name is a class there
                    target, t, named = sub.target, _type_name(sub.annotation), _public_class_named
                else:
                    continue
                if t is not None and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self" and named(t):
                    out.append((f"self.{target.attr}", t))
    typed = {r for r, _ in out}
    out += [(r, t) for r, t in _raised_instances(node) if r not in typed]
    return (*out, *_attr_roles(node))  # after the classes: a typed attribute of the same name wins


def _raised_instances(node: ast.ClassDef) -> list[tuple[str, str]]:
    """``raise self.X`` in a method, with ``self.X = Cls(...)`` (or ``None``) the only assignments of ``X``
    in the class's methods: the instance raised is a ``Cls`` (a parser keeping its furthest failure,
    ``self.nm = NoMatch(rules, pos, self)``, then ``raise self.nm``).  Two classes assigned: not one type."""
    raised: set[str] = set()
    assigned: dict[str, set[str | None]] = {}
    for fn in node.body:
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for sub in statements(fn):
            if isinstance(sub, ast.Raise) and isinstance(sub.exc, ast.Attribute) and _is_self(sub.exc.value):
                raised.add(sub.exc.attr)
            elif isinstance(sub, ast.Assign):
                for t in sub.targets:
                    if isinstance(t, ast.Attribute) and _is_self(t.value):
                        v = sub.value
                        cls = _type_name(v.func) if isinstance(v, ast.Call) else None
                        none = isinstance(v, ast.Constant) and v.value is None
                        assigned.setdefault(t.attr, set()).add(None if none else (cls or "?"))
    out: list[tuple[str, str]] = []
    for attr in sorted(raised):
        classes = assigned.get(attr, set()) - {None}
        if len(classes) == 1 and (cls := next(iter(classes))) is not None and cls != "?" \
                and _class_named(cls):
            out.append((f"self.{attr}", cls))
    return out


def _class_named(written: str) -> bool:
    """A callee written as a class is: capitalised, after the underscores of a private one (parver's
    ``self.diagnostics = _ParseDiagnostics()``)."""
    return written.rsplit(".", 1)[-1].lstrip("_")[:1].isupper()


def _public_class_named(written: str) -> bool:
    """An annotation naming a class: capitalised (a private ``_Name`` is as often a type alias)."""
    return written.rsplit(".", 1)[-1][:1].isupper()


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


PROPERTY = "<property>"  # the "class" of ``self.X`` when ``X`` is a property of the class: read, it is a call
HOLDS_CLASS = "<class>"  # prefixed to the class an attribute holds as a class (``self.exc(...)`` raises it)
_PROPERTIES = frozenset({"property", "functools.cached_property", "cached_property"})
_EXC_CLASS = re.compile(r"(Error|Exception|Warning)$")


def _attr_roles(node: ast.ClassDef) -> list[tuple[str, str]]:
    """Properties (``self.X`` read is the text ``X`` returns) and attributes holding an exception class:
    ``X = UndefinedError`` in the class body, or ``self.X = exc`` in ``__init__`` with ``exc=UndefinedError``
    its default (``raise self.X(message)`` raises that class unless the caller passed another)."""
    out: list[tuple[str, str]] = []
    for stmt in node.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else (
            stmt.target if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else None)
        if isinstance(target, ast.Name):  # `parse_exc: type[ParseError] = ParseError` (oslo.config) too
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
            held = _type_name(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
            if held is not None and _EXC_CLASS.search(held):
                out.append((f"self.{target.id}", HOLDS_CLASS + held))
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(_type_name(d) in _PROPERTIES for d in stmt.decorator_list):
                out.append((f"self.{stmt.name}", PROPERTY))
            elif stmt.name == "__init__":
                out.extend(_init_held_classes(stmt))
    return out


def _init_held_classes(init: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, str]]:
    pairs = param_defaults(init)
    defaults = {x.arg: held for x, d in pairs if isinstance(d, (ast.Name, ast.Attribute))
                and (held := _type_name(d)) is not None and _EXC_CLASS.search(held)}
    out: list[tuple[str, str]] = []
    for sub in ast.walk(init):
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.value, ast.Name) \
                and sub.value.id in defaults and isinstance(t := sub.targets[0], ast.Attribute) \
                and isinstance(t.value, ast.Name) and t.value.id == "self":
            out.append((f"self.{t.attr}", HOLDS_CLASS + defaults[sub.value.id]))
    return out


def class_params(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """Parameters whose default is an exception class (``cls=EqlSemanticError``, ``exc_type=errors.ParseError``):
    a helper's ``return cls(message, ...)`` is an exception it makes for its caller (eql's ``_error``)."""
    pairs = param_defaults(node)
    return frozenset(x.arg for x, d in pairs if isinstance(d, (ast.Name, ast.Attribute))
                     and (held := _type_name(d)) is not None and _EXC_CLASS.search(held))


def returns_class_call(node: ast.FunctionDef | ast.AsyncFunctionDef, params: frozenset[str]) -> bool:
    """Whether a ``return`` of the function (not of a nested one) calls one of ``params``."""
    return bool(params) and any(isinstance(s, ast.Return) and isinstance(s.value, ast.Call)
                                and isinstance(s.value.func, ast.Name) and s.value.func.id in params
                                for s in statements(node))


def held_class(written: str, types: Types) -> str | None:
    """The exception class ``self.X`` holds (as written), when ``_attr_roles`` found one."""
    return next((t[len(HOLDS_CLASS):] for r, t in types if r == written and t.startswith(HOLDS_CLASS)), None)


def param_types(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Types:
    """Annotated parameters (``tokens: Tokenizer``): their classes as written."""
    a = node.args
    return tuple((x.arg, t) for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)
                 if x.annotation is not None and (t := _type_name(x.annotation)) is not None)


_OPTIONAL = re.compile(r"(?:typing\.|t\.)?Optional")


def _type_name(node: ast.expr) -> str | None:
    """A class named by an annotation or a constructor: ``Tokenizer``, ``mod.Source``, ``"Tokenizer"``, the
    class of a generic one (``Argument[T]``: an instance of ``Argument``), the one class ``Optional[X]`` or
    ``X | None`` allows (telnetlib3's ``self._exception: Optional[Exception] = None``: no class ``Optional``)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        none = [isinstance(x, ast.Constant) and x.value is None for x in (node.left, node.right)]
        if none.count(True) == 1:
            node = node.right if none[0] else node.left
    if isinstance(node, ast.Subscript) and _OPTIONAL.fullmatch(dotted_source(node.value) or ""):
        node = node.slice
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.replace(".", "").isidentifier():
        return node.value
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def resolve_by_name(target: str, functions: Mapping[str, object], classes: Mapping[str, object],
                    bases: Callable[[str], tuple[str, ...]] | None = None) -> str | None:
    """The package's one method (of a class) of the target's name, other than the caller.  Two or more
    are one override chain when ``bases`` (a class's resolved bases) shows a candidate's class below
    every other's: ``Token.wrong_syntax`` overridden by ``XPathToken(Token).wrong_syntax``.  Then the
    chain's root is the method: the one every receiver of the chain has, whose texts the overrides
    start from (``super().wrong_syntax(message)``); candidates of unrelated classes stay unresolved."""
    caller, _, method = by_name_parts(target)
    found: list[str] = []
    for key in functions:
        owner, _, name = key.rpartition(".")
        if name != method or key == caller or owner not in classes:
            continue
        found.append(key)
    if len(found) == 1:
        return found[0]
    if len(found) < 2 or bases is None:
        return None
    owners = [key.rpartition(".")[0] for key in found]
    for key, owner in zip(found, owners, strict=True):
        if all(other == owner or owner in bases(other) for other in owners):
            return key
    # the same helper written in unrelated classes (ndeflib's `Record._decode_error` and wifi's
    # `AttributeBase._decode_error`, both `return DecodeError(clname + " " + fmt.format(*args, **kwargs))`):
    # whichever runs returns the same, so the first is read
    return found[0] if _same_helper([functions[k] for k in found]) else None


def _same_helper(funcs: list[object]) -> bool:
    """Functions with the same parameters returning the same (non-empty) values, read in phase 1."""
    def shape(f: object) -> tuple[object, ...]:
        return tuple(getattr(f, a, None) for a in ("params", "returns", "defaults", "vararg", "varkw"))
    first = shape(funcs[0])
    return bool(getattr(funcs[0], "returns", ())) and all(shape(f) == first for f in funcs[1:])


def starred(node: ast.expr, params: frozenset[str], env: envmod.Env | None, stars: str) -> Param | None:
    """``*args`` / ``**kwargs`` passing on a parameter of the same name (not rebound)."""
    if isinstance(node, ast.Name) and node.id in params and envmod.lookup(env, node.id) is None:
        return Param(stars + node.id)
    return None


def bind_with_rest(params: tuple[str, ...], vararg: str, varkw: str, args: list[Node],
                   kwargs: Mapping[str, Node], positional: int = -1) -> dict[str, Node]:
    """Parameters bound to a call's arguments; the surplus to ``*vararg`` / ``**varkw`` as packs.  Only the
    first ``positional`` parameters take positional arguments (-1: all; the rest are keyword-only)."""
    npos = len(params) if positional < 0 else positional
    out: dict[str, Node] = dict(zip(params[:npos], args, strict=False))
    rest_kw: list[tuple[str, Node]] = []
    for k, v in kwargs.items():
        if k in params:
            out[k] = v
        elif k != STAR_KW:
            rest_kw.append((k, v))
    if vararg:
        out["*" + vararg] = Ref(target=PACK, src=vararg, callee=PACK, args=tuple(args[npos:]), is_call=False)
    if varkw:
        out["**" + varkw] = Ref(target=PACK, src=varkw, callee=PACK, kwargs=tuple(rest_kw), is_call=False)
    return out


def spread(args: tuple[Node, ...], kwargs: tuple[tuple[str, Node], ...]
           ) -> tuple[tuple[Node, ...], tuple[tuple[str, Node], ...]]:
    """Arguments with bound ``*args`` / ``**kwargs`` packs spread out (after substitution)."""
    if not any(isinstance(a, Ref) and a.callee == PACK for a in args) and not any(k == STAR_KW for k, _ in kwargs):
        return args, kwargs
    out_args: list[Node] = []
    for a in args:
        if isinstance(a, Ref) and a.callee == PACK:
            out_args.extend(a.args)
        else:
            out_args.append(a)
    out_kw: list[tuple[str, Node]] = []
    for k, v in kwargs:
        if k != STAR_KW:
            out_kw.append((k, v))
        elif isinstance(v, Ref) and v.callee == PACK:
            out_kw.extend(v.kwargs)
        else:
            out_kw.append((k, v))  # not bound yet: a caller further out may bind it
    return tuple(out_args), tuple(out_kw)
