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


CODES = '''
    class Collection:
        def __init__(self, name: str) -> None:
            if not name.upper().startswith("CID"):
                self._name = name
            else:
                self._name = f"CID{name[3:]}"

        def __getattr__(self, name: str):
            try:
                return self._data[name]
            except KeyError:
                raise AttributeError(f"No matching code for keyword '{name}' in scheme '{self._name}'")

        def check(self, name):
            raise RuntimeError(f"Multiple codes found for keyword '{name}' in scheme '{self.name}'")

        @property
        def name(self) -> str:
            return self._name


    class Scheme(Collection):
        def lookup(self, keyword):
            raise KeyError(f"{keyword} not in {self._name}")
'''


def test_an_attribute_the_init_sets_by_branch_is_no_kept_text(tmp_path: Path) -> None:
    """pydicom 3.0.2's ``Collection.__init__`` keeps ``self._name = name`` or ``f"CID{name[3:]}"`` by branch: the
    last assignment alone (``CID{name[3:]}``) would be a text the class does not always print."""
    pkg = tmp_path / "vale"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "codes.py").write_text(textwrap.dedent(CODES))
    result = extract_dir(tmp_path)
    own = site_in(result, "vale/codes.py", "Collection.__getattr__")
    assert [t.render() for t in own.templates] == ["No matching code for keyword '{name}' in scheme '{self._name}'"]
    prop = site_in(result, "vale/codes.py", "Collection.check")  # through the property that returns it
    assert [t.render() for t in prop.templates] == ["Multiple codes found for keyword '{name}' in scheme '{self.name}'"]
    sub = site_in(result, "vale/codes.py", "Scheme.lookup")
    assert [t.render() for t in sub.templates] == ["'{keyword} not in {self._name}'"]
