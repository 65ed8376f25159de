"""``__str__ = __repr__`` in a class body: ``str()`` of an instance runs the aliased method, so its returns are
the class's text (falcon's ``HTTPError``: ``def __repr__(self): return '<%s: %s>' % (self.__class__.__name__,
self.status)`` then ``__str__ = __repr__``).

``aliased_str`` gives a copy of the aliased method named ``__str__``, which the class walk inserts where the
alias stands, so that it is read as a ``__str__`` written there (its returns, ``self.x`` of the class's
``__init__``).  Not when a later ``def __str__`` (or another assignment) rebinds the name, when the method is
not one of the class body's own (an inherited ``__repr__``: its class is another), or when the method raises,
asserts or yields (its sites stay the method's, not copied).

``def __str__(self): return repr(self)`` (or ``self.__repr__()``) with the class body's own ``def __repr__`` is
the same alias written as a method (stone's ``InvalidSpec``: ``__repr__`` returns ``'InvalidSpec({!r}, {!r},
{!r})'.format(self.msg, self.lineno, self.path)``): the copy goes after the later of the two methods.
"""

from __future__ import annotations

import ast
import copy


def aliased_str(cls: ast.ClassDef) -> tuple[ast.stmt, ast.FunctionDef] | None:
    """``(the alias statement, copy)`` of the method the class body's last binding of ``__str__`` aliases,
    renamed ``__str__``; None when there is no such alias (see the module docstring)."""
    at, target = -1, ""
    for i, stmt in enumerate(cls.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__str__":
            at, target = (i, "__repr__") if returns_repr_self(stmt) else (-1, "")
        elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__str__" for t in stmt.targets):
            at, target = (i, stmt.value.id) if isinstance(stmt.value, ast.Name) and len(stmt.targets) == 1 else (-1, "")
    if at < 0:
        return None
    fn = next((s for s in reversed(cls.body[:at]) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
               and s.name == target), None)
    if fn is None and isinstance(cls.body[at], ast.FunctionDef):  # `return repr(self)` before its `def __repr__`
        fn = next((s for s in cls.body[at + 1:] if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and s.name == target), None)
        at = cls.body.index(fn) if fn is not None else at
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or \
            any(isinstance(n, (ast.Raise, ast.Assert, ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)):
        return None
    new = copy.deepcopy(fn)
    new.name = "__str__"
    return cls.body[at], new


def returns_repr_self(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The method's one statement (past a docstring) is ``return repr(self)`` or ``return self.__repr__()``."""
    body = fn.body[1:] if fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant) \
        else fn.body
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(call := body[0].value, ast.Call) \
            or call.keywords or not fn.args.args:
        return False
    me = fn.args.args[0].arg
    f, args = call.func, call.args
    if isinstance(f, ast.Name) and f.id == "repr":
        return len(args) == 1 and isinstance(args[0], ast.Name) and args[0].id == me
    return not args and isinstance(f, ast.Attribute) and f.attr == "__repr__" and isinstance(f.value, ast.Name) \
        and f.value.id == me
