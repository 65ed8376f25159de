"""What another raise of the same message tells about this one: the class's constructor refusing the same
thing means this raise is reached only by changing the object after it was made."""

from __future__ import annotations

from errdex.analyze.facts import Facts
from errdex.analyze.guardwords import guard_names
from errdex.analyze.public_path import CONSTRUCTORS
from errdex.analyze.static.words import join
from errdex.model import ErrorSite


def _constructor_twin(f: Facts) -> tuple[str, ErrorSite, str] | None:
    """(the class, its constructor's raise of the same message, "`a` or `b`": the settings it checks),
    or None (the raise is itself in a constructor, or no constructor of its class raises the same message)."""
    parts = f.site.qualname.split(".<locals>.", 1)[0].split(".")
    if len(parts) < 2 or parts[-1] in CONSTRUCTORS:
        return None
    cls = parts[-2]
    for other in f.same_text:
        oparts = other.qualname.split(".")
        if other.path == f.site.path and len(oparts) == 2 and oparts[0] == cls and oparts[1] in CONSTRUCTORS:
            names = [n for g in other.guards for n in guard_names(g) if "." not in n and not n[:1].isupper()]
            return cls, other, join([f"`{n}`" for n in dict.fromkeys(names)][:3], "or")
    return None


def refused_at_creation(f: Facts) -> str:
    """"`FloatRange(...)` already refuses this when it is created ...", or ""."""
    if (twin := _constructor_twin(f)) is None:
        return ""
    cls, other, attrs = twin
    as_type = f", as `{other.exception_name}`" if other.exception_name != f.site.exception_name else ""
    return (f"`{cls}(...)` already refuses this when it is created (the same message{as_type}, from "
            f"`{other.qualname}`, `{other.path}:{other.line}`), so this raise is reached only when the object's "
            + (f"{attrs} " if attrs else "settings ") + "are changed after it was made (set on an existing "
            f"`{cls}`).")


def set_at_creation(f: Facts) -> str:
    """Prevention for a raise its class's constructor also makes: give the settings when creating the
    object, where they are checked, never on an existing one; or ""."""
    if (twin := _constructor_twin(f)) is None or not twin[2]:
        return ""
    cls, _, attrs = twin
    return (f"Give {attrs.replace(' or ', ' and ')} to `{cls}(...)` when you create it, where they are checked "
            f"together, instead of setting them on an existing `{cls}` afterwards.")


def enum_setting(f: Facts) -> str:
    """"This check runs only when `lowering_semantics` is `Warpgroup` ..." for a guard comparing with a member
    of a public enum (a value user code can name, so a setting it may choose), or ""."""
    for attr, member, enum in f.enum_settings[:1]:
        return (f"This check runs only when `{attr}` is `{member}`, a value of the public enum `{enum}`: if your "
                f"code chooses it (look for `{enum.rsplit('.', 1)[-1]}.{member}` in it), another value does not go "
                "through this check.")
    return ""


def setting_call(f: Facts) -> str:
    """"`pkg.CompilerParams(lowering_semantics=pkg.LoweringSemantics.Lane)`": the public call the package's own
    code sets the enum setting with (``Facts.enum_setter``), written with the other value its checks compare
    the setting with; "" when either is unknown (rating 12, 8ee0: "try another `LoweringSemantics`" named the
    value but not where to give it)."""
    if not (f.enum_settings and f.enum_others and f.enum_setter):
        return ""
    attr, _member, enum = f.enum_settings[0]
    home = f.enum_setter.rpartition(".")[0]
    return f"`{f.enum_setter}({attr}={home}.{enum.rsplit('.', 1)[-1]}.{f.enum_others[0]})`"
