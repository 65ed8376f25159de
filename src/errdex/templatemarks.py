"""Marks a stored template's placeholders carry, shared by the stage that writes them (``extract``) and the one
that reads them (``match``).

Apart from ``model`` because the explain path imports ``match`` and must start fast: ``model`` pulls in
``dataclasses`` and ``typing`` (``tests/test_record.py``), this module nothing."""

from __future__ import annotations

# Suffixes of the two placeholders that stand for the text a renderer writes around a message it was handed
# (``extract/renderedtext.py``: ``{self.render()<before>}Expecting end of text{self.render()<after>}``); they
# cut no literal word beside them (``match/indexdata.template_words``): the renderer's text is its own.
AROUND = ("<before>", "<after>")
