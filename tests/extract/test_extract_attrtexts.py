"""Texts a package sets on an object whose class raises them: nibabel 5.4.2's header checks build ``rep =
Report(HeaderDataError)``, set ``rep.problem_msg = f'data code {code} not supported'`` and return it;
``Report.log_raise`` raises ``self.error(self.problem_msg)``, read as ``{problem_msg}`` alone (issue 17's round
19, 9 events).  The texts set on instances the package builds are that raise's (``extract/attrtexts.py``);
an attribute set on ``self``, one no raise of the class reads, or one set on an object of another class adds
nothing."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

RUNNERS = '''
    class Report:
        def __init__(self, error=Exception, problem_level=0, problem_msg="", fix_msg=""):
            self.error = error
            self.problem_level = problem_level
            self.problem_msg = problem_msg
            self.fix_msg = fix_msg

        def log_raise(self, logger, error_level=40):
            if self.problem_level >= error_level and self.error:
                raise self.error(self.problem_msg)


    class Note:
        def __init__(self, note_msg=""):
            self.note_msg = note_msg

        def show(self):
            raise RuntimeError(self.note_msg)
'''

CHECKS = '''
    from .runners import Note, Report


    class HeaderDataError(Exception):
        pass


    def check_datatype(hdr, code):
        rep = Report(HeaderDataError)
        if code not in hdr.codes:
            rep.problem_level = 40
            rep.problem_msg = f"data code {code} not recognized"
        elif code in hdr.unsupported:
            rep.problem_level = 40
            rep.problem_msg = f"data code {code} not supported"
        rep.fix_msg = "not attempting fix"
        return hdr, rep


    def annotate(hdr):
        note = Note()
        note.problem_msg = "set on a note, not a report"
        return note
'''


def test_the_texts_set_on_instances_are_the_raises(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "runners.py").write_text(textwrap.dedent(RUNNERS))
    (tmp_path / "pkg" / "checks.py").write_text(textwrap.dedent(CHECKS))
    result = extract_dir(tmp_path)
    raised = [t.render() for t in site_in(result, "pkg/runners.py", "Report.log_raise").templates]
    assert raised == ["{problem_msg}", "data code {code} not recognized", "data code {code} not supported"]
    # `fix_msg` is set too, but no raise of the class reads it; a Note's `problem_msg` is not a Report's
    assert [t.render() for t in site_in(result, "pkg/runners.py", "Note.show").templates] == ["{self.note_msg}"]
