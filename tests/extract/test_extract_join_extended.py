"""A list joined after an ``extend`` of computed items (graphql-core 3.3.2, round 16: ``GraphQLError.__str__``
does ``output = [self.message]``, ``output.extend(print_location(node.loc) for node in self.nodes if
node.loc)`` under an ``if``, and returns ``"\\n\\n".join(output)``).  The generator's items were unknown, so
the whole join was one placeholder and every raise of the class (334 sites' events) had the template
``{"\\n\\n".join(output)}``: 50.6% last line, 34.7% message.  An extend whose items are computed (a
generator, a comprehension, a call) adds none, one or more items of unknown text: the known items alone,
or followed by the separator and one placeholder for the rest."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

ERRORS = '''
    class QueryError(Exception):
        def __init__(self, message, nodes=None):
            super().__init__(message)
            self.message = message
            self.nodes = nodes

        def __str__(self):
            output = [self.message]
            if self.nodes:
                output.extend(describe(node) for node in self.nodes)
            return "\\n\\n".join(output)


    class Opaque(Exception):
        def __init__(self, message, nodes):
            super().__init__(message)
            self.message = message
            self.nodes = nodes

        def __str__(self):
            output = [self.message]
            output.extend(self.nodes)
            return "\\n\\n".join(output)


    def describe(node):
        return repr(node)


    def coerce(value, nodes):
        if not isinstance(value, int):
            msg = "Int cannot represent non-integer value: " + repr(value)
            raise QueryError(msg, nodes)  # (without `nodes`, `if self.nodes:` is decided: ``poppedopts``)
        return value


    def other(value):
        raise Opaque(f"bad value {value}", [])
'''


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "errors.py").write_text(textwrap.dedent(ERRORS))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_an_extend_of_computed_items_is_an_optional_tail(tmp_path: Path) -> None:
    found = _templates(tmp_path)
    assert found["coerce"] == [
        "Int cannot represent non-integer value: {repr(value)}",
        "Int cannot represent non-integer value: {repr(value)}\n\n{describe(node) for node in self.nodes}",
    ]


def test_an_extend_of_a_name_stays_unknown(tmp_path: Path) -> None:
    # a list of another list's items: not computed here, so nothing is assumed of it
    assert "bad value {value}" not in _templates(tmp_path)["other"]
