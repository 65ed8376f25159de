"""From a distribution's metadata to the GitHub repo and tag its files came from.

Source links must resolve, so a wheel of ``jax 0.10.2`` has to become
``jax-ml/jax`` at ``jax-v0.10.2``.  The repo comes from the ``Project-URL`` /
``Home-page`` fields; the tag from a small table of projects whose tags do not
follow the common ``v{version}`` form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from errdex.sources.git import repo_from_url

# Per-repo tag formats; everything else is tagged ``v{version}``.  Keys are
# lower-case ``owner/name``.
TAG_FORMATS: Mapping[str, str] = {
    "jax-ml/jax": "jax-v{version}",
    "google/jax": "jax-v{version}",
    "benjaminp/six": "{version}",
    "python-attrs/attrs": "{version}",
    "pypa/packaging": "{version}",
    "pytest-dev/pytest": "{version}",
    "numpy/numpy": "v{version}",
}
DEFAULT_TAG_FORMAT = "v{version}"

# Project-URL labels in the order we trust them to name the code's home.
_LABEL_ORDER = ("source", "source code", "repository", "code", "github", "homepage", "home")


@dataclass(frozen=True, slots=True)
class DistMeta:
    """The few metadata fields a snapshot needs."""

    name: str
    version: str | None
    repo: str | None
    repo_field: str = ""  # where ``repo`` came from: "Project-URL 'Source'", "Home-page"


def tag_for(repo: str | None, version: str) -> str:
    """The git tag that ``version`` of ``repo`` was released from (by the table, else ``v{version}``)."""
    fmt = TAG_FORMATS.get((repo or "").lower(), DEFAULT_TAG_FORMAT)
    return fmt.format(version=version)


def repo_from_metadata(urls: list[tuple[str, str]], home_page: str | None) -> str | None:
    """``owner/name`` from labelled project URLs (``[(label, url)]``) and the home page."""
    return repo_and_field(urls, home_page)[0]


def repo_and_field(urls: list[tuple[str, str]], home_page: str | None) -> tuple[str | None, str]:
    """``owner/name`` from labelled project URLs and the home page, and the field it came from
    (an error about the name names that field)."""
    ranked: list[tuple[int, str, str]] = []
    for label, url in urls:
        repo = repo_from_url(url)
        if not repo:
            continue
        key = label.strip().lower()
        rank = _LABEL_ORDER.index(key) if key in _LABEL_ORDER else len(_LABEL_ORDER)
        # Issue trackers and docs on github.com still name the right repo.
        ranked.append((rank, repo, f"Project-URL {label.strip()!r}"))
    if home_page:
        repo = repo_from_url(home_page)
        if repo:
            ranked.append((len(_LABEL_ORDER) + 1, repo, "Home-page"))
    ranked.sort(key=lambda r: r[0])
    return (ranked[0][1], ranked[0][2]) if ranked else (None, "")


def parse_metadata_text(text: str) -> DistMeta:
    """Parse a ``METADATA`` / ``PKG-INFO`` file (RFC 822 headers)."""
    import email.parser  # here: a directory or a git checkout never needs it
    import email.policy

    msg = email.parser.Parser(policy=email.policy.compat32).parsestr(text, headersonly=True)
    urls: list[tuple[str, str]] = []
    for value in msg.get_all("Project-URL") or []:
        label, _, url = str(value).partition(",")
        urls.append((label, url.strip()))
    home = msg.get("Home-page") or msg.get("Home-Page")
    repo, field = repo_and_field(urls, str(home) if home else None)
    return DistMeta(
        name=str(msg.get("Name") or "").strip(),
        version=(str(msg.get("Version")).strip() or None) if msg.get("Version") else None,
        repo=repo, repo_field=field,
    )


def find_metadata(root: Path) -> DistMeta | None:
    """Metadata of the distribution unpacked at ``root``: a wheel's ``*.dist-info/METADATA``
    or an sdist's top-level ``PKG-INFO``."""
    candidates = [*sorted(root.glob("*.dist-info/METADATA")), root / "PKG-INFO"]
    candidates += sorted(root.glob("*.egg-info/PKG-INFO")) + sorted(root.glob("src/*.egg-info/PKG-INFO"))
    for path in candidates:
        if path.is_file() and not path.is_symlink():
            try:
                return parse_metadata_text(path.read_text(encoding="utf-8", errors="replace"))
            except (OSError, ValueError):
                continue
    return None
