"""Solutions of the pages whose kind of raise says what to do (``roles``): a module ``__getattr__``, an
abstract method, a control-flow exception, a usage error, a helper that forwards its caller's message;
and the object a public factory returns that must be used in a ``with`` block."""

from __future__ import annotations

import re

from errdex.analyze.facts import Facts
from errdex.analyze.static import roles
from errdex.analyze.static.words import callee, exc_name, message_text, package, raise_evidence
from errdex.model import Solution

_WITH = re.compile(r"\bwith[- ](?:block|statement)|\bcontext manager\b", re.IGNORECASE)
_HELD = re.compile(r"^([\w.]+)\(\.\.\.\)\.(\w+)$")


def held_with(f: Facts) -> tuple[str, str, str] | None:
    """(factory, method, variable) when the page's call is a method of the object a public factory returns
    (``click.progressbar(...).generator``) and the message asks for a ``with`` block: the user opens the
    object with ``with factory(...) as var:`` and calls the method inside it."""
    m = _HELD.match(f.public_path.entries[0]) if f.public_path.entries else None
    if m is None or not _WITH.search(message_text(f)):
        return None
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", f.site.qualname.split(".")[0])
    return m.group(1), m.group(2), (words[-1].lower() if words else "obj")


def kind_solutions(f: Facts) -> list[Solution]:
    ev = (raise_evidence(f),)
    held = held_with(f)
    if held:
        fac, meth, var = held
        return [Solution(text=f"Open the object in a `with` block, as the message says: `with {fac}(...) as {var}:`, "
                              f"and call `{var}.{meth}()` inside that block, not before it or after it.", evidence=ev)]
    if roles.module_getattr(f):
        names = re.findall(r"\bname\s*==\s*['\"](\w+)['\"]", f.site.snippet)
        instead: dict[str, str] = {}
        for guard, message in f.siblings:  # the branches of the same function, also those above the snippet
            for n in re.findall(r"\bname\s*==\s*['\"](\w+)['\"]", guard):
                use = re.search(r"\b[Uu]se\s+['\"`]?([\w.]+)['\"`]?\s+instead", message)
                instead[n] = f" (deprecated: use `{use.group(1)}`)" if use else ""
        names = sorted(set(names) | set(instead))  # 809c: `BaseCommand` too, not only the branch the snippet shows
        known = (" The names it does provide this way: " + ", ".join(f"`{n}`{instead.get(n, '')}" for n in names)
                 + " (the branches above the raise).") if names else ""
        return [Solution(text=f"Check the spelling of the name you read from `{f.site.module}` (the message "
                              f"shows it) and whether it exists in this version of {package(f)} "
                              f"({f.snapshot.ref or (f.snapshot.commit or "")[:10]}); it may have been renamed or removed."
                              + known, evidence=ev)]
    if (cls := roles.abstract_method(f)):
        meth = f.site.qualname.split(".")[1]
        return [Solution(text=f"Use an object of a subclass of `{cls}` that defines `{meth}`; if the class is "
                              f"your own subclass, define `{meth}` in it.", evidence=ev)]
    if roles.control_flow(f):
        base = next((b.rsplit(".", 1)[-1] for b in f.exception.bases if b), "")
        return [Solution(text=f"Let it propagate: {callee(f)} raises {exc_name(f)} to stop the application with "
                              "a status code, and the code that runs the application exits with it. Catch it only "
                              "where you run the command yourself and want to carry on afterwards"
                              + (f", and do not swallow it in a broad `except {base}`." if base else "."),
                         evidence=ev)]
    if roles.forwarder(f) and roles.usage_error(f):
        return [Solution(text="Give the option or argument a value its type accepts: the message names the value "
                              "that was given and what was expected. If the value is right, declare a type that "
                              "accepts it (the `type=` of the option or argument).", evidence=ev)]
    if roles.usage_error(f) and "Parameter" in f.exception.name:
        return [Solution(text="If the value came from the command line, give the option or argument a value of "
                              "the form the message asks for. If your code supplied it (a `default=`, or arguments "
                              "passed to the command from Python), make that value fit the parameter's `type=`, "
                              "`nargs=` and `multiple=`.", evidence=ev)]
    if roles.usage_error(f):
        return [Solution(text=f"Fix the command line the program was run with, as the {exc_name(f)} message says (run it with "
                              "`--help` to see its options and arguments); the program itself needs no change "
                              "unless it should accept this.", evidence=ev)]
    if roles.forwarder(f):
        return [Solution(text=f"Look at the caller of `{f.site.qualname}` in your traceback: the message is the "
                              "caller's, and so is the check to satisfy.", evidence=ev)]
    return []
