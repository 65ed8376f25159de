"""Properties (hypothesis): any rendered template matches its template; the parser never raises."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from errdex.match import explain_parsed, parse
from errdex.match.index import build
from errdex.model import ErrorSite, Segment, Snapshot, Template

SNAP = Snapshot(repo="example/lib", ref="v1")

word = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ_", min_size=2, max_size=10)
punct = st.sampled_from(["", ".", ",", ":", ";", " (", ") ", "!", " -", "'", "`", " = "])
literal = st.builds(lambda ws, p: " " + " ".join(ws) + p + " ", st.lists(word, min_size=1, max_size=6), punct)
value = st.text(max_size=40)
expr = st.sampled_from(["x", "self.name", "len(shape)", "type(v).__name__", "dtype"])

DISTRACTORS = [
    Template.of([Segment(text="cannot reshape array of size "), Segment(expr="n"), Segment(text=" into shape "),
                 Segment(expr="s")]),
    Template.of([Segment(text="expected an array, got "), Segment(expr="t")]),
    Template.of([Segment(text="invalid value")]),
]


@st.composite
def template_and_message(draw: st.DrawFn) -> tuple[Template, str]:
    parts: list[Segment] = []
    rendered: list[str] = []
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            text = draw(literal)
            parts.append(Segment(text=text))
            rendered.append(text)
        if draw(st.booleans()) or not parts:
            e = draw(expr)
            parts.append(Segment(expr=e))
            # a `__name__` prints a name (``verify.names_plausible``), any other value any text
            rendered.append(draw(word if e.endswith("__name__") else value))
    if not any(p.is_literal for p in parts):
        text = draw(literal)
        parts.append(Segment(text=text))
        rendered.append(text)
    return Template.of(parts), "".join(rendered)


def _site(t: Template, line: int) -> ErrorSite:
    return ErrorSite(kind="error", exception="ValueError", exception_resolved="ValueError", templates=(t,),
                     path="lib/m.py", line=line, end_line=line, qualname="f", error_id=f"{line:016x}")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(template_and_message())
# the message starts with the first literal's words although the leading value is not empty (the name read
# as "AA AA" on a first reading: ``rank._reread``)
@example((Template.of([Segment(expr="x"), Segment(text=" AA "), Segment(expr="type(v).__name__"),
                       Segment(text=" AA ")]), "AA AA AA AA "))
def test_rendered_message_matches_its_template(case: tuple[Template, str]) -> None:
    template, message = case
    sites = [_site(t, i + 1) for i, t in enumerate(DISTRACTORS)] + [_site(template, 100)]
    idx = build((SNAP, s) for s in sites)
    result = explain_parsed(idx, parse("ValueError: " + message), top=10)
    ours = [m for m in result.matches if m.line == 100]
    assert ours, f"{template.render()!r} not found for {message!r}"
    assert ours[0].method == "exact"
    # it is the best match, or tied with a distractor whose literal text also occurs in the message
    assert ours[0].score >= result.matches[0].score - 1e-9 or result.matches[0].method == "exact"


tb_line = st.sampled_from([
    "Traceback (most recent call last):", '  File "/x/site-packages/lib/m.py", line 3, in f', "    raise X(",
    "    ~~~^^^", "ValueError: boom", "The above exception was the direct cause of the following exception:",
    "  + Exception Group Traceback (most recent call last):", "  | ValueError: v", "  +-+---------------- 1 ----",
    "E   TypeError: t", "x.py:3: in f", "Cell In[2], line 4", "File ~/a.py:9, in g()", "----> 9 g()",
    "jax._src.source_info_util.JaxStackTraceBeforeTransformation: ValueError: x", "--------------------",
    "\x1b[0;31mValueError\x1b[0m", "",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(tb_line, st.text(max_size=30)), max_size=25))
def test_parser_never_raises_on_traceback_shaped_junk(lines: list[str]) -> None:
    parse("\n".join(lines))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=500))
def test_parser_never_raises_on_arbitrary_text(text: str) -> None:
    parse(text)
