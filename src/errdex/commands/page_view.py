"""``errdex show ID``: the whole page in the terminal, section by section, as ``rustc --explain`` does.

The same sections as the web page and in the same order (header, message,
What it means, Source, Solutions, Example fix, Defensive patterns,
Prevention, When it happens, Related errors, footer), from the stored
``Analysis``; without one (``errdex analyze`` not run yet) the source part
alone, with a line saying how to get the rest.  Prose is rendered as
Markdown so that inline code stands out; code as highlighted Python that
wraps rather than cutting long lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.syntax import Syntax
from rich.text import Text

from errdex.catalog.base import ErrorRecord
from errdex.commands.index_views import versions_view
from errdex.model import Analysis, Observation, Proof, Snapshot, to_json
from errdex.observe.evidence import RaisedInstead, entry_of
from errdex.pagenotes import arguments_note, defensive_note, defensive_sample, environment_note, example_note
from errdex.snippets import snippet_window


def _h(title: str) -> Text:
    return Text(title, style="bold underline")


def _md(text: str) -> Markdown:
    return Markdown(text)


def _code(code: str, start: int = 1, highlight: set[int] | None = None, numbers: bool = False) -> Syntax:
    return Syntax(code.rstrip("\n"), "python", line_numbers=numbers, start_line=start,
                  highlight_lines=highlight or set(), word_wrap=True, theme="ansi_dark")


def page_view(record: ErrorRecord, analysis: Analysis | None, not_in: Sequence[Snapshot] = (),
              observed: Sequence[Observation] = (), raised_instead: Sequence[RaisedInstead] = ()) -> RenderableType:
    """The page of one error for the terminal."""
    snap, site = record.latest
    parts: list[RenderableType] = [
        Text(f"{snap.repo} · {site.kind} · {site.exception_name}", style="bold"),
        Text(f"id {record.error_id}", style="dim"), Text(""), _h("Error message"),
    ]
    for t in site.templates or ():
        parts.append(Text(t.display() or "(no message)"))
    if not site.templates:
        parts.append(Text("(no message)", style="dim"))
    a = analysis
    if a is not None and a.meaning:
        parts += [Text(""), _h("What it means"), _md(a.meaning)]
    parts += [Text(""), _h("Source")]
    loc = Text(f"Thrown at {site.path}:{site.line}")
    if site.qualname:
        loc.append(f"  in {site.qualname}", style="dim")
    parts.append(loc)
    if site.snippet:
        text, start = snippet_window(site)
        parts.append(_code(text, start, set(range(site.line, site.end_line + 1)), numbers=True))
    url = snap.source_url(site.path, site.line, site.end_line)
    if url:
        parts.append(Text(f"View on GitHub (pinned to {snap.short_pin}):"))
        parts.append(Text(url, style=f"link {url}", no_wrap=True, overflow="ignore"))
    parts.extend(versions_view(record, not_in))  # every version with its line, and those without the error
    if a is None:
        if site.guards:
            parts += [Text(""), _h("Guards (what holds when it is raised)")]
            parts.extend(Text(f"  line {g.line}: {g.kind}: {g.normalized}") for g in site.guards)
        parts += [Text(""), Text("No analysis stored for this error: run `errdex analyze` for the rest of the page.",
                                 style="italic")]
        return Group(*parts)
    if a.solutions:
        parts += [Text(""), _h("Solutions"), _md("\n".join(f"{i}. {s.text}" for i, s in enumerate(a.solutions, 1)))]
    pf = a.example_fix.proof
    parts += [Text(""), _h("Example fix")]
    if pf is not None and (a.example_fix.before or a.example_fix.after):
        parts.append(Text(f"Proven on {pf.library} {pf.version}, Python {'.'.join(pf.python.split('.')[:2])}"
                          + (f", {pf.lowered}" if pf.lowered else "") + environment_note(pf.env),
                          style="green"))
        if (kept := arguments_note({"arguments": pf.arguments, "passes": pf.passes})):  # prove/keep.py: arguments kept or dropped
            parts.append(Text(kept, style="dim"))
        if a.example_fix.before:
            parts += [Text("before", style="dim"), _code(a.example_fix.before)]
        if pf.before.output:
            parts += [Text("output", style="dim"), Text(pf.before.output)]
        if a.example_fix.after:
            parts += [Text("after", style="dim"), _code(a.example_fix.after)]
    else:
        parts.append(_md(example_note([entry_of(o, snap) for o in observed], raised_instead)))
    parts += [Text(""), _h("Defensive patterns"), Text(f"Strategy: {a.strategy}")]
    if a.validate_sample and a.validate_proof is not None:
        parts += [Text("Validate before calling", style="bold"), _proven(a.validate_proof, "check"),
                  _code(a.validate_sample)]
    if a.try_sample and a.try_proof is not None:
        parts += [Text("Try / catch", style="bold"), _proven(a.try_proof, "sample"), _code(a.try_sample)]
    note = defensive_note(to_json(a))
    if note:
        parts.append(_md(note))
    label, sample = defensive_sample(to_json(a))
    if sample:
        parts += [Text(label, style="bold"), _code(sample)]
    if a.prevention:
        parts += [Text(""), _h("Prevention"), _md("\n".join(f"- {p}" for p in a.prevention))]
    if a.trigger or a.situations:
        parts += [Text(""), _h("When it happens")]
        if a.trigger:
            parts.append(_md(f"**Trigger:** {a.trigger}"))
        if a.situations:
            parts.append(_md("**Common situations:**\n\n" + "\n".join(f"- {s}" for s in a.situations)))
    if a.related:
        parts += [Text(""), _h("Related errors")]
        for r in a.related:
            line = Text(f"• {r.title}")
            line.append(f"  /errors/{r.error_id}", style="dim")
            if r.reason:
                line.append(f"  ({r.reason})", style="dim italic")
            parts.append(line)
    elif a.related_note:
        parts += [Text(""), _h("Related errors"), _md(a.related_note)]
    parts += [Text(""), Text(f"{'AI-assisted' if a.model_sections else 'Static'} analysis of {snap.key}"
                             + (f" ({a.date})" if a.date else "") + ".", style="dim"),
              Text(f"Data as JSON: /api/errors/{record.error_id}", style="dim", no_wrap=True, overflow="ignore")]
    return Group(*parts)


def _proven(p: Proof | None, what: str) -> Text:
    if p is None:
        return Text(f"Not proven: this {what} was not run.", style="dim")
    return Text(f"Proven on {p.library} {p.version}, Python {'.'.join(p.python.split('.')[:2])}"
                + (f", {p.lowered}" if p.lowered else "") + environment_note(p.env), style="green")
