"""The extract stage (see DESIGN.md and docs/extract.md): source files → error sites.

``extract_tree`` is the entry point; everything else is internal to the stage.
"""

from errdex.extract.runner import extract_tree
from errdex.extract.strict import UnclassifiedShape
from errdex.model import ExtractResult

__all__ = ["ExtractResult", "UnclassifiedShape", "extract_tree"]
