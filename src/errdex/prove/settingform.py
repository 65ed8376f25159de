"""The setting a proven after passed to one call, given where the library lets a program declare it once.

Rating 11/12 on 916: the proven after passes ``ignore_unknown_options=True, allow_extra_args=True`` to
``cli.main(...)`` (``passflags``: the setting the library's own code tests on its way to the raise); a program
declares those in its command's definition (click's ``context_settings``) and reads the arguments let through
from the context.  Which form does that is one library's knowledge (``analyze.adapters.setting_form``); the
settings are the proof's own (``pagenotes.KEPT_SETTING``)."""

from __future__ import annotations

from errdex.analyze.adapters import setting_form
from errdex.model import Analysis
from errdex.pagenotes import KEPT_SETTING


def setting_solution(a: Analysis) -> str:
    """"To accept such input in the command itself ...", or "" (no proven setting, or no form for the library)."""
    proof = a.example_fix.proof
    if proof is None or not proof.arguments.startswith(KEPT_SETTING):
        return ""
    where, read = setting_form(proof.library)
    flags = [f.split("=", 1)[0].strip() for f in proof.arguments.removeprefix(KEPT_SETTING).split("; ") if "=" in f]
    if not where or not flags:
        return ""
    settings = "{" + ", ".join(f"'{f}': True" for f in flags) + "}"
    return (f"To accept such input in the program itself rather than in one call, give the same settings where it "
            f"is defined: {where.format(settings=settings)}, {read}.")
