"""A list built by ``append`` and raised as it is (issue 17's fifty-seventh round): pyOpenSSL 26.4.0's
``exception_from_error_queue`` does ``errors = []``, appends a ``(lib, func, reason)`` tuple per queued error in
a ``while True`` loop and ``raise exception_type(errors)``, which prints ``[('SSL routines', '', 'no cipher
match')]``.  The raise had the templates ``[]`` and ``{errors}`` (the list grown: unknown), and no template had
the brackets every non-empty list prints.  A local grown by ``append`` / ``extend`` / ``insert(0, x)`` from a
list display, on every branch that reaches the raise, reads as ``[{errors}]`` (``extract/messages.grown_list``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

UTIL = '''
    from cryptography.hazmat.bindings.openssl.binding import lib


    def text(charp):
        return charp.decode("utf-8") if charp else ""


    def exception_from_error_queue(exception_type):
        errors = []

        while True:
            error = lib.ERR_get_error()
            if error == 0:
                break
            errors.append(
                (
                    text(lib.ERR_lib_error_string(error)),
                    text(lib.ERR_func_error_string(error)),
                    text(lib.ERR_reason_error_string(error)),
                )
            )

        raise exception_type(errors)


    def collect_first(errors_in):
        problems = []
        for e in errors_in:
            problems.append(e)
        raise ValueError(problems[0])


    def described(names):
        missing = list(names)
        missing.append("x")
        raise KeyError(missing)


    def headed(items):
        lines = ["errors:"]
        for item in items:
            lines.append(f"- {item}")
        raise ValueError("\\n".join(lines))
'''


def _templates(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "_util.py").write_text(textwrap.dedent(UTIL))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_a_list_grown_by_append_is_shown_between_brackets(tmp_path: Path) -> None:
    # no error queued: `[]`; else the list's repr, its items unknown
    assert _templates(tmp_path)["exception_from_error_queue"] == ["[]", "[{errors}]"]


def test_only_the_list_itself_is_shown_so(tmp_path: Path) -> None:
    found = _templates(tmp_path)
    assert found["collect_first"] == ["{problems[0]}"]  # an item of it: any text
    assert found["described"] == ["{missing}"]  # grown from a call (`list(names)`): not known to be a list display
    assert "errors:\n- {item}" in found["headed"]  # joined: its items, as before
