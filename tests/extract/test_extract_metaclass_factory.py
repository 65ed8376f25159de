"""A class built by a method of its metaclass (``extract/metaclass.py``): trio 0.35.0's ``NoPublicConstructor``
refuses ``Cancelled(...)`` and offers ``_create(cls, *args, **kwargs)``, returning ``super().__call__(*args,
**kwargs)``; ``raise Cancelled._create(source="unknown", reason="misnesting")`` read as one placeholder (issue
17's twenty-seventh round).  It is a call of the class; a metaclass method that returns something else is not."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

UTIL = '''
    from abc import ABCMeta


    class NoPublicConstructor(ABCMeta):
        def __call__(cls, *args, **kwargs):
            raise TypeError(f"{cls.__module__}.{cls.__qualname__} has no public constructor")

        def _create(cls, *args, **kwargs):
            """Build an instance."""
            return super().__call__(*args, **kwargs)

        def _registry(cls, *args, **kwargs):
            return cls.registered(*args, **kwargs)
'''

EXCEPTIONS = '''
    from .util import NoPublicConstructor


    class Cancelled(BaseException, metaclass=NoPublicConstructor):
        def __init__(self, source="unknown", reason=None):
            self.source = source
            self.reason = reason

        def __str__(self):
            return f"cancelled due to {self.source}" + ("" if self.reason is None else f" with reason {self.reason!r}")


    def raise_cancel(reason):
        if reason is None:
            raise Cancelled._create(source="unknown", reason="misnesting")
        raise Cancelled._registry(source="explicit")
'''


def test_a_metaclass_method_that_builds_the_class_is_a_call_of_the_class(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "util.py").write_text(textwrap.dedent(UTIL))
    (tmp_path / "pkg" / "exceptions.py").write_text(textwrap.dedent(EXCEPTIONS))
    result = extract_dir(tmp_path)
    first = site_in(result, "pkg/exceptions.py", "raise_cancel")
    assert "cancelled due to unknown with reason 'misnesting'" in [t.render() for t in first.templates]
    assert first.exception_resolved == "pkg.exceptions.Cancelled"
    other = site_in(result, "pkg/exceptions.py", "raise_cancel", 1)  # `_registry` returns something else
    assert "cancelled due to explicit" not in [t.render() for t in other.templates]
