"""errdex: an encyclopedia of a Python library's errors, built from its source code."""

__version__ = "0.1.0"
