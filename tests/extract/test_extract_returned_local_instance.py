"""A helper that returns an instance it holds in a local (configupdater 4.1.1, round 15: ``_read`` collects
bad lines with ``e = self._handle_error(e, fpname, lineno, line)`` and ends with ``if e: raise e``, where
``_handle_error`` does ``e = exc or ParsingError(fpname)``, ``e.append(lineno, repr(line))``, ``return e``).
Only ``return ParsingError(fpname)`` written out was a factory's return: the local was a name the return scan
did not follow (``stmts.returns_message``), and ``exc or ParsingError(...)`` no call at all, so ``raise e``
was the template ``{e}`` and the captured ``Source contains parsing errors: '<string>'\\n\\t[line  3]: ...``
was missed in every mode.  A returned local assigned one call is that call, and ``param or Call(...)`` is
the call made when the caller passed none; a helper returning only its parameter stays what it was."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

PARSER = '''
    from configparser import ParsingError


    class ConfigError(Exception):
        pass


    class Parser:
        def _read(self, fp, fpname):
            e = None
            for lineno, line in enumerate(fp, start=1):
                if not line.startswith("["):
                    e = self._handle_error(e, fpname, lineno, line)
            if e:
                raise e

        def _handle_error(self, exc, fpname, lineno, line):
            e = exc or ParsingError(fpname)
            if hasattr(e, "append"):
                e.append(lineno, repr(line))
            return e

        def check(self, name):
            raise self._config_error(name)

        def _config_error(self, name):
            err = ConfigError(f"bad section name {name!r}")
            return err

        def again(self, exc):
            raise self._passed_on(exc)

        def _passed_on(self, exc):
            return exc
'''


def _templates(tmp_path: Path) -> dict[str, list[list[str]]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "parser.py").write_text(textwrap.dedent(PARSER))
    found: dict[str, list[list[str]]] = {}
    for s in sorted(extract_dir(tmp_path).sites, key=lambda s: s.line):
        found.setdefault(s.qualname.rsplit(".", 1)[-1], []).append([t.render() for t in s.templates])
    return found


def test_a_returned_local_is_the_instance_it_was_assigned(tmp_path: Path) -> None:
    found = _templates(tmp_path)
    (read,) = found["_read"]
    assert read[0] == "Source contains parsing errors: {fpname}"  # then `{e}`: the instance passed back in
    assert found["check"] == [["bad section name {name}"]]
    # a helper handing back the caller's own instance makes nothing of its own
    assert "Source contains parsing errors: {fpname}" not in found["again"][0]
