"""The match stage (see DESIGN.md and docs/matching.md): pasted text → ranked raise sites.

``explain(catalog, text, top=5, repo=None) -> Explanation`` is the entry point;
``errdex.model.to_json`` of its result is the documented JSON.
"""

from errdex.match.explain import explain, explain_parsed, parse_safely
from errdex.match.model import Explanation, Match, NoSite, Parsed
from errdex.match.traceback import parse

__all__ = ["Explanation", "Match", "NoSite", "Parsed", "explain", "explain_parsed", "parse", "parse_safely"]
