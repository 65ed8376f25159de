"""What the prose knows of one library, kept apart from the rules that serve every library.

``stage``'s words name a library's machinery ("while JAX lowers {op} for compilation"): they
hold only where that library names its registered rules that way, so they live here, keyed by
the top-level package, and a library without an entry gets no stage sentence.
"""

from __future__ import annotations

# (pattern of the rule's or raising function's name, the stage in the user's words)
_JAX_STAGES: tuple[tuple[str, str], ...] = (
    (r"_abstract_eval$|_shape_rule$|_dtype_rule$|_typecheck",
     "while JAX works out the shape and dtype of the result of {op} (at trace time, before anything runs)"),
    (r"_discharge", "while JAX turns the state (`Ref`) effects of {op} into plain values (state discharge)"),
    (r"_physicalize|_interpret", "while {op} runs under the Pallas interpreter (interpret mode)"),
    (r"_batch|_vmap", "while `jax.vmap` batches {op}"),
    (r"_transpose", "while JAX transposes {op} for reverse-mode differentiation (`jax.grad`, `jax.vjp`)"),
    (r"_jvp", "while JAX differentiates {op} (`jax.jvp`, `jax.grad`)"),
    (r"lowering|^lower_|_lower$|_lower_", "while JAX lowers {op} for compilation"),
)

RULE_STAGES: dict[str, tuple[tuple[str, str], ...]] = {"jax": _JAX_STAGES}


def rule_stages(module: str) -> tuple[tuple[str, str], ...]:
    """The stage table of the library ``module`` belongs to (empty for a library without one)."""
    return RULE_STAGES.get(module.split(".", 1)[0], ())


# (a word of the stage, what turns that mode on and what it is, in the user's public terms)
_JAX_MODES: tuple[tuple[str, str, str], ...] = (
    ("interpret mode", "`interpret=True` of `jax.experimental.pallas.pallas_call` (or of `jax.experimental.pallas.kernel`)",
     "the kernel body runs as ordinary JAX operations instead of being compiled for the accelerator, "
     "a mode meant for debugging and testing kernels on any backend"),
)

MODE_SWITCHES: dict[str, tuple[tuple[str, str, str], ...]] = {"jax": _JAX_MODES}


def mode_switch(module: str, stage: str) -> tuple[str, str]:
    """(the switch that turns the stage's mode on, what the mode is) for a stage such as "... (interpret
    mode)", or ("", "") for a library or stage without one."""
    for word, switch, what in MODE_SWITCHES.get(module.split(".", 1)[0], ()):
        if word in stage:
            return switch, what
    return "", ""


# (the name a message says a restriction applies outside of, where user code runs inside it, in public terms)
_JAX_INSIDE: tuple[tuple[str, str], ...] = (
    ("Pallas", "in the body of a kernel: the function you pass to `jax.experimental.pallas.pallas_call` or "
               "`jax.experimental.pallas.kernel`, which Pallas lowers itself"),
)

INSIDE: dict[str, tuple[tuple[str, str], ...]] = {"jax": _JAX_INSIDE}


def inside_words(module: str, where: str) -> str:
    """How user code runs inside ``where`` (rating 12, 91c3: "run the code inside Pallas" did not say how), or
    "" for a library or a name without an entry."""
    return next((how for name, how in INSIDE.get(module.split(".", 1)[0], ()) if name == where), "")


# (the form that gives a command the settings a proven after passed to one call of it, once, where it is defined;
# what to add to read the input the settings let through): rating 12, 916 (click's ``context_settings``)
_CLICK_SETTING_FORM = ("`@click.command(context_settings={settings})` (or `@click.group(...)`)",
                       "with `@click.pass_context` on the function, which then reads the arguments let through from "
                       "`ctx.args`")

SETTING_FORMS: dict[str, tuple[str, str]] = {"click": _CLICK_SETTING_FORM}


def setting_form(package: str) -> tuple[str, str]:
    """(where the settings go, how the let-through input is read) for ``package``, or ("", "")."""
    return SETTING_FORMS.get(package.split(".", 1)[0].lower(), ("", ""))
