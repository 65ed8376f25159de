#!/usr/bin/env bash
# Create .venv with a Python >= 3.12 and install errdex with its test extras.
# Idempotent: a second run only re-installs when pyproject.toml changed.
set -euo pipefail
cd "$(dirname "$0")/.."

find_python() {
  local candidates=("${ERRDEX_PYTHON:-}" python3.13 python3.12 python3 python)
  if command -v pyenv >/dev/null 2>&1; then
    local root; root=$(pyenv root)
    for v in "$root"/versions/3.13* "$root"/versions/3.12* "$root"/versions/3.14*; do
      [ -x "$v/bin/python3" ] && candidates+=("$v/bin/python3")
    done
  fi
  for c in "${candidates[@]}"; do
    [ -n "$c" ] || continue
    local exe; exe=$(command -v "$c" 2>/dev/null) || continue
    if "$exe" -c 'import sys; raise SystemExit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
      echo "$exe"; return 0
    fi
  done
  return 1
}

if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import sys; raise SystemExit(0 if sys.version_info >= (3, 12) else 1)'; then
  py=$(find_python) || { echo "errdex needs Python 3.12 or newer; none found (set ERRDEX_PYTHON)" >&2; exit 1; }
  echo "setup: creating .venv with $py ($("$py" --version))"
  rm -rf .venv
  "$py" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi

stamp=.venv/.errdex-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "setup: installing errdex and its test dependencies"
  .venv/bin/python -m pip install -q -e '.[test]'
  touch "$stamp"
fi

# Bytecode for errdex itself, as a regular (non-editable) pip install writes at install time:
# with PYTHONDONTWRITEBYTECODE set (as on CI machines) every run would otherwise compile
# errdex's modules again, a fifth of a second of each command's start-up.
.venv/bin/python -m compileall -q src/errdex
