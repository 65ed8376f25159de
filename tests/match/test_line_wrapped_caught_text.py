"""A caught error's text under a header line of the re-raise's own: yamale 6.1.0's ``make_schema`` does
``error = "Schema error in file %s\\n" % path`` then ``error += str(e)`` and raises ``SyntaxError(error)``,
whose template is ``Schema error in file {path}\\n{e}``.  Normalized, the newline is a space: ``{path}``
ended at its first space (an empty value) and ``{e}`` began with the path, so the re-raise wrapped nothing
and the caught text (``Invalid schema expression: '{v}'. {e}``, itself around ``{e} at node '{path}'``)
was the answer.  ``wrap._line_blocks`` reads the value at an end of the text by its whole lines too: the
caught text starts on the line after the header, and the re-raise wraps it; the reading of ``{e} at node
'{path}'`` around the whole text, whose value ends inside a line, closes a loop of wraps and is dropped
(``wrap._cuts_lines``).  The package is written in yamale's shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match import verify as V
from errdex.match import wrap as W

PARSER = '''
import ast


def parse(validator_string):
    try:
        tree = ast.parse(validator_string, mode="eval")
        if not isinstance(tree.body, ast.Call):
            raise SyntaxError("Schema expressions must be enclosed by a validator.")
    except SyntaxError as e:
        raise SyntaxError("Invalid schema expression: '%s'. " % validator_string + str(e))
    return tree
'''

SCHEMA = '''
from yschema import parser


class Schema:
    def __init__(self, raw, name=None):
        self.name = name
        self.validators = {}
        for key, text in raw.items():
            self.validators[key] = self._parse(text, key)

    def _parse(self, text, path):
        try:
            return parser.parse(text)
        except SyntaxError as e:
            raise SyntaxError(str(e) + " at node '%s'" % str(path))
'''

LOADER = '''
from yschema.schema import Schema


def make_schema(path, raw):
    try:
        s = Schema(raw, path)
    except (TypeError, SyntaxError) as e:
        error = "Schema error in file %s\\n" % path
        error += str(e)
        raise SyntaxError(error)
    return s
'''

TEXT = ("Schema error in file /srv/app/schemas/bad_schema.yaml\n"
        "Invalid schema expression: 'None'. compile() arg 1 must be a string, bytes or AST object at node 'name'")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "linewrap", "yschema",
                               {"__init__.py": "", "parser.py": PARSER, "schema.py": SCHEMA,
                                "loader.py": LOADER})


def test_the_header_line_wraps_the_caught_text(lib: Catalog) -> None:
    top = explain(lib, TEXT).matches
    assert top[0].qualname == "make_schema", [(m.qualname, m.template) for m in top]
    # the caught texts rank below it, in the order they were wrapped
    assert [m.qualname for m in top[1:3]] == ["parse", "Schema._parse"]


def test_wraps_inside_a_wrapped_text_are_read_on_it(lib: Catalog) -> None:
    # four deep: the header's, the parser's, the node's and the validator's own text; read on the whole
    # text, the node's `{e}` holds everything before ` at node`, and the validator's text stayed above
    text = ("Schema error in file /srv/app/schemas/bad_schema.yaml\n"
            "Invalid schema expression: '[x for x in y]'. Schema expressions must be enclosed by a validator."
            " at node 'name'")
    top = explain(lib, text).matches
    assert [m.qualname for m in top[:3]] == ["make_schema", "parse", "Schema._parse"], \
        [(m.qualname, m.template) for m in top]
    assert top[3].template == "Schema expressions must be enclosed by a validator."


def test_on_one_line_the_caught_text_stays_the_answer(lib: Catalog) -> None:
    # no header line: the text is a caught one's, not the loader's
    top = explain(lib, TEXT.split("\n", 1)[1]).matches
    assert top[0].qualname in ("parse", "Schema._parse") and "make_schema" not in [m.qualname for m in top[:2]]


def test_line_breaks_are_the_normalized_texts_positions() -> None:
    raw = "  head  of it\n\n  next line\tend\n"
    text = V.normalize(raw).strip()
    assert [text[i] for i in V.line_breaks(raw)] == [" "]
    assert text[V.line_breaks(raw)[0] + 1:].startswith("next line")


def test_a_value_that_cuts_a_line_is_told_from_whole_lines() -> None:
    text = "a head line b c next line d"
    breaks = (13,)  # "a head line b" and "c next line d" were two lines
    assert text[breaks[0]] == " "
    assert W._cuts_lines("line b c", text, breaks)  # starts and ends inside a line
    assert not W._cuts_lines("c next line d", text, breaks)  # the last line, whole
    assert not W._cuts_lines("a head line b", text, breaks)  # the first line: no break inside it
    assert W._in_cycles({1: 2, 2: 3, 3: 1, 4: 1}) == {1, 2, 3}


# nibabel 5.4.2's `Bomber`: an object that stands for missing data holds the error its loader built
# (`{e}; Is it possible you have not installed a data package?\n\n{pkg_hint}`, a placeholder at each end)
# and raises, on any attribute, a text that writes it on lines of their own under a header line
DATA = '''
class DataError(Exception):
    pass


class BomberError(DataError, AttributeError):
    pass


HINT = "If you have the package, have you set the path to the package correctly?"


def find_source(name, paths):
    raise DataError(f'Could not find datasource "{name}" in data path "{":".join(paths)}"')


def datasource(pkg_def, name, paths):
    try:
        return find_source(name, paths)
    except DataError as e:
        pkg_hint = pkg_def.get("install hint", HINT)
        msg = f"{e}; Is it possible you have not installed a data package?"
        if pkg_hint is not None:
            msg += f"\\n\\n{pkg_hint}"
        raise DataError(msg)


def datasource_or_bomber(pkg_def, name, paths):
    try:
        return datasource(pkg_def, name, paths)
    except DataError as e:
        return Bomber(name, e)


class Bomber:
    def __init__(self, name, msg):
        self.name = name
        self.msg = msg

    def __getattr__(self, attr_name):
        raise BomberError(
            f'Trying to access attribute "{attr_name}" of '
            f'non-existent data "{self.name}"\\n\\n{self.msg}\\n'
        )
'''

BOMBED = ('Trying to access attribute "get_filename" of non-existent data "pkg"\n\n'
          'Could not find datasource "pkg" in data path "/tmp/tmpx1"; Is it possible you have not installed a data '
          'package?\n\nIf you have the package, have you set the path to the package correctly?\n')


@pytest.fixture(scope="module")
def bomber(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "bomber", "ndata", {"__init__.py": "", "data.py": DATA})


def test_a_caught_text_with_a_placeholder_at_each_end_is_wrapped_on_its_lines(bomber: Catalog) -> None:
    top = explain(bomber, BOMBED).matches
    assert top[0].qualname == "Bomber.__getattr__", [(m.qualname, m.template) for m in top]
    assert top[1].qualname == "datasource"


def test_the_caught_text_alone_is_still_its_own(bomber: Catalog) -> None:
    alone = BOMBED.split("\n\n", 1)[1]
    assert explain(bomber, alone).matches[0].qualname == "datasource"


def test_lines_are_read_off_a_value_only_where_a_line_may_start() -> None:
    # yamale: only a newline between `{path}` and `{e}`; the caught text is the lines after the path's
    segs = ((True, "Schema error in file "), (False, "path"), (True, " "), (False, "e"))
    text = "Schema error in file /srv/a b.yaml Invalid schema expression: 'x'. bad"
    values = (("{path}", ""), ("{e}", text[21:]))
    assert W._line_blocks(segs, values, text, (34,)) == [(text[35:], len(text) - 35)]
    # everett's `\n{full_key} requires a value parseable by {qualname(parser)}`: the key is on the line of
    # the template's own words; the line before it is no message the placeholder holds
    segs = ((False, "full_key"), (True, " requires a value parseable by "), (False, "qualname(parser)"))
    text = "'bar' is not a valid bool value FOO requires a value parseable by conf.parse_bool"
    values = (("{full_key}", text[:35]), ("{qualname(parser)}", "conf.parse_bool"))
    assert W._line_blocks(segs, values, text, (31,)) == []
    # a value that is a line of its own is read whole, with its first line's length
    text = 'Parser key "le0": Not of type X: -2.1 does not conform'
    segs = ((True, 'Parser key "'), (False, "dest"), (True, '": '), (False, "ex"))
    assert W._line_blocks(segs, (("{dest}", "le0"), ("{ex}", text[18:])), text, (17,)) == [(text[18:], len(text) - 18)]
