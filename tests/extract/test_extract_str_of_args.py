"""An exception base whose ``__str__`` prints its class's name and its arguments joined (pypng 0.20220715.0's
``png.Error``: ``return self.__class__.__name__ + ': ' + ' '.join(self.args)``; captured texts from its
suite: ``ProtocolError: transparent colour not allowed with alpha channel``).  ``sep.join(self.args)`` is the
raise's argument (one, as nearly every raise passes) and ``self.__class__.__name__`` outside a format field
is the raised class's name, so each raise gets its own text rather than the class's one template."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

PNG = '''
    class Error(Exception):
        def __str__(self):
            return self.__class__.__name__ + ': ' + ' '.join(self.args)


    class FormatError(Error):
        """Problem with input file format."""


    class ProtocolError(Error):
        """Problem with the way the programming interface has been used."""


    def check_color(c, greyscale, which):
        if greyscale:
            if len(c) != 1:
                raise ProtocolError("%s for greyscale must be 1-tuple" % which)
        return c


    def read_chunk(data):
        if len(data) < 8:
            raise FormatError("Chunk too short.")
        return data
'''


def test_class_name_and_joined_args_give_each_raise_its_text(tmp_path: Path) -> None:
    (tmp_path / "png.py").write_text(textwrap.dedent(PNG))
    result = extract_dir(tmp_path)
    colour = [t.render() for t in site_in(result, "png.py", "check_color").templates]
    assert colour == ["ProtocolError: {which} for greyscale must be 1-tuple"], colour
    chunk = [t.render() for t in site_in(result, "png.py", "read_chunk").templates]
    assert chunk == ["FormatError: Chunk too short."], chunk
