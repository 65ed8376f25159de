"""``string.Template(text).substitute(NAME=value)`` as message text (``extract/msgtemplate.py``), in the shape of
omegaconf 2.4.0's ``format_and_raise``: a ``dedent``ed ``$MSG / full_key: $FULL_KEY`` frame filled by keyword,
the caller's text first filled by ``safe_substitute`` (its ``$KEY`` fields known only when a caller's text is
bound), ``${name}`` braces, ``$$`` and a literal ``dict`` mapping.  Without the rule each message was one
placeholder (``{message}``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

MODULE = '''
    import string
    from string import Template
    from textwrap import dedent


    def framed(msg, key, full_key, object_type):
        msg = string.Template(msg).safe_substitute(KEY=key, FULL_KEY=full_key)
        template = dedent("""\\
            $MSG
                full_key: $FULL_KEY
                object_type=$OBJECT_TYPE""")
        s = string.Template(template=template)
        message = s.substitute(OBJECT_TYPE=object_type, MSG=msg, FULL_KEY=full_key)
        raise ValueError(f"{message}")


    def priced(amount):
        raise ValueError(Template("costs $$${amount} (${unit}s)").substitute({"amount": amount, "unit": "euro"}))


    def left_as_written(name):
        raise KeyError(Template("no $name in $where").safe_substitute(name=name))


    def caller(node):
        framed("Missing key $KEY in $FULL_KEY", "a", "b.a", "dict")
'''


def _texts(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "conf.py").write_text(textwrap.dedent(MODULE))
    return {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}


def test_a_dedented_frame_is_filled_by_keyword(tmp_path: Path) -> None:
    framed = _texts(tmp_path)["framed"]
    # the caller's text, its $KEY / $FULL_KEY filled by safe_substitute as the frame's fields are
    assert "Missing key {key} in {full_key}\n    full_key: {full_key}\n    object_type={object_type}" in framed


def test_braces_dollars_and_a_literal_mapping(tmp_path: Path) -> None:
    texts = _texts(tmp_path)
    assert texts["priced"] == ["costs ${amount} (euros)"]
    # a field no keyword names is left as written (safe_substitute)
    assert texts["left_as_written"] == ["'no {name} in $where'"]
