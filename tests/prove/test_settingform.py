"""The proven setting given where the program declares it (``prove/settingform.py``): rating 12 on 916 asked for
the `context_settings={...}` form with `@click.pass_context` and `ctx.args`, beside the one call the proof
passed it to; and for a note that does not say the library "skips" a raise it makes and catches itself."""

from __future__ import annotations

from errdex.model import Analysis, CodeSample, Proof, ProofAfter, ProofBefore
from errdex.pagenotes import arguments_note
from errdex.prove.settingform import setting_solution
from errdex.prove.stored import with_change

BEFORE = "import click\n\n@click.command()\ndef cli():\n    pass\ncli.main(['--foo'], standalone_mode=False)\n"
AFTER = BEFORE.replace("standalone_mode=False)", "standalone_mode=False, ignore_unknown_options=True, "
                       "allow_extra_args=True)")


def _analysis(library: str, arguments: str) -> Analysis:
    proof = Proof(before=ProofBefore(exception="click.exceptions.NoSuchOption"), after=ProofAfter(),
                  library=library, version="8.5.1", python="3.13.0", date="2026-12-06", arguments=arguments)
    return Analysis(error_id="e", snapshot="s", meaning="m", example_fix=CodeSample(before=BEFORE, after=AFTER,
                                                                                       proof=proof))


def test_the_proven_settings_are_given_in_the_commands_definition() -> None:
    a = _analysis("click", "kept, setting: ignore_unknown_options=True; allow_extra_args=True")
    text = setting_solution(a)
    assert text.startswith("To accept such input in the program itself rather than in one call, give the same "
                           "settings where it is defined: `@click.command(context_settings={'ignore_unknown_options': "
                           "True, 'allow_extra_args': True})`"), text
    assert "`@click.pass_context`" in text and "`ctx.args`" in text, text
    assert [s.text for s in with_change(a).solutions][-1] == text  # after the proven change, last
    # a library with no such form, or a proof that is no setting, gives nothing
    assert setting_solution(_analysis("otherlib", "kept, setting: ignore_unknown_options=True")) == ""
    assert setting_solution(_analysis("click", "kept")) == ""


def test_the_note_does_not_say_the_library_skips_a_raise_it_may_catch_itself() -> None:
    note = arguments_note({"arguments": "kept, setting: ignore_unknown_options=True; allow_extra_args=True"})
    assert "skips this raise" not in note, note
    assert "it raises and catches the error itself and goes on" in note, note
