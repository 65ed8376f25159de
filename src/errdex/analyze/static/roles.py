"""What kind of raise a page is about, read from the facts, so the prose can say it in the user's terms.

* ``stage``: the step of the library's machinery the raising function is a rule for, from the
  naming conventions of registered rules (``_run_scoped_lowering_rule`` lowers ``run_scoped``;
  ``_approx_top_k_abstract_eval`` computes its result's shape), with the operation named by the
  primitive the public call binds (``run_scoped_p``) or by the rule's own name.
* ``kind``: a page that needs other words than "X raises when Y": an internal consistency check
  (an assertion in private code that reads no argument of the user's), a control-flow exception
  (``ctx.exit()`` raising ``Exit`` is how it works), a helper that raises whatever message its caller
  hands it (``ParamType.fail``), a module ``__getattr__`` (a name that does not exist), and a usage
  error (the exception is about the command line a program was run with).
* ``who``: the user's action that leads to the raise: "calling the function that `jax.jit`
  returns" (the raise is in ``__call__`` of an object the public call builds), "creating a
  `jax.sharding.Mesh`", "calling `jax.experimental.pallas.kernel`".

Each reading rests on a fact the page can show (a name, a base class, a docstring, the call
graph); when none applies the answer is "", and the page says less.
"""

from __future__ import annotations

import re

from errdex.analyze.adapters import rule_stages
from errdex.analyze.facts import Facts
from errdex.analyze.public_path import CONSTRUCTORS

_RULE_SUFFIX = re.compile(r"_(?:lowering_rule|lowering|abstract_eval|discharge_rule|physicalize_rule|"
                          r"interpret_rule|batching_rule|batch_rule|vmap_rule|transpose_rule|jvp_rule|jvp|impl|rule)$")
_EXIT_WORDS = re.compile(r"\b(?:exit|exits|abort|aborts|terminate)\b", re.IGNORECASE)


def function_name(f: Facts) -> str:
    """The raising function's own name (``write_env`` for ``lower.<locals>.write_env``)."""
    return f.site.qualname.rsplit(".", 1)[-1]


def outer_name(f: Facts) -> str:
    return f.site.qualname.split(".<locals>.", 1)[0].rsplit(".", 1)[-1]


def operation(f: Facts) -> str:
    """The operation a registered rule is for: the primitive the public call binds (``run_scoped_p``
    → `run_scoped`), else the rule's name without its role (``_rev_lowering_rule`` → `rev`)."""
    prims = [c.rsplit(".", 1)[-1] for c in f.public_path.chain[1:-1] if c.rsplit(".", 1)[-1].endswith("_p")]
    if prims:
        return prims[-1].removesuffix("_p")
    name = outer_name(f)
    if _RULE_SUFFIX.search(name):
        return _RULE_SUFFIX.sub("", name).strip("_")
    return ""


def stage(f: Facts) -> str:
    """"while JAX lowers the `run_scoped` operation for compilation", or ""."""
    stages = rule_stages(f.site.module)
    if not stages:  # only a library whose adapter names its rules' stages
        return ""
    rules = [c.rsplit(".", 1)[-1] for c in reversed(f.public_path.chain[1:-1]) if _RULE_SUFFIX.search(c)]
    names = (function_name(f), outer_name(f), *rules[:1])  # the raising function, else the rule that calls it
    op = operation(f)
    what = f"the `{op}` operation" if op else "the operation"
    path = f.site.path.rsplit("/", 1)[-1]
    for pattern, words in stages:
        if any(re.search(pattern, n) for n in names) or (
                "interpret" in pattern and "interpreter" in path):
            return words.format(op=what)
    return ""


def is_private(f: Facts) -> bool:
    return any(p.startswith("_") and not p.startswith("__") for p in f.site.module.split("."))


def internal_check(f: Facts, user_reads: bool) -> bool:
    """An assertion in private code that reads nothing the user passed: not a check of the user's input."""
    asserting = f.site.kind == "assertion" or f.exception.name == "AssertionError"
    return asserting and is_private(f) and not user_reads and not abstract_method(f)


def control_flow(f: Facts) -> bool:
    """The function exists to raise this (no condition, its docstring says it exits/aborts):
    ``Context.exit`` raising ``Exit``."""
    if f.guards or not f.whole_function:
        return False
    doc = f"{f.docstring} {f.exception.docstring}"
    return bool(_EXIT_WORDS.search(function_name(f))) and bool(_EXIT_WORDS.search(doc))


def forwarder(f: Facts) -> str:
    """The parameter whose text a raise-only helper passes on (``fail(self, message)`` → "message"):
    the message comes from the caller, so the check the user hit is the caller's."""
    if f.guards or not f.whole_function or not f.params:
        return ""
    first = f.params[0]
    if first not in ("message", "msg", "text", "reason"):
        return ""
    lines = f.site.snippet.splitlines()
    k = f.site.line - f.site.snippet_start
    raise_line = lines[k] if 0 <= k < len(lines) else ""
    return first if re.search(rf"\braise\s+[\w.]+\(\s*{first}\b", raise_line) else ""


def abstract_method(f: Facts) -> str:
    """"BufferedRefBase" when a method of that class raises ``NotImplementedError`` with no condition:
    an abstract method, provided by subclasses."""
    parts = f.site.qualname.split(".")
    guards = [g for g in f.guards if g.guard.normalized.replace(" ", "") not in ("not(False)", "True", "not(0)")]
    if guards or len(parts) != 2 or not parts[0][:1].isupper() or not f.whole_function:  # ``assert False, "..."``
        return ""
    literal = "".join(s.text for s in f.site.template.segments if s.is_literal).lower()
    says_so = f.exception.name == "AssertionError" and bool(re.search(r"overrid|implement|abstract", literal))
    return parts[0] if f.exception.name.endswith("NotImplementedError") or says_so else ""


def module_getattr(f: Facts) -> bool:
    return f.site.qualname == "__getattr__" and f.exception.name == "AttributeError"


def usage_error(f: Facts) -> bool:
    """The exception is a command-line usage error (a ``UsageError`` subclass): the person who ran
    the program passed something wrong, and the program's CLI library reports it."""
    chain = [f.exception.resolved, *f.exception.bases]
    return any(b.rsplit(".", 1)[-1] == "UsageError" for b in chain)


def returned_call(f: Facts) -> bool:
    """The raise is in ``__call__`` of an object the public call builds (``jax.jit`` builds the
    executable; calling it raises): the user's action is calling what the entry returned."""
    chain = f.public_path.chain
    if f.public_path.depth == 0 or not chain:
        return False
    if function_name(f) != "__call__":
        return False
    cls = f.site.qualname.rsplit(".", 2)[0]
    return any(c.rsplit(".", 1)[-1] == cls for c in chain)


def through_factory(f: Facts) -> bool:
    """The path goes through a ``make_*`` function (``jit`` → ``make_jit``): the raise may come when the
    entry is called or when what it made is called, and the graph does not tell which."""
    return f.public_path.depth > 0 and any(c.rsplit(".", 1)[-1].startswith("make_")
                                           for c in f.public_path.chain[1:-1])


def handed_out(f: Facts) -> bool:
    """Whether the public path reaches the raising method only through the object its class makes: the
    standard library calls the method (``io.BufferedReader`` calls ``readinto``), so its arguments are
    what that code passes, not the user's (``public_path._handed_out_edges``)."""
    chain = f.public_path.chain
    return len(chain) >= 2 and chain[-2] == chain[-1].rpartition(".")[0]


# Python's I/O protocol: the methods its buffered and text layers call for a read or a write of the user's
_READS = frozenset({"readinto", "readinto1", "read", "read1", "readline", "readlines", "readall", "peek"})
_WRITES = frozenset({"write", "writelines", "flush"})


def handed_use(f: Facts) -> str:
    """"read" or "write": what the user does with the handed-out object that makes Python's own code call the
    raising method (rating 12, eb3a: a console reader's ``readinto`` runs on a read, so "the reads or writes it
    asks for" said too much); "" when the method is neither or the object is not handed out."""
    if not handed_out(f):
        return ""
    method = f.site.qualname.rsplit(".", 1)[-1]
    return "read" if method in _READS else "write" if method in _WRITES else ""


def who(f: Facts, names: str) -> str:
    """The user's action, capitalised: "Calling the function that `jax.jit` returns"."""
    p = f.public_path
    if not p.entries:
        return ""
    if (use := handed_use(f)):  # the raise comes later, on a read of what the call returned, not at the call
        return (f"A later {use} {'from' if use == 'read' else 'to'} the object that {names} returns (Python's own "
                f"I/O code calls its `{function_name(f)}`; the call itself does not raise it)")
    if returned_call(f):
        return f"Calling the function that {names} returns"
    if through_factory(f):
        return f"Calling {names}, or the function it returns,"
    if p.depth == 0 and function_name(f) in CONSTRUCTORS:
        return f"Creating {_article(p.entries[0])}`{p.entries[0]}`" + (
            f" (directly or through {', '.join(f'`{e}`' for e in p.entries[1:])})" if len(p.entries) > 1 else "")
    return f"Calling {names}"


def _article(name: str) -> str:
    return "an " if name.rsplit(".", 1)[-1][:1].lower() in "aeiou" else "a "


def debug_only(f: Facts) -> str:
    """Why the raise happens only while Python runs without ``-O`` ("" when it does not): an ``assert``
    statement, or a check under ``__debug__``, both of which ``python -O`` leaves out (rating 8, a1ee: click's
    ``convert_type`` checks ``if __debug__ and ...``; under ``-O`` nothing is raised and nothing can be caught)."""
    if f.site.kind == "assertion":
        return "is an `assert` statement"
    for g in f.guards:
        text = g.guard.normalized or g.guard.source
        if re.search(r"(?<![\w.])__debug__\b", text) and not re.search(r"\bnot\s*\(?\s*__debug__\b", text):
            return "runs only under `__debug__`"
    return ""
