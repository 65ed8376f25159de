"""What a loop's paths bind reaches the code after it: each ``break``'s bindings (past the loop's ``else``,
which a ``break`` skips), and a clause written in the loop from its target kept as text (``walker.loop_exit``,
``loopclause.py``). Beartype 0.23.1's ``_die_unless_object_builtin_checkable`` (round 17): ``message_clause_prefix
= ''``, then in ``for obj_item_index, obj_item in enumerate(obj_items)`` ``if not type_tester(obj_item):
message_clause_prefix = f'{obj_item_prefix}{obj_item_index} child type hint {repr(obj_item)} '; break``; the
raise printed only the empty clause, so the events naming the culprit item matched no template."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

CHECKS = '''
    class HintCheckError(Exception):
        pass


    def die_unless_checkable(hint, items, is_checkable, exception_prefix=''):
        message_clause_prefix = ''
        if isinstance(hint, tuple):
            item_prefix = 'tuple union item '
        else:
            item_prefix = 'new union child '
        for item_index, item in enumerate(items):
            if not is_checkable(item):
                message_clause_prefix = f'{item_prefix}{item_index} child type hint {repr(item)} '
                break
        raise HintCheckError(
            f'{exception_prefix}type hint {repr(hint)} uncheckable at runtime, as '
            f'{message_clause_prefix}metaclass dunder method raises.')


    def first_free_port(ports, taken):
        reason = 'no port given'
        while ports:
            port = ports.pop()
            if port not in taken:
                reason = 'port picked'
                break
            reason = 'every port taken'
        raise HintCheckError(f'cannot bind: {reason}.')


    def pick_codec(name, codecs):
        for codec in codecs:
            if codec.name == name:
                found = 'known codec'
                break
        else:
            found = 'unknown codec'
        raise HintCheckError(f'codec {name!r}: {found}.')


    def last_label(items):
        label = ''
        for position, item in enumerate(items):
            label = f'item {position} '
        raise HintCheckError(f'{label}is the last one.')


    def decorated(dim, units):
        suffix = ''
        if dim:
            suffix = f' ({dim})'
        raise HintCheckError(f'cannot convert {units}{suffix}.')
'''


def _found(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "hints").mkdir()
    (tmp_path / "hints" / "__init__.py").touch()
    (tmp_path / "hints" / "checks.py").write_text(textwrap.dedent(CHECKS))
    return {s.qualname: sorted({t.render() for t in s.templates}) for s in extract_dir(tmp_path).sites}


def test_a_break_carries_its_bindings_past_the_loop(tmp_path: Path) -> None:
    found = _found(tmp_path)
    assert found["die_unless_checkable"] == [
        "{exception_prefix}type hint {repr(hint)} uncheckable at runtime, as metaclass dunder method raises.",
        "{exception_prefix}type hint {repr(hint)} uncheckable at runtime, as new union child {item_index} child "
        "type hint {repr(item)} metaclass dunder method raises.",
        "{exception_prefix}type hint {repr(hint)} uncheckable at runtime, as tuple union item {item_index} child "
        "type hint {repr(item)} metaclass dunder method raises.",
    ]
    # a `while` loop too: before it, at the body's end, at the `break`
    assert found["first_free_port"] == ["cannot bind: every port taken.", "cannot bind: no port given.",
                                        "cannot bind: port picked."]
    # the loop's `else` runs only when no `break` did: after it, the name holds its text or the break's
    assert found["pick_codec"] == ["codec {name}: known codec.", "codec {name}: unknown codec."]


def test_a_clause_built_from_the_loop_target_is_text(tmp_path: Path) -> None:
    found = _found(tmp_path)
    assert found["last_label"] == ["is the last one.", "item {position} is the last one."]
    # a value's decoration built from something else than a loop's target stays one placeholder
    assert found["decorated"] == ["cannot convert {units}{suffix}."]
