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

**Narrowing a large group** (``narrow``).  A class raised from many places with text a
caller passes in (a validator's ``error=`` override, a form's custom message) gives a group
too large to act on.  When it holds more than ``GROUP_LIMIT`` sites, what the sites have in
common with the input picks the ones reported: a printed list or dict is raised by the
sites whose every template is a bare value (they raise what they collected); other text is
raised by the sites that share the most distinctive words with it (words of their other,
default templates and of their function's qualified name, weighted by rarity).  The note
says how many other sites raise the class.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from errdex.match.argstuple import printed_container
from errdex.match.index import (
    S_EXC,
    S_EXC_NAME,
    S_ID,
    S_LINE,
    S_PATH,
    S_QUAL,
    T_LITCHARS,
    T_SEGS,
    T_SITE,
    MatchIndex,
    template_words,
    words,
)
from errdex.match.indexdata import (
    BY_CAUGHT,
    HELD_CLASS,
    KEY_ERROR,
    LOOSE,
    PICKED_CLASS,
    Segs,
    copied_class,
    looked_up_class,
)
from errdex.match.indexdata import NO_TEXT as NO_TEXT
from errdex.match.lines import BUILTIN_EXCEPTIONS, exception_line
from errdex.match.verify import container_repr, element_of

CLASS_SCORE = 0.3  # a class fallback's score: a lead, never a confident answer
MAX_SCAN = 200_000  # sites looked at for a class (the whole of a large catalog's latest snapshots)
GROUP_LIMIT = 10  # a group larger than this is narrowed by what its sites share with the input
_SHORT_WORD = 3  # words shorter than this ("is", "an", "of") say nothing about which site it was
_VALUE_CHARS = 80  # a message longer than this is no lone value
_NEAR_BEST = 0.5  # a site sharing at least this share of the best site's word weight stays in the group
NO_DETAIL = "<no detail available>"  # CPython's last line of a SyntaxError whose msg is None (``untold``)


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


def untold(message: str) -> bool:
    """Whether the printed message is CPython's marker for no text at all: ``traceback`` prints a
    ``SyntaxError``'s ``msg`` attribute, not its ``str()``, and ``<no detail available>`` when it is None
    (rdflib's ``class BadSyntax(SyntaxError)`` keeps its text in its own fields and its ``__str__``, never
    calling ``SyntaxError.__init__``).  The raise's text is then not in the input, whatever it was."""
    return message.strip() == NO_DETAIL


def class_sites(idx: MatchIndex, exception: str, tops: frozenset[str], requoted: bool = False,
                told: bool = True) -> list[int]:
    """Sites (in scope) raising the printed class whose templates have no literal text, in path/line order.

    The class is compared by its name and, when the input qualifies it, by the
    resolved class's module too; a builtin class with no scope is too common
    to say anything and gives nothing.  When the text was not printed (not ``told``: ``untold``), no
    template can be checked: every site naming the class is one, and the raises of a class looked up at
    run time are only the answer when no site names it.
    """
    name = exception.rsplit(".", 1)[-1]
    if not name or (not tops and "." not in exception):
        return []
    qualified = exception if "." in exception else ""
    out: list[int] = []
    # the sites naming the common base of a table's classes, this one among them (``indexdata.PICKED_CLASS``)
    picked = {idx.templates[t][T_SITE] for t in idx.rewraps.get(PICKED_CLASS + name, ())}
    for s, row in enumerate(idx.sites[:MAX_SCAN]):
        if (row[S_EXC_NAME] != name and s not in picked) or not in_scope(idx, s, tops):
            continue
        if qualified and "." in row[S_EXC] and row[S_EXC].split(".", 1)[0] != qualified.split(".", 1)[0]:
            continue
        ts = idx.site_templates[s]
        if told and ts and all(idx.templates[t][T_LITCHARS] >= NO_TEXT for t in ts):
            continue  # its text is known and was not found in the message
        out.append(s)
    out.sort(key=lambda s: (idx.sites[s][S_PATH], idx.sites[s][S_LINE], idx.sites[s][S_ID]))
    # a variable's value is any class: only for a class surely printed (`Error: text` may be a tag)
    surely = bool(qualified) or name in BUILTIN_EXCEPTIONS
    if requoted and surely:
        # the text quotes its own class's last line: caught, rewritten and raised again (`requotes`); the
        # raises of a caught error held in a variable come first
        loose = looked_up(idx, qualified, tops, loose=True)
        return [*loose, *(s for s in out if s not in loose)]
    if out and not told:
        return out
    return out + looked_up(idx, qualified, tops, loose=not out and surely)


def requotes(exception: str, message: str) -> bool:
    """Whether a message quotes, on a line after its first, the printed last line of its own class (glom's
    ``error raised while processing, details below. ... glom.core.PathAccessError: could not access ...``):
    the error was caught, its text rewritten around its own traceback's last line, and raised again."""
    name = exception.rsplit(".", 1)[-1]
    if not name:
        return False
    for ln in message.split("\n")[1:]:
        found = exception_line(ln.strip())
        if found is not None and found[0].rsplit(".", 1)[-1] == name:
            return True
    return False


def opens(segs: Segs, first_line: str) -> bool:
    """Whether a template's first literal text (of a few characters at least) is on the message's first
    line: the text that quotes a traceback is this template's own (pydicom's ``f"With tag {tag} got
    exception: {exc}\\n{traceback.format_exc()}"``), not the quoted last line's."""
    lit = next((t.strip() for is_lit, t in segs if is_lit and len(t.strip()) >= NO_TEXT), "")
    return bool(lit) and lit.lower() in first_line.lower()


def at_run_time(idx: MatchIndex, site: int) -> bool:
    """Whether a site raises a class looked up at run time or a value held in a variable."""
    exc = idx.sites[site][S_EXC]
    held = exc.removeprefix("self.")  # (an exception an instance keeps: `raise self._exception`)
    return looked_up_class(exc) or (held.isidentifier() and held.lstrip("_")[:1].islower()) or copied_class(exc)


def foreign_package(idx: MatchIndex, exception: str) -> bool:
    """A qualified class whose top-level name is no package of the catalog (a test suite's own,
    ``tests.cfgv_test.Error``, or another distribution's, ``distutils.errors.DistutilsSetupError``)."""
    own = exception.split(".", 1)[0]
    return "." in exception and not any(row[S_PATH].split("/", 1)[0] == own for row in idx.sites[:MAX_SCAN])


def foreign_class(idx: MatchIndex, exception: str) -> bool:
    """A class of no package of the catalog (``foreign_package``) that no site raises by that name either:
    jsonargparse's ``raise argparse.ArgumentError(None, message)`` names the standard library's class, and its
    sites answer that class, not a text found at a site raising another."""
    return foreign_package(idx, exception) and not any(row[S_EXC] == exception for row in idx.sites[:MAX_SCAN])


def held_class(idx: MatchIndex) -> frozenset[int]:
    """The sites calling a class a value holds (``raise limit.rangeexception(...)``, ``raise
    messages.Error.from_json(jobj)`` of a factory the extractor could not name): like ``at_run_time``'s,
    they may raise any class."""
    return frozenset(idx.templates[t][T_SITE] for t in idx.rewraps.get(HELD_CLASS, ()))


def looked_up(idx: MatchIndex, qualified: str, tops: frozenset[str], loose: bool = False) -> list[int]:
    """Sites (in scope, of the printed class's package when it is qualified) that raise a class looked up
    at run time, with a message of no literal text: ``raise self.mapping[code](*args, **kwargs)``
    (werkzeug's ``abort(404)``), ``raise ERRORS[status](msg)``.  They may raise any class, the printed one
    too, so a class fallback lists them after the sites that name it.  With ``loose`` (no site names the
    class), also the raises of a value held in a variable outside any ``except`` (jsonschema's
    ``for error in self.iter_errors(...): raise error``: its ``ValidationError`` is built where it is
    yielded, and raised by no site that names it), and the calls of a class a value holds
    (``raise thrownexception(thrownmessage)``, ``raise limit.rangeexception(limit.rangeerrorstring)``: the
    caller's class, passed as a parameter or kept in a record's field, with the caller's text) whenever the
    printed class is qualified (``Warning: ...`` may be a tag, not a class a caller passed): a class some
    sites name with no text of their own may be passed to such a raise too (docopt's ``DocoptExit``).  A
    qualified class of no package the catalog holds (a test's own, ``tests.test_flow.MyError``: funcy's
    ``raise exception_or_class(*args, **kwargs)``, pyrtl's ``raise exp`` of an instance ``rtl_assert`` kept)
    was handed in by the user's code: such raises of every package in scope."""
    keys = ((LOOSE,) if loose else ()) + ((HELD_CLASS,) if qualified else ())
    held = {idx.templates[t][T_SITE] for key in keys for t in idx.rewraps.get(key, ())}
    # a class of the user's own code (`tests.test_flow.MyError`, `__main__.Boom`), of no package the catalog
    # holds: handed to the package and raised by one of these sites, whichever package's
    own = qualified.split(".", 1)[0]
    foreign = foreign_package(idx, qualified)
    out: list[int] = []
    for s, row in enumerate(idx.sites[:MAX_SCAN]):
        if (not looked_up_class(row[S_EXC]) and s not in held) or not in_scope(idx, s, tops):
            continue
        if qualified and not foreign and row[S_PATH].split("/", 1)[0] != own:
            continue
        # a loose raise has a bare value among its texts (the others its callers' own, not found here)
        if s in held or all(idx.templates[t][T_LITCHARS] < NO_TEXT for t in idx.site_templates[s]):
            out.append(s)
    return sorted(out, key=lambda s: (idx.sites[s][S_PATH], idx.sites[s][S_LINE], idx.sites[s][S_ID]))


def narrow(idx: MatchIndex, sites: list[int], text: str) -> list[int]:
    """The sites of a class fallback's group that the input points to (all of them when the group is
    small or nothing tells them apart), in the group's order."""
    if len(sites) <= GROUP_LIMIT or not text:
        return sites
    if container_repr(text):
        bare = [s for s in sites if _bare(idx, s)]
        return bare or sites
    mine = {w for w in words(text) if len(w) >= _SHORT_WORD}
    if not mine:
        return sites
    weight = {s: sum(idx.idf(w) for w in mine & _site_words(idx, s)) for s in sites}
    best = max(weight.values())
    if best <= 0.0:
        return sites
    return [s for s in sites if weight[s] >= best * _NEAR_BEST]


def _bare(idx: MatchIndex, site: int) -> bool:
    """Every template of the site is a bare value (``raise ValidationError(errors)``)."""
    ts = idx.site_templates[site]
    return not ts or all(idx.templates[t][T_LITCHARS] < NO_TEXT for t in ts)


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _site_words(idx: MatchIndex, site: int) -> set[str]:
    """The distinctive words of a site: its templates' literal words and its qualified name's parts
    (``Email.__call__`` -> ``email``; ``get_source`` -> ``get``, ``source``)."""
    out = {w for t in idx.site_templates[site] for w in template_words(idx.templates[t][T_SEGS])}
    out.update(words(_CAMEL.sub(" ", idx.sites[site][S_QUAL]).replace("_", " ").replace(".", " ")))
    return {w for w in out if len(w) >= _SHORT_WORD}


def collected_class(idx: MatchIndex, ranked: list[tuple[int, int]], text: str) -> tuple[str, int]:
    """A message with no class printed that is a printed list or dict of other errors' messages
    (``{1: ['Not a valid string.']}``): the class of the best site (of ``ranked``, the best
    candidates as (template, site)) whose template is one of its elements, and that site, since code
    that collects errors raises them again as one error of their class; ("", -1) when it is no such
    message or the class is a builtin's."""
    if not container_repr(text):
        return "", -1
    for tno, site in ranked:
        if tno >= 0 and element_of(idx.templates[tno][T_SEGS], text):
            exc = idx.sites[site][S_EXC]
            return (exc, site) if "." in exc else ("", -1)
    return "", -1


def value_sites(idx: MatchIndex, tops: frozenset[str], text: str) -> list[int]:
    """A message with no class printed that is one value and nothing else (``'akey'``, ``3``: no space
    in it), in a scope (a catalog of one library, ``--repo``): the sites whose every template is a lone
    value (``raise KeyError(key)``); only those printing a ``repr`` when the value is quoted (a ``KeyError``
    prints its key's, a subclass of it too), none of a ``KeyError`` when it is a bare word (a ``str`` key
    would be quoted).  A quoted value is also the text of a ``KeyError`` that a lookup raised and a site
    caught and raised again as its own (``except KeyError as ex: raise PathNotFound(str(ex))``: the key's
    ``repr``), though such a site has other texts too (those of the library's own raises its ``try``
    reaches)."""
    container = printed_container(text)  # a list or dict printed whole is one value, spaces and all
    if not tops or not text or (not container and (len(text) > _VALUE_CHARS or any(c.isspace() for c in text))):
        return []  # (a value says nothing of which library raised it: only within a known one)
    kept = {t for t in idx.rewraps.get(LOOSE, ()) if not idx.templates[t][T_SEGS]}  # `raise self._exception`
    # (a kept object raises any text, whatever texts its setter's callers in the package hand it: ``setterargs``)
    out = [s for s, row in enumerate(idx.sites[:MAX_SCAN]) if idx.site_templates[s] and in_scope(idx, s, tops)
           and (all(_lone(idx, t) or t in kept for t in idx.site_templates[s])
                or any(t in kept for t in idx.site_templates[s]))]
    if container:  # (a list or a dict is no key: no KeyError printed it)
        return sorted((s for s in out if not _key_error(idx, s)),
                      key=lambda s: (idx.sites[s][S_PATH], idx.sites[s][S_LINE], idx.sites[s][S_ID]))
    if text[:1] in "'\"" and text[-1:] == text[:1] and len(text) >= 2:
        quoted = [s for s in out if _key_error(idx, s) or any(_lone(idx, t, "r") for t in idx.site_templates[s])]
        forwarded = {idx.templates[t][T_SITE] for t in idx.rewraps.get(BY_CAUGHT + "KeyError", ()) if _lone(idx, t)}
        quoted += [s for s in forwarded if s not in quoted and s < MAX_SCAN and in_scope(idx, s, tops)]
        out = quoted or out
    elif text.isidentifier():  # `text`: a KeyError prints a str key quoted, so no KeyError printed it
        out = [s for s in out if not _key_error(idx, s)] or out
    return sorted(out, key=lambda s: (idx.sites[s][S_PATH], idx.sites[s][S_LINE], idx.sites[s][S_ID]))


def _key_error(idx: MatchIndex, site: int) -> bool:
    """The site raises ``KeyError`` or a package's subclass of it (``indexdata.KEY_ERROR``)."""
    name = idx.sites[site][S_EXC_NAME]
    return name == "KeyError" or (KEY_ERROR + name) in idx.rewraps


def _lone(idx: MatchIndex, tno: int, conversion: str | None = None) -> bool:
    """A template that is one placeholder and no text (with that conversion, when given)."""
    segs = idx.templates[tno][T_SEGS]
    return len(segs) == 1 and not segs[0][0] and (conversion is None or segs[0][1].endswith("!" + conversion))


CATCH_ALL = ("Exception", "BaseException")


def caught_sites(idx: MatchIndex, tops: frozenset[str], any_class: bool = True) -> list[int]:
    """In a scope (a catalog of one library, ``--repo``), the handlers that raise a caught exception's text
    alone as their own: a message no template of the library explains is a text the library did not write,
    and these are where such a text surfaces.

    - Handlers that catch everything (pyserde 0.34.0's ``except Exception as e: raise SerdeError(e) from
      None``): any error raised inside them (a ``TypeError`` of the user's callable, a text of code the
      library generates);
    - handlers of one class (issue 17's thirty-sixth round: 12 libraries of six rounds): the text of another
      package or of the interpreter, raised through the library (textfsm 2.1.0's ``except re.error as exc:
      raise TextFSMTemplateError(str(exc))``, distlib's ``tarfile.FilterError``, cmd2's ``shlex`` ``ValueError``,
      rlp's ``UnicodeDecodeError``, python-jsonschema-objects' ``jsonschema.ValidationError``);
    - raises of an exception object built elsewhere (``indexdata.loose_raise``: parglare 0.22.0's ``error =
      self.errors[-1]; raise error``, cmd2's ``raise error``, telnetlib3's ``raise self._exception`` that
      ``set_exception(exc)`` kept): the text is whatever the code that built it wrote.

    Those that catch everything come first (they surface any text), then the others in path/line order;
    ``any_class`` false keeps those that catch everything alone."""
    if not tops:
        return []
    anything = {idx.templates[t][T_SITE] for name in CATCH_ALL for t in idx.rewraps.get(BY_CAUGHT + name, ())
                if _lone(idx, t)}
    # (a loose raise of the value itself has a lone value or, `raise self._exception`, no template at all)
    every = {idx.templates[t][T_SITE] for key, ts in idx.rewraps.items() if key.startswith(BY_CAUGHT) or key == LOOSE
             for t in ts if _lone(idx, t) or (key == LOOSE and not idx.templates[t][T_SEGS])} if any_class else anything
    return sorted((s for s in every if in_scope(idx, s, tops)),
                  key=lambda s: (s not in anything, idx.sites[s][S_PATH], idx.sites[s][S_LINE], idx.sites[s][S_ID]))


_RUN = 3  # consecutive words of a template's literal text that, found in a message, make it that template's wording


def shares_run(segs: Segs, text: str) -> bool:
    """Whether some literal segment of a template has ``_RUN`` consecutive words that the text has too."""
    mine = " " + " ".join(words(text)) + " "
    for lit, part in segs:
        ws = words(part) if lit else []
        if any(" " + " ".join(ws[i : i + _RUN]) + " " in mine for i in range(len(ws) - _RUN + 1)):
            return True
    return False


def caught_note(count: int) -> str:
    """The sentence that labels a fallback to the raises of a text the library did not write."""
    places = "1 place raises" if count == 1 else f"{count} places raise"
    return (f"No template's text is in the message: {places} a text the library did not write, a caught "
            "exception's as its own (`except re.error as e: raise Error(str(e))`, `except Exception as e: raise "
            "Error(e)`) or an exception built elsewhere (`raise error`); the message is what was raised inside "
            "(perhaps by another package), and the full traceback shows where.")


def value_note(count: int) -> str:
    """The sentence that labels a value fallback."""
    places = "1 place raises" if count == 1 else f"{count} places raise"
    return (f"The message is a single value and no template's text: {places} a message that is only a "
            "value (`raise KeyError(key)`); the exception's class (the last line) or the full traceback decides.")


def class_note(exception: str, count: int, empty: bool, total: int = 0, looked: int = 0, told: bool = True) -> str:
    """The sentence that labels a class fallback (``total``: the class's sites before narrowing)."""
    name = exception.rsplit(".", 1)[-1]
    if not told:
        places = "1 place raises" if count == 1 else f"{count} places raise"
        return (f"The message was not printed (`{NO_DETAIL}`: Python shows a SyntaxError's `msg`, here None, "
                f"not its text): this is a fallback to the exception class. {places} {name}; paste the full "
                "traceback and its innermost frame decides.")
    what = "The message is empty" if empty else "No template's text is in the message"
    places = "1 place raises" if count == 1 else f"{count} places raise"
    narrowed = ""
    if total > count:
        narrowed = (f" (of {total} that raise it with a value or a caller's text, these are the ones whose "
                    "text or function shares the most with the message)")
    lookup = ""
    if looked:
        lookup = (f" ({looked} of them raise a class looked up at run time, `raise mapping[code](...)`, "
                  "or an error built elsewhere, `raise error`: it may be this one)")
    return (f"{what}: this is a fallback to the exception class. {places} {name} with a message "
            f"that is a value or text passed in by a caller{narrowed}{lookup}; paste the full traceback and "
            "its innermost frame decides.")



def foreign_note(count: int, named: bool) -> str:
    """The sentence that labels a fallback to the raises of another package's class (``foreign.py``)."""
    places = "1 place raises" if count == 1 else f"{count} places raise"
    how = "with the value the message quotes" if named else "with a value of their own"
    return (f"No template's text is in the message: {places} a class of another package {how}; that package "
            "writes the text around it (`raise InvalidClaimError(\"nonce\")` prints `invalid_claim: Invalid claim: "
            "'nonce'`), which errdex did not index; paste the last line to have its class.")
