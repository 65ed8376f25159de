"""The language-model backend of ``analyze``: any OpenAI-compatible chat-completions server.

The model writes the page's sections from the same facts as the static
backend; each section is published only if it validates and its code
samples verify, else the static section stands (see docs/llm.md).
"""

from __future__ import annotations

from errdex.analyze.llm.backend import analyze_with_llm
from errdex.analyze.llm.client import ClientConfig, LLMError
from errdex.analyze.llm.prompt import PROMPT_VERSION
from errdex.analyze.llm.rounds import Reject
from errdex.analyze.llm.runreport import LLMReport

__all__ = ["PROMPT_VERSION", "ClientConfig", "LLMError", "LLMReport", "Reject", "analyze_with_llm"]
