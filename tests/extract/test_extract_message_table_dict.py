"""A validator's messages kept in a table by key, written ``messages = dict(key=_("..."))`` on each class
(formencode 2.1.1, round 18): a metaclass merges them into a private ``_messages`` copy, and the helper
``message(self, msgName, state, **kw)`` picks a translation function at run time (``try: trans = state._``,
``except AttributeError: trans = _stdtrans``), then returns ``trans(self._messages[msgName]) % kw``.  Every
raise read ``{msg % kw}`` (last line 27.3%, message 13.6%).  The table is read as a ``{...}`` display is
(``walkbind._message_table``: keywords of ``dict(...)``, entries marked for translation), ``_messages`` is
looked up as ``messages`` too (``expand._keyed``), and a local bound only to translation functions is one
(``msgbase.translator``): each raise gets its class's entry, ``%(min)s`` a placeholder."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

API = '''
_ = lambda s: s


def set_stdtranslation(domain="FormEncode"):
    global _stdtrans
    _stdtrans = _


class Invalid(Exception):
    def __init__(self, msg, value, state):
        Exception.__init__(self, msg, value, state)
        self.msg = msg

    def __str__(self):
        return self.msg


class Validator:
    _messages = {}

    def message(self, msgName, state, **kw):
        try:
            trans = state._
        except AttributeError:
            try:
                trans = builtins._
            except AttributeError:
                trans = _stdtrans
        msg = trans(self._messages[msgName], **self.gettextargs)
        return msg % kw
'''

VALIDATORS = '''
from .api import Invalid, Validator

_ = lambda s: s


class RangeValidator(Validator):
    messages = dict(
        tooLow=_("Please enter a number that is %(min)s or greater"),
        tooHigh=_("Please enter a number that is %(max)s or smaller"))

    def _validate_python(self, value, state):
        if value < self.min:
            msg = self.message("tooLow", state, min=self.min)
            raise Invalid(msg, value, state)
        if value > self.max:
            raise Invalid(self.message("tooHigh", state, max=self.max), value, state)


class XRI(Validator):
    messages = dict(
        noType=_("The type of i-name is not defined; it may be either individual or organizational"))

    def _validate_python(self, value, state):
        if value[0] not in ("@", "="):
            raise Invalid(self.message("noType", state), value, state)
'''


def _text(site: object) -> list[str]:
    return [t.render() for t in site.templates]  # type: ignore[attr-defined]


def test_a_dict_call_table_read_through_a_private_copy_and_a_chosen_translator(tmp_path: Path) -> None:
    pkg = tmp_path / "formkit"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "api.py").write_text(API)
    (pkg / "validators.py").write_text(VALIDATORS)
    result = extract_dir(tmp_path)
    low = site_in(result, "formkit/validators.py", "RangeValidator._validate_python", 0)
    high = site_in(result, "formkit/validators.py", "RangeValidator._validate_python", 1)
    assert _text(low) == ["Please enter a number that is {kw['min']} or greater"]
    assert _text(high) == ["Please enter a number that is {kw['max']} or smaller"]
    xri = site_in(result, "formkit/validators.py", "XRI._validate_python")
    assert _text(xri) == ["The type of i-name is not defined; it may be either individual or organizational"]


def test_a_local_also_bound_to_another_call_is_no_translator(tmp_path: Path) -> None:
    pkg = tmp_path / "formkit"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "api.py").write_text(API.replace("trans = _stdtrans", "trans = make_translator()"))
    (pkg / "validators.py").write_text(VALIDATORS)
    xri = site_in(extract_dir(tmp_path), "formkit/validators.py", "XRI._validate_python")
    assert _text(xri) != ["The type of i-name is not defined; it may be either individual or organizational"]
