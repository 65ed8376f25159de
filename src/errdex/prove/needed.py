"""Whether each change of a proven after is needed (rating 9, b806: the after changed the metadata's shape AND
``float32`` -> ``float16``; the page said neither that both changed nor that the second is needed, and a
``float32`` user who follows the first gets ``NotImplementedError``).

For an after with two or three changes (``mistake.changes``, each said shortly), the after is run once with
each change taken back; one that then raises is what that change is needed for, said on the page under the
example's change sentence (``Proof.needs``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from errdex.prove.mistake import changes
from errdex.prove.runoutput import last_line
from errdex.prove.runs import Runs

MAX_CHANGES = 3


class Runner(Protocol):
    def runs(self, codes: Sequence[str], scratch: Path, name: str) -> Runs: ...


def _last_error(err: str) -> str:
    """The exception line ending ``err`` ("Class: text"), or ""."""
    last = last_line(err)
    return last if ":" in last and last.split(":", 1)[0].replace(".", "").isidentifier() else ""


def undone(before: str, after: str) -> list[tuple[str, str]]:
    """(the change's new text, the after with it taken back) for each change of an after with two or more."""
    cs = changes(before, after)
    if not 2 <= len(cs) <= MAX_CHANGES or any(not (c.old and c.new) for c in cs):
        return []
    # taken back as text: only where the new text stands exactly where the old one stood (as often in the after
    # as the old one in the before: ``operand_dtype=...float16`` twice, a computed shape and the kernel)
    return [(c.new, after.replace(c.new, c.old)) for c in cs
            if after.count(c.new) == before.count(c.old) > 0 and after.replace(c.new, c.old) != before]


def needs(prover: Runner, before: str, after: str, scratch: Path, raised: str = "") -> tuple[str, int]:
    """("without `operand_dtype=jnp.float16` the call raises `NotImplementedError: ...`", runs); "" when the
    after has one change, or each alone is enough.  ``raised``: the before's output; a change without which
    the before's own error comes back is the fix itself, not said."""
    tries = undone(before, after)
    if not tries:
        return "", 0
    res = prover.runs([src for _, src in tries], scratch, "needs")
    said: list[str] = []
    for k, (new, _) in enumerate(tries):
        rc, _, err = res[k]
        last = _last_error(err)
        if rc != 0 and last and last not in raised:
            short = last if len(last) <= 120 else last[:117] + "..."
            said.append(f"without `{new}` the call raises `{short}`")
    return "; ".join(said), res.count
