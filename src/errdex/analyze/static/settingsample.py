"""A not-run sample of the setting that avoids an internal check made only under one public enum value.

Rating 13 on 8ee0 (Mosaic GPU's ``Scalar type must match ShapedArray dtype``, an internal assert made only
when ``lowering_semantics`` is ``Warpgroup``): E absent, and reader A asked "at least a not-run sample of the
``compiler_params=`` argument".  No public program errdex tried reaches the check (docs/pages.md, twenty-third
round), so no before can be shown; what the page can show is the other setting, written as the public call the
package's own code sets it with (``siblings.setting_call``), labelled as not run and saying why: errdex has
found no program that raises it, so it has nothing to run it against.
"""

from __future__ import annotations

from errdex.analyze.facts import Facts
from errdex.analyze.static import roles
from errdex.analyze.static.siblings import setting_call
from errdex.analyze.static.words import decisive, package, user_reads


def setting_sample(f: Facts) -> tuple[str, str]:
    """(the other setting as code, why it is not run) for an internal check made only under an enum value whose
    setter is known; ("", "") otherwise."""
    call = setting_call(f).strip("`")
    if not call or not roles.internal_check(f, any(user_reads(f, g) for g in decisive(f))):
        return "", ""
    attr, member, enum = f.enum_settings[0]
    cls = enum.rsplit(".", 1)[-1]
    home = call.split("(", 1)[0].rpartition(".")[0]
    head, _, rest = call.partition("(")
    code = (f"import {home}\n\n"
            f"# where your code sets `{attr}` to `{cls}.{member}`: the other value, given as {package(f)}'s own code "
            "gives it\n"
            f"params = {head}(\n    {rest}\n")
    why = (f"this is {package(f)}'s own consistency check, made only under `{cls}.{member}`, and errdex has no "
           "program that raises it, so there is no before to run this against")
    return code, why
