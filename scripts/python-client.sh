#!/usr/bin/env bash
# The Python Temporal client the seed-client tests drive (test/python): a venv in .cache/python-client with the
# pinned `temporalio` from PyPI. Does nothing when the venv already has exactly what test/python/requirements.txt pins.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.cache/python-client
if cmp -s test/python/requirements.txt "$venv/requirements.txt" && "$venv/bin/python" -c 'import temporalio' 2>/dev/null; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r test/python/requirements.txt
cp test/python/requirements.txt "$venv/requirements.txt"
