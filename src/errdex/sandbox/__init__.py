"""The sandbox: the only place errdex runs a library's code (DESIGN.md, docs/observe.md).

Two halves, both small and reused by ``observe`` and ``prove``:

Environments (``envs.py``)::

    from errdex.sandbox import EnvSpec, ensure_environment
    env = ensure_environment(EnvSpec(name="click", version="8.1.8", artifact=Path("click-8.1.8.whl"),
                                     test_requirements=declared_test_requirements(sdist_root)))
    env.python          # the environment's interpreter (run it; never import from it)
    env.site_packages   # where the library is installed (to tell its frames from others)

One cached environment per (library, version, Python), built with ``uv``
(venv + pip without it), holding exactly the indexed artifact, pytest and
the project's declared test dependencies (``testdeps.py``).  The Python is
found like ``scripts/setup.sh`` finds one (``pythons.py``); ``EnvSpec.python``
overrides.

The limited runner (``runner.py``)::

    from errdex.sandbox import Limits, RunRequest, run
    result = run(RunRequest(argv=(str(env.python), "-m", "pytest", "test_x.py"),
                            limits=Limits(timeout_s=300), path=(str(env.bin),), scratch=my_dir))
    result.returncode, result.timed_out, result.stdout, result.isolation.network

One subprocess per unit of work: wall-clock timeout (the whole process tree
killed), RLIMIT_AS, a process-count limit (pids cgroup as root, RLIMIT_NPROC
otherwise), scratch HOME/TMPDIR/working directory, an allow-listed
environment (no credentials), and no network (new network namespace).
``RunResult.isolation`` says what the platform granted.
"""

from __future__ import annotations

from errdex.sandbox.envs import EnvError, Environment, EnvSpec, ensure_environment, env_identity, locked
from errdex.sandbox.pythons import PythonInfo, PythonNotFound, find_python
from errdex.sandbox.runner import Isolation, Limits, RunRequest, RunResult, run, scrub_env
from errdex.sandbox.testdeps import declared_test_requirements

__all__ = [
    "EnvError", "EnvSpec", "Environment", "Isolation", "Limits", "PythonInfo", "PythonNotFound",
    "RunRequest", "RunResult", "declared_test_requirements", "ensure_environment", "env_identity",
    "find_python", "locked", "run",
    "scrub_env",
]
