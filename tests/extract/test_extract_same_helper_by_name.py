"""A method called on an object of unknown class, its name defined the same way in unrelated classes
(issue 17's eighty-seventh round).  ndeflib 0.3.3 writes the same classmethod in ``Record`` and in wifi's
``AttributeBase``, and the record decoder calls it on a class taken from a table::

    record_cls = known_types[record_type]
    if len(PAYLOAD) < min_payload_length:
        errstr = "payload length can not be less than {}"
        raise record_cls._decode_error(errstr, min_payload_length)

Two methods of that name in unrelated classes were no one method (``factories.resolve_by_name``): the raise
stayed one placeholder.  Whichever runs returns the same, so the first is read; methods returning other
things stay unresolved."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

HELPER = '''
    @classmethod
    def _decode_error(cls, fmt, *args, **kwargs):
        clname = cls.__module__ + "." + cls.__name__
        return DecodeError(clname + " " + fmt.format(*args, **kwargs))
'''

RECORD = '''
    class DecodeError(ValueError):
        pass


    class Record(object):
        _known_types = dict()
    {helper}
        @classmethod
        def _decode(cls, record_type, payload):
            known_types = cls._known_types
            if record_type in known_types:
                record_cls = known_types[record_type]
                if len(payload) < record_cls.min_length:
                    errstr = "payload length can not be less than {{}}"
                    raise record_cls._decode_error(errstr, record_cls.min_length)
            return payload
'''

WIFI = '''
    from .record import DecodeError


    class AttributeBase(object):
    {helper}
        def decode(self, octets):
            if not octets:
                raise self._decode_error("empty attribute")
'''

OTHER = '''
    @classmethod
    def _decode_error(cls, fmt, *args, **kwargs):
        return DecodeError(fmt.format(*args, **kwargs))
'''


def _site(tmp_path: Path, wifi_helper: str):  # type: ignore[no-untyped-def]
    pkg = tmp_path / "ndefish"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    indent = lambda h: textwrap.indent(textwrap.dedent(h), "    ")  # noqa: E731
    (pkg / "record.py").write_text(textwrap.dedent(RECORD).format(helper=indent(HELPER)))
    (pkg / "wifi.py").write_text(textwrap.dedent(WIFI).format(helper=indent(wifi_helper)))
    return site_in(extract_dir(tmp_path), "ndefish/record.py", "Record._decode")


def _texts(site) -> list[str]:  # type: ignore[no-untyped-def]
    return ["".join(g.text if g.expr is None else "{" + g.expr + "}" for g in t.segments) for t in site.templates]


def test_the_same_helper_in_unrelated_classes_is_read(tmp_path: Path) -> None:
    site = _site(tmp_path, HELPER)
    assert site.exception_resolved == "ndefish.record.DecodeError"
    assert any(t.endswith(" payload length can not be less than {0}") for t in _texts(site)), _texts(site)


def test_helpers_returning_other_texts_stay_unresolved(tmp_path: Path) -> None:
    site = _site(tmp_path, OTHER)
    assert site.exception_resolved != "ndefish.record.DecodeError"
    assert not any("payload length" in t for t in _texts(site))
