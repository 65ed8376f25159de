"""An exception's ``__init__`` that turns a text argument into an error object of a known class.

frictionless 5.21.0's ``FrictionlessException`` takes an error object or a text (issue 17's sixty-third round)::

    def __init__(self, error: Union[str, Error], *, reasons: List[Error] = []):
        ErrorClass: Type[Error] = platform.frictionless.Error
        self.__error = error if isinstance(error, ErrorClass) else ErrorClass(note=error)

so ``raise FrictionlessException('Please provide "dialect.sql.table" for reading')`` wraps
``Error(note=<that text>)`` and prints ``[error] Please provide ...`` (the class's ``type`` and its rendered
``template``, ``wrappedattrs``/``classtemplate``).

Phase 1 (``coercions``) records, per exception class, each ``__init__`` parameter ``p`` kept as ``p if
isinstance(p, C) else C(...p...)`` (or ``C(...p...) if not isinstance(p, C) else p``): the call ``C(...)`` with
``p`` a parameter, ``C`` resolved as a name of the module or, for a local of ``__init__``, through its
annotation ``Type[X]``/``type[X]`` (the class or a subclass: read as the class).  Phase 2 (``coerced_call``)
binds it to a raise's argument only when that argument is known text (a literal, an f-string): a value of unknown
kind (``error = row.errors[0]``) may be an error object already, and is left as it was.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract.binding import subst
from errdex.extract.imports import dotted_source
from errdex.extract.ir import Cat, Lit, Node, Param, Ref
from errdex.extract.tables import Tables

COERCED = "<coerced>"  # the infix of a recorded coercion's key among a module's constants
_TYPE_OF = frozenset({"Type", "type"})


def coerced_key(cls: str, param: str) -> str:
    return f"{cls}.{COERCED}{param}"


def _isinstance_of(test: ast.expr, param: str) -> ast.expr | None:
    """The class tested by ``isinstance(<param>, C)``, else None."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance" \
            and len(test.args) == 2 and not test.keywords \
            and isinstance(test.args[0], ast.Name) and test.args[0].id == param:
        return test.args[1]
    return None


def _kept_or_made(value: ast.IfExp, param: str) -> tuple[ast.expr, ast.Call] | None:
    """``(C, C(...))`` of ``p if isinstance(p, C) else C(...)`` (or the negated test, branches swapped)."""
    test, kept, made = value.test, value.body, value.orelse
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, kept, made = test.operand, made, kept
    cls = _isinstance_of(test, param)
    if cls is None or not (isinstance(kept, ast.Name) and kept.id == param) or not isinstance(made, ast.Call):
        return None
    if ast.dump(made.func) != ast.dump(cls):
        return None
    return cls, made


def _annotated_class(init: ast.FunctionDef, name: str) -> str | None:
    """The ``X`` of a local ``name: Type[X] = ...`` of ``__init__``; ``name`` itself when ``__init__`` binds no
    such local; None when it binds it otherwise."""
    found: str | None = name
    for n in ast.walk(init):
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
            ann = n.annotation
            if isinstance(ann, ast.Subscript) and dotted_source(ann.value) is not None \
                    and (dotted_source(ann.value) or "").rpartition(".")[2] in _TYPE_OF:
                found = dotted_source(ann.slice)
            else:
                return None
        elif isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            return None
    return found


def coercions(node: ast.ClassDef, cls: str, resolve: Callable[[str], str | None]) -> dict[str, Node]:
    """``Cls.<coerced>p`` → the call ``C(...p...)`` ``__init__`` makes of its parameter ``p`` when it is no
    instance of ``C`` (``p`` a ``Param``), for a class ``C`` phase 1 can name."""
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return {}
    params = {a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)}
    out: dict[str, Node] = {}
    for n in ast.walk(init):
        if not (isinstance(n, ast.Assign) and isinstance(n.value, ast.IfExp)):
            continue
        for param in params:
            found = _kept_or_made(n.value, param)
            if found is None:
                continue
            written = dotted_source(found[0])
            if written is None:
                continue
            named = _annotated_class(init, written) if "." not in written else written
            target = resolve(named) if named is not None else None
            if target is None:
                continue
            call = found[1]
            args = tuple(Param(param) for a in call.args if isinstance(a, ast.Name) and a.id == param)
            kwargs = tuple((k.arg, Param(param)) for k in call.keywords
                           if k.arg is not None and isinstance(k.value, ast.Name) and k.value.id == param)
            if len(args) + len(kwargs) != 1 or len(call.args) + len(call.keywords) != 1:
                continue  # only the one argument, the parameter: other values would be unknown here
            out[coerced_key(cls, param)] = Ref(target=target, src=written, callee=written, args=args, kwargs=kwargs)
    return out


def is_text(node: Node) -> bool:
    """A raise's argument known to be text: a literal, or an f-string / concatenation with literal parts."""
    if isinstance(node, Lit):
        return True
    return isinstance(node, Cat) and any(isinstance(p, Lit) and p.text for p in node.parts)


def coerced_call(t: Tables, owner: str, param: str, arg: Node) -> Ref | None:
    """The error object ``owner``'s ``__init__`` makes of the text ``arg`` passed to ``param``, else None."""
    if not owner or not is_text(arg):
        return None
    recorded = t.constants.get(coerced_key(owner, param))
    if not isinstance(recorded, Ref):
        return None
    made = subst(recorded, {param: arg})
    return made if isinstance(made, Ref) else None
