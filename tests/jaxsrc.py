"""The ``jax_source`` fixture, shared across stages: the real JAX 0.10.2 source.

A git checkout at tag jax-v0.10.2 (``$ERRDEX_JAX_SRC``, else ``/work/jax-src``) has
JAX's own tests as well; where there is none (CI's fresh machine), the jax==0.10.2
wheel is fetched with pip: the same library files, without the tests.
``ERRDEX_JAX_SRC=wheel`` forces the wheel.
Loaded as a plugin (``-p jaxsrc`` in pyproject.toml), so every test can ask for it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

JAX_TAG = "jax-v0.10.2"
JAX_TAG_COMMIT = "990e6a0b84138346e6a38785412f36356e0e5dc3"  # what the tag points to


@dataclass(frozen=True)
class JaxSource:
    path: Path
    is_checkout: bool  # True: a git checkout with JAX's tests; False: the unpacked wheel

    def index_args(self) -> list[str]:
        """``errdex index`` arguments that pin either form to the tag's commit."""
        pin = [] if self.is_checkout else ["--commit", JAX_TAG_COMMIT, "--ref", JAX_TAG]
        return [str(self.path), "--repo", "jax-ml/jax", *pin]


@pytest.fixture(scope="session")
def jax_source(tmp_path_factory: pytest.TempPathFactory) -> JaxSource:
    wanted = os.environ.get("ERRDEX_JAX_SRC", "/work/jax-src")
    if wanted != "wheel" and (Path(wanted) / "jax").is_dir():
        return JaxSource(Path(wanted), True)
    dl = tmp_path_factory.mktemp("jax-wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "download", "jax==0.10.2", "--no-deps", "--only-binary",
                           ":all:", "-q", "-d", str(dl)], capture_output=True, text=True, timeout=600)
    wheels = list(dl.glob("jax-0.10.2-*.whl"))
    if not wheels:
        reason = f"cannot download jax==0.10.2: {proc.stderr.strip()[-300:]}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("jax-src")
    with zipfile.ZipFile(wheels[0]) as z:
        z.extractall(root)
    return JaxSource(root, False)
