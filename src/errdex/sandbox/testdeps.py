"""The test dependencies a project declares, read from files (never by running its build).

Where projects say what their tests need, in the order we read them:
- extras named ``test``/``tests``/``testing`` (``Provides-Extra`` in the
  wheel's METADATA or the sdist's PKG-INFO; ``[project.optional-dependencies]``
  or setup.cfg ``[options.extras_require]`` in a source tree);
- PEP 735 ``[dependency-groups]`` named like that (with ``include-group``);
- requirements files: ``requirements/test*.txt``, ``requirements-test*.txt``,
  ``test-requirements.txt``, ``tests/requirements.txt`` … (``-r`` followed,
  ``-e``/options/URLs dropped: only named requirements are installed).
"""

from __future__ import annotations

import configparser
import re
import tomllib
from collections.abc import Iterable
from email.parser import HeaderParser
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

TEST_NAMES = ("test", "tests", "testing")
_REQ_FILES = (
    "requirements/tests.txt", "requirements/test.txt", "requirements/testing.txt",
    "requirements/tests.in", "requirements/test.in",
    "requirements-test.txt", "requirements-tests.txt", "requirements_test.txt", "test-requirements.txt",
    "tests-requirements.txt", "requirements-dev.txt", "dev-requirements.txt",
    "tests/requirements.txt", "test/requirements.txt", "ci/requirements-test.txt", "build/test-requirements.txt",
)


def _valid(lines: Iterable[str], own: str) -> list[str]:
    """Named requirements only (the project itself excluded: it is pinned separately)."""
    out: list[str] = []
    for line in lines:
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if req.url or _norm(req.name) == _norm(own):
            continue
        out.append(str(req))
    return out


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def extras_from_metadata(text: str) -> tuple[list[str], list[str]]:
    """(test extras provided, Requires-Dist lines of those extras) from METADATA/PKG-INFO text."""
    msg = HeaderParser().parsestr(text)
    provided = [e for e in (msg.get_all("Provides-Extra") or []) if e.lower() in TEST_NAMES]
    wanted: list[str] = []
    for line in msg.get_all("Requires-Dist") or []:
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if req.marker is not None and any(
            req.marker.evaluate({"extra": e}) for e in provided
        ) and not req.marker.evaluate({"extra": "__errdex_none__"}):
            req.marker = None
            wanted.append(str(req))
    return provided, wanted


def _groups(data: dict[str, object], name: str, seen: set[str]) -> list[str]:
    groups = data.get("dependency-groups")
    if not isinstance(groups, dict) or name in seen:
        return []
    seen.add(name)
    out: list[str] = []
    for item in groups.get(name) or []:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict) and isinstance(item.get("include-group"), str):
            out += _groups(data, item["include-group"], seen)
    return out


def _requirements_file(path: Path, depth: int = 0) -> list[str]:
    out: list[str] = []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("-r ", "--requirement ")) and depth < 5:
            target = (path.parent / line.split(None, 1)[1].strip()).resolve()
            if target.is_file() and path.parent.parent in target.parents:
                out += _requirements_file(target, depth + 1)
            continue
        if line.startswith("-"):
            continue
        out.append(line)
    return out


def declared_test_requirements(root: Path | None, metadata: str = "", own: str = "") -> tuple[str, ...]:
    """Every test requirement the project declares (deduplicated by name, first one kept)."""
    found: list[str] = []
    if metadata:
        found += extras_from_metadata(metadata)[1]
    if root is not None and root.is_dir():
        pyproject = root / "pyproject.toml"
        if pyproject.is_file():
            try:
                data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
                data = {}
            project = data.get("project") if isinstance(data.get("project"), dict) else {}
            extras = project.get("optional-dependencies") if isinstance(project, dict) else None
            if isinstance(extras, dict):
                for name in TEST_NAMES:
                    found += [r for r in extras.get(name) or [] if isinstance(r, str)]
            for name in (*TEST_NAMES, "dev"):
                found += _groups(data, name, set())
        setup_cfg = root / "setup.cfg"
        if setup_cfg.is_file():
            cp = configparser.ConfigParser()
            try:
                cp.read(setup_cfg, encoding="utf-8")
                for name in TEST_NAMES:
                    if cp.has_option("options.extras_require", name):
                        found += cp.get("options.extras_require", name).splitlines()
            except configparser.Error:
                pass
        for rel in _REQ_FILES:
            if (root / rel).is_file():
                found += _requirements_file(root / rel)
                break
    out: list[str] = []
    names: set[str] = set()
    for req in _valid(found, own):
        name = _norm(Requirement(req).name)
        if name not in names:
            names.add(name)
            out.append(req)
    return tuple(out)


def unpinned(requirements: Iterable[str]) -> tuple[str, ...]:
    """The same requirements without versions (when a project's pins do not fit this Python)."""
    out = []
    for r in requirements:
        req = Requirement(r)
        extras = f"[{','.join(sorted(req.extras))}]" if req.extras else ""
        marker = f"; {req.marker}" if req.marker else ""
        out.append(f"{req.name}{extras}{marker}")
    return tuple(out)
