"""The ``errdex`` console script: ``explain`` straight away, every other command through Typer.

Importing Typer (and with it Click, Rich and pydantic) costs more than the
whole answer of ``errdex explain``, which runs after every uncaught exception
once the hook is installed (docs/runtime.md).  So the arguments of
``explain`` are read here by a parser that knows exactly its documented
options; anything it is not sure of (``--help``, an unknown or malformed
option, a second argument, a value that looks like an option) goes to the
Typer application in ``cli.py``, which then prints the same help and the same
errors as ever.  ``--help`` and the documented options stay Typer's.
"""

from __future__ import annotations

import sys

# option -> (keyword of run_explain, takes a value); the Typer command in cli.py declares the same
_EXPLAIN_OPTIONS = {
    "--top": ("top", True),
    "--repo": ("repo", True),
    "--db": ("db", True),
    "--json": ("json_out", False),
    "--python": ("python", True),
    "--sys-path": ("sys_path", True),
    "--brief": ("brief", False),
}


def explain_args(argv: list[str]) -> dict[str, object] | None:
    """The keyword arguments of ``run_explain`` for ``errdex explain ARGV``, or None to leave it to Typer."""
    opts: dict[str, object] = {"text": None, "db": None, "json_out": False, "top": 5, "repo": None, "python": None,
                               "sys_path": None, "brief": False}
    seen: set[str] = set()
    positional: list[str] = []
    i = 0
    only_args = False
    while i < len(argv):
        arg = argv[i]
        i += 1
        if only_args or arg == "-" or not arg.startswith("-"):
            positional.append(arg)
            continue
        if arg == "--":
            only_args = True
            continue
        name, eq, value = arg.partition("=")
        spec = _EXPLAIN_OPTIONS.get(name)
        if spec is None or name in seen:
            return None  # --help, -h, a typo, a repeated option: Typer's message
        seen.add(name)
        key, takes_value = spec
        if not takes_value:
            if eq:
                return None
            opts[key] = True
            continue
        if not eq:
            if i >= len(argv) or argv[i].startswith("-"):
                return None
            value = argv[i]
            i += 1
        if key == "top":
            if not value.isdigit() or not value.isascii():
                return None
            opts[key] = int(value)
        else:
            opts[key] = value
    if len(positional) > 1:
        return None
    if positional:
        opts["text"] = positional[0]
    return opts


def main() -> None:
    """Console-script entry point."""
    argv = sys.argv[1:]
    if argv[:1] == ["explain"]:
        kwargs = explain_args(argv[1:])
        if kwargs is not None:
            from errdex.commands.explain import run_explain

            raise SystemExit(run_explain(**kwargs))  # type: ignore[arg-type]
    from errdex.cli import main as cli_main

    cli_main()


if __name__ == "__main__":  # pragma: no cover
    main()
