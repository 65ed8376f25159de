"""The page's prose sections, each sentence built from one fact (and naming it as evidence).

What it means, Solutions, Prevention, When it happens.  No sentence here
states anything the facts do not: conditions come from the guards' plain
words (or the code itself, quoted), options from their definitions,
advice from the message, examples from the tests.  Sentences speak of the
user's call (``words.who``/``callee``), the arguments it passes and the
object it holds, never of the raising function's locals; where the facts are
thin a section says less (Prevention and When may be empty) rather than pad.

Each section has a module of its own: ``meaningtext`` (What it means), ``solutiontext`` (Solutions),
``preventiontext`` (Prevention), ``whentext`` (When it happens: trigger and situations), and
``sectionbase`` what they share.  This module names them for the page builder.
"""

from __future__ import annotations

from errdex.analyze.static.advice import advice
from errdex.analyze.static.meaningtext import meaning, message_forms
from errdex.analyze.static.optiontext import cached_by
from errdex.analyze.static.preventiontext import prevention
from errdex.analyze.static.sectionbase import constant_instead, user_guards
from errdex.analyze.static.solutiontext import solutions
from errdex.analyze.static.whentext import situations, trigger
from errdex.analyze.static.words import conditions

__all__ = ["advice", "cached_by", "conditions", "constant_instead", "meaning", "message_forms", "prevention",
           "situations", "solutions", "trigger", "user_guards"]
