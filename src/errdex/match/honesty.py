"""Two answers that name the right text but cannot say who raised it, made unconfident.

- **A site in the package's own test-support code** (``mako/testing/_config.py``, a ``tests/`` folder or a
  ``conftest.py`` shipped inside the package): only the library's test suite runs it, and that suite is
  also where its classes are raised by hand.  Test code is decided by location (a folder named ``tests``,
  ``test`` or ``testing`` below the package, a ``conftest.py``), not by file name: ``_bws_test.py`` is
  library code; a module named as unittest and pytest collect test modules (``test.py``, ``tests.py``,
  ``test_*.py``) below the top package is test code too (aenum's ``aenum/test.py``).
- **A text the exception class builds itself** (configobj's ``raise ReloadError()``, whose ``__init__``
  passes ``'reload failed, filename is not set.'``; ``raise InterpolationLoopError(key)``): the raise
  line writes none of the text, so anything raising the class prints it, the library's raise as much as
  a caller's ``raise ReloadError()`` (configobj's own tests do that).  Without a traceback the site is
  the likeliest, never a certainty; the frames of a traceback still decide.  ``index.build`` lists such
  templates under ``CLASS_TEXT`` (``class_text``): a template with literal text, of a class the package
  defines, none of whose literal text is written in the site's snippet (so not ``msg = "..."; raise
  X(msg)`` either, whose text is right above the raise).
  The same holds for a raise of a value (``raise error`` in xmlschema's ``raise_or_collect(validation,
  error)``, round 16): its texts are those its callers built, none written at the raise.
- **A codec error's text caught and raised again** (latexcodec 3.0.1's ``except UnicodeDecodeError as e:
  raise ValueError(e)``, whose text is CPython's ``'{e.encoding}' codec can't decode byte 0x.. in position
  ..: ..``, ``extract/stdlib_texts.codec_error_texts``): no word of it is the library's, and the same data
  fails with the same text in any decoder (the standard library's own ``UnicodeDecodeError`` under the
  library's call, a user's).  Without a traceback, the likeliest site, never a certain one.
- **A text found on a later line of the message** (xmlschema 4.3.2's ``failed decoding 'x' with
  XsdAtomicBuiltin(...):\n\nReason: invalid value 'x' for xs:base64Binary``, yamale 6.1.0's ``Schema error
  in file f.yaml\nInvalid schema expression: ...``): a template whose first literal text starts after a
  line break that ends a line of text, the lines above it unexplained or taken by a placeholder.  Whoever wrote those lines composed the
  message (an exception class's ``__str__``, a caller's ``f"{header}\n{e}"``), and may have taken the
  line from elsewhere than this raise; without a traceback it stays the likeliest site, not a certain one.
"""

from __future__ import annotations

import re

from errdex.match import lines as L
from errdex.match import verify as V
from errdex.match.indexdata import CLASS_TEXT, NO_TEXT, RECEIVED, S_LINE, S_PATH, T_SEGS, T_SITE, MatchIndex
from errdex.match.model import Match
from errdex.record import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from errdex.model import ErrorSite, Segment

TEST_FOLDERS = frozenset({"tests", "test", "testing"})
TEST_MODULES = frozenset({"test.py", "tests.py"})
_WS = re.compile(r"\s+")


def in_test_code(path: str) -> bool:
    """Whether a package-relative path is the package's test code: a folder named ``tests``, ``test`` or
    ``testing`` below the top package, a ``conftest.py``, or a test module below the top package by the
    name unittest and pytest collect (``test.py``, ``tests.py``, ``test_*.py``: aenum ships its suite as
    ``aenum/test.py``, whose test classes raise ``ValueError("I don't like", x)`` by hand)."""
    parts = path.split("/")
    name = parts[-1]
    module = len(parts) > 1 and (name in TEST_MODULES or (name.startswith("test_") and name.endswith(".py")))
    return name == "conftest.py" or module or any(p in TEST_FOLDERS for p in parts[1:-1])


def class_text(site: ErrorSite) -> bool:
    """Whether the site's text is its class's: a class of the site's own package, a template with literal
    text, and none of that text written in the snippet around the raise."""
    top = (site.module or site.path.replace("/", ".")).split(".")[0]
    if not top or not (site.exception_resolved.startswith(top + ".") or not raised_by_name(site.exception)):
        return False
    if not site.snippet:
        return False
    chunks = [s.text.strip() for t in site.templates for s in t.segments if s.is_literal]
    # each chunk's start up to a line break or a quote: how the source spells it even when it is split
    # over implicit concatenations or escapes (``"a " "b"``, ``\\n``)
    starts = [c.split("\n")[0].split('"')[0].split("'")[0][:24].strip() for c in chunks if len(c) >= NO_TEXT]
    starts = [c for c in starts if len(c) >= NO_TEXT]
    if starts and not any(c in site.snippet for c in starts):
        return True
    if len(site.templates) != 1 or any(len(c) >= _WRITTEN for c in starts if c in site.snippet):
        return False  # one text of the site's own, found at the raise only by a word as short as a name
    # the site's one text read by its runs between quotes: the run after a
    # quoted value counts (fs 2.4.16's ``path '{path}' contains back-references ...``, whose start before
    # the quote is ``path``, the very name the raise line passes: ``raise IllegalBackReference(path)``),
    # and a run as short as a name (``path``, ``namespace``) is what the code calls its value too
    own = [s.text.strip() for t in site.templates for s in t.segments if s.is_literal]
    # every run between quotes and line breaks counts (overpy's ``DataIncomplete("Resolve missing area is
    # disabled")`` writes its second run at the raise); punctuation at a run's ends may be a class's
    # ``__str__`` around the text (``{location}: {message}``)
    runs = [r.strip(_EDGE)[:24].strip() for c in own for r in _RUN_BREAK.split(c)]
    worded = [c for c in runs if len(c) >= _WRITTEN]
    joined = _CONCAT.sub("", site.snippet)  # implicit concatenations over lines read as one literal
    return bool(worded) and not any(c in site.snippet or c in joined for c in worded)


_CONCAT = re.compile(r"""['"]\s*[rRbBfFuU]{0,2}['"]""")  # the quotes between two implicitly joined literals
_RUN_BREAK = re.compile(r"[\n'\"]")
_EDGE = " \t:;,.-()[]<>"
_WRITTEN = 12  # characters of a run of text that say it is written at the raise, not a name the code uses


def constant_class_text(site: ErrorSite, segments: Iterable[Segment]) -> bool:
    """Whether one template of a site that is no class-text site as a whole (``class_text``) is its class's
    constant text all the same (the caller asks it of such a site): a class of the site's own package, literal
    text only, none of it written at the raise (pyramid's ``HTTPForbidden.explanation`` beside the default text
    ``secured_view`` writes)."""
    top = (site.module or site.path.replace("/", ".")).split(".")[0]
    segs = list(segments)
    if not top or not site.exception_resolved.startswith(top + ".") or not site.snippet \
            or not segs or not all(s.is_literal for s in segs):
        return False
    starts = [c.split("\n")[0].split('"')[0].split("'")[0][:24].strip() for c in (s.text.strip() for s in segs)]
    starts = [c for c in starts if len(c) >= NO_TEXT]
    return bool(starts) and not any(c in site.snippet for c in starts)


def raised_by_name(raised_as_written: str) -> bool:
    """Whether a raise names its class (``raise ParseError(...)``), not a value: ``raise error`` of a
    parameter or a local re-raises an instance some other code built, with the text that code gave it."""
    return raised_as_written.rsplit(".", 1)[-1][:1].isupper()


def on_later_line(segs: tuple[tuple[bool, str], ...], message: str) -> bool:
    """Whether a template's first literal text is found in ``message`` only after a line break that ends
    a line of text: one outside any bracket.

    A template beginning with a placeholder counts as well when the text its value took holds such a
    break (yamale's ``{key} is not a {kwtype}`` under ``Error validating data 'f.yaml' ...\n\t``), but
    not a repr printed over lines, which breaks inside its brackets (``array([[1, 2],\n [3, 4]])``).
    The message is normalized as the matcher does (each whitespace run one character), keeping in a
    parallel string which runs held a line break, so the found position tells the line it is on."""
    if not segs or "\n" not in message:
        return False
    lines = _WS.sub(lambda m: "\n" if "\n" in m.group() else " ", V.clip(message)).strip()
    v = V.verify(segs, lines.replace("\n", " "))
    first = v.spans[0] if v.exact and v.spans else None
    return first is not None and line_break_outside_brackets(lines[: first[0]])


_CODEC_TEXT = re.compile(r"'\x00' codec can't (?:de|en)code (?:byte 0x\x00|character \x00|bytes|characters)"
                         r" in position \x00(?:-\x00)?: \x00")


def caught_codec_text(segs: tuple[tuple[bool, str], ...]) -> bool:
    """Whether a template is CPython's text of a codec error whose encoding is a value (``'{e.encoding}'
    codec can't decode byte 0x{...} in position {e.start}: {e.reason}``): a caught ``UnicodeDecodeError``
    raised again as another class (latexcodec's ``raise ValueError(e)``), no text of the library's own."""
    shape = _WS.sub(" ", "".join(t if lit else "\x00" for lit, t in segs))
    return _CODEC_TEXT.fullmatch(re.sub("\x00+", "\x00", shape)) is not None


def line_break_outside_brackets(text: str) -> bool:
    """Whether ``text`` holds a line break at bracket depth 0 (a closing bracket never takes it below 0)."""
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == "\n" and depth == 0:
            return True
    return False


def unconfident(idx: MatchIndex, match: Match, site: int, frames: bool, message: str = "",
                template: int = -1) -> Match:
    """The top match, unconfident when it is the package's test code, or (with no traceback frames) a
    text its class builds or one found below lines it does not explain (``message``: the text as
    printed, ``template``: the top match's); a note says why."""
    if not match.confident:
        return match
    if in_test_code(match.path):
        note = (f"raised in the package's own test code ({match.path}), which its test suite runs and "
                f"where it raises its classes by hand")
        return replace(match, confident=False, tie_note=match.tie_note or note)
    own = idx.rewraps.get(CLASS_TEXT, ())
    # the text matched when known (a site may write one text at the raise and take another from its class)
    if not frames and own and (template in own if template >= 0 else any(t in own for t in idx.site_templates[site])):
        note = (f"the class {match.exception} builds this text itself: any code raising it prints the "
                f"same; a traceback's frames say whether it was this raise") if raised_by_name(match.exception) \
            else (f"this line raises an exception built elsewhere (`{match.exception}`), whose class wrote this "
                  f"text: any code raising that class prints the same; a traceback's frames decide")
        return replace(match, confident=False, tie_note=match.tie_note or note)
    if not frames and template >= 0 and caught_codec_text(idx.templates[template][T_SEGS]):
        note = ("the text is the standard library's codec error, caught and raised again here: the same data "
                "fails with the same text wherever it is decoded or encoded; a traceback's frames decide")
        return replace(match, confident=False, tie_note=match.tie_note or note)
    if not frames and (via := received_elsewhere(idx, site)):
        note = (f"{via} raises, as it is, an exception object this package received (deserialized, returned by a "
                f"call, kept by a setter): this text may have reached the caller through there; a traceback's "
                f"innermost frame decides")
        return replace(match, confident=False, tie_note=match.tie_note or note)
    if not frames and L.quotes_stack(message):
        note = ("the message goes on with a formatted stack (frames without a header): a handler composed it "
                "around a text it caught, which may have come from this raise or another; a traceback's frames "
                "decide")
        return replace(match, confident=False, tie_note=match.tie_note or note)
    if not frames and template >= 0 and on_later_line(idx.templates[template][T_SEGS], message):
        note = ("the text is on a later line of the message, below lines this raise does not write: the code "
                "that composed the message may have taken it from elsewhere; a traceback's frames decide")
        return replace(match, confident=False, tie_note=match.tie_note or note)
    return match


def received_elsewhere(idx: MatchIndex, site: int) -> str:
    """``path:line`` of a raise of the site's package that raises an exception object it received whole
    (``indexdata.RECEIVED``: Pyro5's client ``raise data`` of the exception its server raised and sent back,
    a stream reader's ``raise self._exception``), "" for none: the message alone says who wrote the text,
    not whether it was raised there or received and raised again by that line."""
    pkg = idx.sites[site][S_PATH].split("/", 1)[0]
    for t in idx.rewraps.get(RECEIVED, ()):
        row = idx.sites[idx.templates[t][T_SITE]]
        if idx.templates[t][T_SITE] != site and row[S_PATH].split("/", 1)[0] == pkg:
            return f"{row[S_PATH]}:{row[S_LINE]}"
    return ""
