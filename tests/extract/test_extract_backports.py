"""A package's backport of a standard-library function, bound only on the Pythons that lack it
(more-itertools 11.2.1's ``_batched``, bound as ``batched`` under ``else`` of ``if hexversion >=
0x30D00A2: from itertools import batched as itertools_batched``): its sites carry that condition as
their first guard."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

RECIPES = '''
    import sys
    from itertools import islice
    from sys import hexversion


    def _batched(iterable, n, *, strict=False):
        if n < 1:
            raise ValueError('n must be at least one')
        return iter(lambda: tuple(islice(iterable, n)), ())


    def chunked(iterable, n):
        if n < 1:
            raise ValueError('n must be positive')
        return _batched(iterable, n)


    if hexversion >= 0x30D00A2:
        from itertools import batched as itertools_batched

        def batched(iterable, n, *, strict=False):
            return itertools_batched(iterable, n, strict=strict)
    else:
        batched = _batched


    def _pairwise(iterable):
        raise ValueError('not two')


    if sys.version_info < (3, 10):
        pairwise = _pairwise
    else:
        from itertools import pairwise
'''


def test_a_backport_bound_on_some_pythons_is_guarded_by_the_version(tmp_path: Path) -> None:
    (tmp_path / "moreit").mkdir()
    (tmp_path / "moreit" / "__init__.py").touch()
    (tmp_path / "moreit" / "recipes.py").write_text(textwrap.dedent(RECIPES))
    sites = {s.qualname: s for s in extract_dir(tmp_path).sites}
    assert [(g.normalized, g.negated) for g in sites["_batched"].guards] == [
        ("not (hexversion >= 0x30D00A2)", True), ("n < 1", False)]
    assert [g.normalized for g in sites["_pairwise"].guards] == ["sys.version_info < (3, 10)"]
    assert [g.normalized for g in sites["chunked"].guards] == ["n < 1"]  # bound unconditionally
