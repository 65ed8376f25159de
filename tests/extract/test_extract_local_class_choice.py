"""A raise of one of several classes chosen into a local (graphql-core 3.3.2, round 16: ``cls = GraphQLError
if isinstance(error, GraphQLError) else TypeError``, ``raise cls(msg) from error`` in
``GraphQLObjectType.fields``).  The site was catalogued with the first class, so a printed ``TypeError``
disagreed with it (type factor 0.55, score 0.45): the class fallback answered instead.  Such a site now
names the local as its class (``cls``), as a ``raise error`` of several callers' instances does: a printed
class cannot contradict it.  A re-raise of a caught instance (``raise error`` under ``except (A, B)``) is
not a call and keeps its first class."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

FIELDS = '''
    class QueryError(Exception):
        pass


    def fields(self, thunk):
        try:
            return thunk()
        except Exception as error:
            cls = QueryError if isinstance(error, QueryError) else TypeError
            msg = f"{self.name} fields cannot be resolved. {error}"
            raise cls(msg) from error


    def reraise(thunk):
        try:
            return thunk()
        except (KeyError, ValueError) as error:
            raise error
'''


def test_a_local_choice_of_classes_names_no_one_class(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "schema.py").write_text(textwrap.dedent(FIELDS))
    found = {s.qualname: s for s in extract_dir(tmp_path).sites}
    chosen = found["fields"]
    assert (chosen.exception, chosen.exception_resolved) == ("cls", "cls")
    assert [t.render() for t in chosen.templates] == ["{self.name} fields cannot be resolved. {error}"]
    assert found["reraise"].exception == "KeyError"
