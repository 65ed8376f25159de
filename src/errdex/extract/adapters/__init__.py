"""Per-library adapters that read configuration registries (JAX's ``bool_state``, absl flags).

Each adapter is a function ``(module_ast, path, module, source) -> list[ConfigOption]``
that declines with an empty list when the file is not one it knows.  The
generic environment-variable reader lives in ``extract/config.py`` and runs
on every file; adapters add what only knowledge of one registry can prove:
the option's name, default, help, environment variable and how to set it.

``pydanticcore`` is of another kind, not in ``ADAPTERS``: what a dependency's compiled exception class
prints (``PydanticCustomError``'s template), read by ``extract/classmessage.py`` beside the standard
library's class texts (``extract/stdlib_texts.py``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.extract.adapters import absl, jax, settings
from errdex.model import ConfigOption

Adapter = Callable[[ast.Module, str, str, str], list[ConfigOption]]

ADAPTERS: tuple[Adapter, ...] = (jax.options, absl.options, settings.options)

__all__ = ["ADAPTERS", "Adapter"]
