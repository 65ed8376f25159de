"""What a proof of a value made in the program's own function says, and no more (rating 13, a28d).

The kernel-form search proves an error by placing the public call in a kernel body and lowering it.  When the
proof's one change is an argument of a call that makes a value inside that body and passes it on
(``jax.lax.optimization_barrier(jax.numpy.zeros((128, 128), 'float16'))``; ``mistake.made_in_body``), the proof
shows that case raising, not every value of its kind: reader A lowered float16 *read from a ref* through the same
barrier cleanly.  Three page lines follow from that, each saying what was proven:

- ``scoped_solution``: the static Solution for a ``NotImplementedError`` that shows a value ("does not handle the
  value the message shows ...: pass data of a kind it supports instead") is narrowed to the proven case;
- ``proven_case``: an empty Prevention gets the proven case as the thing not to do, with what ran clean and what
  was not tried;
- ``lowering_check``: when the program ends by lowering for another platform on a CPU (the kernel form's label,
  ``kernel_forms.kernel_label``), Defensive names that lowering as the check a test can make before run time.

Parsing only."""

from __future__ import annotations

import ast

from errdex.prove.kernel_forms import kernel_label
from errdex.prove.mistake import changes, made_in_body, raising_call, said_changes

KIND_ADVICE = ": pass data of a kind it supports instead"


def _made(before: str, after: str) -> str:
    cs = changes(before, after)
    return made_in_body(before, cs) if cs and len(cs) <= 2 else ""


def scoped_solution(text: str, before: str, after: str) -> str:
    """``text`` with "pass data of a kind it supports" narrowed to the proven case when the proof's value is made
    in the program's own function (``made_in_body``); ``text`` itself otherwise."""
    made = _made(before, after)
    if not made or KIND_ADVICE not in text:
        return text
    return text.replace(KIND_ADVICE, (
        f" in the case errdex proved: a value {made} makes inside the function the program defines (its body), "
        "passed on from there; that is one case, not every value of its kind. Change how that value is made (the "
        "proven example below makes it another way)"), 1)


def _holder(before: str, made: str) -> tuple[str, str] | None:
    """(the call the made value is passed to, the body's statement it is in), as source."""
    try:
        tree = ast.parse(before)
    except SyntaxError:
        return None
    for d in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        for stmt in d.body:
            for n in ast.walk(stmt):
                if not isinstance(n, ast.Call):
                    continue
                for a in (*n.args, *(k.value for k in n.keywords)):
                    if isinstance(a, ast.Call) and f"`{ast.unparse(a.func)}`" == made:
                        return ast.unparse(n.func), ast.unparse(stmt)
    return None


def proven_case(before: str, after: str) -> str:
    """The Prevention line for a proof of a value made in the program's own function: that case, what ran clean in
    its place, and what was not tried; "" when the proof is no such case."""
    made = _made(before, after)
    held = _holder(before, made) if made else None
    if held is None:
        return ""
    call, stmt = held
    said = "; ".join(said_changes(changes(before, after)))
    if len(stmt) > 110:
        return ""
    return (f"Inside a function your program defines (a kernel body), do not pass `{call}` a value {made} makes "
            f"there as the proven example does (`{stmt}`): errdex proved that raising, and the same program running "
            f"clean when {said}. It tried no value of that kind reaching the body another way (an argument, a ref "
            "the body reads), so this says nothing of those.")


def lowering_check(before: str, library: str) -> str:
    """The check a test can make before run time when the proven program ends by lowering for another platform on a
    CPU (its kernel form's label says so): "" otherwise."""
    label = kernel_label(library, before)
    call = raising_call(before)
    if "lowered for" not in label or "on a CPU" not in label or "lower(" not in call:
        return ""
    platform = label.split("lowered for", 1)[1].split(" on a CPU", 1)[0].strip()
    return (f"What you can check before it runs: lower it in a test as the example does ({call}); that "
            f"traces the program and runs the {platform} lowering on a CPU, with no {platform} device, and raises this there.")
