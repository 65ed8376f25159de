"""The results of a prover's runs, by index: shared by the engine, which makes them, and the samples,
which read them (its own module, so that neither imports the other for it)."""

from __future__ import annotations

from collections.abc import Callable


class Runs:
    """Run results by index, counted: precomputed (a batch) or run on first use (fresh processes).
    A result is (exit, stdout, stderr, watched): what the watched site did in the run (``Prover.watch``):
    "under" (the exception that ended the run was raised while handling it), "raised" (raised, caught), ""."""

    def __init__(self, done: list[tuple[int, str, str, str]] | None, count: int,
                 fn: Callable[[int], tuple[int, str, str, str]] | None = None) -> None:
        self._done: dict[int, tuple[int, str, str, str]] = dict(enumerate(done or []))
        self._fn = fn
        self.count = count

    def full(self, i: int) -> tuple[int, str, str, str]:
        if i not in self._done:
            assert self._fn is not None
            self._done[i] = self._fn(i)
            self.count += 1
        return self._done[i]

    def __getitem__(self, i: int) -> tuple[int, str, str]:
        return self.full(i)[:3]

    def raised(self, i: int) -> bool:
        """Whether the watched site (``Prover.watch``) raised in run ``i``, caught or not."""
        return bool(self.full(i)[3])

    def under(self, i: int) -> bool:
        """Whether run ``i`` ended with an exception raised while handling the watched site's."""
        return self.full(i)[3] == "under"
