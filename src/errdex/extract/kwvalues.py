"""The values a raise passes its exception class by keyword, where each is one known text.

pathvalidate 3.3.1 raises ``InvalidCharError(INVALID_CHAR_ERR_MSG_TMPL.format(...), platform=Platform.UNIVERSAL,
value=unicode_filename)`` at one site and ``platform=Platform.WINDOWS`` at others (``Platform(enum.Enum)``'s
``UNIVERSAL = "universal"``); the class prints ``platform={self.platform.value}`` among the parts its
``__str__`` joins, a text the class template keeps as one placeholder.  Each site keeps, per keyword of its
raise call, ``name=text`` when the value expands to one text made of literals only (a string or number
literal, a constant, an enum member whose value is one), else ``name`` alone (a value known only at run
time); a keyword named by a constant (``**{ErrorAttrKey.PLATFORM: Platform.WINDOWS}``, ``kwkeys``) under the
constant's text.  ``match/keyvalues.py`` reads them (issue 17's seventy-fourth round).
"""

from __future__ import annotations

from collections.abc import Callable

from errdex.extract.ir import Node, Ref, literal_text
from errdex.extract.kwkeys import KEY_REF
from errdex.model import Template

MAX_VALUE = 60  # a longer literal is a sentence, printed as text, not a ``name=value`` pair


def _literal(templates: tuple[Template, ...]) -> str | None:
    """The one text of ``templates`` made only of literal segments, else None."""
    if len(templates) != 1 or any(s.expr is not None for s in templates[0].segments):
        return None
    text = "".join(s.text for s in templates[0].segments)
    return text if 0 < len(text) <= MAX_VALUE and "\n" not in text and "=" not in text else None


def keyword_values(value: Node | None, texts: Callable[[Node], tuple[Template, ...]],
                   constant: Callable[[str], Node | None]) -> tuple[str, ...]:
    """``name=text`` or ``name`` for each keyword of the exception call ``value`` (a ``Ref`` of a call)."""
    if not isinstance(value, Ref) or not value.is_call or not value.kwargs:
        return ()
    out: dict[str, None] = {}
    for key, node in value.kwargs:
        name: str | None = key
        if key.startswith(KEY_REF):
            held = constant(key[len(KEY_REF):])
            name = literal_text(held) if held is not None else None
        if not name or not name.isidentifier() or name.startswith("_"):
            continue
        text = _literal(texts(node))
        out[f"{name}={text}" if text is not None else name] = None
    return tuple(out)
