"""A handler that edits the caught text and raises the class again with the caught traceback, under a class
whose ``__str__`` frames its first argument (pycaption 2.3.14, round 36)::

    class CaptionReadError(Exception):
        def __str__(self):
            return f"{self.__class__.__name__}({self.args[0]})"

    except CaptionReadError as e:
        new_msg = f"{e.args[0]} (line {line_index})"
        tb = sys.exc_info()[2]
        raise type(e)(new_msg).with_traceback(tb) from None

The traceback's innermost frame is the original raise: the message ``CaptionReadError(End timestamp is not
greater than start timestamp. (line 2))`` is that raise's text with the edit inside the class's frame.  The
handler is an edited re-raise (``indexdata.edited_reraise``: ``tb`` is bound to the caught traceback), and the
text with the handler's added part cut out is the original's whole text (``match/edited.cut_texts``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from matchkit import indexed_catalog

from errdex.catalog.base import Catalog
from errdex.match import explain
from errdex.match.edited import cut_texts
from errdex.match.indexdata import edited_reraise, traceback_locals

EXCEPTIONS = '''
class CaptionReadError(Exception):
    """Generic error raised when reading a caption file fails."""

    def __str__(self):
        return f"{self.__class__.__name__}({self.args[0]})"


class CaptionReadSyntaxError(CaptionReadError):
    """Error raised when a caption file has syntax errors."""
'''

READER = '''
import re
import sys

from .exceptions import CaptionReadError, CaptionReadSyntaxError

TIMING_LINE_PATTERN = re.compile(r"^(\\\\S+)\\\\s+-->\\\\s+(\\\\S+)")


class VTTReader:
    def read(self, content):
        captions = []
        last_start_time = 0
        for line_index, line in enumerate(content.splitlines(), 1):
            if "-->" in line:
                start, end = self._read_timing(line, line_index, last_start_time)
                captions.append((start, end))
                last_start_time = start
        return captions

    def _read_timing(self, line, line_index, last_start_time):
        try:
            return self._parse_timing_line(line, last_start_time)
        except CaptionReadError as e:
            new_msg = f"{e.args[0]} (line {line_index})"
            tb = sys.exc_info()[2]
            raise type(e)(new_msg).with_traceback(tb) from None

    def _validate_timings(self, start, end, last_start_time):
        if start > end:
            raise CaptionReadError("End timestamp is not greater than start timestamp.")
        if start < last_start_time:
            raise CaptionReadError("Start timestamp is not greater than or equal to start timestamp of previous cue.")

    def _parse_timing_line(self, line, last_start_time):
        m = TIMING_LINE_PATTERN.search(line)
        if not m:
            raise CaptionReadSyntaxError("Invalid timing format.")
        start = float(m.group(1))
        end = float(m.group(2))
        self._validate_timings(start, end, last_start_time)
        return start, end
'''


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    yield from indexed_catalog(tmp_path_factory, "framededit", "vttkit",
                               {"__init__.py": "", "exceptions.py": EXCEPTIONS, "reader.py": READER})


@pytest.mark.parametrize(("text", "inner"), [
    ("vttkit.exceptions.CaptionReadError: CaptionReadError(End timestamp is not greater than start timestamp. "
     "(line 2))", "VTTReader._validate_timings"),
    ("CaptionReadError(Start timestamp is not greater than or equal to start timestamp of previous cue. (line 5))",
     "VTTReader._validate_timings"),
    ("vttkit.exceptions.CaptionReadSyntaxError: CaptionReadSyntaxError(Invalid timing format. (line 4))",
     "VTTReader._parse_timing_line"),
])
def test_the_original_raise_ranks_above_the_handler_that_edited_its_text(lib: Catalog, text: str,
                                                                         inner: str) -> None:
    r = explain(lib, text)
    top = r.matches[0]
    assert top.qualname == inner and top.method == "exact" and top.tied_count == 0
    handler = next(m for m in r.matches if m.qualname == "VTTReader._read_timing")
    assert handler.score < top.score and not (r.confident and r.matches[0] is handler)


def test_the_handler_is_an_edited_re_raise_through_its_local_traceback() -> None:
    segs = ((False, "e.args[0]"), (True, " (line "), (False, "line_index"), (True, ")"))
    raise_line = "            raise type(e)(new_msg).with_traceback(tb) from None"
    held = traceback_locals(['        except CaptionReadError as e:', '            new_msg = f"..."',
                             "            tb = sys.exc_info()[2]"])
    assert held == {"tb"} and edited_reraise(raise_line, segs, held)
    assert not edited_reraise(raise_line, segs)  # a `tb` of unknown origin
    assert traceback_locals(["        _, _, tb = sys.exc_info()"]) == {"tb"}  # cfgv 3.5.0's spelling
    assert traceback_locals(["        trace = err.__traceback__"]) == {"trace"}
    assert not traceback_locals(["        tb = make_traceback()"])


def test_the_added_part_is_cut_out_inside_the_class_frame() -> None:
    segs = ((False, "e.args[0]"), (True, " (line "), (False, "line_index"), (True, ")"))
    assert cut_texts(segs, "Error(Bad thing. (line 2))") == ["Error(Bad thing.)"]
    prefix = ((True, "in "), (False, "where"), (True, ": "), (False, "str(e)"))
    assert cut_texts(prefix, "Error(in cue 3: Bad thing.)") == ["Error(Bad thing.)"]
    assert cut_texts(segs, "Error(Bad thing.)") == []  # no added part in the text
    open_end = ((False, "e.args[0]"), (True, " while parsing "), (False, "name"))
    assert cut_texts(open_end, "Bad thing. while parsing Foo") == []  # its extent is not known
