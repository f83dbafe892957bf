#!/usr/bin/env bash
# Creates (once) the virtualenv the Python subscriber runs in, with temporalio from PyPI as pinned in
# requirements.txt, and prints its python. HITL_PYTHON_VENV sets where (default .cache/python-venv).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv="${HITL_PYTHON_VENV:-.cache/python-venv}"
stamp="$venv/.requirements"
if ! cmp -s scripts/python/requirements.txt "$stamp" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/python/requirements.txt >&2
  cp scripts/python/requirements.txt "$stamp"
fi
echo "$(cd "$venv" && pwd)/bin/python"
