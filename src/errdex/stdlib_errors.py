"""Standard-library exception classes whose ``__init__`` builds the text from named arguments.

configupdater 4.1.1 raises ``configparser``'s own ``NoOptionError(option, section)``, which prints
``No option 'x' in section: 'y'``.  Extraction reads the texts (``extract/stdlib_texts.py``); matching
knows that the standard library raises the very same text itself (``match/index.py``: such a template is
never a confident answer from the text alone).  CPython 3.13 ``Lib/configparser.py``,
``Lib/json/decoder.py``, ``Lib/subprocess.py``, ``Lib/argparse.py``, ``Lib/asyncio/exceptions.py``.  A class with forms that depend on
whether an argument is given, and not ``None`` (``DuplicateSectionError(section, source=None, lineno=None)``,
``ArgumentError(None, message)``) lists the form for the argument given first; ``{name!r}`` is the argument's ``repr``, a field no parameter names is computed by the class.
"""

from __future__ import annotations

# class -> (its __init__ parameters in order, ((a parameter that must be passed, or "", template), ...))
TEXTS: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = {
    "configparser.NoSectionError": (("section",), (("", "No section: {section!r}"),)),
    "configparser.NoOptionError": (("option", "section"), (("", "No option {option!r} in section: {section!r}"),)),
    "configparser.DuplicateSectionError": (("section", "source", "lineno"), (
        ("source", "While reading from {source!r} [line {lineno}]: section {section!r} already exists"),
        ("", "Section {section!r} already exists"))),
    "configparser.DuplicateOptionError": (("section", "option", "source", "lineno"), (
        ("source", "While reading from {source!r} [line {lineno}]: option {option!r} in section {section!r} "
                   "already exists"),
        ("", "Option {option!r} in section {section!r} already exists"))),
    "configparser.MissingSectionHeaderError": (("filename", "lineno", "line"), (
        ("", "File contains no section headers.\nfile: {filename!r}, line: {lineno}\n{line!r}"),)),
    "configparser.ParsingError": (("source",), (("", "Source contains parsing errors: {source!r}"),)),
    "configparser.InterpolationMissingOptionError": (("option", "section", "rawval", "reference"), (
        ("", "Bad value substitution: option {option!r} in section {section!r} contains an interpolation key "
             "{reference!r} which is not a valid option name. Raw value: {rawval!r}"),)),
    "configparser.InterpolationDepthError": (("option", "section", "rawval"), (
        ("", "Recursion limit exceeded in value substitution: option {option!r} in section {section!r} contains "
             "an interpolation key which cannot be substituted in {depth} steps. Raw value: {rawval!r}"),)),
    "json.JSONDecodeError": (("msg", "doc", "pos"), (("", "{msg}: line {lineno} column {colno} (char {pos})"),)),
    "json.decoder.JSONDecodeError": (("msg", "doc", "pos"), (("", "{msg}: line {lineno} column {colno} (char {pos})"),)),
    "subprocess.CalledProcessError": (("returncode", "cmd", "output", "stderr"), (
        ("", "Command '{cmd}' returned non-zero exit status {returncode}."),)),
    # `ArgumentError(None, message)` prints the message alone; given an action, `argument --opt: message`
    # (the action's option strings, metavar or dest: computed by the class)
    "argparse.ArgumentError": (("argument", "message"), (
        ("argument", "argument {argument_name}: {message}"), ("", "{message}"))),
    "subprocess.TimeoutExpired": (("cmd", "timeout", "output", "stderr"), (
        ("", "Command '{cmd}' timed out after {timeout} seconds"),)),
    # asyncio's stream readers (``Lib/asyncio/exceptions.py``), raised by libraries that read streams themselves
    # (telnetlib3's `raise asyncio.IncompleteReadError(partial, None)`, asyncssh's): `{length}` is `len(partial)`
    **dict.fromkeys(("asyncio.IncompleteReadError", "asyncio.exceptions.IncompleteReadError"), (
        ("partial", "expected"), (
            ("expected", "{length} bytes read on a total of {expected} expected bytes"),  # a number: its repr
            ("", "{length} bytes read on a total of undefined expected bytes")))),
    **dict.fromkeys(("asyncio.LimitOverrunError", "asyncio.exceptions.LimitOverrunError"), (
        ("message", "consumed"), (("", "{message}"),))),  # `super().__init__(message)`: not the args tuple
}
