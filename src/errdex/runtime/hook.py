"""errdex's runtime hook: after an uncaught exception's traceback, a short explanation from errdex.

``errdex hook install --python PATH`` copies this file into that interpreter's
site-packages as ``_errdex_hook.py``, with ``COMMAND`` set to the errdex
command line that installed it, and adds ``_errdex_hook.pth`` (one line,
``import _errdex_hook``).  errdex itself is not installed there: this module
must run on any Python >= 3.9 with the standard library alone, so it is
written in 3.9 syntax and imports nothing at start-up (``sys`` and ``os``
are already loaded when ``site`` reads a ``.pth`` file; not even
``__future__``: its annotations are strings).

At start-up it only replaces ``sys.excepthook`` and puts a finder on
``sys.meta_path`` that patches ``threading.excepthook`` and IPython's
``InteractiveShell.showtraceback`` when (and if) those modules are imported.
On an uncaught exception the previous hook prints the traceback as always
(nothing is added to it: the hook is called after the stack has unwound),
then this module runs ``COMMAND explain --brief --python sys.executable
--sys-path ...`` with the traceback on stdin and prints its answer.  Any
failure of errdex (missing, crashing, slow) is one line after the traceback,
never instead of it.  ``ERRDEX_HOOK=0`` turns the hook off.

Inside errdex's own environment the module is importable as
``errdex.runtime.hook`` (``COMMAND`` is then this interpreter running
``errdex``): the pytest plugin, the IPython extension and
``errdex.runtime.install()`` use the same ``explain_text``.
"""

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # never true at run time: the hook imports nothing at start-up
    from collections.abc import Callable
    from types import ModuleType, TracebackType
    from typing import Any

COMMAND: "list[str] | None" = None  # the errdex command, written by ``errdex hook install``
VERSION = 1  # of this file's protocol with the CLI; ``errdex hook status`` compares it
TIMEOUT = 300.0  # seconds: the first error from a distribution indexes it
_OFF = ("0", "false", "no", "off")
_previous: "dict[str, Any]" = {}


def enabled() -> bool:
    """Whether the hook should act (``ERRDEX_HOOK=0`` turns it off, read at each exception)."""
    return os.environ.get("ERRDEX_HOOK", "1").strip().lower() not in _OFF


def command() -> "list[str]":
    """The errdex command line: the one recorded at install time, else this interpreter's errdex."""
    if COMMAND:
        return list(COMMAND)
    return [sys.executable, "-I", "-m", "errdex"]


def explain_text(text: "str", db: "str | None" = None) -> "str | None":
    """errdex's short explanation of a traceback (or message), or a one-line reason it has none.

    Returns None when errdex answered but knows nothing confident.  Never raises.
    """
    try:
        import subprocess

        paths = os.pathsep.join(p for p in sys.path if p and os.pathsep not in p)
        args = [*command(), "explain", "--brief", "--python", sys.executable, "--sys-path", paths]
        if db:
            args += ["--db", db]
        env = dict(os.environ)
        env["ERRDEX_HOOK"] = "0"  # errdex's own interpreter must not explain itself
        env.pop("PYTHONPATH", None)
        env.pop("PYTHONHOME", None)
        proc = subprocess.run(args, input=text.encode("utf-8", "replace"), capture_output=True, env=env,
                              timeout=TIMEOUT, check=False)
    except FileNotFoundError:
        return (f"errdex: the hook could not run errdex ({command()[0]} not found); reinstall errdex or run "
                f"'errdex hook uninstall --python {sys.executable}' (ERRDEX_HOOK=0 turns it off)")
    except Exception as exc:  # a timeout, no fork: the user's error matters more
        return f"errdex: could not explain this error ({type(exc).__name__}: {exc})"
    out = proc.stdout.decode("utf-8", "replace").rstrip()
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"errdex: could not explain this error ({err[-1] if err else f'exit {proc.returncode}'})"
    return out or None


def explain_exception(etype: "type[BaseException]", value: "BaseException", tb: "TracebackType | None",
                      db: "str | None" = None) -> "str | None":
    """``explain_text`` of the traceback that Python prints for this exception."""
    import traceback

    return explain_text("".join(traceback.format_exception(etype, value, tb)), db=db)


def _wanted(etype: "object") -> bool:
    return enabled() and isinstance(etype, type) and not issubclass(etype, (KeyboardInterrupt, SystemExit))


def _say(note: "str | None", stream: "Any" = None) -> None:
    if note:
        try:
            (stream or sys.stderr).write(note + "\n")
            (stream or sys.stderr).flush()
        except Exception:
            pass


def excepthook(etype: "type[BaseException]", value: "BaseException", tb: "TracebackType | None") -> None:
    """``sys.excepthook``: the previous hook prints the traceback, then errdex's note follows."""
    previous = _previous.get("sys") or sys.__excepthook__
    try:
        previous(etype, value, tb)
    finally:
        if _wanted(etype):
            _say(explain_exception(etype, value, tb))


def _threading_hook(args: "Any") -> None:
    previous = _previous.get("threading")
    try:
        if previous is not None:
            previous(args)
    finally:
        if _wanted(args.exc_type):
            _say(explain_exception(args.exc_type, args.exc_value, args.exc_traceback))


def _patch_threading(module: "ModuleType") -> None:
    current = getattr(module, "excepthook", None)
    if current is not None and current is not _threading_hook:
        _previous["threading"] = current
        setattr(module, "excepthook", _threading_hook)  # noqa: B010 (a module typed as ModuleType)


def _patch_ipython(module: "ModuleType") -> None:
    """Wrap ``InteractiveShell.showtraceback``: IPython prints its traceback, then errdex's note follows."""
    shell: Any = getattr(module, "InteractiveShell", None)
    original = getattr(shell, "showtraceback", None)
    if shell is None or original is None or getattr(original, "_errdex", False):
        return

    def showtraceback(self: "Any", *args: "Any", **kwargs: "Any") -> "Any":
        result = original(self, *args, **kwargs)
        try:
            exc_tuple = args[0] if args else kwargs.get("exc_tuple")
            if not (kwargs.get("exception_only") or (len(args) > 3 and args[3])):
                etype, value, tb = self._get_exc_info(exc_tuple)
                if _wanted(etype) and not issubclass(etype, SyntaxError):
                    _say(explain_exception(etype, value, tb), sys.stdout)
        except Exception:
            pass
        return result

    showtraceback._errdex = True  # type: ignore[attr-defined]
    shell.showtraceback = showtraceback


_PATCHES: "dict[str, Callable[[ModuleType], None]]" = {
    "threading": _patch_threading,
    "IPython.core.interactiveshell": _patch_ipython,
}


class _Loader:
    """The module's own loader, then the patch."""

    def __init__(self, loader: "Any", patch: "Callable[[ModuleType], None]") -> None:
        self.loader = loader
        self.patch = patch

    def create_module(self, spec: "Any") -> "Any":
        return self.loader.create_module(spec)

    def exec_module(self, module: "ModuleType") -> None:
        self.loader.exec_module(module)
        try:  # noqa: SIM105 (contextlib would be an import at start-up)
            self.patch(module)
        except Exception:
            pass

    def __getattr__(self, name: "str") -> "Any":
        return getattr(self.loader, name)


class _Finder:
    """On ``sys.meta_path``: patches the watched modules when they are imported, declines the rest."""

    def find_spec(self, name: "str", path: "Any" = None, target: "Any" = None) -> "Any":
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader, patch)
                return spec
        return None

    def invalidate_caches(self) -> None:
        pass


def install() -> None:
    """Chain after ``sys.excepthook``; patch threading and IPython now or when they are imported."""
    if sys.excepthook is not excepthook:
        _previous["sys"] = sys.excepthook
        sys.excepthook = excepthook
    pending = False
    for name, patch in _PATCHES.items():
        module = sys.modules.get(name)
        if module is not None:
            patch(module)
        else:
            pending = True
    if pending and not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


def uninstall() -> None:
    """Undo ``install`` in this process."""
    if sys.excepthook is excepthook:
        sys.excepthook = _previous.pop("sys", None) or sys.__excepthook__
    threading: Any = sys.modules.get("threading")
    if threading is not None and getattr(threading, "excepthook", None) is _threading_hook:
        threading.excepthook = _previous.pop("threading")
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _Finder)]


if __name__ == "_errdex_hook" and enabled():  # imported by the .pth line at start-up
    install()
