"""A nested function's raise reads a local of the enclosing function: nibabel 5.4.2's
``Deprecator.__call__`` joins ``message`` from its parts, then defines ``deprecated_func``, which raises
``exception(message)`` (``exception`` the class chosen outside too) and warns with ``message``.  Both read
``{exception(message)}`` / ``{message}`` (issue 17's round 19, 7 events).  A name that is neither the nested
function's local nor its parameter is the enclosing function's binding where the ``def`` was made
(``Scope.closure``), read with that function's parameters; the enclosing function's parameter itself stays a
value."""

from __future__ import annotations

import textwrap
from pathlib import Path

from extract_helpers import extract_dir

DEPRECATOR = '''
    import warnings


    class Deprecator:
        def __call__(self, message, until="", error_class=None, warn_class=None):
            exception = error_class if error_class is not None else self.error_class
            warning = warn_class if warn_class is not None else self.warn_class
            messages = [message]
            if until:
                messages.append(f"* Raises {exception} as of version: {until}")
            message = "\\n".join(messages)

            def deprecator(func):
                def deprecated_func(*args, **kwargs):
                    if until and self.is_bad_version(until):
                        raise exception(message)
                    warnings.warn(message, warning, stacklevel=2)
                    return func(*args, **kwargs)
                return deprecated_func

            return deprecator


    def outer(name):
        def check(value):
            if value is None:
                raise ValueError(name)
        return check
'''


def test_a_nested_function_reads_the_enclosing_functions_locals(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").touch()
    (tmp_path / "pkg" / "deprecator.py").write_text(textwrap.dedent(DEPRECATOR))
    found = {(s.kind, s.qualname.rsplit(".", 1)[-1]): [t.render() for t in s.templates]
             for s in extract_dir(tmp_path).sites}
    raised = found[("error", "deprecated_func")]
    assert raised[0] == "{message}\n* Raises {exception} as of version: {until}"
    assert raised[1:] == ["{message}"]
    assert found[("warning", "deprecated_func")] == raised
    assert found[("error", "check")] == ["{name}"]  # the enclosing function's parameter: a value
