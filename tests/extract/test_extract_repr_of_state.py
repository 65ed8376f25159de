"""``repr(self.<attr>)`` in a raise of a class that is not an exception (jwcrypto 1.6.1's ``JWE.decrypt``,
captured texts from its test suite: ``No recipient matched the provided key["Failed: [InvalidJWEData('Failed
header check')]"]``): ``self.decryptlog`` is set to ``None`` in ``__init__`` and to a list of log lines before
the raise, so its ``repr`` is a value.  The rule that reads ``repr(self.value)`` as the quoted text
``__init__`` kept holds in an exception's own methods (transitions' ``MachineError.__str__``); here it gave
``No recipient matched the provided key''`` (the repr of an empty text: what ``__init__`` set, ``None``,
read as text), which matched no event."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

JWE = '''
    class InvalidJWEData(Exception):
        pass


    class MachineError(Exception):
        def __init__(self, value):
            self.value = value

        def __str__(self):
            return repr(self.value)


    class JWE:
        def __init__(self, plaintext=None, protected=None):
            self.objects = {}
            self.plaintext = None
            if plaintext is not None:
                self.plaintext = plaintext.encode('utf-8')
            self.decryptlog = None
            if protected and not isinstance(protected, dict):
                raise InvalidJWEData("Invalid protected header: %s" % protected)

        def decrypt(self, key):
            self.plaintext = None
            if 'ciphertext' not in self.objects:
                raise InvalidJWEData("No available ciphertext")
            self.decryptlog = []
            for rec in self.objects['recipients']:
                try:
                    self._decrypt(key, rec)
                except Exception as e:
                    self.decryptlog.append('Failed: [%s]' % repr(e))
            if not self.plaintext:
                raise InvalidJWEData('No recipient matched the provided '
                                     'key' + repr(self.decryptlog))

        def transition(self, state):
            raise MachineError("Can't trigger event")
'''


def test_repr_of_an_attribute_is_a_value_outside_an_exception(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "jwe.py").write_text(textwrap.dedent(JWE))
    sites = {s.qualname: [t.render() for t in s.templates] for s in extract_dir(tmp_path).sites}
    decrypt = [s for s in extract_dir(tmp_path).sites if s.qualname == "JWE.decrypt"][-1]
    assert [t.render() for t in decrypt.templates] == ["No recipient matched the provided key{repr(self.decryptlog)}"]
    # in an exception's own __str__, the text __init__ kept, quoted
    assert '"Can' + "'" + 't trigger event"' in sites["JWE.transition"]
