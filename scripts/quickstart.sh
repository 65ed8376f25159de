#!/usr/bin/env bash
# The README's first command: set up, index jax 0.10.2 from PyPI into the
# default catalog, print the summary, analyse it, then serve the pages on
# http://127.0.0.1:8000 (ERRDEX_NO_SERVE=1 stops before serving; PORT changes the port).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/errdex index "pypi:jax==0.10.2"
.venv/bin/errdex analyze
if [ "${ERRDEX_NO_SERVE:-}" = "1" ]; then exit 0; fi
echo "serving on http://127.0.0.1:${PORT:-8000} (Ctrl-C to stop)"
exec .venv/bin/errdex serve --host 127.0.0.1 --port "${PORT:-8000}"
