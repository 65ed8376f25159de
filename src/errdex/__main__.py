"""``python -m errdex``."""

from errdex.entry import main

main()
