"""A text a plain base class's ``__init__`` builds on ``self``, read by its subclasses' methods in other modules
(``extract/kepttexts.init_texts``): beartype 0.23.1's ``_BeartypeValidatorFactoryABC.__init__`` keeps
``self._getitem_exception_prefix = f'Beartype validator factory "{self._basename}" subscripted by '`` and the
``__getitem__`` of ``_IsInstanceFactory`` (another module) raises ``BeartypeValeSubscriptionException(f'{self.
_getitem_exception_prefix}empty tuple.')``.  The base's own method read the text; the subclasses' kept the
placeholder, and the base's site alone answered ``Beartype validator factory "IsInstance" subscripted by empty
tuple.`` raised by a subclass.  A subclass that sets the attribute itself keeps its own; a value that is no text
(no literal part) stays a placeholder."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir, site_in

ABC = '''
    class SubscriptionException(Exception):
        pass


    class ValidatorFactoryABC:
        def __init__(self, basename):
            self._basename = basename
            self._getitem_exception_prefix = (
                f'Validator factory "{self._basename}" '
                f'subscripted by '
            )
            self._cache = {}

        def _get_pep_args(self, args):
            if isinstance(args, tuple) and not args:
                raise SubscriptionException(f"{self._getitem_exception_prefix}empty tuple.")
            return args
'''

ISTYPE = '''
    from .factoryabc import SubscriptionException, ValidatorFactoryABC


    class IsInstanceFactory(ValidatorFactoryABC):
        def __getitem__(self, types):
            if isinstance(types, tuple) and not types:
                raise SubscriptionException(f"{self._getitem_exception_prefix}empty tuple.")
            if not isinstance(types, type):
                raise SubscriptionException(f"{self._cache} cached, {repr(types)} not a class.")
            return types


    class IsEqualFactory(ValidatorFactoryABC):
        def __init__(self, basename):
            super().__init__(basename)
            self._getitem_exception_prefix = f"Equality factory {basename} given "

        def __getitem__(self, obj):
            if isinstance(obj, tuple) and not obj:
                raise SubscriptionException(f"{self._getitem_exception_prefix}empty tuple.")
            return obj
'''


def _renders(root: Path, qualname: str, index: int = 0) -> list[str]:
    result = extract_dir(root)
    return [t.render() for t in site_in(result, "vale/istype.py", qualname, index).templates]


def test_a_subclass_in_another_module_reads_the_base_init_text(tmp_path: Path) -> None:
    pkg = tmp_path / "vale"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "factoryabc.py").write_text(textwrap.dedent(ABC))
    (pkg / "istype.py").write_text(textwrap.dedent(ISTYPE))
    assert _renders(tmp_path, "IsInstanceFactory.__getitem__") == [
        'Validator factory "{basename}" subscripted by empty tuple.']
    # the base's own method, as before
    own = site_in(extract_dir(tmp_path), "vale/factoryabc.py", "ValidatorFactoryABC._get_pep_args")
    assert [t.render() for t in own.templates] == ['Validator factory "{basename}" subscripted by empty tuple.']
    # a value the base keeps that is no text stays the placeholder it was
    assert _renders(tmp_path, "IsInstanceFactory.__getitem__", 1) == ["{self._cache} cached, {repr(types)} not a class."]
    # a subclass that builds its own keeps its own
    assert _renders(tmp_path, "IsEqualFactory.__getitem__") == ["Equality factory {basename} given empty tuple."]
