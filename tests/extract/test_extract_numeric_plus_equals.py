"""``+=`` on a parameter extends its text only when what is added may be text: jax 0.10.2's
``reduce_scatter`` does ``scatter_dimension += ndim`` (``ndim = len(input_shape)``) before
``f"Scattered dimension {scatter_dimension} of input ..."``, and errdex printed the message as
``Scattered dimension {scatter_dimension}{ndim} of input`` (rating 9: 027b's Related title)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

MOD = '''
    def reduce_scatter(input_shape, scatter_dimension=0):
        ndim = len(input_shape)
        if scatter_dimension < 0:
            scatter_dimension += ndim
        if input_shape[scatter_dimension] % 2:
            raise ValueError(f"Scattered dimension {scatter_dimension} of input must be even")


    def extend(msg, on):
        if on == "error":
            msg += " To disable this error, set on to 'warn'."
            raise ValueError(msg)
'''


def test_a_count_added_to_a_parameter_leaves_one_placeholder(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "mod.py").write_text(textwrap.dedent(MOD))
    result = extract_dir(tmp_path)
    texts = [t.render() for s in result.sites for t in s.templates]
    assert "Scattered dimension {scatter_dimension} of input must be even" in texts
    assert not any("{ndim}" in t for t in texts)
    assert any(t.endswith(" To disable this error, set on to 'warn'.") for t in texts)
