"""A helper building a message from sections (mockito 2.0.4, round 41: ``error_message_for_unmatched_invocation(
invocation: MatchingInvocation)`` sets ``wanted_section = f"\\nWanted but not invoked:\\n\\n    {invocation}\\n"``,
then ``instead_section`` on three branches, ``f"\\nInstead got:\\n\\n    {content}\\n"``, ``f"\\nStubbed are:..."``
or ``""``, and returns ``"%s%s\\n" % (wanted_section, instead_section)``; ``Times.verify`` raises
``VerificationError(msg)`` of it): a parameter annotated with the package's class is its text as passed, shown by
that class's ``__str__`` (``msgvalue._as_passed``), and a local set on branches to sections of text reads as each
(``msgvalue._sections``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

INVOCATION = '''
    from __future__ import annotations


    class MatchingInvocation:
        def __init__(self, mock, method_name: str, params: tuple) -> None:
            self.mock = mock
            self.method_name = method_name
            self.params = params

        def __repr__(self) -> str:
            params = ", ".join(repr(p) for p in self.params)
            return "%s(%s)" % (self.method_name, params)
'''

VERIFICATION = '''
    from __future__ import annotations

    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        from .invocation import MatchingInvocation


    class VerificationError(AssertionError):
        pass


    def error_message_for_unmatched_invocation(
        invocation: MatchingInvocation
    ) -> str:
        invocations = [
            invoc for invoc in invocation.mock.invocations
            if invoc.method_name == invocation.method_name
        ]
        wanted_section = f"\\nWanted but not invoked:\\n\\n    {invocation}\\n"
        if invocations:
            content = "\\n    ".join(map(str, invocations))
            instead_section = f"\\nInstead got:\\n\\n    {content}\\n"
        elif invocation.mock.stubbed_invocations:
            content = "\\n    ".join(sorted(map(str, invocation.mock.stubbed_invocations)))
            instead_section = f"\\nStubbed are:\\n\\n    {content}\\n"
        else:
            instead_section = ""

        return "%s%s\\n" % (wanted_section, instead_section)


    class Times:
        def __init__(self, wanted_count: int) -> None:
            self.wanted_count = wanted_count

        def verify(self, invocation: MatchingInvocation, actual_count: int) -> None:
            if actual_count == 0:
                msg = error_message_for_unmatched_invocation(invocation)
                raise VerificationError(msg)
'''


def _texts(tmp_path: Path, verification: str = VERIFICATION) -> list[str]:
    pkg = tmp_path / "mocks"
    pkg.mkdir()
    (pkg / "__init__.py").touch()
    (pkg / "invocation.py").write_text(textwrap.dedent(INVOCATION))
    (pkg / "verification.py").write_text(textwrap.dedent(verification))
    site = site_in(extract_dir(tmp_path), "mocks/verification.py", "Times.verify")
    return [t.render() for t in site.templates]


def test_each_section_of_the_helper_text(tmp_path: Path) -> None:
    texts = _texts(tmp_path)
    wanted = "\nWanted but not invoked:\n\n    {self.method_name}({params})\n"
    assert wanted + "\nInstead got:\n\n    {content}\n\n" in texts
    assert wanted + "\nStubbed are:\n\n    {content}\n\n" in texts
    assert wanted + "\n" in texts


def test_a_section_of_values_alone_is_no_text(tmp_path: Path) -> None:
    # branches of values without words of their own (`suffix = f"{a}"` / `suffix = ""`) stay one placeholder
    src = VERIFICATION.replace('f"\\nInstead got:\\n\\n    {content}\\n"', 'f"{content}"').replace(
        'f"\\nStubbed are:\\n\\n    {content}\\n"', 'f"{content}"')
    assert "Instead got" not in src
    texts = _texts(tmp_path, src)
    assert texts == ["\nWanted but not invoked:\n\n    {self.method_name}({params})\n{instead_section}\n"]


def test_a_choice_of_two_texts_without_an_empty_one_is_no_optional_section(tmp_path: Path) -> None:
    # parver's `fix = f"omit the separator and use {tag!r}"` / `fix = "omit the separator"`: no section left out
    src = VERIFICATION.replace('instead_section = ""', 'instead_section = "none"')
    texts = _texts(tmp_path, src)
    assert texts == ["\nWanted but not invoked:\n\n    {self.method_name}({params})\n{instead_section}\n"]
