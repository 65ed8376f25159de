"""A helper that calls itself in one of its returns is read once: its own call there is its value.

dishka 1.10.1's ``get_name(hint)`` returns ``f"[{res}]"`` for a list, ``f"{type(hint).__name__}({value_name})"``
with ``value_name = get_name(hint.value, ...)``, ``"..."``, and ``f"{module}{name}{args}"`` for a class or a
function, and ``raise TypeError(f"Failed to analyze `{name}`. \\n" + str(e))`` prints the last of them.  The
recursive call was read again inside each return, so the caps of variants were filled with the nested list and
wrapper shapes (``X([{res}])``, ``X(X([{res}]))``...) and the plain name, the commonest, was cut.  Now a
call of a helper inside its own returns is one placeholder (``expand.Expander._reading``)."""

from __future__ import annotations

from pathlib import Path

from extract_helpers import extract_dir, site_in

NAMES = '''
class Wrapped:
    def __init__(self, value):
        self.value = value


def get_name(hint, *, include_module):
    if isinstance(hint, list):
        res = ",".join(get_name(item, include_module=include_module) for item in hint)
        return f"[{res}]"
    if type(hint) is Wrapped:
        value_name = get_name(hint.value, include_module=include_module)
        return f"{type(hint).__name__}({value_name})"
    if hint is ...:
        return "..."
    module = getattr(hint, "__module__", "") + "." if include_module else ""
    name = getattr(hint, "__qualname__", None)
    if name:
        return f"{module}{name}"
    return str(hint)
'''

FACTORY = '''
from inject.names import get_name


def make_factory(source, clean):
    try:
        return clean(source)
    except TypeError as e:
        name = get_name(source, include_module=True)
        raise TypeError(f"Failed to analyze `{name}`. \\n" + str(e)) from e
'''


def test_every_return_of_the_helper_is_a_text_of_the_raise(tmp_path: Path) -> None:
    root = tmp_path / "src"
    (root / "inject").mkdir(parents=True)
    (root / "inject" / "__init__.py").write_text("")
    (root / "inject" / "names.py").write_text(NAMES)
    (root / "inject" / "factory.py").write_text(FACTORY)
    texts = [t.render() for t in site_in(extract_dir(root), "inject/factory.py", "make_factory").templates]
    assert "Failed to analyze `{module}{name}`. \n{e}" in texts
    assert "Failed to analyze `{type(hint).__name__}({value_name})`. \n{e}" in texts
