#!/usr/bin/env bash
# The README's second command: lint, type-check and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export ERRDEX_STRICT=1
echo "== ruff"; .venv/bin/ruff check src tests bench
echo "== mypy"; .venv/bin/mypy
echo "== pytest"; exec .venv/bin/pytest -n "${ERRDEX_TEST_JOBS:-2}" "$@"
