"""A setting that lets the refused input through, given to the raising call (``prove/passflags.py``; rating 10, 916:
click's ``NoSuchOption`` was proven only by taking the unknown option away, a labelled non-fix; readers asked for
``ignore_unknown_options``, which click's own parser tests before the same raise)."""

from __future__ import annotations

from collections.abc import Sequence

from errdex.model import ErrorSite, Guard, Template
from errdex.pagenotes import arguments_note
from errdex.prove.mistake import only_drops
from errdex.prove.passflags import flagged, next_flags, pass_flags, setting_mark, with_flags
from errdex.prove.runs import Runs

LONG = '''    def _match_long_opt(self, opt, explicit_value, state):
        if opt not in self._long_opt:
            raise NoSuchOption(opt, ctx=self.ctx)
'''
SHORT = '''    def _match_short_opt(self, arg, state):
        for ch in arg[1:]:
            option = self._short_opt.get(ch)
            if not option:
                if self.ignore_unknown_options:
                    unknown.append(ch)
                    continue
                raise NoSuchOption(ch, ctx=self.ctx)
        if self.interspersed and unknown:
            state.largs.append(arg)
'''
PARSE = '''    def parse_args(self, ctx, args):
        if not args and self.no_args_is_help:
            raise NoArgsIsHelpError(ctx)
        opts, args = parser.parse_args(args)
        if args and not ctx.allow_extra_args and not ctx.resilient_parsing:
            ctx.fail(
                f"Got unexpected extra argument ({args})")
        return args
'''


def _site(snippet: str, qualname: str, line: int, exception: str = "optlib.NoSuchOption", start: int = 10,
          path: str = "optlib/parser.py", guards: tuple[Guard, ...] = ()) -> ErrorSite:
    return ErrorSite(kind="error", exception=exception, exception_resolved=exception,
                     templates=(Template.literal("No such option"),), path=path, line=line, end_line=line,
                     qualname=qualname, snippet=snippet, snippet_start=start, guards=guards)


LONG_SITE = _site(LONG, "_Parser._match_long_opt", 12)
SHORT_SITE = _site(SHORT, "_Parser._match_short_opt", 17)
PARSE_SITE = _site(PARSE, "Command.parse_args", 12, "optlib.NoArgsIsHelpError", path="optlib/core.py")
BEFORE = "import optlib\ncli = optlib.Command('cli')\nresult = cli.main(['--foo'], standalone_mode=False)\n"


def test_the_flag_the_same_class_skips_the_same_raise_under() -> None:
    assert pass_flags(LONG_SITE, [SHORT_SITE, PARSE_SITE]) == [("ignore_unknown_options", "_Parser._match_short_opt")]
    # a flag tested after the raise (``if self.interspersed and ...``), another class's, another exception's: none
    assert pass_flags(LONG_SITE, [PARSE_SITE]) == []
    other = _site(SHORT, "_Parser._match_short_opt", 17, exception="optlib.BadOptionUsage")
    assert pass_flags(LONG_SITE, [other]) == []
    # the site's own condition is said on the page already
    own = _site(SHORT, "_Parser._match_short_opt", 17,
                guards=(Guard(kind="if", source="self.ignore_unknown_options", normalized="self.ignore_unknown_options"),))
    assert pass_flags(own, []) == []


def test_the_next_checks_flags_from_the_condition_above_the_traceback_line() -> None:
    err = ('Traceback (most recent call last):\n  File "/t/x.py", line 3, in <module>\n'
           '  File "/env/lib/python3.13/site-packages/optlib/core.py", line 15, in parse_args\n'
           '    ctx.fail(\n  File "/env/lib/python3.13/site-packages/optlib/core.py", line 99, in fail\n'
           '    raise UsageError(message, self)\noptlib.UsageError: Got unexpected extra argument (--foo)\n')
    assert next_flags(err, [PARSE_SITE], "optlib", ["ignore_unknown_options"]) == ["allow_extra_args",
                                                                                   "resilient_parsing"]
    assert next_flags(err, [PARSE_SITE], "other", []) == []


def test_the_first_setting_that_runs_clean_is_kept_and_said() -> None:
    assert with_flags(BEFORE, ["ignore_unknown_options"]).endswith(
        "cli.main(['--foo'], standalone_mode=False, ignore_unknown_options=True)\n")
    assert with_flags(with_flags(BEFORE, ["x"]), ["x"]) == ""  # passed already
    err = ('  File "/env/lib/python3.13/site-packages/optlib/core.py", line 15, in parse_args\n'
           "optlib.UsageError: Got unexpected extra argument (--foo)\n")
    ran: list[Sequence[str]] = []

    def run(codes: Sequence[str]) -> Runs:  # one flag: the next check refuses; with allow_extra_args: clean
        ran.append(codes)
        return Runs([(0, "ok", "", "") if "allow_extra_args=True" in c else (1, "", err, "") for c in codes], len(codes))

    after, how, out, n = flagged(BEFORE, LONG_SITE, [SHORT_SITE], lambda: [PARSE_SITE], "optlib", run,
                                 lambda e: "No such option" in e)
    assert after.endswith("cli.main(['--foo'], standalone_mode=False, ignore_unknown_options=True, "
                          "allow_extra_args=True)\n")
    assert (out, n, len(ran)) == ("ok", 3, 2)
    mark = setting_mark(how)
    assert mark == "kept, setting: ignore_unknown_options=True; allow_extra_args=True"
    assert arguments_note({"arguments": mark}).startswith(
        "The after keeps the input and passes `ignore_unknown_options=True`, a setting the library's own code tests "
        "on its way to this error: with it, the library lets the input it refused through (it does not raise there, "
        "or it raises and catches the error itself and goes on); and `allow_extra_args=True`, which the next check "
        "asks for")
    assert not only_drops(BEFORE, after)  # a real fix, not the input taken away
    # this error still escaping: nothing kept
    none = flagged(BEFORE, LONG_SITE, [SHORT_SITE], lambda: [PARSE_SITE], "optlib",
                   lambda codes: Runs([(1, "", "optlib.NoSuchOption: No such option", "") for _ in codes], len(codes)),
                   lambda e: "No such option" in e)
    assert none[0] == "" and setting_mark("test; after: without element 0") == ""
