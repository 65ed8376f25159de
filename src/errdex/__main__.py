"""``python -m errdex``."""

from errdex.cli import main

main()
