"""``raise type(exc)(...)``: the class of a value, called with a new text (pydicom 3.0.2's
``tag_in_exception`` and ``DataElement``, round 18), and ``exc = type(v)(*v.args)`` then ``raise exc``, a copy
(simpy 4.1.2's ``Environment.step``).  The raise's callee is a call: the message was not read at all
(``{type(exc)}``).  Also a property whose returns are text or a plain function's value
(``DataElement.name``: ``return dictionary_description(self.tag)``): that value is one of its texts."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

CODE = '''
import traceback

DICTIONARY = {}


def dictionary_description(tag):
    return DICTIONARY[tag]


def tag_in_exception(tag, run):
    try:
        run()
    except Exception as exc:
        stack_trace = traceback.format_exc()
        msg = f"With tag {tag} got exception: {exc}\\n{stack_trace}"
        raise type(exc)(msg) from exc


class DataElement:
    @property
    def name(self):
        if self.is_private:
            return "Private Creator"
        if self.tag in DICTIONARY:
            return dictionary_description(self.tag)
        return ""

    def __deepcopy__(self, memo):
        try:
            return self.copy(memo)
        except Exception as exc:
            raise type(exc)(f"Error deepcopying the buffered element {self.tag} '{self.name}': {exc}")


class Environment:
    def step(self, event):
        if not event._ok:
            exc = type(event._value)(*event._value.args)
            exc.__cause__ = event._value
            raise exc
'''


def _texts(result: object, qualname: str) -> tuple[str, list[str]]:
    site = site_in(result, "dicomkit/core.py", qualname)  # type: ignore[arg-type]
    return site.exception, [t.render() for t in site.templates]


def test_type_of_a_value_called_with_a_text(tmp_path: Path) -> None:
    pkg = tmp_path / "dicomkit"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text(CODE)
    result = extract_dir(tmp_path)
    assert _texts(result, "tag_in_exception") == ("type(exc)", ["With tag {tag} got exception: {exc}\n{stack_trace}"])
    exc, texts = _texts(result, "DataElement.__deepcopy__")
    assert exc == "type(exc)"
    assert sorted(texts) == sorted([
        "Error deepcopying the buffered element {self.tag} 'Private Creator': {exc}",
        "Error deepcopying the buffered element {self.tag} '{dictionary_description(self.tag)}': {exc}",
        "Error deepcopying the buffered element {self.tag} '': {exc}",
    ])
    assert _texts(result, "Environment.step") == ("type(event._value)", ["{*event._value.args}"])
