"""``errdex hook install|uninstall|status``: the presentation of ``runtime/installer.py``."""

from __future__ import annotations

import json
import sys

from errdex.model import to_json
from errdex.runtime.installer import HookError, HookStatus, default_python, install, status, uninstall


def run_hook(action: str, *, python: str | None, json_out: bool) -> int:
    """Exit 0 when done (status: whatever the state), 1 when the interpreter cannot be used."""
    actions = {"install": install, "uninstall": uninstall, "status": status}
    try:
        st = actions[action](python or default_python())
    except HookError as exc:
        sys.stderr.write(f"errdex: {exc}\n")
        return 1
    if json_out:
        sys.stdout.write(json.dumps(to_json(st), indent=2) + "\n")
    else:
        sys.stdout.write(render(action, st))
    return 0


def render(action: str, st: HookStatus) -> str:
    head = {"install": "installed", "uninstall": "removed", "status": "installed" if st.installed else "not installed"}
    lines = [f"errdex hook {head[action] if action != 'uninstall' or not st.installed else 'still present'}:"
             f" {st.python} (Python {st.version})", f"  site-packages: {st.site_packages}"]
    if st.installed:
        lines.append(f"  runs: {' '.join(st.command)}" + ("" if st.command_found else "  (not found)"))
        lines.append(f"  files: {st.module}, {st.pth}")
        lines.append("  ERRDEX_HOOK=0 turns it off for one run")
    lines.extend(f"  note: {m}" for m in st.messages)
    return "\n".join(lines) + "\n"
