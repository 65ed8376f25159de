"""An exception whose ``__str__`` returns ``repr()`` of the text its ``__init__`` kept (transitions 0.9.3's
``MachineError``: ``self.value = value``, ``return repr(self.value)``; captured texts from its test suite:
``"Can't trigger event go from state B!"`` with the quotes, ``'Attempt to process events synchronously
while transition queue is not empty!'``): the raise's text in the quotes ``repr`` puts around a string,
double ones when the text holds a single quote and no double one."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

CORE = '''
    class MachineError(Exception):
        """MachineError is used for issues related to state transitions and current states."""

        def __init__(self, value):
            super(MachineError, self).__init__(value)
            self.value = value

        def __str__(self):
            return repr(self.value)


    class Event:
        def __init__(self, name, machine):
            self.name = name
            self.machine = machine

        def _is_valid_source(self, state, transitions):
            if state not in transitions:
                msg = "%sCan't trigger event %s from state %s!" % (self.machine, self.name, state)
                raise MachineError(msg)
            return True

        def process(self, queue):
            if queue:
                raise MachineError("Attempt to process events synchronously while transition queue is not empty!")
            return True
'''


def test_repr_of_the_kept_text_is_quoted(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "core.py").write_text(textwrap.dedent(CORE))
    sites = sorted(extract_dir(tmp_path).sites, key=lambda s: s.line)
    trigger, queue = ([t.render() for t in s.templates] for s in sites)
    assert "\"{self.machine}Can't trigger event {self.name} from state {state}!\"" in trigger
    assert "'Attempt to process events synchronously while transition queue is not empty!'" in queue
