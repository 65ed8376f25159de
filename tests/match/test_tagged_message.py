"""A message that opens with its own tag, ``Error: ``: pydantic-settings 2.16 raises
``SettingsError(f'Error: {model_cls.__name__} is not subclass of BaseModel or pydantic.dataclasses.dataclass')``
and its CLI re-raises what it collected, ``raise exception_container[0]``.  Pasted bare (issue 17's round 30),
``Error: NotModel is not subclass ...`` was read as a class ``Error`` with the rest as its text: the whole text,
tried too (``reading.exceptions``), matched the site exactly but lost to the type disagreement (0.55), and the
class fallback answered the re-raise first.  The ``Error:`` that opens a template's literal text is that text,
no class (``reading.opens_with``).  And a sentence closing on a class name (``cannot use union with
CliMutuallyExclusiveGroup``) is no log line naming that class with no text (``lines._prose_before``).
The package is written in that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain, parse

EXCEPTIONS = '''
class SettingsError(ValueError):
    """Base exception for settings-related errors."""
'''

UTILS = '''
from .exceptions import SettingsError


def get_model_fields(model_cls):
    if not hasattr(model_cls, "model_fields"):
        raise SettingsError(f"Error: {model_cls.__name__} is not subclass of BaseModel or pydantic.dataclasses.dataclass")
    return model_cls.model_fields


def add_group(model, group):
    if group.is_union:
        raise SettingsError(f"cannot use union with {group.name}")
    if model.nested:
        raise SettingsError("cannot have nested models in a CliMutuallyExclusiveGroup")
'''

MAIN = '''
import threading

from .exceptions import SettingsError


class CliApp:
    @staticmethod
    def run_cli_cmd(model, cli_cmd_method_name):
        command = getattr(type(model), cli_cmd_method_name, None)
        if command is None:
            raise SettingsError(f"Error: {type(model).__name__} class is missing {cli_cmd_method_name} entrypoint")
        exception_container = []

        def run():
            try:
                command(model)
            except BaseException as e:
                exception_container.append(e)

        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
        if exception_container:
            raise exception_container[0]
        return model
'''

TAGGED = "Error: NotModel is not subclass of BaseModel or pydantic.dataclasses.dataclass"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "tagged", "settingslike",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "utils.py": UTILS, "main.py": MAIN})


def test_a_tag_opening_the_text_is_the_sites_text(lib: Catalog) -> None:
    r = explain(lib, TAGGED)
    assert r.matches[0].qualname == "get_model_fields" and r.matches[0].method == "exact"
    assert r.matches[0].score > 0.8
    r = explain(lib, "Error: Child class is missing cli_cmd entrypoint")
    assert r.matches[0].qualname == "CliApp.run_cli_cmd" and r.matches[0].method == "exact"


def test_a_class_that_prints_its_name_is_still_a_class(lib: Catalog) -> None:
    # the last line of a traceback names the class: a site of another class is no confident answer
    r = explain(lib, "RuntimeError: Error: NotModel is not subclass of BaseModel or pydantic.dataclasses.dataclass")
    assert not r.matches[0].confident


def test_a_sentence_closing_on_a_class_name_is_the_message(lib: Catalog) -> None:
    p = parse("cannot use union with CliMutuallyExclusiveGroup")
    assert (p.exception, p.message) == ("", "cannot use union with CliMutuallyExclusiveGroup")
    p = parse("2024-05-01 12:00:03 ERROR KeyboardInterrupt")  # a log line naming the error: still its type
    assert p.exception == "KeyboardInterrupt"
    r = explain(lib, "cannot have nested models in a CliMutuallyExclusiveGroup")
    assert r.matches[0].qualname == "add_group" and r.matches[0].method == "exact"
