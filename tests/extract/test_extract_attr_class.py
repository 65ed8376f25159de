"""A class held in a class attribute and raised through ``self`` (mutagen 1.48.1's ``OggFileType``, captured
texts from its test suite: ``OggVorbisHeaderError: no appropriate stream found``): the base annotates
``_Error: Type[error]``, each format's subclass sets ``_Error = OggVorbisHeaderError``, and the base's methods
``raise self._Error("no appropriate stream found")``.  The site was one opaque placeholder
(``{self._Error("no appropriate stream found")}``); a call of a capitalised attribute of ``self`` that names no
method is now a class, its text the builtin rule's (``expand.py``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

OGG = '''
    from typing import Type


    class error(Exception):
        pass


    class OggFileType:
        _Error: Type[error]

        def load(self, fileobj):
            try:
                self.info = self._Info(fileobj)
            except EOFError:
                raise self._Error("no appropriate stream found")

        def add_tags(self):
            raise self._Error

        def _Info(self, fileobj):
            return fileobj.read(4)
'''

VORBIS = '''
    from pkg.ogg import OggFileType, error


    class OggVorbisHeaderError(error):
        pass


    class OggVorbis(OggFileType):
        _Error = OggVorbisHeaderError
'''


def test_a_class_attribute_called_through_self_prints_its_argument(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "ogg.py").write_text(textwrap.dedent(OGG))
    (tmp_path / "pkg" / "oggvorbis.py").write_text(textwrap.dedent(VORBIS))
    sites = {s.qualname: s for s in extract_dir(tmp_path).sites}
    load = sites["OggFileType.load"]
    assert [t.render() for t in load.templates] == ["no appropriate stream found"]
    assert load.exception == "self._Error"
    assert [t.render() for t in sites["OggFileType.add_tags"].templates] == [""]
