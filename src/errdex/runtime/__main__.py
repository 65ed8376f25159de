"""``python -m errdex.runtime script.py [args]``: run a script with errdex's excepthook."""

from __future__ import annotations

import runpy
import sys

from errdex.runtime.excepthook import install


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m errdex.runtime SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    install()
    sys.argv = argv
    runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
