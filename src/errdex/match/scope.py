"""Scope and the class fallback: what the input says about the library, and what is left when no
template fits.

**Scope.**  Python prints a library's exception class with its module
(``sklearn.exceptions.NotFittedError``, ``click.exceptions.BadParameter``), and a
traceback's frames name the library's files.  When either names a package of
the catalog, the candidates of that package come first: another library's
template never outranks one of the library the input names, however well its
text matches (both are still listed).  ``--repo`` restricts the index itself.

**Class fallback.**  When no template's text was found in the message (no
exact match: the message is a value, ``KeyError: 'os_name'``, or text a caller
passed in, or the message is empty), the printed class still says something:
the sites of the scoped library that raise that class and whose template has
no literal text to check are the candidates.  They are reported as one tied
group under a first one, with ``method: "class"``, never confident, and the
note says so.
"""

from __future__ import annotations

from collections.abc import Iterable

from errdex.match.index import S_EXC, S_EXC_NAME, S_ID, S_LINE, S_PATH, T_LITCHARS, MatchIndex

NO_TEXT = 4  # a template with fewer literal characters than this has no text worth checking
CLASS_SCORE = 0.3  # a class fallback's score: a lead, never a confident answer
MAX_SCAN = 200_000  # sites looked at for a class (the whole of a large catalog's latest snapshots)


def scope_tops(idx: MatchIndex, exception: str, library_paths: Iterable[str]) -> frozenset[str]:
    """The catalog's top-level packages that the input names: its qualified class, its frames; an
    index of one library (a catalog of one, or ``--repo``) is that library's scope whatever the input."""
    if len(idx.snaps) == 1:
        return frozenset(idx.tops)
    out: set[str] = set()
    head = exception.split(".", 1)[0] if "." in exception else ""
    if head in idx.tops:
        out.add(head)
    for path in library_paths:
        out.add(path.split("/", 1)[0])
    return frozenset(out & idx.tops)


def in_scope(idx: MatchIndex, site: int, tops: frozenset[str]) -> bool:
    return not tops or idx.sites[site][S_PATH].split("/", 1)[0] in tops


def class_sites(idx: MatchIndex, exception: str, tops: frozenset[str]) -> list[int]:
    """Sites (in scope) raising the printed class whose templates have no literal text, in path/line order.

    The class is compared by its name and, when the input qualifies it, by the
    resolved class's module too; a builtin class with no scope is too common
    to say anything and gives nothing.
    """
    name = exception.rsplit(".", 1)[-1]
    if not name or (not tops and "." not in exception):
        return []
    qualified = exception if "." in exception else ""
    out: list[int] = []
    for s, row in enumerate(idx.sites[:MAX_SCAN]):
        if row[S_EXC_NAME] != name or not in_scope(idx, s, tops):
            continue
        if qualified and "." in row[S_EXC] and row[S_EXC].split(".", 1)[0] != qualified.split(".", 1)[0]:
            continue
        ts = idx.site_templates[s]
        if ts and all(idx.templates[t][T_LITCHARS] >= NO_TEXT for t in ts):
            continue  # its text is known and was not found in the message
        out.append(s)
    out.sort(key=lambda s: (idx.sites[s][S_PATH], idx.sites[s][S_LINE], idx.sites[s][S_ID]))
    return out


def class_note(exception: str, count: int, empty: bool) -> str:
    """The sentence that labels a class fallback."""
    name = exception.rsplit(".", 1)[-1]
    what = "The message is empty" if empty else "No template's text is in the message"
    places = "1 place raises" if count == 1 else f"{count} places raise"
    return (f"{what}: this is a fallback to the exception class. {places} {name} with a message "
            "that is a value or text passed in by a caller; paste the full traceback and its "
            "innermost frame decides.")

