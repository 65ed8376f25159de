"""``__str__ = __repr__`` in a class body: ``str()`` of an instance runs the aliased method, so its returns are
the class's text (falcon's ``HTTPError``: ``def __repr__(self): return '<%s: %s>' % (self.__class__.__name__,
self.status)`` then ``__str__ = __repr__``).

``aliased_str`` gives a copy of the aliased method named ``__str__``, which the class walk inserts where the
alias stands, so that it is read as a ``__str__`` written there (its returns, ``self.x`` of the class's
``__init__``).  Not when a later ``def __str__`` (or another assignment) rebinds the name, when the method is
not one of the class body's own (an inherited ``__repr__``: its class is another), or when the method raises,
asserts or yields (its sites stay the method's, not copied).
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
            at, target = -1, ""
        elif isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__str__" for t in stmt.targets):
            at, target = (i, stmt.value.id) if isinstance(stmt.value, ast.Name) and len(stmt.targets) == 1 else (-1, "")
    if at < 0:
        return None
    fn = next((s for s in reversed(cls.body[:at]) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
               and s.name == target), None)
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or \
            any(isinstance(n, (ast.Raise, ast.Assert, ast.Yield, ast.YieldFrom)) for n in ast.walk(fn)):
        return None
    new = copy.deepcopy(fn)
    new.name = "__str__"
    return cls.body[at], new
