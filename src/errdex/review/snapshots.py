"""Naming a snapshot the way a maintainer does: ``owner/name@ref``, a version, a tag or a commit."""

from __future__ import annotations

import re

from errdex.catalog.base import Catalog
from errdex.model import Snapshot

_SPEC = re.compile(r"^(?P<repo>[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100})@(?P<ref>[A-Za-z0-9_.+/-]{1,200})$")


class SnapshotNotFound(LookupError):
    """The catalog has no snapshot of that name; the message lists the ones it has."""


def parse_spec(spec: str) -> tuple[str, str]:
    """``owner/name@ref`` -> (repo, ref); ``ValueError`` with the expected shape otherwise."""
    m = _SPEC.match(spec.strip())
    if m is None:
        raise ValueError(f"{spec!r} is not OWNER/NAME@REF (a version, tag or commit: jax-ml/jax@0.10.2)")
    return m["repo"], m["ref"]


def names_of(snap: Snapshot) -> tuple[str, ...]:
    """Every name the snapshot answers to: pin, ref, version (with and without a leading v), commit."""
    out = [snap.pin]
    for value in (snap.ref, snap.version, snap.commit):
        if value:
            out.append(value)
    for value in list(out):
        if value.startswith("v") and value[1:2].isdigit():
            out.append(value[1:])
    return tuple(dict.fromkeys(out))


def resolve(catalog: Catalog, repo: str, ref: str) -> Snapshot:
    """The snapshot of ``repo`` named ``ref``: exact names first, then a commit prefix of 7+ characters."""
    snaps = catalog.snapshots(repo)
    for snap in snaps:
        if ref in names_of(snap) or (snap.version and ref.lstrip("v") == snap.version):
            return snap
    if len(ref) >= 7 and re.fullmatch(r"[0-9a-f]+", ref):
        hits = [s for s in snaps if s.commit and s.commit.startswith(ref)]
        if len(hits) == 1:
            return hits[0]
    have = ", ".join(s.version or s.ref or s.short_pin for s in snaps) or "none"
    raise SnapshotNotFound(f"no snapshot {repo}@{ref} in the catalog (indexed versions of {repo}: {have})")


def label(snap: Snapshot) -> str:
    """What a user calls the snapshot: its version, else its ref, else its short commit."""
    return snap.version or snap.ref or snap.short_pin
