"""A re-raise whose cause the traceback prints, ``!r`` values that must look like a repr, a
typeless message with quoted values, and words a local takes on two branches: on a small
package indexed by the real CLI."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain

SPECS = '''
class InvalidSpecifier(ValueError):
    pass


def parse_spec(spec):
    raise InvalidSpecifier(f"Invalid specifier: {spec!r}")
'''

REQS = '''
from gamma.specs import InvalidSpecifier, parse_spec


class InvalidRequirement(ValueError):
    pass


def parse_requirement(text):
    try:
        parse_spec(text)
    except InvalidSpecifier as e:
        raise InvalidRequirement(str(e)) from e


def lookup(name, is_filter, table):
    if is_filter:
        kind = "filter"
    else:
        kind = "test"
    if name not in table:
        raise KeyError(f"No {kind} named {name!r}.")


def guard(value, field):
    raise ValueError(f"{value!r} is invalid for {field!r}")


def visit(obj, attribute):
    return getattr(obj, attribute)


def pick(items, index):
    raise IndexError(index)


def same(a, b, msg=None):
    assert a is b, msg or "%r is %r" % (a, b)
'''

LOCKS = '''
class LockError(Exception):
    context = None

    def __init__(self, cause, *, context=None):
        self.context = context
        self.message = cause.message if isinstance(cause, LockError) else str(cause)

    def __str__(self):
        if self.context:
            return f"{self.message} in {self.context!r}"
        return self.message


def check_name(name):
    raise LockError(f"Name {name!r} is not normalized")


def get_as(d, key):
    try:
        return check_name(d[key])
    except Exception as e:
        raise LockError(e, context=key) from e
'''

TB_CHAIN = '''Traceback (most recent call last):
  File "/venv/lib/python3.13/site-packages/gamma/reqs.py", line 10, in parse_requirement
    parse_spec(text)
  File "/venv/lib/python3.13/site-packages/gamma/specs.py", line 6, in parse_spec
    raise InvalidSpecifier(f"Invalid specifier: {spec!r}")
gamma.specs.InvalidSpecifier: Invalid specifier: 'y'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/app/main.py", line 3, in <module>
    parse_requirement("y")
  File "/venv/lib/python3.13/site-packages/gamma/reqs.py", line 12, in parse_requirement
    raise InvalidRequirement(str(e)) from e
gamma.reqs.InvalidRequirement: Invalid specifier: 'y'
'''

TB_ELSEWHERE = '''Traceback (most recent call last):
  File "/venv/lib/python3.13/site-packages/gamma/specs.py", line 6, in parse_spec
    raise InvalidSpecifier(f"Invalid specifier: {spec!r}")
gamma.specs.InvalidSpecifier: Invalid specifier: 'y'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/app/main.py", line 3, in <module>
    visit(x, "y")
  File "/venv/lib/python3.13/site-packages/gamma/reqs.py", line 29, in visit
    return getattr(obj, attribute)
gamma.reqs.Forbidden: access to 'y' is unsafe
'''


@pytest.fixture(scope="module")
def gamma(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "chain", "gamma",
                               {"__init__.py": "", "specs.py": SPECS.lstrip("\n"), "reqs.py": REQS.lstrip("\n"),
                                "locks.py": LOCKS.lstrip("\n")})


def test_the_reported_exceptions_own_site_outranks_its_cause(gamma: Catalog) -> None:
    r = explain(gamma, TB_CHAIN)
    top = r.matches[0]
    assert (top.path, top.qualname, top.pinned_by_frame) == ("gamma/reqs.py", "parse_requirement", True)
    assert top.confident
    cause = next(m for m in r.matches if m.qualname == "parse_spec")  # still listed, below
    assert cause.score < top.score


def test_no_confident_answer_when_the_reported_exception_was_raised_at_no_site(gamma: Catalog) -> None:
    r = explain(gamma, TB_ELSEWHERE)
    assert not r.confident
    assert all(not m.confident for m in r.matches)


def test_a_repr_value_must_look_like_one(gamma: Catalog) -> None:
    good = explain(gamma, "KeyError: \"No filter named 'f'.\"")
    assert good.matches[0].qualname == "lookup" and good.matches[0].method == "exact" and good.confident
    assert [(v.placeholder, v.value) for v in good.matches[0].values] == [("{name}", "'f'")]
    # the template's text is there, but `{name!r}` would have to be "'f' found": no exact match
    bad = explain(gamma, "KeyError: \"No filter named 'f' found.\"")
    assert not bad.confident
    assert all(m.method != "exact" for m in bad.matches if m.qualname == "lookup")


def test_the_words_a_local_takes_on_two_branches_are_the_templates(gamma: Catalog) -> None:
    r = explain(gamma, "KeyError: \"No test named 'g'.\"")
    assert r.matches[0].template == '"No test named {name}."'  # a name shown with !r: the repr's `"` quotes
    assert explain(gamma, "KeyError: \"No other named 'g'.\"").matches[0].method != "exact"


def test_a_typeless_message_with_quoted_values_is_no_repr(gamma: Catalog) -> None:
    r = explain(gamma, "'NotReal' is invalid for 'requires-python'")
    top = r.matches[0]
    assert top.qualname == "guard" and top.method == "exact"
    assert [v.value for v in top.values] == ["'NotReal'", "'requires-python'"]


def test_a_reraise_as_another_class_is_the_answer(gamma: Catalog) -> None:
    """`raise InvalidRequirement(str(e)) from e`: the printed class names the re-raise, whose template
    is only the caught message; the caught error's site is listed below as what it wraps."""
    r = explain(gamma, "gamma.reqs.InvalidRequirement: Invalid specifier: 'y'")
    top = r.matches[0]
    assert (top.qualname, top.method) == ("parse_requirement", "exact")
    assert top.wraps is not None
    assert any(m.qualname == "parse_spec" and m.id == top.wraps for m in r.matches[1:])


def test_only_the_reraise_prints_the_context_it_adds(gamma: Catalog) -> None:
    """The class prints " in 'key'" itself only when given a context: the direct raise passes none (its
    `if self.context:` is decided, ``extract/poppedopts``), so only the re-raise around it, which gives one,
    prints the text with the context."""
    r = explain(gamma, "gamma.locks.LockError: Name 'Feature' is not normalized in 'extras'")
    top = r.matches[0]
    assert top.qualname == "get_as" and not top.tied
    assert all(m.score < top.score for m in r.matches[1:] if m.qualname == "check_name")
    # without a context the class prints the caught text as it is: the re-raise is a tie of the raise
    # (its key may be empty), listed under the site whose own text it is; a traceback decides
    plain = explain(gamma, "gamma.locks.LockError: Name 'Feature' is not normalized")
    assert plain.matches[0].qualname == "check_name" and not plain.confident
    assert [t.qualname for t in plain.matches[0].tied] == ["get_as"]


def test_a_message_found_as_an_element_of_a_printed_list_is_not_the_raise(gamma: Catalog) -> None:
    """`raise ValidationError(errors)` with a list or dict of messages prints their repr: a template found
    inside it is one element, raised elsewhere and collected; it is not a confident answer."""
    for text in ("gamma.reqs.InvalidRequirement: [\"Invalid specifier: 'y'\"]",
                 "{'name': [\"Invalid specifier: 'y'\"]}",
                 "defaultdict(<class 'dict'>, {1: [\"Invalid specifier: 'y'\"]})"):
        r = explain(gamma, text)
        assert not r.confident, text
        assert all(m.method != "exact" for m in r.matches if m.qualname == "parse_spec"), text
    alone = explain(gamma, "Invalid specifier: 'y'").matches[0]  # the message itself still is found exactly
    assert (alone.qualname, alone.method) == ("parse_spec", "exact")


def test_a_message_alone_ties_with_the_bare_reraise_of_its_class(gamma: Catalog) -> None:
    """`except InvalidSpecifier as e: raise InvalidRequirement(str(e)) from e` prints the very text of
    parse_spec: with no class printed the two cannot be told apart (a tie, not confident); with the
    class printed, each is the answer."""
    r = explain(gamma, "Invalid specifier: 'y'")
    top = r.matches[0]
    assert top.qualname == "parse_spec"
    assert [t.qualname for t in top.tied] == ["parse_requirement"] and not r.confident
    own = explain(gamma, "gamma.specs.InvalidSpecifier: Invalid specifier: 'y'")
    assert own.matches[0].qualname == "parse_spec" and own.matches[0].tied_count == 0 and own.confident


def test_a_catalog_of_one_library_scopes_a_builtin_class(gamma: Catalog) -> None:
    """`IndexError: 7` names no library, but the index holds only one: the sites raising that builtin
    with a value for a message are the class fallback (never confident)."""
    r = explain(gamma, "IndexError: 7")
    top = r.matches[0]
    assert (top.method, top.qualname, top.confident) == ("class", "pick", False)


def test_a_template_of_little_literal_text_is_never_confident_alone(gamma: Catalog) -> None:
    """`"%r is %r" % (a, b)`: " is " fits half of all sentences (the template comes from `msg or ...`,
    which the extractor reads as either operand)."""
    r = explain(gamma, "AssertionError: 'the cache' is 'the store'")
    top = r.matches[0]
    assert (top.qualname, top.method) == ("same", "exact")
    assert not top.confident and top.score < 0.5
