"""The title a Related link shows for a site (``related.title``)."""

from __future__ import annotations

from dataclasses import replace

from errdex.analyze.related import title
from errdex.model import ErrorSite, Segment, Template


def _site(templates: tuple[Template, ...], snippet: str, unresolved: tuple[str, ...]) -> ErrorSite:
    return ErrorSite(kind="error", exception="BadValue", exception_resolved="pkg.BadValue", templates=templates,
                     path="pkg/types.py", line=10, end_line=10, qualname="Kind.fail", snippet=snippet,
                     unresolved=unresolved)


def _at(site: ErrorSite, line: int) -> ErrorSite:
    return replace(site, line=line, end_line=line, snippet_start=1)


def _t(*parts: str) -> Template:
    return Template(tuple(Segment(expr=p[1:-1]) if p.startswith("{") else Segment(text=p) for p in parts))


def test_a_message_forwarded_from_callers_is_titled_by_its_general_form() -> None:
    # rating 13 on a1ee: `ParamType.fail(message)` raises what its callers pass; the link showed the `DateTime`
    # caller's "does not match the format" as if it were the site's own message
    site = _site((_t("{value}", " does not match the format ", "{formats}", "."), _t("{value}", " is not a number.")),
                 "    def fail(self, message):\n        raise BadValue(message)\n", ("message",))
    site = _at(site, 2)
    assert title(site) == ('BadValue: {message} (the message its callers pass, e.g. "{value} does not match the '
                           'format {formats}.")')


def test_a_default_message_written_in_the_raising_function_stays_the_title() -> None:
    # a default (`if message is None: message = "No such option ..."`) is the site's own text
    site = _site((_t("No such option ", "{opt}", "."), _t("{value}", " is not a number.")),
                 '    if message is None:\n        message = f"No such option {opt}."\n    raise BadValue(message)\n',
                 ("message",))
    assert title(_at(site, 3)) == "BadValue: No such option {opt}."
    # the exception's own ``__init__`` fills the message (``raise BadValue(opt)`` in a function with no ``message``)
    made = _site((_t("No such value ", "{opt}", "."), _t("{value}", " is not a number.")),
                 "    def match(self, opt):\n        raise BadValue(opt)\n", ("message",))
    assert title(_at(made, 2)) == "BadValue: No such value {opt}."


def test_one_message_is_its_own_title() -> None:
    site = _site((_t("{value}", " does not match the format ", "{formats}", "."),),
                 "    raise BadValue(message)\n", ("message",))
    assert title(site) == "BadValue: {value} does not match the format {formats}."
