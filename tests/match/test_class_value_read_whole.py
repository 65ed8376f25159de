"""A printed class (``{type(root)}``, ``{x.__class__}``) is read whole, ``<class 'NoneType'>``, before the
literal after it is looked for: its repr has a space of its own, where a literal of spaces alone (``" "``)
was found, leaving ``{type(root)}`` holding ``<class`` (or nothing, sharing the space before it), and the
template fuzzy.  cirq-core 1.7.0's ``cirq/ops/op_tree.py`` raises ``TypeError(f'Not an Operation or
Iterable: {type(root)} {root}')``; the text below, captured from its test suite (round 34), was answered
fuzzily (0.45) below a class fallback.  python-docx's ``got {type(value)} {value}``, icalendar's ``jCal
conversion: {type(value)} {value}`` and cel-python's ``{type(x)} {x} and {type(y)} {y}`` are read alike."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

OP_TREE = '''
from typing import NoReturn, Union, Iterable

from qkit.ops.raw_types import Operation

OP_TREE = Union[Operation, Iterable]


def flatten_to_ops(root: OP_TREE):
    if isinstance(root, Operation):
        yield root
    elif isinstance(root, Iterable) and not isinstance(root, str):
        for subtree in root:
            yield from flatten_to_ops(subtree)
    else:
        _bad_op_tree(root)


def _bad_op_tree(root: OP_TREE) -> NoReturn:
    raise TypeError(f'Not an Operation or Iterable: {type(root)} {root}')
'''

RAW_TYPES = '''
class Operation:
    def with_qubits(self, *new_qubits):
        raise TypeError(f"{type(self)} is not an Operation with qubits")
'''


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "classvalue", "qkit", {"op_tree.py": OP_TREE,
                                                                       "raw_types.py": RAW_TYPES})


def test_the_class_value_is_read_whole(catalog: Catalog) -> None:
    top = explain(catalog, "TypeError: Not an Operation or Iterable: <class 'NoneType'> None", top=3).matches
    assert top[0].qualname == "_bad_op_tree", [(m.qualname, m.method, m.score) for m in top]
    assert top[0].method == "exact" and top[0].confident


def test_a_value_that_is_no_class_still_fails(catalog: Catalog) -> None:
    top = explain(catalog, "TypeError: Not an Operation or Iterable: NoneType None", top=3).matches
    assert not (top[0].qualname == "_bad_op_tree" and top[0].method == "exact")
