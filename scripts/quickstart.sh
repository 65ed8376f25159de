#!/usr/bin/env bash
# The README's first command: set up, index jax 0.10.2 from PyPI into the
# default catalog, print the summary, then serve the pages on 127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/errdex index "pypi:jax==0.10.2"
if .venv/bin/errdex --help | grep -q ' analyze '; then .venv/bin/errdex analyze; fi
if [ "${ERRDEX_NO_SERVE:-}" = "1" ]; then exit 0; fi
if .venv/bin/errdex --help | grep -q ' serve '; then exec .venv/bin/errdex serve --host 127.0.0.1 --port "${PORT:-8000}"; fi
