"""The ``errdex`` console script: ``explain`` and ``index`` straight away, every other command through Typer.

Importing Typer (and with it Click, Rich and pydantic) costs more than the
whole answer of ``errdex explain``, which runs after every uncaught exception
once the hook is installed (docs/runtime.md).  So the arguments of
``explain`` are read here by a parser that knows exactly its documented
options; anything it is not sure of (``--help``, an unknown or malformed
option, a second argument, a value that looks like an option) goes to the
Typer application in ``cli.py``, which then prints the same help and the same
errors as ever.  ``--help`` and the documented options stay Typer's.  ``errdex
index SOURCE...`` is read the same way (its batch options and ``--limit`` go to
Typer): indexing a release is timed against parsing it (bench/index_bench.py).
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
_INTS = frozenset({"top", "jobs"})

# the same for ``errdex index``: the options of indexing sources one after the other; the batch
# options (--from-list, --cluster, --scheduler, --reindex) and --limit go to Typer
_INDEX_OPTIONS = {
    "--repo": ("repo", True),
    "--commit": ("commit", True),
    "--ref": ("ref", True),
    "--db": ("db", True),
    "--jobs": ("jobs", True),
    "-j": ("jobs", True),
    "--repo-path-prefix": ("path_prefix", True),
    "--no-cache": ("no_cache", False),
    "--json": ("json_out", False),
    "--python": ("python", True),
}


def _parse(argv: list[str], options: dict[str, tuple[str, bool]],
           opts: dict[str, object]) -> tuple[dict[str, object], list[str]] | None:
    """``opts`` filled from the options of ``argv``, and the positional arguments; None for
    anything this parser is not sure of (Typer then answers as ever)."""
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
        spec = options.get(name)
        if spec is None or spec[0] in seen:
            return None  # --help, -h, a typo, a repeated option: Typer's message
        key, takes_value = spec
        seen.add(key)
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
        if key in _INTS:
            if not value.isdigit() or not value.isascii():
                return None
            opts[key] = int(value)
        else:
            opts[key] = value
    return opts, positional


def explain_args(argv: list[str]) -> dict[str, object] | None:
    """The keyword arguments of ``run_explain`` for ``errdex explain ARGV``, or None to leave it to Typer."""
    parsed = _parse(argv, _EXPLAIN_OPTIONS, {"text": None, "db": None, "json_out": False, "top": 5, "repo": None,
                                             "python": None, "sys_path": None, "brief": False})
    if parsed is None or len(parsed[1]) > 1:
        return None
    opts, positional = parsed
    if positional:
        opts["text"] = positional[0]
    return opts


def index_args(argv: list[str]) -> dict[str, object] | None:
    """The keyword arguments of ``run_index`` for ``errdex index ARGV`` (sources given, no batch
    option), or None to leave it to Typer.  Typer and with it pydantic cost a fifth of a second
    of start-up, a tenth of indexing the jax wheel."""
    parsed = _parse(argv, _INDEX_OPTIONS, {"repo": None, "commit": None, "ref": None, "db": None, "jobs": None,
                                           "path_prefix": None, "no_cache": False, "json_out": False,
                                           "python": None})
    if parsed is None or not parsed[1]:
        return None
    opts, positional = parsed
    opts["use_cache"] = not opts.pop("no_cache")
    return {"sources": positional, **opts, "limits": [], "from_list": None, "cluster": None, "scheduler": None,
            "reindex": False}


def main() -> None:
    """Console-script entry point."""
    argv = sys.argv[1:]
    if argv[:1] == ["explain"]:
        kwargs = explain_args(argv[1:])
        if kwargs is not None:
            from errdex.commands.explain import run_explain

            raise SystemExit(run_explain(**kwargs))  # type: ignore[arg-type]
    if argv[:1] == ["index"]:
        kwargs = index_args(argv[1:])
        if kwargs is not None:
            from errdex.commands.index import run_index

            raise SystemExit(run_index(**kwargs))  # type: ignore[arg-type]
    from errdex.cli import main as cli_main

    cli_main()


if __name__ == "__main__":  # pragma: no cover
    main()
